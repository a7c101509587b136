"""Text read back out of a built PDF as lines with their ink-ish boxes (pdfium's character boxes), in mm
from the top-left corner of a piece's placement or of the page: what the overprint tests hold against the
geometry the templates promise."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

MM = 72 / 25.4


@dataclass(frozen=True)
class Line:
    text: str
    size: float      # points
    x0: float        # mm, from the left of the region
    top: float       # mm, from the top of the region
    x1: float
    bottom: float


def page_lines(pdf: Path, page_number: int, region: tuple | None = None) -> list[Line]:
    """The text lines of a page (or of `region` (x, y, w, h) in points from the page's top-left): glyphs
    joined while they share a baseline and follow each other closely."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[page_number - 1]
        height = page.get_height()
        text = page.get_textpage()
        x, y, w, h = region or (0, 0, page.get_width(), height)
        lines: list[list] = []
        origin_y, matrix = ctypes.c_double(), pdfium_c.FS_MATRIX()
        for i in range(text.count_chars()):
            char = chr(pdfium_c.FPDFText_GetUnicode(text.raw, i))
            left, bottom, right, top = text.get_charbox(i)
            if char.isspace() or right <= left:
                continue
            pdfium_c.FPDFText_GetCharOrigin(text.raw, i, ctypes.byref(ctypes.c_double()), ctypes.byref(origin_y))
            box = (left - x, height - top - y, right - x, height - bottom - y)
            if box[2] < 0 or box[0] > w or box[3] < 0 or box[1] > h:
                continue
            pdfium_c.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
            size = pdfium_c.FPDFText_GetFontSize(text.raw, i) * abs(matrix.d)
            last = lines[-1] if lines else None
            if last and abs(last[-1][2] - origin_y.value) < 0.5 and -size * 0.4 < box[0] - last[-1][1][2] < size * 0.6:
                last.append((char, box, origin_y.value, size))
            else:
                lines.append([(char, box, origin_y.value, size)])
        return [_line(glyphs) for glyphs in lines]
    finally:
        document.close()


def _line(glyphs) -> Line:
    """One line; its text without spaces (pdfium's character boxes do not say where words break)."""
    boxes = [g[1] for g in glyphs]
    return Line("".join(g[0] for g in glyphs), max(g[3] for g in glyphs), min(b[0] for b in boxes) / MM,
                min(b[1] for b in boxes) / MM, max(b[2] for b in boxes) / MM, max(b[3] for b in boxes) / MM)


def placement_lines(root: Path, placement: dict) -> list[Line]:
    """The lines printed on one placed piece, in mm from its top-left corner."""
    p = placement
    return page_lines(root / p["file"], p["page"], (p["x"], p["y"], p["w"], p["h"]))


def touching(lines: list[Line], gap_mm: float) -> list[tuple[str, str]]:
    """Pairs of lines whose boxes come closer than `gap_mm` (overlap included) both across and down."""
    found = []
    for index, a in enumerate(lines):
        for b in lines[index + 1:]:
            apart_x = max(b.x0 - a.x1, a.x0 - b.x1)
            apart_y = max(b.top - a.bottom, a.top - b.bottom)
            if apart_x < gap_mm and apart_y < gap_mm:
                found.append((a.text, b.text))
    return found
