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
    # the back of the first sheet starts with page 2: drawn half a turn round on the right half, where a
    # long-edge flip (the build's default) turns the sheet over top to bottom and brings it to the left, upright
    back = _half_text(imposed, 1, left=False)
    assert "Contents" in back and not _half_text(imposed, 1, left=True).startswith("Contents")


def _four_pages() -> bytes:
    import io
    from reportlab.pdfgen.canvas import Canvas
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(396, 612), invariant=1)
    for number in range(1, 5):
        canvas.drawString(72, 500, f"page {number}")
        canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize("flip,turned", [("long", True), ("short", False)])
def test_back_sides_are_turned_for_a_long_edge_flip_only(flip, turned):
    """On a landscape sheet a long-edge flip stands the back side on its head, so its pages are drawn half a
    turn round (printing.md); a short-edge flip needs them as they are. Fronts are never turned."""
    from pnpgen.booklet.impose import impose
    reader = PdfReader(__import__("io").BytesIO(impose(_four_pages(), (792.0, 612.0), flip)))
    front, back = (page.get_contents().get_data().decode() for page in reader.pages)
    assert "-1 0 0 -1" not in front
    assert ("-1 0 0 -1" in back) == turned
    words = reader.pages[1].extract_text()
    assert "page 2" in words and "page 3" in words
