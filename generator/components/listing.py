"""`pnpgen list`: the box's component list, table by table and row by row, then its boards and hex maps."""
from __future__ import annotations

from collections import Counter

from pnpgen.lengths import mm


def describe_shape(table) -> str:
    s = table.shape
    if s.kind == "rect":
        corner = f", {mm(s.radius):g} mm corners" if s.radius else ""
        return f"cards {mm(s.w):.1f} x {mm(s.h):.1f} mm{corner}"
    if s.kind == "hex":
        across = mm(min(s.w, s.h))
        return f"{s.orientation} hexes {across:.1f} mm across the flats"
    if s.kind == "circle":
        return f"round tokens {mm(s.w):.1f} mm"
    return f"squares {mm(s.w):.1f} mm"


def component_listing(kit) -> list[str]:
    """Every table row by row, then the boards and hex maps, then the totals."""
    out = _tables(kit) if kit.tables else []
    for board in kit.boards:
        times = f" x {len(kit.colours)} (one per colour)" if board.per_colour else ""
        out.append(f"Board: {board.name}{times}, {board.w:g} x {board.h:g} mm")
    for hexmap in kit.maps:
        out.append(f"Hex map: {hexmap.title} ({hexmap.id}), {len(hexmap.regions)} hexes on a {hexmap.cols} x "
                   f"{hexmap.rows} grid, {hexmap.orientation}-topped, {mm(hexmap.hex_size):.1f} mm across the flats")
    if kit.tables:
        groups = Counter(p.group for p in kit.component_pieces)
        out.append(f"Total: {len(kit.component_pieces)} pieces in {len(groups)} print files"
                   f" ({', '.join(f'{g} {n}' for g, n in groups.items())})")
    return out


def _tables(kit) -> list[str]:
    pieces = kit.component_pieces
    out = []
    for table in kit.tables.values():
        own = [p for p in pieces if p.ref.split(".", 1)[0] == table.id]
        each = f" ({len(own) // len(kit.colours)} per colour)" if table.per_colour and kit.colours else ""
        out.append(f"{table.name}: {len(own)}{each}, {describe_shape(table)}, "
                   f"{'two-sided' if table.back or any(r.values.get('back') for r in table.rows) else 'one-sided'}")
        counts = Counter(p.ref.split(".", 1)[1] for p in own)  # copies of a row, numbered or not
        for row in table.rows:
            if counts[row.label]:
                name = row.values.get("name")
                shown = f"{row.label} {name}" if name not in (None, "", row.label) else row.label
                out.append(f"  {shown[:44]:<44}{counts[row.label]:>6}")
                counts[row.label] = 0
        out.append("")
    return out
