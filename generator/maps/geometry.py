"""Hex maths for offset grids: centres, corners, neighbours, distances and printed coordinates.

Two orientations, as board wargames print them:
- "flat": flat-topped hexes in columns; odd columns (0-based) sit half a hex lower ("odd-q").
- "pointy": pointy-topped hexes in rows; odd rows (0-based) sit half a hex to the right ("odd-r").
`flats` is the distance across the flats, which is also the distance between neighbouring centres.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)
AXIAL_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ORIENTATIONS = ("flat", "pointy")


@dataclass(frozen=True)
class HexGrid:
    """A grid of `cols` x `rows` offset hexes of a given orientation and size (points across the flats)."""

    orientation: str
    flats: float
    cols: int
    rows: int

    @property
    def radius(self) -> float:
        """Centre to corner, which equals the side length: flats / sqrt(3)."""
        return self.flats / SQRT3

    def centre(self, col: int, row: int) -> tuple[float, float]:
        """Centre of hex (col, row), 0-based, with the grid's top-left corner at (0, 0)."""
        r, f = self.radius, self.flats
        if self.orientation == "flat":
            return r + 1.5 * r * col, f / 2 + f * row + (f / 2 if col % 2 else 0.0)
        return f / 2 + f * col + (f / 2 if row % 2 else 0.0), r + 1.5 * r * row

    def corners(self, col: int, row: int) -> list[tuple[float, float]]:
        """The six corners, clockwise on the page from the right-most (flat) or top-right (pointy) one."""
        cx, cy = self.centre(col, row)
        start = 0 if self.orientation == "flat" else 30
        angles = (math.radians(start + 60 * k) for k in range(6))
        return [(cx + self.radius * math.cos(a), cy + self.radius * math.sin(a)) for a in angles]

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the whole grid's bounding box."""
        r, f = self.radius, self.flats
        if self.orientation == "flat":
            return r * (1.5 * self.cols + 0.5), f * self.rows + (f / 2 if self.cols > 1 else 0.0)
        return f * self.cols + (f / 2 if self.rows > 1 else 0.0), r * (1.5 * self.rows + 0.5)

    def to_axial(self, col: int, row: int) -> tuple[int, int]:
        if self.orientation == "flat":
            return col, row - (col - (col & 1)) // 2
        return col - (row - (row & 1)) // 2, row

    def from_axial(self, q: int, r: int) -> tuple[int, int]:
        if self.orientation == "flat":
            return q, r + (q - (q & 1)) // 2
        return q + (r - (r & 1)) // 2, r

    def neighbours(self, col: int, row: int) -> list[tuple[int, int]]:
        """The up-to-six neighbours inside the grid."""
        q, r = self.to_axial(col, row)
        out = (self.from_axial(q + dq, r + dr) for dq, dr in AXIAL_DIRECTIONS)
        return [(c, w) for c, w in out if 0 <= c < self.cols and 0 <= w < self.rows]

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Steps between two hexes, as a ship moves."""
        (aq, ar), (bq, br) = self.to_axial(*a), self.to_axial(*b)
        dq, dr = aq - bq, ar - br
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_label(col: int, row: int) -> str:
    """The printed coordinate: column then row, 1-based, two digits each ("0704")."""
    return f"{col + 1:02d}{row + 1:02d}"
