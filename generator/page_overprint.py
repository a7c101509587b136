"""Preflight of pages set straight onto a PDF (aid cards and record sheets, typeset by reportlab): they have
no recorded face to read, so the written file is read back with pdfium, its glyphs joined into lines, and
two lines whose ink overlaps are reported with their page, where on it, and both texts."""
from __future__ import annotations

import ctypes
from pathlib import Path

from pnpgen.overlaps import OVERLAP, overlapping_pairs

PT_TO_MM = 25.4 / 72


def page_lines(page) -> list[tuple[str, tuple, float]]:
    """(text, (x0, top, x1, bottom) in points from the top-left, size in points) of every line of glyphs on
    a pdfium page: a glyph joins the line before it when it shares its baseline and follows it closely."""
    import pypdfium2.raw as pdfium_c
    height = page.get_height()
    text = page.get_textpage()
    lines: list[list] = []
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
        box = (left, height - top, right, height - bottom)
        last = lines[-1] if lines else None
        if last and abs(last[-1][2] - origin.value) < 0.5 and -size * 0.4 < left - last[-1][1][2] < size * 0.9:
            last.append((char, box, origin.value, size))
        else:
            lines.append([(char, box, origin.value, size)])
    return [("".join(g[0] for g in glyphs), _union([g[1] for g in glyphs]), max(g[3] for g in glyphs))
            for glyphs in lines]


def _union(boxes) -> tuple:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def overlapping_lines(lines) -> list[tuple[str, str, tuple]]:
    """(text, other text, shared box) of every two lines whose ink overlaps by more than OVERLAP each way,
    in the order of their tops (pnpgen.overlaps: a grid, not every pair)."""
    ordered = sorted(lines, key=lambda line: line[1][1])
    return [(ordered[a][0], ordered[b][0], shared)
            for a, b, shared in overlapping_pairs([line[1] for line in ordered], OVERLAP)]


def pdf_overprints(path: Path) -> list[tuple[int, str]]:
    """(page number, finding) for every two lines of text that overprint each other in a written PDF."""
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(path))
    try:
        return [(number, f"text {_short(a)!r} overprints text {_short(b)!r} at "
                         f"({box[0] * PT_TO_MM:.1f}, {box[1] * PT_TO_MM:.1f}) mm")
                for number, page in enumerate(document, 1) for a, b, box in overlapping_lines(page_lines(page))]
    finally:
        document.close()


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
