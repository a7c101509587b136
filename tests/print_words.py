"""Where a PDF's print instructions lie, read back with pdfium: each phrase that tells how to print (two-sided,
the flip, actual size), as boxes in points from the page's bottom-left corner, to test against cut boxes."""
from __future__ import annotations

import re

import pypdfium2 as pdfium

PRINT_PHRASES = re.compile(r"two-sided|flip on the (?:long|short) edge|actual size|100 ?%|fit to page", re.I)


def print_phrase_boxes(path, page_index: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(phrase, (left, bottom, right, top)) for every print instruction on the page."""
    page = pdfium.PdfDocument(str(path))[page_index]
    text = page.get_textpage()
    chars = [text.get_text_range(i, 1) for i in range(text.count_chars())]
    joined = "".join(chars)
    found = []
    for match in PRINT_PHRASES.finditer(joined):
        boxes = [text.get_charbox(i) for i in range(match.start(), match.end()) if chars[i].strip()]
        found.append((match.group(0), (min(b[0] for b in boxes), min(b[1] for b in boxes),
                                       max(b[2] for b in boxes), max(b[3] for b in boxes))))
    return found


def inside(box: tuple, cut: list | tuple) -> bool:
    """Does the phrase's box overlap the cut box (x, y, w, h; bottom-left origin)?"""
    x, y, w, h = cut
    return box[0] < x + w and x < box[2] and box[1] < y + h and y < box[3]
