"""SVG path data (a `d` attribute) turned into cairo path calls, for the SVG subset drawer (pnpgen.render.svg_ops).

A map holds tens of thousands of path commands, most of them a hex's or a star's absolute moves and lines:
those are read with one regular expression split and turned into calls by one list comprehension. Any other
data is cut into commands with one regular expression, each command's numbers converted in one go and its
groups drawn by a loop of its own, never token by token. The calls draw what cairosvg draws for the same
data (tests/test_svg_path.py compares the pixels).
"""
from __future__ import annotations

import math
import re

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
LETTERS = "MmZzLlHhVvCcSsQqTtAa"
COMMAND = re.compile(f"([{LETTERS}])([^{LETTERS}]*)")   # a command letter and the text up to the next one
FIRST_COMMAND = re.compile(f"[{LETTERS}]")
LINE_COMMAND = re.compile(rf"([ML])\s*({NUMBER.pattern})[\s,]+({NUMBER.pattern})|([Zz])")  # an absolute move or
# line with one pair, or a close: split() by it, path data of nothing else leaves only white space between
NUMBERS_TAKEN = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7}


class PathDataError(ValueError):
    """Path data outside what SVG allows (numbers before the first command, a command's numbers cut short)."""


def path_calls(d: str, ops: list) -> None:
    """Append the cairo calls that draw the path data `d` to `ops`; PathDataError for data SVG refuses."""
    if not polygon_calls(d, ops):
        command_calls(d, ops)


def command_calls(d: str, ops: list) -> None:
    """Any path data, command by command (each command's numbers converted in one go)."""
    first = FIRST_COMMAND.search(d)
    if NUMBER.search(d, 0, first.start() if first else len(d)):
        raise PathDataError("path data starts with a number")
    pen = Pen(ops)
    for command, text in COMMAND.findall(d):
        upper = command.upper()
        if upper == "Z":
            if NUMBER.search(text):
                raise PathDataError("numbers after a close path")
            pen.close()
            continue
        numbers = list(map(float, NUMBER.findall(text)))
        if len(numbers) % NUMBERS_TAKEN[upper]:
            raise PathDataError(f"path data near {command}")
        if numbers:
            DRAW[upper](pen, numbers, command != upper)


def polygon_calls(d: str, ops: list) -> bool:
    """Path data of absolute moves and lines only, one pair each (a map's hex grid, a star) drawn straight from
    one split of the data, with no current point kept (nothing in it is relative to one); False, and nothing
    drawn, for any other data. (Each number + 0.0, as the general reader adds an absolute command's origin:
    a "-0" is drawn as 0.)"""
    parts = LINE_COMMAND.split(d)
    if "".join(parts[0::5]).strip():
        return False
    ops += [["line_to", float(x) + 0.0, float(y) + 0.0] if command == "L" else
            ["move_to", float(x) + 0.0, float(y) + 0.0] if command == "M" else ["close_path"]
            for command, x, y in zip(parts[1::5], parts[2::5], parts[3::5])]
    return True


class Pen:
    """Where a path has got to: the current point, its subpath's start, the last control point (a smooth
    curve reflects it), and the list the calls go to."""

    __slots__ = ("ops", "x", "y", "start_x", "start_y", "control")

    def __init__(self, ops: list):
        self.ops = ops
        self.x = self.y = self.start_x = self.start_y = 0.0
        self.control = None

    def close(self) -> None:
        self.ops.append(["close_path"])
        self.x, self.y, self.control = self.start_x, self.start_y, None

    def move(self, v: list, relative: bool) -> None:
        """A move to the first pair; the pairs after it are lines (SVG's implicit line-tos)."""
        x, y = (self.x, self.y) if relative else (0.0, 0.0)
        x, y = v[0] + x, v[1] + y
        self.start_x, self.start_y = x, y
        self.ops.append(["move_to", x, y])
        self.x, self.y, self.control = x, y, None
        if len(v) > 2:
            self.line(v[2:], relative)

    def line(self, v: list, relative: bool) -> None:
        x, y, append = self.x, self.y, self.ops.append
        for i in range(0, len(v), 2):
            if relative:
                x, y = v[i] + x, v[i + 1] + y
            else:
                x, y = v[i] + 0.0, v[i + 1] + 0.0
            append(["line_to", x, y])
        self.x, self.y, self.control = x, y, None

    def horizontal(self, v: list, relative: bool) -> None:
        x, y, append = self.x, self.y, self.ops.append
        for value in v:
            x = value + (x if relative else 0.0)
            append(["line_to", x, y])
        self.x, self.control = x, None

    def vertical(self, v: list, relative: bool) -> None:
        x, y, append = self.x, self.y, self.ops.append
        for value in v:
            y = value + (y if relative else 0.0)
            append(["line_to", x, y])
        self.y, self.control = y, None

    def cubic(self, v: list, relative: bool) -> None:
        for i in range(0, len(v), 6):
            dx, dy = (self.x, self.y) if relative else (0.0, 0.0)
            self._curve(v[i] + dx, v[i + 1] + dy, v[i + 2] + dx, v[i + 3] + dy, v[i + 4] + dx, v[i + 5] + dy)

    def smooth(self, v: list, relative: bool) -> None:
        for i in range(0, len(v), 4):
            x, y, control = self.x, self.y, self.control
            x1, y1 = (2 * x - control[0], 2 * y - control[1]) if control else (x, y)
            dx, dy = (x, y) if relative else (0.0, 0.0)
            self._curve(x1, y1, v[i] + dx, v[i + 1] + dy, v[i + 2] + dx, v[i + 3] + dy)

    def _curve(self, x1, y1, x2, y2, ex, ey) -> None:
        self.ops.append(["curve_to", x1, y1, x2, y2, ex, ey])
        self.control, self.x, self.y = (x2, y2), ex, ey

    def quadratic(self, v: list, relative: bool) -> None:
        for i in range(0, len(v), 4):
            dx, dy = (self.x, self.y) if relative else (0.0, 0.0)
            self._quadratic(v[i] + dx, v[i + 1] + dy, v[i + 2] + dx, v[i + 3] + dy)

    def smooth_quadratic(self, v: list, relative: bool) -> None:
        for i in range(0, len(v), 2):
            x, y, control = self.x, self.y, self.control
            qx, qy = (2 * x - control[0], 2 * y - control[1]) if control else (x, y)
            dx, dy = (x, y) if relative else (0.0, 0.0)
            self._quadratic(qx, qy, v[i] + dx, v[i + 1] + dy)

    def _quadratic(self, qx, qy, ex, ey) -> None:
        """A quadratic Bézier as the cubic cairo draws (its controls two thirds of the way to the quadratic's)."""
        x, y = self.x, self.y
        self.ops.append(["curve_to", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                         ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey])
        self.control, self.x, self.y = (qx, qy), ex, ey

    def arcs(self, v: list, relative: bool) -> None:
        for i in range(0, len(v), 7):
            dx, dy = (self.x, self.y) if relative else (0.0, 0.0)
            ex, ey = v[i + 5] + dx, v[i + 6] + dy
            arc(self.ops, self.x, self.y, v[i], v[i + 1], v[i + 2], v[i + 3] != 0, v[i + 4] != 0, ex, ey)
            self.x, self.y, self.control = ex, ey, None


DRAW = {"M": Pen.move, "L": Pen.line, "H": Pen.horizontal, "V": Pen.vertical, "C": Pen.cubic, "S": Pen.smooth,
        "Q": Pen.quadratic, "T": Pen.smooth_quadratic, "A": Pen.arcs}


def arc(ops: list, x1, y1, rx, ry, angle, large, sweep, x2, y2) -> None:
    """An SVG elliptical arc, by its centre parameterisation (SVG 1.1 implementation notes F.6.5)."""
    if (x1, y1) == (x2, y2):
        return
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        ops.append(["line_to", x2, y2])
        return
    phi = math.radians(angle % 360)
    cos, sin = math.cos(phi), math.sin(phi)
    xp = cos * (x1 - x2) / 2 + sin * (y1 - y2) / 2
    yp = -sin * (x1 - x2) / 2 + cos * (y1 - y2) / 2
    scale = (xp * xp) / (rx * rx) + (yp * yp) / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    factor = math.sqrt(max(num / den, 0)) * (-1 if large == sweep else 1)
    cxp, cyp = factor * rx * yp / ry, -factor * ry * xp / rx
    cx = cos * cxp - sin * cyp + (x1 + x2) / 2
    cy = sin * cxp + cos * cyp + (y1 + y2) / 2
    start = math.atan2((yp - cyp) / ry, (xp - cxp) / rx)
    end = math.atan2((-yp - cyp) / ry, (-xp - cxp) / rx)
    ops += [["save"], ["translate", cx, cy], ["rotate", phi], ["scale", rx, ry],
            ["arc" if sweep else "arc_negative", 0.0, 0.0, 1.0, start, end], ["restore"]]
