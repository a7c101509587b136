"""Imposing pieces of any shape on sheets, in numbers only (points from a page's top-left corner):
the grid, mirrored backs for long- or short-edge duplex, cut lines, crop marks or per-piece cut paths.

Squares and rects abut and share cut lines unless a gutter parts them; circles and hexes get a gutter and
their own outline; hexes may nest (share edges). Bleed widens each cell so art can run past the trim.

A print group's sheets take one of two layouts (kit.yaml `sheets: GROUP: {layout: ...}`): `packed`, the
default (portrait or landscape, whichever holds more, a 30 pt title band on every page, the grid centred,
tables in bands apart), or `counter-sheet` (pnpgen.layout.packing.stack: portrait, 50 pt for the title, the
print instructions and the scale check on the file's first page and 16 pt for a title line after, the rows
top-aligned, each table on a new row right below the last, cut lines on the backs too).
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.duplex import back_place, mirrors_top_bottom, page_offset
from pnpgen.lengths import parse_length
from pnpgen.paper import PRINTABLE_MARGIN, paper_points
from pnpgen.shapes import Shape

HEADER = 30.0                       # title line and scale bars above the grid
PACKED, COUNTER_SHEET = "packed", "counter-sheet"
LAYOUTS = (PACKED, COUNTER_SHEET)
COUNTER_SHEET_HEADERS = (50.0, 16.0)  # a file's first page (title, print instructions, scale check), the others
CROP_GAP, CROP_LEN = parse_length("1mm"), parse_length("4mm")
CROP_SHORTEST = parse_length("2mm")  # a crop mark shortened to stay inside the printable area keeps this much
DEFAULT_GUTTER = {"square": 0.0, "rect": 0.0, "circle": parse_length("2mm"), "hex": parse_length("2mm")}
DEFAULT_MARKS = {"square": "lines", "rect": "lines", "circle": "outline", "hex": "outline"}


@dataclass(frozen=True)
class SheetSettings:
    paper: tuple[float, float]
    gutter: float
    marks: str
    bleed: float
    duplex: str
    nest: bool
    back_offset: tuple[float, float] = (0.0, 0.0)
    layout: str = PACKED                # how the group's pages are laid out: PACKED or COUNTER_SHEET
    row_gutter: float | None = None     # the gap between rows where it is not `gutter` (kit.yaml row_gutter)

    @property
    def row_gap(self) -> float:
        """The gap between two rows of the grid: `row_gutter`, or the gutter between columns."""
        return self.gutter if self.row_gutter is None else self.row_gutter


@dataclass(frozen=True)
class Slot:
    index: int          # the piece's position in the batch
    x: float
    y: float
    turned: bool = False


@dataclass(frozen=True)
class SheetPage:
    size: tuple[float, float]
    side: str                       # front or back
    slots: tuple[Slot, ...]
    cuts: tuple[tuple, ...]         # straight cut lines and crop marks: (x1, y1, x2, y2)
    outlines: tuple[tuple, ...]     # per-piece cut paths: Shape.outline commands
    header: tuple[float, float, float, float]
    header_side: str = "top"        # top, or left (turned a quarter) where a top band would cost a row


def settings_for(shape: Shape, sheet: dict | None, paper: str, duplex: str = "long",
                 back_offset: tuple[float, float] = (0.0, 0.0)) -> SheetSettings:
    sheet = sheet or {}
    bleed = parse_length(sheet.get("bleed") or "0mm")
    nest = bool(sheet.get("nest")) and shape.kind == "hex"  # nested hexes share edges: no gutter unless asked
    gutter = parse_length(sheet["gutter"]) if sheet.get("gutter") else 0.0 if nest else DEFAULT_GUTTER[shape.kind]
    rows = max(parse_length(sheet["row_gutter"]), 2 * bleed) if sheet.get("row_gutter") else None
    return SheetSettings(paper=paper_points(sheet.get("paper"), paper), gutter=max(gutter, 2 * bleed),
                         marks=sheet.get("marks") or ("crop" if bleed else DEFAULT_MARKS[shape.kind]),
                         bleed=bleed, duplex=duplex, nest=bool(sheet.get("nest")),
                         back_offset=back_offset, layout=sheet.get("layout") or PACKED, row_gutter=rows)


def page_choices(paper: tuple[float, float]) -> list[tuple[tuple[float, float], str]]:
    """(page, header side) a sheet may take, in order of preference: portrait or landscape, the header along
    the top or (where a top band would cost a row: 9 poker cards with cut lines on Letter) along the left edge."""
    return [(page, side) for side in ("top", "left") for page in (paper, (paper[1], paper[0]))]


def cells_on(shape: Shape, s: SheetSettings, page: tuple[float, float], side: str = "top") -> list:
    """The top-left of every cell of a page holding this shape alone, the grid centred on the page."""
    left, top, avail_w, avail_h = area(page, side, mark_room(s))
    return band_cells(shape, s, left, top + centring(shape, s, avail_h), avail_w, avail_h - centring(shape, s, avail_h))


def header_box(page: tuple[float, float], side: str, room: float = HEADER) -> tuple[float, float, float, float]:
    """The title band, `room` deep, along the page's `side` inside the printable margin."""
    if side == "left":
        return (PRINTABLE_MARGIN, PRINTABLE_MARGIN, room, page[1] - 2 * PRINTABLE_MARGIN)
    if side == "right":  # a back page of a left-header sheet: its mirrored pieces leave the room on the right
        return (page[0] - PRINTABLE_MARGIN - room, PRINTABLE_MARGIN, room, page[1] - 2 * PRINTABLE_MARGIN)
    if side == "bottom":  # a back page mirrored top-bottom: the room the front's header took is at the foot
        return (PRINTABLE_MARGIN, page[1] - PRINTABLE_MARGIN - room, page[0] - 2 * PRINTABLE_MARGIN, room)
    return (PRINTABLE_MARGIN, PRINTABLE_MARGIN, page[0] - 2 * PRINTABLE_MARGIN, room)


def area(page: tuple[float, float], side: str, inset: float = 0.0) -> tuple[float, float, float, float]:
    """(left, top, width, height) of the printable area the header leaves for pieces, less `inset` on every
    side (mark_room: where crop marks go)."""
    left = PRINTABLE_MARGIN + (HEADER if side == "left" else 0) + inset
    top = PRINTABLE_MARGIN + (HEADER if side == "top" else 0) + inset
    return (left, top, page[0] - left - PRINTABLE_MARGIN - inset + 1e-6,
            page[1] - top - PRINTABLE_MARGIN - inset + 1e-6)


def mark_room(s: SheetSettings) -> float:
    """The room a grid keeps free around it inside the printable area for its crop marks: the gap and the
    shortest mark. A mark runs to its full CROP_LEN where the page has more room (cuts); a page with less
    holds fewer pieces (9 poker cards on Letter leave no room above and below: 8 go on a landscape page),
    since a cut line without its marks cannot be found."""
    return CROP_GAP + CROP_SHORTEST if s.marks == "crop" else 0.0


def mark_bounds(page: tuple[float, float], header: tuple[float, float, float, float],
                side: str) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the part of the printable area crop marks may use: all of it but the
    header band on its `side`."""
    left, top = PRINTABLE_MARGIN, PRINTABLE_MARGIN
    right, bottom = page[0] - PRINTABLE_MARGIN, page[1] - PRINTABLE_MARGIN
    x, y, w, h = header
    if side == "top":
        top = y + h
    elif side == "left":
        left = x + w
    elif side == "right":
        right = x
    elif side == "bottom":
        bottom = y
    return left, top, right, bottom


def centring(shape: Shape, s: SheetSettings, avail_h: float) -> float:
    """How far below the area's top a full grid of the shape starts, to stand centred (nested hexes: 0)."""
    if s.nest and shape.kind == "hex":
        return 0.0
    rows = int((avail_h + s.row_gap) // (shape.h + s.row_gap))
    return max(0.0, (avail_h - (rows * shape.h + (rows - 1) * s.row_gap)) / 2) if rows else 0.0


def band_cells(shape: Shape, s: SheetSettings, left: float, top: float, avail_w: float, avail_h: float) -> list:
    """Cells in rows from `top` down, as many rows as fit in `avail_h`, the columns centred across the width."""
    w, h, g, gy = shape.w, shape.h, s.gutter, s.row_gap
    if s.nest and shape.kind == "hex":
        return _nested(shape, g, left, top, avail_w, avail_h)
    cols, rows = int((avail_w + g) // (w + g)), int((avail_h + gy) // (h + gy))
    if cols < 1 or rows < 1:
        return []
    x0 = left + (avail_w - (cols * w + (cols - 1) * g)) / 2
    return [(x0 + c * (w + g), top + r * (h + gy)) for r in range(rows) for c in range(cols)]


def _nested(shape: Shape, g: float, left: float, top: float, avail_w: float, avail_h: float) -> list:
    """Hexes sharing edges: flat-topped in columns (odd ones half a hex lower), pointy in rows."""
    w, h = shape.w, shape.h
    flat = shape.orientation == "flat"
    step_x, step_y = (0.75 * w + g, h + g) if flat else (w + g, 0.75 * h + g)
    cols = int((avail_w - w) // step_x) + 1 if avail_w >= w else 0
    rows = int((avail_h - h - (h / 2 if flat else 0)) // step_y) + 1 if avail_h >= h else 0
    if not flat:
        cols = int((avail_w - w - w / 2) // step_x) + 1 if avail_w >= 1.5 * w else 0
    cells = []
    for r in range(rows):
        for c in range(cols):
            dx = (w / 2 if r % 2 else 0) if not flat else 0
            dy = (h / 2 if c % 2 else 0) if flat else 0
            cells.append((left + c * step_x + dx, top + r * step_y + dy))
    return cells


def back_slot(slot: Slot, shape: Shape, s: SheetSettings, page: tuple[float, float]) -> Slot:
    """Where a piece's back goes so it lands behind its front when the sheet is flipped on `s.duplex`
    (pnpgen.duplex: the page's orientation decides which mirror that is)."""
    place = back_place(slot.x, slot.y, shape.w, shape.h, page, s.duplex, s.back_offset)
    return Slot(slot.index, place.x, place.y, turned=place.turned)


def mirror_cut(cut: tuple, page: tuple[float, float], s: SheetSettings) -> tuple:
    """A front's cut line as it lands on the back once the sheet is flipped (the rule of back_slot), so the
    back can be cut too."""
    x1, y1, x2, y2 = cut
    dx, dy = page_offset(page, s.back_offset)
    if mirrors_top_bottom(page, s.duplex):
        return (x1 + dx, page[1] - y1 + dy, x2 + dx, page[1] - y2 + dy)
    return (page[0] - x1 + dx, y1 + dy, page[0] - x2 + dx, y2 + dy)


def back_header_side(side: str, page: tuple[float, float], duplex: str) -> str:
    """Where a back page's title goes: the band the mirrored pieces leave free (the front's, mirrored)."""
    if mirrors_top_bottom(page, duplex):
        return "bottom" if side == "top" else side
    return "right" if side == "left" else side


def cuts(shape: Shape, slots, s: SheetSettings, page, bounds: tuple | None = None) -> tuple:
    """Straight cut lines through the grid ('lines') or crop marks outside it ('crop'), the marks kept
    inside `bounds` (mark_bounds; by default the printable area). Lines run along the pieces only: a short
    last row leaves its empty cells unmarked."""
    if s.marks == "outline" or not slots:
        return ()
    if s.marks == "lines":
        return _lines(shape, slots)
    xs = sorted({round(v, 3) for sl in slots for v in (sl.x, sl.x + shape.w)})
    ys = sorted({round(v, 3) for sl in slots for v in (sl.y, sl.y + shape.h)})
    return _crop_marks(xs, ys, bounds or mark_bounds(page, (0.0, 0.0, 0.0, 0.0), ""))


def _crop_marks(xs: list, ys: list, bounds: tuple) -> tuple:
    """A mark past both ends of every cut line (at xs across, ys down), CROP_GAP off the grid, CROP_LEN
    long or as long as the room to `bounds` on that side allows."""
    left, top, right, bottom = bounds
    x_lo, x_hi, y_lo, y_hi = xs[0], xs[-1], ys[0], ys[-1]
    up, down = _mark_length(y_lo - top), _mark_length(bottom - y_hi)
    before, after = _mark_length(x_lo - left), _mark_length(right - x_hi)
    out = []
    for x in xs:
        out += [(x, y_lo - CROP_GAP - up, x, y_lo - CROP_GAP), (x, y_hi + CROP_GAP, x, y_hi + CROP_GAP + down)]
    for y in ys:
        out += [(x_lo - CROP_GAP - before, y, x_lo - CROP_GAP, y), (x_hi + CROP_GAP, y, x_hi + CROP_GAP + after, y)]
    return tuple(out)


def _mark_length(room: float) -> float:
    """How long a crop mark is with `room` points between the grid and the edge it may not pass."""
    return max(0.0, min(CROP_LEN, room - CROP_GAP))


def _lines(shape: Shape, slots) -> tuple:
    """Every piece's edges as lines, joined where pieces touch: vertical lines (sorted by x) then horizontal
    ones (by y); a full grid of abutting pieces gives one line per edge across the sheet. A gutter parts the
    lines too: each piece's edge stops at its corner and never runs across the gap (the waste between
    pieces) to the next piece's."""
    vertical, horizontal = {}, {}
    for sl in slots:
        x0, x1, y0, y1 = (round(v, 3) for v in (sl.x, sl.x + shape.w, sl.y, sl.y + shape.h))
        for x in (x0, x1):
            vertical.setdefault(x, []).append((y0, y1))
        for y in (y0, y1):
            horizontal.setdefault(y, []).append((x0, x1))
    out = [(x, lo, x, hi) for x in sorted(vertical) for lo, hi in _joined(vertical[x])]
    return tuple(out + [(lo, y, hi, y) for y in sorted(horizontal) for lo, hi in _joined(horizontal[y])])


def _joined(spans: list) -> list:
    """Spans along one line merged where they overlap or touch."""
    merged = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1] + 1e-3:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def outlines(shape: Shape, slots, s: SheetSettings) -> tuple:
    """Each piece's own cut path: always for circles and hexes; for rects with rounded corners too."""
    if s.marks == "outline" or shape.kind in ("circle", "hex") or shape.radius:
        return tuple(cmd for sl in slots for cmd in shape.outline(sl.x, sl.y))
    return ()
