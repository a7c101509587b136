"""Text read back out of a built PDF as lines with their glyph boxes (pnpgen.page_overprint joins them), in mm
from the top-left corner of a piece's placement or of the page: what the overprint tests hold against the
geometry the templates promise."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from pnpgen.page_overprint import page_lines as pdf_page_lines

MM = 72 / 25.4


@dataclass(frozen=True)
class Line:
    text: str        # without spaces (pdfium's character boxes do not say where words break)
    size: float      # points
    x0: float        # mm, from the left of the region
    top: float       # mm, from the top of the region
    x1: float
    bottom: float


def page_lines(pdf: Path, page_number: int, region: tuple | None = None) -> list[Line]:
    """The text lines of a page, or of those inside `region` (x, y, w, h) in points from the page's top-left."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[page_number - 1]
        x, y, w, h = region or (0, 0, page.get_width(), page.get_height())
        return [Line(text, size, (box[0] - x) / MM, (box[1] - y) / MM, (box[2] - x) / MM, (box[3] - y) / MM)
                for text, box, size in pdf_page_lines(page)
                if box[2] > x and box[0] < x + w and box[3] > y and box[1] < y + h]
    finally:
        document.close()


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
