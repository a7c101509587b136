"""Imposing pieces of any shape on sheets, in numbers only (points from a page's top-left corner):
the grid, mirrored backs for long- or short-edge duplex, cut lines, crop marks or per-piece cut paths.

Squares and rects abut and share cut lines unless a gutter parts them; circles and hexes get a gutter and
their own outline; hexes may nest (share edges). Bleed widens each cell so art can run past the trim.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.duplex import back_place, mirrors_top_bottom
from pnpgen.lengths import parse_length
from pnpgen.paper import PAPER, PRINTABLE_MARGIN
from pnpgen.problems import Problems
from pnpgen.shapes import PAIR, Shape

HEADER = 30.0                       # title line and scale bars above the grid
CROP_GAP, CROP_LEN = parse_length("1mm"), parse_length("4mm")
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


def paper_points(name: str | None, default: str) -> tuple[float, float]:
    """letter, a4, a3 or WIDTHxHEIGHT with a unit, in points (portrait as written)."""
    name = (name or default).strip()
    if name in PAPER:
        return PAPER[name]
    match = PAIR.fullmatch(name)
    if not match:
        raise ValueError(f"unknown paper {name!r}: use letter, a4, a3 or WIDTHxHEIGHT such as 11x17in")
    unit = match.group(3)
    return parse_length(match.group(1) + unit), parse_length(match.group(2) + unit)


def settings_for(shape: Shape, sheet: dict | None, paper: str, duplex: str = "long",
                 back_offset: tuple[float, float] = (0.0, 0.0)) -> SheetSettings:
    sheet = sheet or {}
    bleed = parse_length(sheet.get("bleed") or "0mm")
    gutter = parse_length(sheet["gutter"]) if sheet.get("gutter") else DEFAULT_GUTTER[shape.kind]
    return SheetSettings(paper=paper_points(sheet.get("paper"), paper), gutter=max(gutter, 2 * bleed),
                         marks=sheet.get("marks") or ("crop" if bleed else DEFAULT_MARKS[shape.kind]),
                         bleed=bleed, duplex=duplex, nest=bool(sheet.get("nest")),
                         back_offset=back_offset)


def grid(shape: Shape, s: SheetSettings) -> tuple[tuple[float, float], list[tuple[float, float]], str]:
    """The page (portrait or landscape), the top-left of every cell, and the header's side: whichever
    holds the most pieces (9 poker cards on Letter need the header turned along the left edge)."""
    best = None
    for side in ("top", "left"):
        for page in (s.paper, (s.paper[1], s.paper[0])):
            cells = _cells(shape, s, page, side)
            if best is None or len(cells) > len(best[1]):
                best = (page, cells, side)
    return best


def header_box(page: tuple[float, float], side: str) -> tuple[float, float, float, float]:
    if side == "left":
        return (PRINTABLE_MARGIN, PRINTABLE_MARGIN, HEADER, page[1] - 2 * PRINTABLE_MARGIN)
    if side == "right":  # a back page of a left-header sheet: its mirrored pieces leave the room on the right
        return (page[0] - PRINTABLE_MARGIN - HEADER, PRINTABLE_MARGIN, HEADER, page[1] - 2 * PRINTABLE_MARGIN)
    if side == "bottom":  # a back page mirrored top-bottom: the room the front's header took is at the foot
        return (PRINTABLE_MARGIN, page[1] - PRINTABLE_MARGIN - HEADER, page[0] - 2 * PRINTABLE_MARGIN, HEADER)
    return (PRINTABLE_MARGIN, PRINTABLE_MARGIN, page[0] - 2 * PRINTABLE_MARGIN, HEADER)


def _cells(shape: Shape, s: SheetSettings, page: tuple[float, float], side: str = "top") -> list[tuple[float, float]]:
    left = PRINTABLE_MARGIN + (HEADER if side == "left" else 0)
    top = PRINTABLE_MARGIN + (HEADER if side == "top" else 0)
    avail_w, avail_h = page[0] - left - PRINTABLE_MARGIN + 1e-6, page[1] - top - PRINTABLE_MARGIN + 1e-6
    w, h, g = shape.w, shape.h, s.gutter
    if s.nest and shape.kind == "hex":
        return _nested(shape, g, left, top, avail_w, avail_h)
    cols, rows = int((avail_w + g) // (w + g)), int((avail_h + g) // (h + g))
    if cols < 1 or rows < 1:
        return []
    x0 = left + (avail_w - (cols * w + (cols - 1) * g)) / 2
    y0 = top + (avail_h - (rows * h + (rows - 1) * g)) / 2
    return [(x0 + c * (w + g), y0 + r * (h + g)) for r in range(rows) for c in range(cols)]


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


def impose(shape: Shape, count: int, s: SheetSettings, two_sided: bool) -> list[SheetPage]:
    """Front page, back page, front page ... holding `count` pieces of one shape."""
    page, cells, side = grid(shape, s)
    if not cells:
        raise ValueError(f"a {shape.kind} of {shape.w:.1f} x {shape.h:.1f} pt does not fit the printable area "
                         f"of a {s.paper[0]:.0f} x {s.paper[1]:.0f} pt sheet")
    pages = []
    for start in range(0, count, len(cells)):
        slots = tuple(Slot(start + i, x, y) for i, (x, y) in enumerate(cells[:count - start]))
        header = header_box(page, side)
        pages.append(SheetPage(page, "front", slots, cuts(shape, slots, s, page), outlines(shape, slots, s),
                               header, side))
        if two_sided:
            backs = tuple(back_slot(slot, shape, s, page) for slot in slots)
            back_side = back_header_side(side, page, s.duplex)
            pages.append(SheetPage(page, "back", backs, (), (), header_box(page, back_side), back_side))
    return pages


def with_blank_backs(pages: list[SheetPage], duplex: str) -> list[SheetPage]:
    """A one-sided batch printed in a two-sided file: a blank back after each front page, so the file stays
    front, back, front, back ... and every later back still lands behind its own front."""
    out = []
    for page in pages:
        side = back_header_side(page.header_side, page.size, duplex)
        out += [page, SheetPage(page.size, "back", (), (), (), header_box(page.size, side), side)]
    return out


def back_slot(slot: Slot, shape: Shape, s: SheetSettings, page: tuple[float, float]) -> Slot:
    """Where a piece's back goes so it lands behind its front when the sheet is flipped on `s.duplex`
    (pnpgen.duplex: the page's orientation decides which mirror that is)."""
    place = back_place(slot.x, slot.y, shape.w, shape.h, page, s.duplex, s.back_offset)
    return Slot(slot.index, place.x, place.y, turned=place.turned)


def back_header_side(side: str, page: tuple[float, float], duplex: str) -> str:
    """Where a back page's title goes: the band the mirrored pieces leave free (the front's, mirrored)."""
    if mirrors_top_bottom(page, duplex):
        return "bottom" if side == "top" else side
    return "right" if side == "left" else side


def cuts(shape: Shape, slots, s: SheetSettings, page) -> tuple:
    """Straight cut lines through the grid ('lines') or crop marks outside it ('crop')."""
    if s.marks == "outline" or not slots:
        return ()
    xs = sorted({round(v, 3) for sl in slots for v in (sl.x, sl.x + shape.w)})
    ys = sorted({round(v, 3) for sl in slots for v in (sl.y, sl.y + shape.h)})
    x_lo, x_hi, y_lo, y_hi = xs[0], xs[-1], ys[0], ys[-1]
    if s.marks == "lines":
        return tuple([(x, y_lo, x, y_hi) for x in xs] + [(x_lo, y, x_hi, y) for y in ys])
    out = []
    for x in xs:
        out += [(x, y_lo - CROP_GAP - CROP_LEN, x, y_lo - CROP_GAP), (x, y_hi + CROP_GAP, x, y_hi + CROP_GAP + CROP_LEN)]
    for y in ys:
        out += [(x_lo - CROP_GAP - CROP_LEN, y, x_lo - CROP_GAP, y), (x_hi + CROP_GAP, y, x_hi + CROP_GAP + CROP_LEN, y)]
    return tuple(out)


def outlines(shape: Shape, slots, s: SheetSettings) -> tuple:
    """Each piece's own cut path: always for circles and hexes; for rects with rounded corners too."""
    if s.marks == "outline" or shape.kind in ("circle", "hex") or shape.radius:
        return tuple(cmd for sl in slots for cmd in shape.outline(sl.x, sl.y))
    return ()


def check_sheets(sheets: dict, groups: set, table_groups: set, kit_file, lines: dict, problems: Problems) -> None:
    """Sheet settings must name a print group that exists and a paper that parses."""
    known = table_groups | groups
    for name, sheet in sheets.items():
        line = lines.get(("kit", f"sheets.{name}"), ("", 0))[1]
        if name not in known:
            problems.error(kit_file, line, f"sheets.{name}", f"no print group named {name!r} "
                           f"(groups: {', '.join(sorted(table_groups)) or 'none'})")
        if sheet.get("paper"):
            try:
                paper_points(sheet["paper"], "letter")
            except ValueError as exc:
                problems.error(kit_file, line, f"sheets.{name}.paper", str(exc))
