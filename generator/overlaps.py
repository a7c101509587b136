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
