"""Charts drawn straight from the kit model (units, research, movement, markers, dice tables).

Each chart is a reportlab Table sized to a given width; every number in it is read from the model, so
editing the YAML changes every aid that shows the chart. Aid files name charts by id (CHARTS).
"""
from __future__ import annotations

from typing import Callable
from xml.sax.saxutils import escape

from reportlab.platypus import Flowable

from generator.aids.sources import CHART_NAMES
from generator.aids.styles import CONDENSED_BOLD, SHADE, grid_table, para
from generator.model import Kit
from games.space_empires_4x.model import Level, Technology, Unit
from generator.problems import BuildError

DASH = "\u2013"


def roll_range(roll) -> str:
    low, high = roll
    return str(low) if low == high else f"{low}{DASH}{high}"


def att_def(unit: Unit) -> str:
    return f"{unit.attack}{DASH}{unit.defence}" if unit.combat else DASH


def _or_dash(value) -> str:
    return DASH if value is None else str(value)


def _scaled(fractions: list[float], width: float) -> list[float]:
    total = sum(fractions)
    return [width * f / total for f in fractions]


def requirement_text(kit: Kit, unit: Unit) -> str:
    return ", ".join(f"{kit.technologies[t].name} {lvl}" for t, lvl in unit.requires) or DASH


def unit_rows(kit: Kit, rules: str) -> list[Unit]:
    return [u for u in kit.units.values() if u.rules == rules]


def units_chart(kit: Kit, width: float) -> Flowable:
    """Class, attack-defence, hull, cost, Ship Size, maintenance, counter limit; basic and advanced apart."""
    header = ["Unit", "Class", "Att\u2013Def", "Hull", "Cost", "Ship Size", "Upkeep", "Limit", "Also needs"]
    rows, shaded = [[para(h, "cell_bold") for h in header]], []
    for rules in ("basic", "advanced"):
        rows.append([para(f"<b>{rules.capitalize()} rules</b>")] + [""] * (len(header) - 1))
        shaded.append(len(rows) - 1)
        for unit in unit_rows(kit, rules):
            rows.append([para(f"<b>{escape(unit.code)}</b> {escape(unit.name)}"), _or_dash(unit.cls), att_def(unit), unit.hull,
                         unit.cost, _or_dash(unit.ship_size), unit.maintenance, unit.counters,
                         para(escape(requirement_text(kit, unit)))])
    table = grid_table(rows, _scaled([23, 6, 8, 5.5, 5.5, 6.5, 8.5, 6, 16], width), shaded_rows=shaded)
    table.setStyle([("SPAN", (0, r), (-1, r)) for r in shaded] + [("ALIGN", (1, 1), (-2, -1), "CENTER")])
    return table


def level_fact(level: Level) -> str:
    """The structured fact a level carries, in a few characters (moves, shipyard hull, fighter values)."""
    if level.moves:
        return "/".join(str(m) for m in level.moves)
    if level.hull_capacity is not None:
        return f"hull {level.hull_capacity:g}"
    if level.fighter:
        return f"{level.fighter[0]}{DASH}{level.fighter[1]}"
    return ""


def levels_text(tech: Technology) -> str:
    """'2: 10 · 3: 15 ...': each level above the start with its cost (and its fact, if any)."""
    parts = [f'<font color="#777777">{tech.start}</font>']
    for level in tech.upgrades:
        fact = level_fact(level)
        parts.append(f"<b>{level.level}</b>:\u00a0{level.cost}" + (f"\u00a0({fact})" if fact else ""))
    return " \u00b7 ".join(parts)


def research_chart(kit: Kit, width: float) -> Flowable:
    """Every technology: start level, each further level with its cost in CP, and what it does."""
    header = ["Technology", "Levels: cost in CP", "Effect"]
    rows, shaded = [[para(h, "cell_bold") for h in header]], []
    for tech in kit.technologies.values():
        if tech.rules != "basic":
            shaded.append(len(rows))
        rows.append([para(f"<b>{escape(tech.name)}</b>"), para(levels_text(tech)), para(escape(tech.summary))])
    return grid_table(rows, _scaled([17, 31, 52], width), shaded_rows=shaded)


def movement_chart(kit: Kit, width: float) -> Flowable:
    """Hexes a ship may move in each turn of a round, at each Movement level, with the level's cost."""
    levels = kit.technologies["movement"].levels
    turns = len(levels[0].moves or ())
    rows = [["Movement level"] + [lv.level for lv in levels], ["Cost in CP"] + [_or_dash(lv.cost) for lv in levels]]
    rows += [[f"Hexes in turn {t + 1}"] + [(lv.moves or ())[t] for lv in levels] for t in range(turns)]
    table = grid_table(rows, _scaled([28] + [10] * len(levels), width))
    table.setStyle([("ALIGN", (1, 0), (-1, -1), "CENTER"), ("BACKGROUND", (0, 0), (0, -1), SHADE),
                    ("FONTNAME", (0, 0), (0, -1), CONDENSED_BOLD)])
    return table


def markers_chart(kit: Kit, width: float) -> Flowable:
    """Every system marker kind: how many are in each mix, what it affects, whether it stays, its effect."""
    header = ["Marker (affects)", "Home system", "Deep space", "After", "Effect"]
    rows, shaded = [[para(h, "cell_bold") for h in header]], []
    for kind in kit.marker_kinds.values():
        if kind.rules != "basic":
            shaded.append(len(rows))
        name = f"<b>{escape(kind.name)}</b><br/><font size=6>{escape(', '.join(kind.affects))}</font>"
        rows.append([para(name), para(mix_text(kit.home_system, kind), "cell_centre"),
                     para(mix_text(kit.deep_space, kind), "cell_centre"), kind.after, para(escape(kind.effect))])
    table = grid_table(rows, _scaled([17.5, 9, 9, 9.5, 55], width), shaded_rows=shaded)
    table.setStyle([("ALIGN", (3, 1), (3, -1), "CENTER")])
    return table


def mix_text(mix, kind) -> str:
    """How many of a kind a mix holds: '11 (5 CP)', '6 (#1, #2)', '8', or a dash."""
    entries = [e for e in (*mix.entries, *mix.face_up) if e.kind == kind.id]
    count = sum(e.count for e in entries)
    values = [e.value for e in entries if e.value is not None]
    if not count:
        return DASH
    if kind.value == "cp" and values:
        return "<br/>".join(f"{e.count}<br/>({e.value} CP)" for e in entries)
    if kind.value == "number" and values:
        numbers = f"#{min(values)}{DASH}#{max(values)}" if len(values) > 1 else f"#{values[0]}"
        return f"{count}<br/>({numbers})"
    return str(count)


def black_hole_chart(kit: Kit, width: float) -> Flowable:
    rows = [[f"d{kit.game.combat['die']} roll", "Each unit that enters"]]
    rows += [[roll_range(r["roll"]), r["result"]] for r in kit.game.tables["black_hole"]]
    table = grid_table(rows, _scaled([30, 70], width))
    table.setStyle([("ALIGN", (0, 0), (0, -1), "CENTER")])
    return table


def space_wreck_chart(kit: Kit, width: float) -> Flowable:
    rows = [[f"d{kit.game.combat['die']} roll", "Free level of", "Its top level"]]
    for row in kit.game.tables["space_wreck"]:
        tech = kit.technologies[row["technology"]]
        rows.append([roll_range(row["roll"]), tech.name, tech.max])
    table = grid_table(rows, _scaled([25, 45, 30], width))
    table.setStyle([("ALIGN", (0, 0), (0, -1), "CENTER"), ("ALIGN", (2, 0), (2, -1), "CENTER")])
    return table


def doomsday_chart(kit: Kit, width: float) -> Flowable:
    """Combat values of every marker that fights (the Doomsday Machine), from its `stats`."""
    fighters = [k for k in kit.marker_kinds.values() if k.stats]
    order = ["class", "attack", "defence", "hull", "shots"]
    keys = sorted({key for k in fighters for key in k.stats}, key=lambda key: (key not in order, order.index(key)
                                                                                if key in order else 0, key))
    rows = [["Marker"] + [key.capitalize() for key in keys]]
    rows += [[k.name] + [k.stats.get(key, DASH) for key in keys] for k in fighters]
    table = grid_table(rows, _scaled([40] + [12] * len(keys), width))
    table.setStyle([("ALIGN", (1, 0), (-1, -1), "CENTER")])
    return table


def scenarios_chart(kit: Kit, width: float) -> Flowable:
    """Each scenario with its player count and the deep-space markers (and hexes) it uses."""
    rows = [["Scenario", "Players", "Deep-space markers"]]
    rows += [[escape(s.name), s.players, s.deep_space_markers] for s in kit.game.scenarios]
    table = grid_table(rows, _scaled([50, 20, 30], width))
    table.setStyle([("ALIGN", (1, 0), (-1, -1), "CENTER")])
    return table


CHARTS: dict[str, Callable[[Kit, float], Flowable]] = {
    "units": units_chart,
    "research": research_chart,
    "movement": movement_chart,
    "markers": markers_chart,
    "black_hole": black_hole_chart,
    "space_wreck": space_wreck_chart,
    "doomsday": doomsday_chart,
    "scenarios": scenarios_chart,
}
if tuple(CHARTS) != CHART_NAMES:  # validation names the charts without importing reportlab: keep both in step
    raise RuntimeError(f"generator.aids.sources.CHART_NAMES {CHART_NAMES} differs from the charts {tuple(CHARTS)}")


def chart(name: str, kit: Kit, width: float, where: str) -> Flowable:
    if name not in CHARTS:
        raise BuildError(f"{where}: unknown chart {name!r} (known: {', '.join(CHARTS)})")
    return CHARTS[name](kit, width)
