"""Drawing the duplex calibration sheet from pnpgen.layout.calibration: front cross and ring, back scales and
disc, and the words that tell the user what to do with what they see."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from pnpgen.fonts import FAMILY
from pnpgen.layout.calibration import RING, Calibration
from pnpgen.i18n.translator import core_words
from pnpgen.render.cairo_lib import cairo
from pnpgen.render.pdf import PdfDocument
from pnpgen.render.png import save_png


@dataclass(frozen=True)
class CalibrationSheet:
    layout: Calibration
    front_lines: tuple[str, ...]
    back_lines: tuple[str, ...]


@dataclass(frozen=True)
class CalibrationFile:
    path: str
    title: str
    sheets: tuple[CalibrationSheet, ...]   # the portrait sheet, then the landscape one if the kit needs it
    previews: tuple[str, ...]              # one per page, in order
    margin: float


EDGE = 18.0   # points: no word closer to the paper's edge than 1/4 in (what most printers cannot reach)


def wrapped(cr, text: str, width: float) -> list[str]:
    """The words of `text` in lines no wider than `width` at the current font."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and cr.text_extents(trial)[4] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


def write_lines(cr, lines, x: float, y: float, right: float) -> None:
    """The title (bold) and the instructions, each wrapped so that no line runs past `right`."""
    row = 0
    for number, text in enumerate(lines):
        cr.select_font_face(FAMILY, 0, 1 if number == 0 else 0)
        cr.set_font_size(11 if number == 0 else 9)
        for line in wrapped(cr, text, right - x):
            cr.move_to(x, y + row * 13)
            cr.show_text(line)
            row += 1


def text_box(margin: float, page: tuple[float, float]) -> tuple[float, float, float]:
    """Left x, first baseline and right limit of the instructions: inside the margin and 1/4 in from the edge."""
    left = max(margin, EDGE) + 10
    return left, max(margin, EDGE) + 20, page[0] - left


def centred(cr, text: str, x: float, y: float, size: float) -> None:
    cr.select_font_face(FAMILY, 0, 0)
    cr.set_font_size(size)
    extents = cr.text_extents(text)
    cr.move_to(x - extents[4] / 2, y)
    cr.show_text(text)


def arrow(cr, cx: float, cy: float, size: float) -> None:
    """An arrow pointing up (in the current frame) centred on (cx, cy), filled."""
    cr.move_to(cx, cy - size)
    cr.line_to(cx + size * 0.6, cy)
    cr.line_to(cx + size * 0.2, cy)
    cr.line_to(cx + size * 0.2, cy + size)
    cr.line_to(cx - size * 0.2, cy + size)
    cr.line_to(cx - size * 0.2, cy)
    cr.line_to(cx - size * 0.6, cy)
    cr.close_path()
    cr.fill()


def mark_art(w: float, h: float, front: bool):
    """The ring (front) or the disc (back) of the flip check, with an arrow pointing up, in its own
    recording: placed as a piece's face is (clipped, turned when its back is), so it reads back from the PDF
    as one (tests/duplex_printer.py)."""
    cairocffi = cairo()
    surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None)
    cr = cairocffi.Context(surface)
    cx, cy = w / 2, h / 2
    cr.set_source_rgb(0, 0, 0)
    if front:
        arrow(cr, cx, cy, RING * 0.45)
        cr.set_line_width(1.5)
        cr.arc(cx, cy, RING, 0, 2 * math.pi)
        cr.stroke()
    else:
        cr.arc(cx, cy, RING * 2 / 3, 0, 2 * math.pi)
        cr.fill()
        cr.set_source_rgb(1, 1, 1)
        arrow(cr, cx, cy, RING * 0.45)
    return surface


def flip_mark(cr, box: tuple, turned: bool, front: bool) -> None:
    """The flip check's ring or disc in its box, turned half a turn where the back is; its caption under it."""
    x, y, w, h = box
    cr.save()
    cr.rectangle(x, y, w, h)
    cr.clip()
    cr.translate(x, y)
    if turned:
        cr.translate(w / 2, h / 2)
        cr.rotate(math.pi)
        cr.translate(-w / 2, -h / 2)
    cr.set_source_surface(mark_art(w, h, front), 0, 0)
    cr.rectangle(0, 0, w, h)
    cr.fill()
    cr.restore()
    cr.set_source_rgb(0, 0, 0)
    cr.select_font_face(FAMILY, 0, 1)
    centred(cr, core_words("flip check"), x + w / 2, y + h + 10, 8)


def draw_front(cr, sheet: CalibrationSheet, margin: float) -> None:
    lay = sheet.layout
    cr.set_source_rgb(0, 0, 0)
    cr.set_line_width(0.5)
    for x1, y1, x2, y2 in lay.cross:
        cr.move_to(x1, y1)
        cr.line_to(x2, y2)
    cr.stroke()
    if lay.flip:
        flip_mark(cr, lay.flip.front, False, front=True)
    left, top, right = text_box(margin, lay.page)
    write_lines(cr, sheet.front_lines, left, top, right)


def draw_back(cr, sheet: CalibrationSheet, margin: float) -> None:
    lay = sheet.layout
    cr.set_source_rgb(0, 0, 0)
    cr.set_line_width(0.5)
    for tick in lay.x_ticks + lay.y_ticks:
        cr.move_to(tick.x1, tick.y1)
        cr.line_to(tick.x2, tick.y2)
    cr.stroke()
    for tick in lay.x_ticks + lay.y_ticks:
        if tick.label:
            centred(cr, tick.label, *tick.label_at, 7)
    if lay.x_ticks:
        cr.select_font_face(FAMILY, 0, 1)
        centred(cr, "X (mm)", *lay.x_title_at, 9)
        centred(cr, "Y (mm)", *lay.y_title_at, 9)
    if lay.flip:
        flip_mark(cr, lay.flip.back, lay.flip.turned, front=False)
    left, top, right = text_box(margin, lay.page)
    write_lines(cr, sheet.back_lines, left, top, right)


def write_calibration(job: CalibrationFile) -> int:
    """Front then back of each sheet, each page at its sheet's size; a preview of each page asked for."""
    pages = [(sheet, draw) for sheet in job.sheets for draw in (draw_front, draw_back)]
    doc = PdfDocument(Path(job.path), job.title, *job.sheets[0].layout.page, final=True)
    for sheet, draw in pages:
        doc.new_page(*sheet.layout.page)
        draw(doc.context, sheet, job.margin)
    doc.close()
    for (sheet, draw), preview in zip(pages, job.previews):
        save_png(preview, sheet.layout.page, lambda cr, draw=draw, sheet=sheet: draw(cr, sheet, job.margin))
    return 0
