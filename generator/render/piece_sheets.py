"""Drawing imposed sheets of pieces: faces where layout put them, cut lines, crop marks and cut paths,
a title line and the scale check. Reads positions, never decides them. Its page parts (a face painted,
the cut lines on their halo, the scale check) serve the proofs too."""
from __future__ import annotations

import math

from pnpgen.fonts import FAMILY
from pnpgen.i18n.translator import core_words
from pnpgen.layout.sheets import CROP_GAP, SheetPage, mark_bounds
from pnpgen.lengths import pt_from_mm
from pnpgen.render.art import Art
from pnpgen.render.home_bleed import HOME_BLEED, paint_bleed, slot_allowances

CUT_GREY = (0.1, 0.1, 0.1)   # a near-black core ...
CUT_WIDTH = 0.3              # points: thin enough to vanish under a blade, visible enough to follow
CUT_HALO = (1.0, 1.0, 1.0)   # ... on a white halo, so the line reads on every ground: the mid-grey of old
CUT_HALO_WIDTH = 0.9         # vanished into the green and yellow patterns


def draw_sheet_page(cr, page: SheetPage, arts: list, shapes, bleed: float, title: str, flip: str = "",
                    hint: str = "", lines: tuple[str, ...] = (), bleed_memo=None) -> None:
    """`shapes`: each piece's shape by its index (pnpgen.render.home_bleed paints each face's edge colour
    past its cut, under the face), or None for no such bleed. `flip`: how a two-sided file must be printed ("flip on the long edge"), said on its front pages;
    `hint`: one more line under it (the file's first page: where to check the backs' alignment). A counter
    sheet's header is its `lines` instead: a title line, and on the file's first page the print
    instructions beside the scale check. `bleed_memo` (pnpgen.render.bleed_memo): the bleed each face
    and room was given before."""
    rooms = bleed_rooms(page, shapes, bleed_memo) if shapes else {}
    for slot in page.slots:
        art = arts[slot.index]
        if art is not None:
            if slot.index in rooms:
                paint_bleed(cr, art, shapes[slot.index], bleed, slot.x - bleed, slot.y - bleed, slot.turned,
                            rooms[slot.index], bleed_memo)
            paint_art(cr, art, slot.x - bleed, slot.y - bleed, slot.turned)
    draw_cut_paths(cr, page.cuts, page.outlines)
    if lines:
        draw_title_lines(cr, page.header, lines, scale=len(lines) > 1)
    else:
        draw_header(cr, page, title, flip, hint)


def bleed_rooms(page: SheetPage, shapes, memo=None) -> dict:
    """{slot index: (left, top, right, bottom) room for its home bleed} on this page (home_bleed.slot_allowances):
    toward the page's edge no further than the printable area and the header band, and short of the crop
    marks where the page has them. `memo` (pnpgen.render.bleed_memo): the rooms each layout was given before."""
    rects = [(slot.x, slot.y, shapes[slot.index].w, shapes[slot.index].h) for slot in page.slots]
    if not rects:
        return {}
    grid = (min(r[0] for r in rects), min(r[1] for r in rects), max(r[0] + r[2] for r in rects),
            max(r[1] + r[3] for r in rects))
    crop = any(_outside(cut, grid) for cut in page.cuts)
    outer = CROP_GAP / 2 if crop else HOME_BLEED
    rooms = slot_allowances(rects, _into_the_header(mark_bounds(page.size, page.header, page.header_side),
                                                    page.header_side), outer, memo)
    return {slot.index: room for slot, room in zip(page.slots, rooms)}


HEADER_BLEED = 0.5 * 72 / 25.4  # a grid's top row may bleed this far into the band above it: what a cut 0.5 mm off
                                # needs, and less than the 1.5 pt the lowest band text keeps above its bottom edge


def _into_the_header(bounds: tuple, side: str) -> tuple:
    """The bounds grown by HEADER_BLEED on the header band's side, so the row against the band is not left
    bare: a cut a little off would show paper there."""
    left, top, right, bottom = bounds
    grow = {"top": (0, -HEADER_BLEED, 0, 0), "bottom": (0, 0, 0, HEADER_BLEED),
            "left": (-HEADER_BLEED, 0, 0, 0), "right": (0, 0, HEADER_BLEED, 0)}.get(side, (0, 0, 0, 0))
    return left + grow[0], top + grow[1], right + grow[2], bottom + grow[3]


def _outside(cut: tuple, grid: tuple) -> bool:
    """Whether a cut segment lies wholly outside the grid's box (a crop mark, not a cut line)."""
    x1, y1, x2, y2 = cut
    left, top, right, bottom = grid
    return max(x1, x2) < left - 0.01 or min(x1, x2) > right + 0.01 or max(y1, y2) < top - 0.01 \
        or min(y1, y2) > bottom + 0.01


def draw_cut_paths(cr, cuts, outlines) -> None:
    """Cut lines and each piece's own cut path, on a white halo as on the counter sheets."""
    draw_cuts(cr, cuts, lambda context: [outline_path(context, command) for command in outlines])


def outline_path(cr, command) -> None:
    """Add one of Shape.outline's commands to the cairo path."""
    kind, *numbers = command
    if kind == "circle":
        x, y, r = numbers
        cr.new_sub_path()
        cr.arc(x, y, r, 0, 2 * math.pi)
    elif kind == "poly":
        points = numbers[0]
        cr.move_to(*points[0])
        for point in points[1:]:
            cr.line_to(*point)
        cr.close_path()
    elif kind == "round":
        x, y, w, h, r = numbers
        cr.new_sub_path()
        cr.arc(x + w - r, y + r, r, -math.pi / 2, 0)
        cr.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
        cr.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
        cr.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
        cr.close_path()
    else:
        cr.rectangle(*numbers)


def draw_header(cr, page: SheetPage, title: str, flip: str = "", hint: str = "") -> None:
    """The title at the left of the header band; the 1 in / 25 mm scale check at its right (fronts), and on
    the fronts of a two-sided file the edge to flip on."""
    x, y, w, h = page.header
    cr.save()
    if page.header_side in ("left", "right"):  # turned a quarter: reads bottom to top along the edge
        cr.translate(x, y + h)
        cr.rotate(-math.pi / 2)
        x, y, w, h = 0.0, 0.0, h, w
    cr.set_source_rgb(0.1, 0.1, 0.1)
    cr.select_font_face(FAMILY, 0, 1)
    cr.set_font_size(8)
    cr.move_to(x, y + 9)
    cr.show_text(title)
    if page.side == "front":
        cr.select_font_face(FAMILY, 0, 0)
        cr.set_font_size(6.5)
        cr.move_to(x, y + 19)
        two_sided = core_words(", two-sided, {flip}").format(flip=flip) if flip else ""
        cr.show_text(core_words("Print at 100 % (actual size, no fit to page){two_sided}; both bars must measure "
                                "true.").format(two_sided=two_sided))
        if hint:
            cr.move_to(x, y + 27)
            cr.show_text(hint)
        draw_scale(cr, x + w, y + 1)
    cr.restore()


def paint_art(cr, art: Art, x: float, y: float, turned: bool = False) -> None:
    """Paint a face at (x, y); a turned face is rotated half a turn about its centre."""
    cr.save()
    cr.translate(x, y)
    if turned:
        cr.translate(art.width, art.height)
        cr.rotate(math.pi)
    cr.set_source_surface(art.recording, 0, 0)
    cr.rectangle(0, 0, art.width, art.height)
    cr.fill()
    cr.restore()


def draw_cuts(cr, cuts, paths=None) -> None:
    """Each cut line (and cut path: `paths(cr)` adds them) twice: a white halo, then a dark core on it, so
    it reads on light and dark grounds alike."""
    cr.save()
    for colour, width in ((CUT_HALO, CUT_HALO_WIDTH), (CUT_GREY, CUT_WIDTH)):
        cr.set_source_rgb(*colour)
        cr.set_line_width(width)
        for x1, y1, x2, y2 in cuts:
            cr.move_to(x1, y1)
            cr.line_to(x2, y2)
        cr.stroke()
        if paths is not None:
            paths(cr)
            cr.stroke()
    cr.restore()


def draw_title_lines(cr, header: tuple, lines: tuple[str, ...], scale: bool) -> None:
    """Title lines in the header box (x, y, w, h), the first bold; `scale`: the scale check at the right (a
    file's first page, whose lines say how to measure it)."""
    x, y, w, h = header
    cr.save()
    cr.set_source_rgb(0.1, 0.1, 0.1)
    for number, line in enumerate(lines):
        cr.select_font_face(FAMILY, 0, 1 if number == 0 else 0)
        cr.set_font_size(9 if number == 0 else 7.5)
        cr.move_to(x, y + 10 + number * 10)
        cr.show_text(line)
    if scale:
        draw_scale(cr, x + w, y + 8)
    cr.restore()


def draw_scale(cr, right: float, top: float) -> None:
    """A 1 in and a 25 mm bar, right-aligned: if the print measures otherwise, the printer scaled it."""
    cr.set_line_width(0.6)
    for number, (length, label) in enumerate(((72.0, "1 in"), (pt_from_mm(25), "25 mm"))):
        y = top + number * 16
        left = right - 34 - length
        cr.rectangle(left, y, length, 5)
        cr.stroke()
        cr.rectangle(left, y, length / 2, 5)
        cr.fill()
        cr.select_font_face(FAMILY, 0, 0)
        cr.set_font_size(7.5)
        cr.move_to(right - 30, y + 5)
        cr.show_text(label)
