"""What a tile seam must not cut, read from the drawing's own record, and the check that no seam cuts one.

The map's art records every glyph it draws (pnpgen.render.pdf.Art.texts); glyphs on one line make a run, and
runs (and a legend's swatches) that nearly touch make one block: a legend entry with its swatch and its
second line, a title with its subtitle. The tile planner (pnpgen.maps.tiling) moves a seam clear of every
block; `crossings` names any block a seam still cuts (one wider than a tile can move round), with its place.
"""
from __future__ import annotations

from pnpgen.overlaps import overlapping_pairs
from pnpgen.preflight import runs

JOIN = 3.0   # points: runs (and swatches) closer than twice this make one block that prints whole


def text_blocks(texts, swatches=()) -> list[tuple[tuple, str]]:
    """(box, text) of each block of the drawing: its runs of text and the given boxes (x0, y0, x1, y1, map
    points; a legend's swatches), joined where they come within 2 * JOIN points of each other."""
    items = [(_union(box for _, _, box in run), "".join(glyph for _, glyph, _ in run)) for run in runs(texts, 0.0)]
    items += [(tuple(box), "") for box in swatches]
    grown = [(x0 - JOIN, y0 - JOIN, x1 + JOIN, y1 + JOIN) for (x0, y0, x1, y1), _ in items]
    parent = list(range(len(items)))
    for a, b, _ in overlapping_pairs(grown, margin=0.0):
        parent[_root(parent, b)] = _root(parent, a)
    groups: dict[int, list[int]] = {}
    for index in range(len(items)):
        groups.setdefault(_root(parent, index), []).append(index)
    return [(_union(items[i][0] for i in members), " ".join(t for i in members if (t := items[i][1].strip())))
            for members in groups.values()]


def crossings(plan, blocks) -> list[str]:
    """A finding for each block a seam of `plan` cuts: the text, where it sits and which seam, in map points.
    A row's vertical seams cut only what that row keeps in view (staggered rows have their own)."""
    (_, ys), found = plan.seams, []
    rows = list(zip((0.0, *ys), (*ys, float("inf"))))
    for box, text in blocks:
        x0, y0, x1, y1 = box
        for row, xs in enumerate(plan.row_seams or (plan.seams[0],) * len(rows)):
            if y1 <= rows[row][0] or y0 >= rows[row][1]:
                continue
            for index, x in enumerate(xs, 1):
                if x0 < x < x1:
                    where = f"tile columns {index} and {index + 1}" + (f" of row {chr(ord('A') + row)}"
                                                                         if _staggered(plan) else "")
                    found.append(f"text {_short(text)!r} at ({x0:.0f}, {y0:.0f})-({x1:.0f}, {y1:.0f}) pt crosses the "
                                 f"seam between {where} (x = {x:.1f} pt)")
        for index, y in enumerate(ys):
            if y0 < y < y1:
                rows_named = f"{chr(ord('A') + index)} and {chr(ord('B') + index)}"
                found.append(f"text {_short(text)!r} at ({x0:.0f}, {y0:.0f})-({x1:.0f}, {y1:.0f}) pt crosses the "
                             f"seam between tile rows {rows_named} (y = {y:.1f} pt)")
    return _unique(found)


def _staggered(plan) -> bool:
    return len(set(plan.row_seams)) > 1


def _unique(found: list[str]) -> list[str]:
    """Each finding once: a block in two rows' view (beside the seam between them) meets the same seam once."""
    return list(dict.fromkeys(found))


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _root(parent: list[int], index: int) -> int:
    while parent[index] != index:
        parent[index] = parent[parent[index]]
        index = parent[index]
    return index


def _union(boxes) -> tuple:
    boxes = list(boxes)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
