"""Space Empires 4X's own derived numbers for its charts: the one place the chart context knows that game.

Its charts are declared in data (data/space-empires-4x/charts.yaml) over the names its texts already see
(games/space_empires_4x/text.py, generator/aids/sources.py); what would be awkward in Jinja is computed here, once:
what a technology level gives, how many of a marker kind each mix holds, the mixes by marker value, and
the kit's contents.
"""
from __future__ import annotations

from collections import Counter

from markupsafe import Markup, escape

from pnpgen.model import Kit
from pnpgen.games.space_empires_4x.load import DEEP_MARKERS
from pnpgen.games.space_empires_4x.model import Level

DASH = "\u2013"


def home_hexes(kit: Kit) -> int:
    """Hexes in one Home System: one per marker, the face-up Homeworld included."""
    return kit.home_system.count + sum(e.count for e in kit.home_system.face_up)


def level_fact(level: Level) -> str:
    """The structured fact a level carries, in a few characters (moves, shipyard hull, fighter values)."""
    if level.moves:
        return "/".join(str(m) for m in level.moves)
    if level.hull_capacity is not None:
        return f"hull {level.hull_capacity:g}"
    if level.fighter:
        return f"{level.fighter[0]}{DASH}{level.fighter[1]}"
    return ""


def mix_text(mix, kind) -> Markup:
    """How many of a kind a mix holds: '11 (5 CP)', '6 (#1–#6)', '8', or a dash (lines broken for a cell)."""
    entries = [e for e in (*mix.entries, *mix.face_up) if e.kind == kind.id]
    count = sum(e.count for e in entries)
    values = [e.value for e in entries if e.value is not None]
    if not count:
        return Markup(DASH)
    if kind.value == "cp" and values:
        return Markup("<br/>").join(Markup("{}<br/>({} CP)").format(e.count, e.value) for e in entries)
    if kind.value == "number" and values:
        numbers = f"#{min(values)}{DASH}#{max(values)}" if len(values) > 1 else f"#{values[0]}"
        return Markup("{}<br/>({})").format(count, numbers)
    return Markup(escape(str(count)))


def marker_mix(kit: Kit) -> list[dict]:
    """Each marker kind and value: how many in every Home System and in Deep Space."""
    home, deep = _mix_counts(kit.home_system), _mix_counts(kit.deep_space)
    rows = []
    for kind in kit.marker_kinds.values():
        for value in sorted({v for k, v in (*home, *deep) if k == kind.id}, key=lambda v: (v is None, v)):
            name = kind.name + (f" ({value} CP)" if kind.value == "cp" and value is not None else
                                f" {value}" if value is not None else "")
            rows.append({"name": name, "home": home.get((kind.id, value), 0), "deep": deep.get((kind.id, value), 0),
                         "rules": kind.rules})
    return rows


def _mix_counts(mix) -> Counter:
    counts = Counter()
    for entry in (*mix.face_up, *mix.entries):
        counts[(entry.kind, entry.value)] += entry.count
    return counts


def marker_label(kind, value) -> str:
    """'Minerals 5 CP', 'Warp Point 1', 'Planet': a marker as lists and captions name it."""
    if value is None:
        return kind.name
    return f"{kind.name} {value} CP" if kind.value == "cp" else f"{kind.name} {value}"


def row_name(kit: Kit, row: dict) -> str:
    """How the contents chart names a counter table's row: a marker by its kind and value, a unit by its
    name, a counter by its name and the values of its two sides ('Colony 3 / 5'), else its name or id."""
    if "kind" in row and row["kind"] in kit.marker_kinds:
        return marker_label(kit.marker_kinds[row["kind"]], row.get("value"))
    name = row.get("name") or row.get("id") or ""
    if row.get("value") is None or "groups" in row:
        return name
    back = row.get("back_value", row["value"])
    return f"{name} {row['value']}" + (f" / {back}" if back != row["value"] else "")


def inventory(kit: Kit) -> list[dict]:
    """The kit's contents: one row per row of its counter tables, in print order, with where it belongs
    (each colour's, deep space's or shared), how many each colour gets and how many in all."""
    rows = []
    for table in kit.tables.values():
        colours = len(kit.colours) if table.per_colour else 1
        where = "per colour" if table.per_colour else "deep space" if table.id == DEEP_MARKERS else "shared"
        for row in table.rows:
            qty = row.values["qty"]
            rows.append({"name": row_name(kit, row.values), "set": where,
                         "each": str(qty) if table.per_colour else DASH, "total": qty * colours})
    return rows


def group_counters(kit: Kit) -> list[dict]:
    """One row per numbered group counter (the ship technology sheet's rows), every second unit type
    striped so a row is easy to follow across the page."""
    rows, codes = [], []
    for unit in kit.units.values():
        if not unit.groups:
            continue
        codes.append(unit.code)
        rows += [{"unit": unit, "number": n, "stripe": len(codes) % 2 == 0} for n in unit.group_numbers]
    return rows


def chart_context(kit: Kit) -> dict:
    """The names the kit's charts may use: its texts' names plus the facts above (the contents chart reads
    the counter tables)."""
    from pnpgen.games.space_empires_4x.text import aid_names
    from pnpgen.games.space_empires_4x.text import kit_context

    return kit_context(kit) | aid_names(kit) | {
        "level_fact": level_fact, "mix_text": mix_text, "marker_mix": marker_mix(kit),
        "home_hexes": home_hexes(kit), "inventory": inventory(kit), "group_counters": group_counters(kit)}
