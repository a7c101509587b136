"""Splitting a board across printer pages, pure numbers in points: which part of the map each tile shows,
where it lands on its page, the trim and glue guides, and the alignment ticks of each seam.

Assembly: every tile that has a neighbour to its left (above) is trimmed along its left (top) content
edge and laid over the neighbour's right (bottom) GLUE strip, which shows the same `OVERLAP` of map. The
seam is that cut edge. A seam never runs through a box the caller asks to keep whole (a text block, a
legend entry): it moves back towards its tile until it runs clear, so each prints whole on one tile.
The pink ticks of a seam print only where nobody sees them once the map is assembled: across the GLUE
strip that the next tile covers, and in the margin the cut takes off the next tile.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass

from pnpgen.lengths import parse_length
from pnpgen.paper import PRINTABLE_MARGIN, paper_size

OVERLAP = parse_length("1/2in")       # map shown twice across a seam: the glue strip
MARK_GAP = parse_length("3/16in")     # between the printable margin and the map: trim and glue ticks
LABEL_BAND = parse_length("5/16in")   # the tile label and instructions above the map
MARK_ARM = parse_length("3/8in")      # length of an alignment tick across a GLUE strip
TICK_CLEAR = parse_length("0.5mm")    # a tick stops this short of the seam: a cut or a tile that far off hides it
SEAM_CLEAR = parse_length("1mm")      # a kept box stays this far from a seam: a cut that far off still misses it

Line = tuple[float, float, float, float]
Box = tuple[float, float, float, float]   # x0, y0, x1, y1 in map points


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
    ticks: tuple[Line, ...] = ()     # pink alignment ticks (page points): in GLUE strips and cut-off margins


@dataclass(frozen=True)
class TilePlan:
    paper: str
    landscape: bool
    page: tuple[float, float]
    content: Rect          # the largest map area one page can show, page points
    cols: int              # tiles in a row (the longest, where staggered rows differ)
    rows: int
    tiles: tuple[Tile, ...]
    seams: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())   # x of each vertical (row A's), y of each horizontal seam
    row_seams: tuple[tuple[float, ...], ...] = ()   # x of each vertical seam, row by row (staggered rows differ)
    extra_sheets: int = 0  # tiles beyond what the paper alone needs, spent to keep every text whole

    @property
    def count(self) -> int:
        return len(self.tiles)

    @property
    def choice(self) -> list:
        """[landscape, each row's tile starts, the rows' starts]: what laid_out makes this plan again from."""
        return [self.landscape, [[0.0, *xs] for xs in self.row_seams], [0.0, *self.seams[1]]]


def tiles_needed(length: float, window: float, overlap: float = OVERLAP) -> int:
    """Pages along one direction: each after the first adds `window - overlap` of map."""
    return len(seam_starts(length, window, (), overlap)[0])


def seam_starts(length: float, window: float, spans, overlap: float = OVERLAP,
                slack: float = math.inf) -> tuple[list[float], int]:
    """Where each tile starts along one direction, and how many seams cut a span: 0, then each seam as far on
    as the tile before can reach (its window less the overlap), moved back until it runs clear of every
    (start, end) span, by `slack` points at most in all (the room the last tile leaves keeps the page
    count); a seam that finds no clear place goes where it cuts the fewest spans (pnpgen.maps.seams.crossings
    names them)."""
    starts, cut = [0.0], 0
    spans = sorted(spans)
    while starts[-1] + window < length - 1e-6:
        farthest = math.floor(starts[-1] + window - overlap)   # whole points: tiles share pixel phase
        floor = max(starts[-1] + overlap, farthest - slack)
        seam = _clear_of(farthest, spans, floor)
        cut += seam is None
        starts.append(_least_cut(farthest, spans, floor) if seam is None else seam)
        slack -= farthest - starts[-1]
    return starts, cut


def _least_cut(x: float, spans, floor: float) -> float:
    """Where between floor and x a seam cuts the fewest spans (the farthest such place): for a page with
    text all across it, where no place is clear."""
    places = [x] + [math.floor(a) for a, _ in spans if floor <= a < x]
    covering = _covering(spans)
    return min(places, key=lambda p: (covering(p), -p))


def _covering(spans):
    """count(p): how many (start, end) spans have start < p < end; counted with two sorted lists (a board
    full of text gives hundreds of spans and places: counting pairs took 0.2 s of a board's build)."""
    if any(a > b for a, b in spans):   # not a span: counted pair by pair, as before
        return lambda p: sum(a < p < b for a, b in spans)
    starts, ends = sorted(a for a, _ in spans), sorted(b for _, b in spans)
    empty = Counter(a for a, b in spans if a == b)   # start == end == p: in neither count, subtracted once
    return lambda p: bisect_left(starts, p) - bisect_right(ends, p) + empty[p]


def _clear_of(x: float, spans, floor: float) -> float | None:
    """The last whole point at or before x that no span covers, not before floor; None when there is none.
    Only the spans between floor and x can hold the seam back (each at most once: it moves before them)."""
    near = [(a, b) for a, b in spans if a < x and b > floor]
    while x >= floor:
        inside = [a for a, b in near if a < x < b]
        if not inside:
            return x
        x = math.floor(min(inside))
    return None


def content_box(page: tuple[float, float]) -> Rect:
    edge = PRINTABLE_MARGIN + MARK_GAP
    top = edge + LABEL_BAND
    return Rect(edge, top, page[0] - 2 * edge, page[1] - top - edge)


def plan_tiles(width: float, height: float, paper: str, keep: tuple[Box, ...] = (),
               spend_paper: bool = True) -> TilePlan:
    """Tiles for a `width` x `height` map on `paper`, portrait or landscape, whose seams cut no box of `keep`
    (map points) in the fewest pages. First a grid whose vertical seams run straight through every row (with
    `spend_paper` False, seams move back only within the room the last tile leaves, so the page count is what
    the paper alone needs); where that cuts a box, staggered rows (each row's vertical seams placed for the
    boxes in that row alone, as bricks: the rows are joined first, then to each other), which may take more
    tiles: the fewest that cut nothing, counted in `extra_sheets`. Where nothing clears every box, the grid
    that cuts the fewest (pnpgen.maps.seams.crossings names them)."""
    options = []
    for clear in (SEAM_CLEAR, 0.0):   # a seam that only grazes a box's 1 mm margin beats a sheet more
        options += _options(width, height, paper, keep, clear, spend_paper)
    order = (lambda o: o[:5]) if spend_paper else (lambda o: (o[0] > 0, o[1], o[2], o[0], o[3], o[4]))
    *_, landscape, _, _, cols, rows = min(options, key=order)
    return laid_out(width, height, paper, landscape, cols, rows)


def laid_out(width: float, height: float, paper: str, landscape: bool, cols: list, rows: list) -> TilePlan:
    """The plan of a `width` x `height` map whose rows of tiles start at `rows` and each row's tiles at its list
    in `cols` (map points), on `paper` turned `landscape`: what plan_tiles chose, made into tiles, or a choice
    kept from an earlier build (TilePlan.choice)."""
    page = paper_size(paper, landscape)
    box = content_box(page)
    tiles = _tiles(cols, rows, (width, height), box)
    least = min(len(seam_starts(width, b.w, ())[0]) * len(seam_starts(height, b.h, ())[0])
                for b in (content_box(paper_size(paper, land)) for land in (False, True)))
    return TilePlan(paper, landscape, page, box, max(map(len, cols)), len(rows), tiles,
                    (tuple(cols[0][1:]), tuple(rows[1:])), tuple(tuple(c[1:]) for c in cols), len(tiles) - least)


def _options(width: float, height: float, paper: str, keep: tuple, clear: float, spend_paper: bool) -> list:
    """(cuts, pages, margin rank, kind rank, landscape, page, box, each row's tile starts, row starts) of each
    plan that keeps `clear` points between a seam and a box: the straight grid and, where it cuts, staggered rows."""
    xs = [(x0 - clear, x1 + clear, y0, y1) for x0, y0, x1, y1 in keep]
    ys = [(y0 - clear, y1 + clear) for _, y0, _, y1 in keep]
    rank, options = int(clear < SEAM_CLEAR), []
    for landscape in (False, True):
        page = paper_size(paper, landscape)
        box = content_box(page)
        slack_x, slack_y = (_slack(width, box.w), _slack(height, box.h)) if not spend_paper else (math.inf,) * 2
        (cols, cut_x), (rows, cut_y) = (seam_starts(width, box.w, [s[:2] for s in xs], slack=slack_x),
                                        seam_starts(height, box.h, ys, slack=slack_y))
        options.append((cut_x + cut_y, len(cols) * len(rows), rank, 0, landscape, page, box, [cols] * len(rows), rows))
        if cut_x + cut_y:
            options += [o[:2] + (rank,) + o[2:] for o in _staggered(width, height, box, xs, ys, landscape, page)]
    return options


def _staggered(width: float, height: float, box: Rect, xs: list, ys: list, landscape: bool, page) -> list:
    """The staggered option (cuts, pages, rank, ...) for one orientation: rows where the paper alone puts
    them (else as far on as the boxes let them), each row's vertical seams clear of the boxes that row keeps
    in view; none when a box cuts anyway."""
    options = []
    for slack in (_slack(height, box.h), math.inf):
        rows, cut = seam_starts(height, box.h, ys, slack=slack)
        if cut:
            continue
        ends = rows[1:] + [height]
        cols = [seam_starts(width, box.w, [(a, b) for a, b, y0, y1 in xs if y0 < end and y1 > start])
                for start, end in zip(rows, ends)]
        if not any(cut for _, cut in cols):
            options.append((0, sum(len(c) for c, _ in cols), 1, landscape, page, box, [c for c, _ in cols], rows))
    return options


def _slack(length: float, window: float) -> float:
    """How far the seams may move back in all and the tiles the paper needs still cover `length`."""
    starts, _ = seam_starts(length, window, ())
    return starts[-1] + window - length


def tile_label(row: int, col: int) -> str:
    return f"{chr(ord('A') + row)}{col + 1}"


def _tiles(cols: list, rows: list, size: tuple, box: Rect) -> tuple[Tile, ...]:
    """Every tile, row by row (each row with its own vertical seams), numbered in reading order; the ticks of
    a horizontal seam sit at the thirds of what a tile shares with each tile across it, so both halves meet."""
    width, height = size
    kept = [[(xs[c], xs[c + 1] if c + 1 < len(xs) else width) for c in range(len(xs))] for xs in cols]
    tiles, page = [], 1
    for r, xs in enumerate(cols):
        for c in range(len(xs)):
            above = [k for k in (kept[r - 1] if r else []) if _shared(k, kept[r][c])]
            below = [k for k in (kept[r + 1] if r + 1 < len(rows) else []) if _shared(k, kept[r][c])]
            tiles.append(_tile((xs, rows), size, box, r, c, page, (above, below), cols))
            page += 1
    return tuple(tiles)


def _shared(a: tuple, b: tuple) -> tuple | None:
    """The part of the map two kept ranges (start, end) share along a seam; None when they only touch."""
    start, end = max(a[0], b[0]), min(a[1], b[1])
    return (start, end) if end > start + 1e-6 else None


def _tile(starts: tuple, size: tuple, box: Rect, row: int, col: int, page: int = 0,
          across: tuple = ([], []), cols: list | None = None) -> Tile:
    """The tile at (row, col): its map from its own seam to the next seam plus the overlap (or the map's end);
    `across`: the kept ranges of the tiles above and below it that it meets (staggered rows meet several)."""
    (xs, ys), (width, height) = starts, size
    sx, sy = xs[col], ys[row]
    ex = xs[col + 1] + OVERLAP if col + 1 < len(xs) else width
    ey = ys[row + 1] + OVERLAP if row + 1 < len(ys) else height
    source = Rect(sx, sy, ex - sx, ey - sy)
    clip = Rect(box.x, box.y, source.w, source.h)
    sides = {"left": col > 0, "right": col < len(xs) - 1, "top": row > 0, "bottom": row < len(ys) - 1}
    kept = (sx, sy, xs[col + 1] if sides["right"] else ex, ys[row + 1] if sides["bottom"] else ey)
    neighbours = {"left": tile_label(row, col - 1), "right": tile_label(row, col + 1)}
    for side, step, ranges in (("top", -1, across[0]), ("bottom", 1, across[1])):
        row_xs = (cols or [xs] * len(ys))[row + step] if sides[side] else []
        labels = [tile_label(row + step, c) for c in range(len(row_xs))
                  if _shared((row_xs[c], row_xs[c + 1] if c + 1 < len(row_xs) else width), kept[::2])]
        neighbours[side] = labels[0] if len(labels) == 1 else labels
    neighbours = {s: neighbours[s] for s in ("left", "right", "top", "bottom") if sides[s]}
    shared = [[_shared(k, kept[::2]) for k in ranges] or [kept[::2]] for ranges in across]
    return Tile(label=tile_label(row, col), row=row, col=col, page=page or row * len(xs) + col + 1, source=source,
                at=(box.x - sx, box.y - sy), clip=clip, trims=_trims(clip, sides), glue=_glue(clip, sides),
                crops=_crops(clip, sides), neighbours=neighbours, ticks=_ticks(clip, kept, source, sides, shared))


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


def _ticks(clip: Rect, kept: Box, source: Rect, sides: dict, shared: list | None = None) -> tuple[Line, ...]:
    """Two ticks per seam side, at a third and two thirds of the map both tiles keep along it, so the ticks of
    two neighbours line up (they share the seam's map): on the covered tile each runs from the seam across
    its GLUE strip; on the cut tile, through the margin its cut takes off, up to its dashed edge. Nothing
    of them stays on the assembled map. `shared`: the ranges along its top and its bottom seam that it shares
    with each tile across (its whole kept width where the rows are not staggered)."""
    dx, dy = clip.x - source.x, clip.y - source.y
    above, below = shared or ([kept[::2]], [kept[::2]])
    across_x = [y + dy for y in _thirds(kept[1], kept[3])]
    along_top = [x + dx for a, b in above for x in _thirds(a, b)]
    along_bottom = [x + dx for a, b in below for x in _thirds(a, b)]
    ticks = []
    seam_x, seam_y, gap = kept[2] + dx, kept[3] + dy, TICK_CLEAR
    if sides["right"]:
        ticks += [(seam_x + gap, y, seam_x + MARK_ARM, y) for y in across_x]
    if sides["bottom"]:
        ticks += [(x, seam_y + gap, x, seam_y + MARK_ARM) for x in along_bottom]
    if sides["left"]:
        ticks += [(clip.x - MARK_GAP + 1, y, clip.x - gap, y) for y in across_x]
    if sides["top"]:
        ticks += [(x, clip.y - MARK_GAP + 1, x, clip.y - gap) for x in along_top]
    return tuple(ticks)


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
    glue = (core_words("Glue each tile over the GLUE strip of its neighbour, its cut edge along the ends of the pink ticks: the hex lines run on.")
            if hex_lines else
            core_words("Glue each tile over the GLUE strip of its neighbour, its cut edge along the ends of the pink ticks: the lines run on."))
    join = (core_words("Join the tiles of each row first, then the rows; trim the outer edge at the corner ticks.")
            if plan.rows > 1 and plan.cols > 1 else
            core_words("Join the tiles in order; trim the outer edge at the corner ticks."))
    return [first, lay.format(row=row, cols=cols),
            core_words("Cut each tile along its dashed edges (left and top); leave its other edges as they are."),
            glue, join]