"""The closed set of piece shapes (square, rect with corner radius, circle, hex flat or pointy) and sizes.

A shape knows its bounding box in points, its cut path and its clip path; layout and drawing ask it, so a
new kind of piece is a table and a template, never new Python.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from pnpgen.lengths import mm, parse_length

SHAPES = ("square", "rect", "circle", "hex")
ORIENTATIONS = ("flat", "pointy")
ACROSS = ("flats", "corners")  # how a hex's size is measured: between opposite sides, or opposite corners
CARD_PRESETS = {  # width x height in mm
    "poker": (63.5, 88.9), "bridge": (57.0, 89.0), "mini": (44.0, 63.0), "euro": (59.0, 92.0),
    "tarot": (70.0, 120.0), "square": (70.0, 70.0),
}
PAIR = re.compile(r"\s*(\d+(?:\.\d+)?(?:/\d+)?)\s*x\s*(\d+(?:\.\d+)?(?:/\d+)?)\s*(pt|in|mm|cm)\s*")
MAX_SIDE = parse_length("20in")  # larger than any piece a sheet of paper holds: a typo, not a piece


@dataclass(frozen=True)
class Shape:
    """A piece outline: `w` x `h` points (the bounding box), `radius` for rects, `orientation` for hexes."""

    kind: str
    w: float
    h: float
    radius: float = 0.0
    orientation: str = "flat"

    def outline(self, x: float = 0.0, y: float = 0.0, grow: float = 0.0) -> list[tuple]:
        """The cut path at (x, y) as drawing commands: ('rect'|'round'|'circle'|'poly', numbers...)."""
        w, h = self.w + 2 * grow, self.h + 2 * grow
        x, y = x - grow, y - grow
        if self.kind == "circle":
            return [("circle", x + w / 2, y + h / 2, w / 2)]
        if self.kind == "hex":
            return [("poly", hex_corners(x + w / 2, y + h / 2, w, h, self.orientation))]
        if self.kind == "rect" and self.radius > 0:
            return [("round", x, y, w, h, self.radius + grow)]
        return [("rect", x, y, w, h)]

    def svg_clip(self, bleed_mm: float = 0.0) -> str:
        """An SVG element (in mm, piece origin) that clips art to the shape; rects clip to the bleed box."""
        w, h, b = mm(self.w), mm(self.h), bleed_mm
        if self.kind == "circle":
            return f'<circle cx="{_f(w / 2)}" cy="{_f(h / 2)}" r="{_f(w / 2 + b)}"/>'
        if self.kind == "hex":
            grow_w, grow_h = (2 * b * 2 / math.sqrt(3), 2 * b) if self.orientation == "flat" else \
                (2 * b, 2 * b * 2 / math.sqrt(3))
            points = hex_corners(w / 2, h / 2, w + grow_w, h + grow_h, self.orientation)
            return '<polygon points="' + " ".join(f"{_f(px)},{_f(py)}" for px, py in points) + '"/>'
        radius = "" if b or not self.radius else f' rx="{_f(mm(self.radius))}"'
        return f'<rect x="{_f(-b)}" y="{_f(-b)}" width="{_f(w + 2 * b)}" height="{_f(h + 2 * b)}"{radius}/>'


def _f(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def hex_corners(cx: float, cy: float, w: float, h: float, orientation: str) -> list[tuple[float, float]]:
    """The six corners of a hex whose bounding box is w x h, clockwise from the left (flat) or top (pointy)."""
    if orientation == "flat":
        return [(cx - w / 2, cy), (cx - w / 4, cy - h / 2), (cx + w / 4, cy - h / 2),
                (cx + w / 2, cy), (cx + w / 4, cy + h / 2), (cx - w / 4, cy + h / 2)]
    return [(cx, cy - h / 2), (cx + w / 2, cy - h / 4), (cx + w / 2, cy + h / 4),
            (cx, cy + h / 2), (cx - w / 2, cy + h / 4), (cx - w / 2, cy - h / 4)]


def parse_size(kind: str, size: str, orientation: str = "flat", across: str = "flats") -> tuple[float, float]:
    """The bounding box in points of a shape given its `size` text (a hex's measured `across` its flats or
    its corners); ValueError with a reason otherwise."""
    text = str(size).strip()
    if kind == "rect":
        if text in CARD_PRESETS:
            w, h = CARD_PRESETS[text]
            return _checked(parse_length(f"{w}mm"), parse_length(f"{h}mm"))
        match = PAIR.fullmatch(text)
        if not match:
            presets = ", ".join(CARD_PRESETS)
            raise ValueError(f"a rect size is WIDTHxHEIGHT with a unit (63x88mm, 2.5x3.5in) or one of {presets}")
        unit = match.group(3)
        return _checked(parse_length(match.group(1) + unit), parse_length(match.group(2) + unit))
    side = parse_length(text)
    if kind == "hex":
        side = side * math.sqrt(3) / 2 if across == "corners" else side
        across_corners = side * 2 / math.sqrt(3)
        return _checked(across_corners, side) if orientation == "flat" else _checked(side, across_corners)
    return _checked(side, side)


def _checked(w: float, h: float) -> tuple[float, float]:
    if w <= 0 or h <= 0:
        raise ValueError("a piece must be larger than zero")
    if w > MAX_SIDE or h > MAX_SIDE:
        raise ValueError(f"a piece of {mm(w):.0f} x {mm(h):.0f} mm is larger than any sheet (at most 20 in a side)")
    return w, h
