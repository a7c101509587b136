"""`pnpgen list`: the kit's component inventory, laid out the way a box's component list reads."""
from __future__ import annotations

from pnpgen.games.space_empires_4x.inventory import DEEP_SPACE, InventoryLine, Piece, inventory_lines
from pnpgen.model import Kit

SECTIONS = (
    ("Units, per colour", lambda l, k: l.kind == "unit"),
    ("Home-system markers, per colour", lambda l, k: l.kind == "system-marker" and l.per_colour),
    ("Deep-space markers", lambda l, k: l.kind == "system-marker" and not l.per_colour),
    ("Other counters, per colour", lambda l, k: l.kind == "counter" and l.per_colour),
    ("Neutral counters", lambda l, k: l.kind == "counter" and not l.per_colour),
)


def inventory_text(kit: Kit, pieces: list[Piece]) -> str:
    lines = inventory_lines(kit, pieces)
    colours = ", ".join(c.name for c in kit.colours)
    out = [f"{kit.title}: {kit.subtitle}", f"Players {kit.players[0]}-{kit.players[1]}; colours {colours}", ""]
    for title, belongs in SECTIONS:
        section = [line for line in lines if belongs(line, kit)]
        if section:
            out += _section(kit, title, section)
    out += _totals(kit, pieces)
    return "\n".join(out) + "\n"


def _section(kit: Kit, title: str, lines: list[InventoryLine]) -> list[str]:
    per_colour = bool(lines[0].per_colour)
    head = f"  {'':<44}{'each':>6}{'total':>7}" if per_colour else f"  {'':<44}{'':>6}{'total':>7}"
    rows = [title, head]
    for line in lines:
        each = max(line.per_colour.values()) if per_colour else ""
        rows.append(f"  {_describe(kit, line):<44}{each!s:>6}{line.total:>7}")
    each_sum = sum(max(l.per_colour.values()) for l in lines) if per_colour else ""
    rows.append(f"  {'= all':<44}{each_sum!s:>6}{sum(l.total for l in lines):>7}")
    return rows + [""]


def _describe(kit: Kit, line: InventoryLine) -> str:
    advanced = " (advanced)" if _rules(kit, line.ref) == "advanced" else ""
    if line.kind == "unit":
        unit = kit.units[line.ref.split(".", 1)[1]]
        numbers = unit.group_numbers
        groups = f", groups {numbers[0]}-{numbers[-1]}" if unit.groups and numbers else ""
        code = f" ({unit.code})" if unit.code != unit.name else ""
        return f"{unit.name}{code}{groups}{advanced}"
    return f"{line.name}{advanced}"


def _rules(kit: Kit, ref: str) -> str:
    section, key = ref.split(".", 1)
    table = {"units": kit.units, "markers": kit.marker_kinds, "counters": kit.counters}[section]
    return table[key].rules


def _totals(kit: Kit, pieces: list[Piece]) -> list[str]:
    per_group = {}
    for piece in pieces:
        per_group[piece.group] = per_group.get(piece.group, 0) + 1
    parts = [f"{per_group.get(c.id, 0)} {c.name.lower()}" for c in kit.colours]
    parts.append(f"{per_group.get(DEEP_SPACE, 0)} deep space")
    parts.append(f"{per_group.get('neutral', 0)} neutral")
    return [f"Total: {len(pieces)} counters ({', '.join(parts)})"]
