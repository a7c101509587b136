"""Preflight of pages set straight onto a PDF (aid cards and record sheets, typeset by reportlab): the glyphs
the canvas recorded as it set them (pnpgen.render.drawn_text) are joined into lines, and two lines whose ink
overlaps are reported with their page, where on it, and both texts. A build never reads its own PDF back to
check it; `pdf_overprints` reads a written file the same way (pdfium's glyph boxes), for tests and for a
PDF that came from elsewhere."""
from __future__ import annotations

import ctypes
from pathlib import Path

from pnpgen.overlaps import OVERLAP, overlapping_pairs

PT_TO_MM = 25.4 / 72
SWEPT = 64   # boxes reaching down to a line's top beyond which the sweep gives way to the grid


def page_lines(page) -> list[tuple[str, tuple, float]]:
    """(text, (x0, top, x1, bottom) in points from the top-left, size in points) of every line of glyphs on
    a pdfium page."""
    import pypdfium2.raw as pdfium_c
    height = page.get_height()
    text = page.get_textpage()
    glyphs = []
    raw, origin, matrix = text.raw, ctypes.c_double(), pdfium_c.FS_MATRIX()
    edges = [ctypes.c_double() for _ in range(4)]
    refs = [ctypes.byref(edge) for edge in edges]
    for index in range(text.count_chars()):
        char = chr(pdfium_c.FPDFText_GetUnicode(raw, index))
        if char.isspace():
            continue
        pdfium_c.FPDFText_GetCharBox(raw, index, *refs)          # left, right, bottom, top
        left, right, bottom, top = (edge.value for edge in edges)
        if right <= left:
            continue
        pdfium_c.FPDFText_GetCharOrigin(raw, index, ctypes.byref(ctypes.c_double()), ctypes.byref(origin))
        pdfium_c.FPDFText_GetMatrix(raw, index, ctypes.byref(matrix))
        size = pdfium_c.FPDFText_GetFontSize(raw, index) * abs(matrix.d)
        glyphs.append((char, (left, height - top, right, height - bottom), origin.value, size))
    return join_lines(glyphs)


def join_lines(glyphs) -> list[tuple[str, tuple, float]]:
    """(text, box, size) of the lines the glyphs (glyph, box, baseline, size[, direction]), in drawing order,
    make: a glyph joins the line before it when it shares its baseline and follows it closely. `direction`
    -1 marks text set right to left on the page (a card back turned half a turn), where a glyph follows the
    one before on its left; pdfium's glyphs carry none (left to right)."""
    lines, texts = [], None   # texts: the glyphs of the line being joined; then its box, size, last glyph
    for glyph in glyphs:
        char, box, baseline, size = glyph[0], glyph[1], glyph[2], glyph[3]
        if texts is not None:
            gap = box[0] - last[2] if len(glyph) < 5 or glyph[4] > 0 else last[0] - box[2]
            if abs(last_baseline - baseline) < 0.5 and -size * 0.4 < gap < size * 0.9:
                texts.append(char)
                x0, y0, x1, y1 = min(x0, box[0]), min(y0, box[1]), max(x1, box[2]), max(y1, box[3])
                tallest = size if size > tallest else tallest
                last, last_baseline = box, baseline
                continue
            lines.append(("".join(texts), (x0, y0, x1, y1), tallest))
        texts, (x0, y0, x1, y1), tallest, last, last_baseline = [char], box, size, box, baseline
    if texts is not None:
        lines.append(("".join(texts), (x0, y0, x1, y1), tallest))
    return lines


def overlapping_lines(lines) -> list[tuple[str, str, tuple]]:
    """(text, other text, shared box) of every two lines whose ink overlaps by more than OVERLAP each way,
    in the order of their tops (pnpgen.overlaps: a grid, not every pair)."""
    ordered = sorted(lines, key=lambda line: line[1][1])
    return [(ordered[a][0], ordered[b][0], shared)
            for a, b, shared in _pairs_down_the_page([line[1] for line in ordered], OVERLAP)]


def _pairs_down_the_page(boxes: list, margin: float) -> list[tuple[int, int, tuple]]:
    """overlapping_pairs(boxes, margin) of boxes in the order of their tops, found by sweeping down the page:
    each box is held only against the boxes above whose bottoms reach more than `margin` below its top (a
    line of text: the few lines of its row), those that do not are dropped for good (later tops are lower).
    The same pairs in the same order, a quarter of the grid's time on a record sheet's table of single
    digits; a page where more than SWEPT boxes reach that far (tall boxes) is left to the grid."""
    found, above = [], []
    for index, box in enumerate(boxes):
        x0, y0, x1, y1 = box
        if x1 - x0 <= margin or y1 - y0 <= margin:
            continue   # too thin to share more than the margin with anything (as the grid)
        reaching = []
        for other in above:
            first = boxes[other]
            if first[3] - y0 <= margin:
                continue
            reaching.append(other)
            if first[2] - x0 > margin and x1 - first[0] > margin:   # else their shared width is no more
                shared = (max(first[0], x0), max(first[1], y0), min(first[2], x1), min(first[3], y1))
                if shared[2] - shared[0] > margin and shared[3] - shared[1] > margin:
                    found.append((other, index, shared))
        reaching.append(index)
        if len(reaching) > SWEPT:
            return overlapping_pairs(boxes, margin)
        above = reaching
    found.sort(key=lambda pair: (pair[0], pair[1]))
    return found


def drawn_overprints(drawn_glyphs: dict) -> list[tuple[int, str]]:
    """(page number, finding) for every two lines of text that overprint each other, from the glyphs a
    pnpgen.render.drawn_text.GlyphCanvas recorded ({page: glyphs})."""
    return [(number, finding) for number in sorted(drawn_glyphs)
            for finding in _findings(join_lines(drawn_glyphs[number]))]


def pdf_overprints(path: Path) -> list[tuple[int, str]]:
    """(page number, finding) for every two lines of text that overprint each other in a written PDF."""
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(path))
    try:
        return [(number, finding) for number, page in enumerate(document, 1) for finding in _findings(page_lines(page))]
    finally:
        document.close()


def _findings(lines) -> list[str]:
    return [f"text {_short(a)!r} overprints text {_short(b)!r} at ({box[0] * PT_TO_MM:.1f}, {box[1] * PT_TO_MM:.1f}) mm"
            for a, b, box in overlapping_lines(lines)]


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
