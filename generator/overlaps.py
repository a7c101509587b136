"""Which boxes overlap, in time that grows with the boxes, not their pairs: each box is filed under the
squares of a grid it meets and held only against the boxes already filed there. A chart's row of a hundred
cells, or a page of thousands of lines, then costs a few comparisons a box instead of one per other box."""
from __future__ import annotations

import math

OVERLAP = 0.25   # points two ink boxes (or a line and a box) may share: what antialiasing and rounding leave
CELL = 36.0      # points: the side of a grid square (a few lines of text tall)


def overlapping_pairs(boxes, margin: float = OVERLAP, cell: float = CELL) -> list[tuple[int, int, tuple]]:
    """(i, j, shared box), i < j, in that order, of every two boxes (x0, y0, x1, y1) whose overlap is more
    than `margin` both ways: the same pairs, in the same order, as holding each box against every later one."""
    grid: dict = {}
    found = []
    for index, box in enumerate(boxes):
        x0, y0, x1, y1 = box
        if x1 - x0 <= margin or y1 - y0 <= margin:
            continue   # too thin to share more than the margin with anything
        squares = [(column, row) for column in range(math.floor(x0 / cell), math.floor(x1 / cell) + 1)
                   for row in range(math.floor(y0 / cell), math.floor(y1 / cell) + 1)]
        seen = set()
        for square in squares:
            filed = grid.setdefault(square, [])
            for other in filed:
                if other in seen:
                    continue
                seen.add(other)
                shared = _shared(boxes[other], box)
                if shared[2] - shared[0] > margin and shared[3] - shared[1] > margin:
                    found.append((other, index, shared))
            filed.append(index)
    found.sort(key=lambda pair: (pair[0], pair[1]))
    return found


def _shared(first, second) -> tuple:
    return (max(first[0], second[0]), max(first[1], second[1]), min(first[2], second[2]), min(first[3], second[3]))


class BoxGrid:
    """Boxes (x0, y0, x1, y1) filed under the grid squares they meet, grown by `grow`: the boxes that may
    hold a point are looked up in its square, not searched for among every box of the page. Squares are
    filed only within `within` (the region points will be asked for), so a box as big as the sheet costs
    the squares of that region, not of its own extent."""

    def __init__(self, boxes, within: tuple, grow: float = 0.0, cell: float = CELL):
        self.cell, self.squares = cell, {}
        low = (math.floor(within[0] / cell), math.floor(within[1] / cell))
        high = (math.floor(within[2] / cell), math.floor(within[3] / cell))
        for index, (x0, y0, x1, y1) in enumerate(boxes):
            columns = range(max(low[0], math.floor((x0 - grow) / cell)), min(high[0], math.floor((x1 + grow) / cell)) + 1)
            rows = range(max(low[1], math.floor((y0 - grow) / cell)), min(high[1], math.floor((y1 + grow) / cell)) + 1)
            for column in columns:
                for row in rows:
                    self.squares.setdefault((column, row), []).append(index)

    def at(self, x: float, y: float) -> list[int]:
        """The indices, in filing order, of the boxes that may hold (x, y) (every box that does is among them)."""
        return self.squares.get((math.floor(x / self.cell), math.floor(y / self.cell)), [])
