"""Drawing imposed sheets of pieces: faces where layout put them, cut lines, crop marks and cut paths,
a title line and the scale check. Reads positions, never decides them."""
from __future__ import annotations

import math

from pnpgen.layout.sheets import SheetPage
from pnpgen.render.counter_sheets import FAMILY, draw_cuts, draw_scale, draw_title_lines, paint_art


def draw_sheet_page(cr, page: SheetPage, arts: list, shape, bleed: float, title: str, flip: str = "",
                    hint: str = "", lines: tuple[str, ...] = ()) -> None:
    """`flip`: how a two-sided file must be printed ("flip on the long edge"), said on its front pages;
    `hint`: one more line under it (the file's first page: where to check the backs' alignment). A counter
    sheet's header is its `lines` instead: a title line, and on the file's first page the print
    instructions beside the scale check."""
    for slot in page.slots:
        art = arts[slot.index]
        if art is not None:
            paint_art(cr, art, slot.x - bleed, slot.y - bleed, slot.turned)
    draw_cut_paths(cr, page.cuts, page.outlines)
    if lines:
        draw_title_lines(cr, page.header, lines, scale=len(lines) > 1)
    else:
        draw_header(cr, page, title, flip, hint)


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
        two_sided = f", two-sided, {flip}" if flip else ""
        cr.show_text(f"Print at 100 % (actual size, no fit to page){two_sided}; both bars must measure true.")
        if hint:
            cr.move_to(x, y + 27)
            cr.show_text(hint)
        draw_scale(cr, x + w, y + 1)
    cr.restore()
