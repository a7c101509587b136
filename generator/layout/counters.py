"""Imposition of counters onto duplex sheets: where each piece sits on its front page and on its back page.

Pure numbers in points, top-left origin. Fronts fill a centred grid row by row (a new kind of piece starts a
new row, so units, markers and other counters cut apart cleanly); each back sits where the paper puts it
behind its front: mirrored left-right for long-edge duplex, top-bottom (and turned half a turn) for short
edge, then shifted by the user's back offset.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

EPSILON = 1e-6


@dataclass(frozen=True)
class SheetSpec:
    """Everything imposition needs: paper, counter size and gaps, duplex mode, header room."""

    page: tuple[float, float]            # width, height
    margin: float                        # printers cannot print closer to the edge than this
    size: float                          # counter edge
    gutter: float = 0.0                  # gap between counters (0: they abut and share cut lines)
    duplex: str = "long"                 # "long" or "short" edge flip
    back_offset: tuple[float, float] = (0.0, 0.0)
    header: float = 16.0                 # room for the page title on every page
    first_header: float = 50.0           # room for title, print instructions and the scale check on page 1


@dataclass(frozen=True)
class Slot:
    """One piece on one side: the index of the piece in the group and its square on the page."""

    index: int
    x: float
    y: float
    size: float
    turned: bool = False                 # back art turned half a turn (short-edge duplex)


@dataclass(frozen=True)
class Page:
    side: str                            # "front" or "back"
    sheet: int                           # 1-based sheet number
    slots: tuple[Slot, ...]
    cuts: tuple[tuple[float, float, float, float], ...]   # cut line segments x1, y1, x2, y2
    header: tuple[float, float, float, float]              # x, y, w, h of the title block
    first: bool                          # the first page of the file carries the print instructions


def columns(spec: SheetSpec) -> int:
    return math.floor((spec.page[0] - 2 * spec.margin + spec.gutter) / (spec.size + spec.gutter))


def rows(spec: SheetSpec, first: bool) -> int:
    header = spec.first_header if first else spec.header
    free = spec.page[1] - 2 * spec.margin - header
    return math.floor((free + spec.gutter) / (spec.size + spec.gutter))


def grid_cells(sections: list[str], spec: SheetSpec) -> list[tuple[int, int, int]]:
    """(sheet, row, column) of each piece; `sections` names each piece's kind, a new kind opens a new row."""
    cols, cells = columns(spec), []
    sheet, row, col, previous = 0, 0, 0, None
    for section in sections:
        if previous is not None and (col >= cols or section != previous):
            row, col = row + 1, 0
        if row >= rows(spec, sheet == 0):
            sheet, row, col = sheet + 1, 0, 0
        cells.append((sheet, row, col))
        col, previous = col + 1, section
    return cells


def front_position(row: int, col: int, first: bool, spec: SheetSpec) -> tuple[float, float]:
    step = spec.size + spec.gutter
    grid_width = columns(spec) * step - spec.gutter
    left = (spec.page[0] - grid_width) / 2
    top = spec.margin + (spec.first_header if first else spec.header)
    return left + col * step, top + row * step


def back_slot(front: Slot, spec: SheetSpec) -> Slot:
    """Where the paper puts the back of `front` once printed duplex, plus the user's back offset."""
    width, height = spec.page
    dx, dy = spec.back_offset
    if spec.duplex == "short":
        return Slot(front.index, front.x + dx, height - front.y - front.size + dy, front.size, True)
    return Slot(front.index, width - front.x - front.size + dx, front.y + dy, front.size, False)


def mirror_segment(segment, spec: SheetSpec):
    x1, y1, x2, y2 = segment
    width, height = spec.page
    dx, dy = spec.back_offset
    if spec.duplex == "short":
        return (x1 + dx, height - y1 + dy, x2 + dx, height - y2 + dy)
    return (width - x1 + dx, y1 + dy, width - x2 + dx, y2 + dy)


def cut_lines(slots: list[Slot]) -> tuple:
    """Each piece's four edges, with collinear touching edges merged into long straight cuts."""
    lines: dict[tuple, list] = {}
    for s in slots:
        lines.setdefault(("h", round(s.y, 4)), []).append((s.x, s.x + s.size))
        lines.setdefault(("h", round(s.y + s.size, 4)), []).append((s.x, s.x + s.size))
        lines.setdefault(("v", round(s.x, 4)), []).append((s.y, s.y + s.size))
        lines.setdefault(("v", round(s.x + s.size, 4)), []).append((s.y, s.y + s.size))
    segments = []
    for (direction, at), spans in sorted(lines.items()):
        for start, end in merge_spans(spans):
            segments.append((start, at, end, at) if direction == "h" else (at, start, at, end))
    return tuple(segments)


def merge_spans(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[list[float]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + EPSILON:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def header_box(side: str, first: bool, spec: SheetSpec) -> tuple[float, float, float, float]:
    """The title block: at the top, except on short-edge backs where the mirrored grid leaves the bottom free."""
    height = spec.first_header if first else spec.header
    width = spec.page[0] - 2 * spec.margin
    if side == "back" and spec.duplex == "short":
        return (spec.margin, spec.page[1] - spec.margin - height, width, height)
    return (spec.margin, spec.margin, width, height)


def check_fits(spec: SheetSpec) -> None:
    if columns(spec) < 1 or rows(spec, first=True) < 1 or rows(spec, first=False) < 1:
        raise ValueError("the counters do not fit inside the printable area of the paper: "
                         "choose a smaller --counter-size or --gutter")


def impose_counters(sections: list[str], spec: SheetSpec) -> list[Page]:
    """Front and back pages for a group of pieces, in print order: front 1, back 1, front 2, back 2 ..."""
    check_fits(spec)
    by_sheet: dict[int, list[Slot]] = {}
    for index, (sheet, row, col) in enumerate(grid_cells(sections, spec)):
        x, y = front_position(row, col, sheet == 0, spec)
        by_sheet.setdefault(sheet, []).append(Slot(index, x, y, spec.size))
    pages = []
    for sheet, fronts in sorted(by_sheet.items()):
        first = sheet == 0
        front_cuts = cut_lines(fronts)
        backs = tuple(back_slot(s, spec) for s in fronts)
        back_cuts = tuple(mirror_segment(c, spec) for c in front_cuts)
        pages.append(Page("front", sheet + 1, tuple(fronts), front_cuts, header_box("front", first, spec), first))
        pages.append(Page("back", sheet + 1, backs, back_cuts, header_box("back", False, spec), False))
    return pages
