"""Drawing the duplex calibration sheet from pnpgen.layout.calibration: front cross, back scales, and
the words that tell the user what to do with the number they read."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnpgen.fonts import FAMILY
from pnpgen.layout.calibration import Calibration
from pnpgen.render.pdf import PdfDocument
from pnpgen.render.png import save_png


@dataclass(frozen=True)
class CalibrationFile:
    path: str
    title: str
    layout: Calibration
    front_lines: tuple[str, ...]
    back_lines: tuple[str, ...]
    previews: tuple[str, ...]
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


def text_box(job: "CalibrationFile") -> tuple[float, float, float]:
    """Left x, first baseline and right limit of the instructions: inside the margin and 1/4 in from the edge."""
    left = max(job.margin, EDGE) + 10
    return left, max(job.margin, EDGE) + 20, job.layout.page[0] - left


def centred(cr, text: str, x: float, y: float, size: float) -> None:
    cr.select_font_face(FAMILY, 0, 0)
    cr.set_font_size(size)
    extents = cr.text_extents(text)
    cr.move_to(x - extents[4] / 2, y)
    cr.show_text(text)


def draw_front(cr, job: CalibrationFile) -> None:
    cr.set_source_rgb(0, 0, 0)
    cr.set_line_width(0.5)
    for x1, y1, x2, y2 in job.layout.cross:
        cr.move_to(x1, y1)
        cr.line_to(x2, y2)
    cr.stroke()
    left, top, right = text_box(job)
    write_lines(cr, job.front_lines, left, top, right)


def draw_back(cr, job: CalibrationFile) -> None:
    lay = job.layout
    cr.set_source_rgb(0, 0, 0)
    cr.set_line_width(0.5)
    for tick in lay.x_ticks + lay.y_ticks:
        cr.move_to(tick.x1, tick.y1)
        cr.line_to(tick.x2, tick.y2)
    cr.stroke()
    for tick in lay.x_ticks:
        if tick.label:
            centred(cr, tick.label, *tick.label_at, 7)
    for tick in lay.y_ticks:
        if tick.label:
            centred(cr, tick.label, *tick.label_at, 7)
    cr.select_font_face(FAMILY, 0, 1)
    centred(cr, "X (mm)", *lay.x_title_at, 9)
    centred(cr, "Y (mm)", *lay.y_title_at, 9)
    left, top, right = text_box(job)
    write_lines(cr, job.back_lines, left, top, right)


def write_calibration(job: CalibrationFile) -> int:
    doc = PdfDocument(Path(job.path), job.title, *job.layout.page, final=True)
    for draw in (draw_front, draw_back):
        doc.new_page()
        draw(doc.context, job)
    doc.close()
    for draw, preview in zip((draw_front, draw_back), job.previews):
        save_png(preview, job.layout.page, lambda cr, draw=draw: draw(cr, job))
    return 0
