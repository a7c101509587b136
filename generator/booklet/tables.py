"""Booklet tables as plain rows, straight from the kit data (no layout here, no number typed by hand)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from generator.booklet.chapters import home_hexes, unit_label
from games.space_empires_4x.inventory import Piece, inventory_lines
from generator.model import Kit
from games.space_empires_4x.model import Unit
from generator.render.templates import format_number


@dataclass(frozen=True)
class TableData:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...]      # relative column widths
    numeric_from: int = 1          # columns from this index on are centred
    total_row: bool = False        # the last row is a total, printed bold


def _dash(value) -> str:
    return "–" if value is None else format_number(value)


def _rolls(roll) -> str:
    low, high = roll
    return str(low) if low == high else f"{low}–{high}"


def unit_rows(kit: Kit, rules: str) -> TableData:
    rows = tuple((unit_label(u), _dash(u.cls), _attack_defence(u), str(u.hull), str(u.cost),
                  _dash(u.ship_size), str(u.maintenance), str(u.counters))
                 for u in kit.units.values() if u.rules == rules)
    return TableData(("Unit", "Class", "Att–Def", "Hull", "Cost", "Size", "Upkeep", "Limit"), rows,
                     (3.2, 1.1, 1.3, 1, 1, 1, 1.3, 1.1))


def _attack_defence(unit: Unit) -> str:
    return "–" if unit.attack is None else f"{unit.attack}–{unit.defence}"


def research_rows(kit: Kit, rules: str) -> TableData:
    rows = []
    for tech in kit.technologies.values():
        if tech.rules == rules:
            costs = ", ".join(f"{lv.level}: {lv.cost}" for lv in tech.upgrades)
            rows.append((tech.name, str(tech.start), costs))
    return TableData(("Technology", "Start", "Next levels (level: CP)"), tuple(rows), (2.2, 1, 4.6))


def movement_rows(kit: Kit) -> TableData:
    turns = kit.game.sequence["turns_per_round"]
    rows = tuple((str(lv.level), *(str(m) for m in lv.moves), _dash(lv.cost))
                 for lv in kit.technologies["movement"].levels)
    header = ("Level", *(f"Turn {t}" for t in range(1, turns + 1)), "Cost")
    return TableData(header, rows, (1.2,) + (1,) * turns + (1,))


def shipyard_rows(kit: Kit) -> TableData:
    rows = tuple((str(lv.level), format_number(lv.hull_capacity), _dash(lv.cost))
                 for lv in kit.technologies["shipyard"].levels)
    return TableData(("Level", "Hull per shipyard", "Cost"), rows, (1, 2, 1))


def fighter_rows(kit: Kit) -> TableData:
    rows = tuple((str(lv.level), f"{lv.fighter[0]}–{lv.fighter[1]}", _dash(lv.cost))
                 for lv in kit.technologies["fighters"].upgrades)
    return TableData(("Fighters level", "Att–Def", "Cost"), rows, (1.6, 1, 1))


def marker_mix_rows(kit: Kit) -> TableData:
    """Each marker kind: how many in every Home System and in Deep Space."""
    home, deep = _mix_counts(kit.home_system), _mix_counts(kit.deep_space)
    rows = []
    for kind in kit.marker_kinds.values():
        for value in sorted({v for k, v in (*home, *deep) if k == kind.id}, key=lambda v: (v is None, v)):
            name = kind.name + (f" ({value} CP)" if kind.value == "cp" and value is not None else
                                f" {value}" if value is not None else "")
            rows.append((name, str(home.get((kind.id, value), 0)), str(deep.get((kind.id, value), 0)),
                         "advanced" if kind.rules == "advanced" else "basic"))
    rows.append(("Total", str(kit.home_system.count + sum(e.count for e in kit.home_system.face_up)),
                 str(kit.deep_space.count), ""))
    return TableData(("Marker", "Home System", "Deep Space", "Rules"), tuple(rows), (3, 1.4, 1.4, 1.3),
                     total_row=True)


def _mix_counts(mix) -> Counter:
    counts = Counter()
    for entry in (*mix.face_up, *mix.entries):
        counts[(entry.kind, entry.value)] += entry.count
    return counts


def scenario_rows(kit: Kit) -> TableData:
    rows = tuple((s.name, str(s.players), str(home_hexes(kit)), str(s.deep_space_markers)) for s in kit.game.scenarios)
    return TableData(("Scenario", "Players", "Home hexes", "Deep Space hexes"), rows, (2.5, 1, 1.3, 1.7))


def wreck_rows(kit: Kit) -> TableData:
    rows = tuple((_rolls(r["roll"]), kit.technologies[r["technology"]].name) for r in kit.game.tables["space_wreck"])
    return TableData((f"d{kit.game.combat['die']}", "Technology raised one level"), rows, (1, 3))


def black_hole_rows(kit: Kit) -> TableData:
    rows = tuple((_rolls(r["roll"]), r["result"].capitalize()) for r in kit.game.tables["black_hole"])
    return TableData((f"d{kit.game.combat['die']}", "The unit ..."), rows, (1, 3))


def inventory_rows(kit: Kit, pieces: list[Piece]) -> TableData:
    """The kit's contents: one row per distinct item, per colour and in total."""
    rows, grand = [], 0
    for line in inventory_lines(kit, pieces):
        each = set(line.per_colour.values())
        per_colour = str(each.pop()) if len(each) == 1 else "–" if not each else "varies"
        where = "deep space" if line.neutral and line.kind == "system-marker" else \
            "shared" if line.neutral else "per colour"
        rows.append((line.name, where, per_colour, str(line.total)))
        grand += line.total
    rows.append(("Total pieces", "", "", str(grand)))
    return TableData(("Item", "Set", "Each colour", "Total"), tuple(rows), (3.4, 1.6, 1.3, 1), numeric_from=2,
                     total_row=True)


def colour_rows(kit: Kit) -> TableData:
    """Each player colour with the two cues that are not colour, for players who tell colours apart badly."""
    rows = tuple((c.name, c.emblem, c.pattern) for c in kit.colours)
    return TableData(("Colour", "Emblem", "Pattern"), rows, (1, 1, 1))


def kit_tables(kit: Kit, pieces: list[Piece]) -> dict:
    """Every table a chapter may ask for with {{ table('name') }}, built lazily by name."""
    return {
        "inventory": lambda: inventory_rows(kit, pieces),
        "colours": lambda: colour_rows(kit),
        "units": lambda: unit_rows(kit, "basic"),
        "advanced-units": lambda: unit_rows(kit, "advanced"),
        "research": lambda: research_rows(kit, "basic"),
        "advanced-research": lambda: research_rows(kit, "advanced"),
        "movement": lambda: movement_rows(kit),
        "shipyard": lambda: shipyard_rows(kit),
        "fighters": lambda: fighter_rows(kit),
        "markers": lambda: marker_mix_rows(kit),
        "scenarios": lambda: scenario_rows(kit),
        "space-wreck": lambda: wreck_rows(kit),
        "black-hole": lambda: black_hole_rows(kit),
    }

