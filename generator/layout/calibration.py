"""Layout of the duplex calibration sheet: a cross on the front, and on the back two millimetre scales that
the cross shows through; and on every page a flip check: a ring on the front and a disc on the back that
only sits inside the ring when the printer flipped the sheet on the edge the build expects. Pure numbers in
points, top-left origin.

The scale mark labelled v sits v mm from where the cross should land; the number the cross actually falls
on is the back offset to enter (shifting the backs by v mm moves them onto the cross). The scales reach the
largest offset --back-offset takes. The flip check sits far from both centre lines, so the other flip puts
its disc a hand's width away from the ring (a wrong flip moves backs far more than any printer's offset).
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.duplex import back_place
from pnpgen.lengths import pt_from_mm

SPAN_MM = 20          # the scales read from -20 to +20 mm: all that --back-offset takes (build.MAX_BACK_OFFSET_MM)
RULER_GAP = 150.0     # points between the centre and each scale, so the two +-20 mm scales stay apart
CROSS_REACH = RULER_GAP + 40.0  # the cross runs past both scales, and stops short of the page's title
RING = pt_from_mm(9)  # the flip check's ring radius: the disc (2/3 of it) shows inside it with an offset of a few mm
MARK_BOX = 2 * RING + 8.0


@dataclass(frozen=True)
class Tick:
    x1: float
    y1: float
    x2: float
    y2: float
    label: str            # "" for unlabelled ticks
    label_at: tuple[float, float]


@dataclass(frozen=True)
class FlipCheck:
    """The ring's box on the front, and where the disc's box is drawn on the back for the build's flip
    (turned: drawn half a turn round, so its arrow points the front's way up)."""
    front: tuple[float, float, float, float]
    back: tuple[float, float, float, float]
    turned: bool


@dataclass(frozen=True)
class Calibration:
    page: tuple[float, float]
    cross: tuple[tuple[float, float, float, float], ...]    # front lines through the centre (none: flip check only)
    x_ticks: tuple[Tick, ...]                              # back: horizontal scale (reads X)
    y_ticks: tuple[Tick, ...]                              # back: vertical scale (reads Y)
    x_title_at: tuple[float, float]
    y_title_at: tuple[float, float]
    flip: FlipCheck | None = None


def tick_length(value: int) -> float:
    return 12.0 if value % 5 == 0 else 6.0


def flip_check(page: tuple[float, float], duplex: str) -> FlipCheck:
    """The ring a quarter of the way in from the left and three tenths up from the bottom: clear of the words at
    the top and of the scales round the centre, and far from its mirror image under either flip."""
    width, height = page
    x, y = width / 4 - MARK_BOX / 2, height * 0.7 - MARK_BOX / 2
    back = back_place(x, y, MARK_BOX, MARK_BOX, page, duplex)
    return FlipCheck((x, y, MARK_BOX, MARK_BOX), (back.x, back.y, MARK_BOX, MARK_BOX), back.turned)


def calibration_layout(page: tuple[float, float], margin: float, duplex: str = "long",
                       scales: bool = True) -> Calibration:
    """The sheet for a page of this size; `scales` False: the flip check alone (a landscape page: the offset
    is measured once, on the portrait page, in the paper's own frame)."""
    check = flip_check(page, duplex)
    if not scales:
        return Calibration(page, (), (), (), (0.0, 0.0), (0.0, 0.0), check)
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
                       (cx, x_ruler_y - 14), (y_ruler_x + 12, cy - pt_from_mm(SPAN_MM) - 8), check)
