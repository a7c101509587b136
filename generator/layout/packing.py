"""Imposing a print group's pieces on shared pages, in numbers only: each run (one table's pieces, every
colour of it) fills rows of its own grid, and the next run goes on in a band below it while a row of it
fits, so small tables, strips and per-colour pieces share sheets instead of taking a page each. The grid,
cut marks and back placement of each band come from pnpgen.layout.sheets.

A page holding one run is laid out as a grid alone would be (the grid centred on the page), so a file of
one table prints as it always did; a run that follows another starts below it, parted by a gap wide
enough for both runs' marks.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.layout.sheets import (CROP_GAP, CROP_LEN, SheetPage, SheetSettings, Slot, area, back_header_side, back_slot,
                                  band_cells, cells_on, centring, cuts, header_box, outlines, page_choices)
from pnpgen.lengths import parse_length
from pnpgen.shapes import Shape

BAND_GAP = parse_length("3mm")  # between the last row of one run and the first of the next


@dataclass(frozen=True)
class Run:
    """One table's pieces in a print group, in print order."""
    shape: Shape
    count: int
    settings: SheetSettings
    two_sided: bool


@dataclass(frozen=True)
class Placed:
    run: int            # which run the piece belongs to
    index: int          # its position in that run
    x: float
    y: float


@dataclass(frozen=True)
class Packing:
    page: tuple[float, float]
    header_side: str
    pages: tuple[tuple[Placed, ...], ...]  # the front of every sheet, in order


def impose(runs: list[Run]) -> list[SheetPage]:
    """Front page, back page, front page ... holding every run's pieces; a slot's index counts through all
    the runs' pieces in order. A sheet is two-sided when any of its runs is; one-sided pieces leave their
    place on the back blank."""
    runs = same_grid(runs)
    packing = pack(runs)
    starts = [sum(run.count for run in runs[:number]) for number in range(len(runs))]
    two_sided = any(run.two_sided for run in runs)
    pages = []
    for placed in packing.pages:
        bands = [(runs[number], tuple(Slot(starts[number] + p.index, p.x, p.y) for p in placed if p.run == number))
                 for number in sorted({p.run for p in placed})]
        pages.append(_front(packing, bands))
        if two_sided:
            pages.append(_back(packing, bands, runs[0].settings.duplex))
    return pages


def _front(packing: Packing, bands: list) -> SheetPage:
    page, side = packing.page, packing.header_side
    return SheetPage(page, "front", tuple(sl for _, slots in bands for sl in slots),
                     tuple(c for run, slots in bands for c in cuts(run.shape, slots, run.settings, page)),
                     tuple(o for run, slots in bands for o in outlines(run.shape, slots, run.settings)),
                     header_box(page, side), side)


def _back(packing: Packing, bands: list, duplex: str) -> SheetPage:
    """The back page: each two-sided piece's back where it lands behind its front (layout.sheets.back_slot)."""
    page, side = packing.page, packing.header_side
    backs = tuple(back_slot(sl, run.shape, run.settings, page) for run, slots in bands if run.two_sided
                  for sl in slots)
    back_side = back_header_side(side, page, duplex)
    return SheetPage(page, "back", backs, (), (), header_box(page, back_side), back_side)


def same_grid(runs: list[Run]) -> list[Run]:
    """Runs that follow each other with the same shape, sheet settings and sidedness made one: their pieces
    go on cell after cell in one grid, as one table's would (a deck made of several tables)."""
    joined: list[Run] = []
    for run in runs:
        last = joined[-1] if joined else None
        if last and (last.shape, last.settings, last.two_sided) == (run.shape, run.settings, run.two_sided):
            joined[-1] = Run(run.shape, last.count + run.count, run.settings, run.two_sided)
        else:
            joined.append(run)
    return joined


def pack(runs: list[Run]) -> Packing:
    """The page orientation and header side that print the runs on the fewest sheets (ties: the one that
    holds most of the first run, as a grid alone would choose), and where every piece goes."""
    paper = runs[0].settings.paper
    best, best_rank = None, None
    for order, (page, side) in enumerate(page_choices(paper)):
        capacity = len(cells_on(runs[0].shape, runs[0].settings, page, side))
        pages = _fill(runs, page, side) if capacity else None
        if pages is None:
            continue
        rank = (len(pages), -capacity, order)
        if best_rank is None or rank < best_rank:
            best, best_rank = Packing(page, side, tuple(tuple(p) for p in pages)), rank
    if best is None:
        shape, size = runs[0].shape, runs[0].settings.paper
        raise ValueError(f"a {shape.kind} of {shape.w:.1f} x {shape.h:.1f} pt does not fit the printable area "
                         f"of a {size[0]:.0f} x {size[1]:.0f} pt sheet")
    return best


def _fill(runs: list[Run], page: tuple[float, float], side: str) -> list[list[Placed]] | None:
    """Fronts, each a list of placed pieces; None when a run does not fit this page at all."""
    left, top, avail_w, avail_h = area(page, side)
    pages: list[list[Placed]] = []
    bottom, last = None, None  # the lowest edge of the current page's last band, and its run
    for number, run in enumerate(runs):
        placed = 0
        while placed < run.count:
            y = top + centring(run.shape, run.settings, avail_h) if bottom is None else \
                bottom + gap(runs[last].settings, run.settings)
            cells = band_cells(run.shape, run.settings, left, y, avail_w, top + avail_h - y)
            if not cells:
                if bottom is None:
                    return None
                bottom = None
                continue
            if bottom is None:
                pages.append([])
            taken = cells[:run.count - placed]
            pages[-1] += [Placed(number, placed + i, x, cy) for i, (x, cy) in enumerate(taken)]
            placed += len(taken)
            bottom, last = max(cy for _, cy in taken) + run.shape.h, number
            if placed < run.count:
                bottom = None  # the band took every row left on the page
    return pages


def gap(above: SheetSettings, below: SheetSettings) -> float:
    """Room between two bands: their gutters or BAND_GAP, and room for crop marks outside either grid."""
    marks = sum(CROP_GAP + CROP_LEN for s in (above, below) if s.marks == "crop")
    return max(above.gutter, below.gutter, BAND_GAP) + marks
