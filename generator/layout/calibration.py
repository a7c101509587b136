"""Layout of the duplex calibration sheet: a cross on the front, and on the back two millimetre scales that
the cross shows through. Pure numbers in points, top-left origin.

The scale mark labelled v sits v mm from where the cross should land; the number the cross actually falls
on is the back offset to enter (shifting the backs by v mm moves them onto the cross).
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.lengths import pt_from_mm

SPAN_MM = 10          # the scales read from -10 to +10 mm
RULER_GAP = 110.0     # points between the centre and each scale, so the two scales stay apart
CROSS_REACH = RULER_GAP + 40.0  # the cross runs past both scales, and stops short of the page's title


@dataclass(frozen=True)
class Tick:
    x1: float
    y1: float
    x2: float
    y2: float
    label: str            # "" for unlabelled ticks
    label_at: tuple[float, float]


@dataclass(frozen=True)
class Calibration:
    page: tuple[float, float]
    cross: tuple[tuple[float, float, float, float], ...]    # front lines through the centre
    x_ticks: tuple[Tick, ...]                              # back: horizontal scale (reads X)
    y_ticks: tuple[Tick, ...]                              # back: vertical scale (reads Y)
    x_title_at: tuple[float, float]
    y_title_at: tuple[float, float]


def tick_length(value: int) -> float:
    return 12.0 if value % 5 == 0 else 6.0


def calibration_layout(page: tuple[float, float], margin: float) -> Calibration:
    width, height = page
    cx, cy = width / 2, height / 2
    reach = min(CROSS_REACH, cy - margin, cx - margin)
    cross = ((cx, cy - reach, cx, cy + reach), (cx - reach, cy, cx + reach, cy))
    x_ruler_y, y_ruler_x = cy - RULER_GAP, cx + RULER_GAP
    x_ticks, y_ticks = [], []
    for v in range(-SPAN_MM, SPAN_MM + 1):
        label = f"{v:+d}" if v else "0"
        label = label if v % 5 == 0 else ""
        x, y, length = cx + pt_from_mm(v), cy + pt_from_mm(v), tick_length(v)
        x_ticks.append(Tick(x, x_ruler_y, x, x_ruler_y + length, label, (x, x_ruler_y - 3)))
        y_ticks.append(Tick(y_ruler_x, y, y_ruler_x + length, y, label, (y_ruler_x + 24, y + 2.5)))
    return Calibration(page, cross, tuple(x_ticks), tuple(y_ticks),
                       (cx, x_ruler_y - 14), (y_ruler_x + 12, cy - pt_from_mm(SPAN_MM) - 8))
