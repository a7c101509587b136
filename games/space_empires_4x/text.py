"""The names Space Empires 4X's texts and charts quote (`{{ units.CA.cost }}` instead of a number, so a text
can never disagree with the counters), with the facts that would be awkward in Jinja computed once: what a
technology level gives, how many of a marker kind each mix holds, the kit's contents. The rendering is the
core's, as every kit's texts (sandboxed, strict, located)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace as Names

from markupsafe import Markup, escape

from pnpgen.documents.rulings import SOURCE as RULINGS_FILE
from pnpgen.documents.rulings import ruling_names
from pnpgen.model import Kit

DASH = "\u2013"
DEEP_MARKERS = "deep-space-markers"


def kit_context(kit: Kit) -> dict:
    """Everything a text may quote: the model's tables by id, a few derived facts and the kit's rulings."""
    game = kit.game
    rulings = ruling_names(kit, lambda words: render_text(kit, words, kit.root / RULINGS_FILE))
    return rulings | {"source_note": lambda chart: source_note(kit, chart)} | {
        "kit": kit, "units": Names(**kit.units), "techs": Names(**kit.technologies),
        "markers": Names(**kit.marker_kinds), "counters": Names(**kit.counters), "home_system": kit.home_system, "deep_space": kit.deep_space, "game": game,
        "economy": game.economy, "combat": game.combat, "sequence": game.sequence, "tables": game.tables,
        "scenarios": game.scenarios, "homeworld_steps": game.homeworld_steps(), "colours": kit.colours,
        "players": Names(min=kit.players[0], max=kit.players[1]),
        # derived lists the aid texts quote: unit names by how they move, colony steps from big to gone
        "moving": _by_movement(kit), "colony_steps": list(reversed(game.economy["colony_growth"])),
        "marker_list": list(kit.marker_kinds.values())}


def source_note(kit: Kit, chart: str) -> str:
    """'Source: ...': where a chart's numbers come from (data/rules.yaml `sources:`), so a number taken from
    the published game rather than the rules summaries is never printed without saying so."""
    notes = ((kit.data or {}).get("rules") or {}).get("sources") or {}
    if not notes.get(chart):
        raise ValueError(f"no source note for chart {chart!r} in {RULINGS_FILE} sources "
                         f"(notes: {', '.join(c for c, note in notes.items() if note) or 'none'})")
    return said("Source: {note}", note=render_text(kit, notes[chart], kit.root / RULINGS_FILE))


def said(words: str, **values) -> str:
    """The module's own words in the edition's language, `{name}` placeholders filled: the kit's chapters
    mark these msgids with _() (rules/02-the-kit.md) so `pnpgen translate` extracts them."""
    from pnpgen.i18n.translator import words as translated
    return translated(words).format(**values)


def _by_movement(kit: Kit) -> dict[str, list[str]]:
    by_movement: dict[str, list[str]] = {}
    for unit in kit.units.values():
        by_movement.setdefault(unit.movement, []).append(unit.name)
    return by_movement


def render_text(kit: Kit, source: str, origin: Path | str, extra: dict | None = None, markup: bool = False) -> str:
    """One text with the kit's names (the core's sandbox); `origin` names its file for errors; `markup`
    escapes quoted data for reportlab."""
    from pnpgen.documents.context import render_string
    return render_string(source, origin, kit_context(kit) | (extra or {}), kit.root, markup)


def chart_context(kit: Kit) -> dict:
    """The names the kit's charts (charts.yaml) may use: its texts' names plus the facts below."""
    return kit_context(kit) | {
        "level_fact": level_fact, "mix_text": mix_text, "marker_mix": marker_mix(kit),
        "home_hexes": kit.home_system.hexes, "inventory": inventory(kit), "group_counters": group_counters(kit)}


def level_fact(level) -> str:
    """The structured fact a level carries, in a few characters (moves, shipyard hull, fighter values)."""
    if level.moves:
        return "/".join(str(m) for m in level.moves)
    if level.hull_capacity is not None:
        return said("hull {n}", n=f"{level.hull_capacity:g}")
    return f"{level.fighter[0]}{DASH}{level.fighter[1]}" if level.fighter else ""


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
            rows.append({"name": marker_label(kind, value, " ({} CP)"), "home": home.get((kind.id, value), 0),
                         "deep": deep.get((kind.id, value), 0), "rules": kind.rules})
    return rows


def _mix_counts(mix) -> Counter:
    counts = Counter()
    for entry in (*mix.face_up, *mix.entries):
        counts[(entry.kind, entry.value)] += entry.count
    return counts


def marker_label(kind, value, cp: str = " {} CP") -> str:
    """'Minerals 5 CP', 'Warp Point 1', 'Planet': a marker as lists and captions name it."""
    if value is None:
        return kind.name
    return kind.name + (cp.format(value) if kind.value == "cp" else f" {value}")


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
    for unit in (u for u in kit.units.values() if u.groups):
        codes.append(unit.code)
        rows += [{"unit": unit, "number": n, "stripe": len(codes) % 2 == 0} for n in unit.group_numbers]
    return rows

