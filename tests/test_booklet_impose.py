"""Saddle-stitch imposition: page order for folding, padding, and what lands on the first sheet."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnpgen.booklet.impose import padded, sheet_sides
from tests.test_booklet import BOOKLET, IMPOSED, built, page_texts  # noqa: F401  (module fixture reused)


@pytest.mark.parametrize("pages", [1, 2, 5, 8, 13, 22, 24])
def test_every_page_is_printed_once_on_a_multiple_of_four(pages):
    sides = sheet_sides(pages)
    placed = [p for side in sides for p in side if p is not None]
    assert len(sides) * 2 % 4 == 0 and sorted(placed) == list(range(pages))
    assert padded(pages)[-1] == (pages - 1 if pages > 1 else None)  # the back cover stays last


def test_folded_sheets_read_in_order():
    """Folding the stack: sheet fronts' right halves then backs' left halves... give pages 1, 2, 3, ..."""
    sides = sheet_sides(8)
    assert sides == [(7, 0), (1, 6), (5, 2), (3, 4)]


def _half_text(document, index, left: bool) -> str:
    page = document[index]
    width, height = page.get_size()
    x0, x1 = (0, width / 2) if left else (width / 2, width)
    return " ".join(page.get_textpage().get_text_bounded(x0, 0, x1, height).split())


def test_the_first_sheet_holds_the_last_and_the_first_page(built):
    pages = len(PdfReader(built / BOOKLET).pages)
    imposed = pdfium.PdfDocument(str(built / IMPOSED))
    assert len(imposed) == -(-pages // 4) * 2 and len(imposed) % 2 == 0
    texts = page_texts(built / BOOKLET)
    assert "Quick reference" in _half_text(imposed, 0, left=True) and "Quick reference" in texts[-1]
    assert "Rules booklet" in _half_text(imposed, 0, left=False) and "Rules booklet" in texts[0]
    back = _half_text(imposed, 1, left=True)  # the back of the first sheet starts with page 2
    assert back.startswith("Contents") and back.endswith("Contents 2")
