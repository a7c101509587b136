"""Splitting a board across printer pages, pure numbers in points: which part of the map each tile shows,
where it lands on its page, the trim and glue guides, and the alignment marks that meet across seams.

Assembly: every tile that has a neighbour to its left (above) is trimmed along its left (top) content
edge and laid over the neighbour's right (bottom) GLUE strip, which shows the same `OVERLAP` of map.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from pnpgen.lengths import parse_length
from pnpgen.paper import PRINTABLE_MARGIN, paper_size

OVERLAP = parse_length("1/2in")       # map shown twice across a seam: the glue strip
MARK_GAP = parse_length("3/16in")     # between the printable margin and the map: trim and glue ticks
LABEL_BAND = parse_length("5/16in")   # the tile label and instructions above the map
MARK_ARM = parse_length("3/8in")      # half-length of an alignment mark across a seam
TICK = parse_length("1/8in")

Line = tuple[float, float, float, float]


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Tile:
    label: str             # row letter and column number: "A1", "A2", "B1"
    row: int
    col: int
    page: int              # 1-based page in the tiles PDF
    source: Rect           # the part of the map it shows, map points
    at: tuple[float, float]  # page position of the map's origin, so source lands on the content box
    clip: Rect             # page area the map shows through
    trims: tuple[Line, ...]          # dashed cut lines (page points) where a neighbour is glued over
    glue: tuple[Rect, ...]           # strips a neighbour covers (page points)
    crops: tuple[Line, ...]          # corner ticks on the board's outer edges
    neighbours: dict                 # side -> neighbour label


@dataclass(frozen=True)
class TilePlan:
    paper: str
    landscape: bool
    page: tuple[float, float]
    content: Rect          # the largest map area one page can show, page points
    cols: int
    rows: int
    tiles: tuple[Tile, ...]
    marks: tuple[Line, ...]   # alignment marks in map points: each crosses one seam at its middle

    @property
    def count(self) -> int:
        return len(self.tiles)


def tiles_needed(length: float, window: float, overlap: float = OVERLAP) -> int:
    """Pages along one direction: each after the first adds `window - overlap` of map."""
    if length <= window:
        return 1
    return math.ceil((length - overlap) / (window - overlap))


def content_box(page: tuple[float, float]) -> Rect:
    edge = PRINTABLE_MARGIN + MARK_GAP
    top = edge + LABEL_BAND
    return Rect(edge, top, page[0] - 2 * edge, page[1] - top - edge)


def plan_tiles(width: float, height: float, paper: str) -> TilePlan:
    """Tiles for a `width` x `height` map on `paper`, portrait or landscape, whichever takes fewer pages."""
    options = []
    for landscape in (False, True):
        page = paper_size(paper, landscape)
        box = content_box(page)
        cols, rows = tiles_needed(width, box.w), tiles_needed(height, box.h)
        options.append((cols * rows, landscape, page, box, cols, rows))
    _, landscape, page, box, cols, rows = min(options, key=lambda o: (o[0], o[1]))
    tiles = tuple(_tile(width, height, box, cols, rows, r, c) for r in range(rows) for c in range(cols))
    return TilePlan(paper, landscape, page, box, cols, rows, tiles, _marks(tiles, cols, rows))


def tile_label(row: int, col: int) -> str:
    return f"{chr(ord('A') + row)}{col + 1}"


def _tile(width, height, box: Rect, cols, rows, row, col) -> Tile:
    sx, sy = col * (box.w - OVERLAP), row * (box.h - OVERLAP)
    source = Rect(sx, sy, min(box.w, width - sx), min(box.h, height - sy))
    clip = Rect(box.x, box.y, source.w, source.h)
    sides = {"left": col > 0, "right": col < cols - 1, "top": row > 0, "bottom": row < rows - 1}
    steps = {"left": (0, -1), "right": (0, 1), "top": (-1, 0), "bottom": (1, 0)}
    neighbours = {s: tile_label(row + steps[s][0], col + steps[s][1]) for s, has in sides.items() if has}
    return Tile(label=tile_label(row, col), row=row, col=col, page=row * cols + col + 1, source=source,
                at=(box.x - sx, box.y - sy), clip=clip, trims=_trims(clip, sides), glue=_glue(clip, sides),
                crops=_crops(clip, sides), neighbours=neighbours)


def _trims(clip: Rect, sides: dict) -> tuple[Line, ...]:
    """Cut along the edges that go over a neighbour, running into the margin so scissors find them."""
    x0, y0, x1, y1 = clip.x, clip.y, clip.x + clip.w, clip.y + clip.h
    lines = []
    if sides["left"]:
        lines.append((x0, y0 - MARK_GAP, x0, y1 + MARK_GAP))
    if sides["top"]:
        lines.append((x0 - MARK_GAP, y0, x1 + MARK_GAP, y0))
    return tuple(lines)


def _glue(clip: Rect, sides: dict) -> tuple[Rect, ...]:
    strips = []
    if sides["right"]:
        strips.append(Rect(clip.x + clip.w - OVERLAP, clip.y, OVERLAP, clip.h))
    if sides["bottom"]:
        strips.append(Rect(clip.x, clip.y + clip.h - OVERLAP, clip.w, OVERLAP))
    return tuple(strips)


def _crops(clip: Rect, sides: dict) -> tuple[Line, ...]:
    """Ticks in the margin continuing the board's outer edges (the edges with no neighbour)."""
    x0, y0, x1, y1 = clip.x, clip.y, clip.x + clip.w, clip.y + clip.h
    ticks = []
    for x, side in ((x0, "left"), (x1, "right")):
        if not sides[side]:
            ticks += [(x, y0 - MARK_GAP, x, y0 - 2), (x, y1 + 2, x, y1 + MARK_GAP)]
    for y, side in ((y0, "top"), (y1, "bottom")):
        if not sides[side]:
            ticks += [(x0 - MARK_GAP, y, x0 - 2, y), (x1 + 2, y, x1 + MARK_GAP, y)]
    return tuple(ticks)


def _marks(tiles: tuple[Tile, ...], cols: int, rows: int) -> tuple[Line, ...]:
    """Two marks per seam segment, each a line across the seam at a place both tiles show.

    A vertical seam lies at the left content edge of the right-hand tile; the mark runs MARK_ARM either
    side of it, so the left tile shows it whole and the right tile its right half, which meets it."""
    marks = []
    for tile in tiles:
        s = tile.source
        if tile.col > 0:
            top = s.y + (OVERLAP if tile.row > 0 else 0)
            bottom = s.y + s.h - (OVERLAP if tile.row < rows - 1 else 0)
            marks += [(s.x - MARK_ARM, y, s.x + MARK_ARM, y) for y in _thirds(top, bottom)]
        if tile.row > 0:
            left = s.x + (OVERLAP if tile.col > 0 else 0)
            right = s.x + s.w - (OVERLAP if tile.col < cols - 1 else 0)
            marks += [(x, s.y - MARK_ARM, x, s.y + MARK_ARM) for x in _thirds(left, right)]
    return tuple(marks)


def _thirds(start: float, end: float) -> tuple[float, float]:
    return start + (end - start) / 3, start + 2 * (end - start) / 3


def assembly_steps(plan: TilePlan, first: str, hex_lines: bool) -> list[str]:
    """The assembly page's steps after `first` (how to print): how the tiles lie (a single row or column said
    as such, never "rows A to A"), cut, glue (what meets across a seam: the hex lines or the lines) and join.
    Each step is one whole sentence of pnpgen's own words, so that a translation never builds one from pieces."""
    from pnpgen.i18n.translator import core_words
    row, cols = plan.tiles[-1].label[0], plan.cols
    if plan.rows > 1 and plan.cols > 1:
        lay = core_words("Lay the tiles out as below: rows A to {row} from the top, columns 1 to {cols} from the left.")
    elif plan.rows > 1:
        lay = core_words("Lay the tiles out as below: rows A to {row} from the top, in one column, 1.")
    else:
        lay = core_words("Lay the tiles out as below: in one row, A, columns 1 to {cols} from the left.")
    glue = (core_words("Glue each tile over the GLUE strip of its neighbour: the hex lines and the pink round marks meet.")
            if hex_lines else
            core_words("Glue each tile over the GLUE strip of its neighbour: the lines and the pink round marks meet."))
    join = (core_words("Join the tiles of each row first, then the rows; trim the outer edge at the corner ticks.")
            if plan.rows > 1 and plan.cols > 1 else
            core_words("Join the tiles in order; trim the outer edge at the corner ticks."))
    return [first, lay.format(row=row, cols=cols),
            core_words("Cut each tile along its dashed edges (left and top); leave its other edges as they are."),
            glue, join]