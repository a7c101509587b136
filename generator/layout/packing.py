"""Imposing a print group's pieces on shared pages, in numbers only: each run (one table's pieces, every
colour of it) fills rows of its own grid, and the next run goes on in a band below it while a row of it
fits, so small tables, strips and per-colour pieces share sheets instead of taking a page each. The grid,
cut marks and back placement of each band come from pnpgen.layout.sheets.

A page holding one run is laid out as a grid alone would be (the grid centred on the page), so a file of
one table prints as it always did; a run that follows another starts below it, parted by a gap wide
enough for both runs' marks.

A group in the counter-sheet layout (layout.sheets.COUNTER_SHEET) is stacked instead (`stack`): one
portrait grid, each run starting a new row of it, so the cut lines of all its rows merge as one grid's.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.layout.gutter_fit import fitted
from pnpgen.layout.sheets import (COUNTER_SHEET, COUNTER_SHEET_HEADERS, CROP_GAP, CROP_LEN, HEADER, SheetPage,
                                  SheetSettings, Slot, area, back_header_side, back_slot, band_cells, cells_on,
                                  centring, cuts, header_box, mark_bounds, mark_room, mirror_cut, outlines,
                                  page_choices)
from pnpgen.lengths import parse_length
from pnpgen.paper import PRINTABLE_MARGIN
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
    rooms: tuple[float, ...] = ()          # counter sheets: each front's header room (packed: HEADER on all)
    back_room: float = HEADER              # the header room of every back page


def impose(runs: list[Run]) -> list[SheetPage]:
    """Front page, back page, front page ... holding every run's pieces; a slot's index counts through all
    the runs' pieces in order. A sheet is two-sided when any of its runs is; one-sided pieces leave their
    place on the back blank."""
    stacked = runs[0].settings.layout == COUNTER_SHEET
    runs = runs if stacked else fitted(same_grid(runs), pack)   # gaps that cost no pieces (layout.gutter_fit)
    packing = stack(runs) if stacked else pack(runs)
    starts = [sum(run.count for run in runs[:number]) for number in range(len(runs))]
    two_sided = any(run.two_sided for run in runs)
    pages = []
    for sheet, placed in enumerate(packing.pages):
        bands = [(runs[number], tuple(Slot(starts[number] + p.index, p.x, p.y) for p in placed if p.run == number))
                 for number in sorted({p.run for p in placed})]
        pages.append(_front(packing, one_grid(bands) if stacked else bands, sheet))
        if two_sided:
            pages.append(_back(packing, bands, runs[0].settings, pages[-1] if stacked else None))
    return pages


def _front(packing: Packing, bands: list, sheet: int) -> SheetPage:
    page, side = packing.page, packing.header_side
    room = packing.rooms[sheet] if packing.rooms else HEADER
    header = header_box(page, side, room)
    bounds = mark_bounds(page, header, side)
    return SheetPage(page, "front", tuple(sl for _, slots in bands for sl in slots),
                     tuple(c for run, slots in bands for c in cuts(run.shape, slots, run.settings, page, bounds)),
                     tuple(o for run, slots in bands for o in outlines(run.shape, slots, run.settings)),
                     header, side)


def _back(packing: Packing, bands: list, settings: SheetSettings, front: SheetPage | None) -> SheetPage:
    """The back page: each two-sided piece's back where it lands behind its front (layout.sheets.back_slot);
    on a counter sheet (`front` given) the front's cut lines and cut paths mirrored with them (every shape
    is its own mirror), so either side can be cut."""
    page, side = packing.page, packing.header_side
    runs = [(run, tuple(back_slot(sl, run.shape, run.settings, page) for sl in slots))
            for run, slots in bands if run.two_sided]
    back_cuts = tuple(mirror_cut(cut, page, settings) for cut in front.cuts) if front else ()
    paths = tuple(o for run, slots in runs for o in outlines(run.shape, slots, run.settings)) if front else ()
    back_side = back_header_side(side, page, settings.duplex)
    return SheetPage(page, "back", tuple(sl for _, slots in runs for sl in slots), back_cuts, paths,
                     header_box(page, back_side, packing.back_room), back_side)


def one_grid(bands: list) -> list:
    """A counter sheet's bands of one shape and settings as one band, so the cut lines their rows share
    merge into one line, as one grid's do."""
    grids: dict = {}
    for run, slots in bands:
        key = (run.shape, run.settings)
        grids[key] = (grids[key][0], grids[key][1] + slots) if key in grids else (run, slots)
    return list(grids.values())


def stack(runs: list[Run]) -> Packing:
    """The counter-sheet layout: a portrait page, its header room 50 pt on the file's first page (title,
    print instructions, scale check) and 16 pt after; rows top-aligned and centred across; each run starts
    a new row right below the last one (one grid: no band gap), and a sheet is full when the next row would
    pass the printable area (less the crop marks' room, where the group has them)."""
    paper = runs[0].settings.paper
    page = (min(paper), max(paper))
    first_room, room = COUNTER_SHEET_HEADERS
    marks = CROP_GAP + CROP_LEN if runs[0].settings.marks == "crop" else 0.0  # crop marks stay off the header
    edge = PRINTABLE_MARGIN + marks
    pages: list[list[Placed]] = []
    rooms: list[float] = []
    top = None  # where the next row starts on the current page; None: the next piece needs a new sheet
    for number, run in enumerate(runs):
        placed = 0
        while placed < run.count:
            if top is None:
                rooms.append(room if pages else first_room)
                pages.append([])
                top = edge + rooms[-1]
            cells = band_cells(run.shape, run.settings, edge, top, page[0] - 2 * edge, page[1] - edge - top)
            if not cells:
                if not pages[-1]:
                    raise ValueError(_too_big(run, page))
                top = None
                continue
            taken = cells[:run.count - placed]
            pages[-1] += [Placed(number, placed + i, x, y) for i, (x, y) in enumerate(taken)]
            placed += len(taken)
            top = None if placed < run.count else max(y for _, y in taken) + run.shape.h + run.settings.row_gap
    return Packing(page, "top", tuple(tuple(p) for p in pages), tuple(rooms), room)


def _too_big(run: Run, paper: tuple[float, float]) -> str:
    shape = run.shape
    return (f"a {shape.kind} of {shape.w:.1f} x {shape.h:.1f} pt does not fit the printable area "
            f"of a {paper[0]:.0f} x {paper[1]:.0f} pt sheet")


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
        raise ValueError(_too_big(runs[0], paper))
    return best


def _fill(runs: list[Run], page: tuple[float, float], side: str) -> list[list[Placed]] | None:
    """Fronts, each a list of placed pieces; None when a run does not fit this page at all."""
    left, top, avail_w, avail_h = area(page, side, max(mark_room(run.settings) for run in runs))
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
    return max(above.gutter, below.gutter, above.row_gap, below.row_gap, BAND_GAP) + marks
