"""Crop marks where a home printer prints them (leftovers item 1): poker cards with `marks: crop`, on Letter
and on A4 (and with cut lines, 9 to a Letter page), read back from the PDF's own paths. Every crop mark, cut
line, scale bar and header word must lie inside the printable area (PRINTABLE_MARGIN from every edge), and
every cut line must still get its two marks."""
from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from pnpgen.cli import main
from pnpgen.layout.packing import Run, impose
from pnpgen.layout.sheets import CROP_SHORTEST, settings_for
from pnpgen.paper import PRINTABLE_MARGIN
from pnpgen.shapes import Shape
from tests.conftest import edit
from tests.counters_helpers import face_forms

POKER = Shape("rect", 180.0, 252.0)
TOLERANCE = 0.01  # points: cairo writes coordinates to two or three decimals


@pytest.fixture(scope="module", params=[("letter", "crop"), ("a4", "crop"), ("letter", "lines")],
                ids=["letter-crop", "a4-crop", "letter-lines"])
def card_sheets(request, tmp_path_factory):
    """The blank kit (12 poker cards, `cards: {marks: crop}`) built on one paper, or with cut lines (9 a page
    on Letter, the title along the left edge): (its cards PDF, the marks)."""
    paper, marks = request.param
    root = tmp_path_factory.mktemp(f"marks-{paper}-{marks}")
    assert main(["new", "--blank", str(root / "kit")]) == 0
    edit(root / "kit" / "kit.yaml", "  cards: {marks: crop}", f"  cards: {{marks: {marks}}}")
    assert main(["build", "--data", str(root / "kit"), "--out", str(root / "out"), "--paper", paper,
                 "-q", "--only", "components"]) == 0
    return pdfium.PdfDocument(str(root / "out" / "kit" / "cards.pdf")), marks


def _paths(page):
    """Each top-level path of a page as (stroke width, [(segment type, x, y)]) in PDF points."""
    out = []
    for obj in page.get_objects(max_depth=1):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        a, b, c, d, e, f = obj.get_matrix().get()
        points = []
        for number in range(pdfium_c.FPDFPath_CountSegments(obj.raw)):
            segment = pdfium_c.FPDFPath_GetPathSegment(obj.raw, number)
            x, y = ctypes.c_float(), ctypes.c_float()
            pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
            points.append((pdfium_c.FPDFPathSegment_GetType(segment), a * x.value + c * y.value + e,
                           b * x.value + d * y.value + f))
        width = ctypes.c_float()
        pdfium_c.FPDFPageObj_GetStrokeWidth(obj.raw, width)
        out.append((round(width.value, 2), points))
    return out


def _marks(page) -> list[tuple]:
    """The crop marks as drawn: the thin dark strokes made only of straight moves-and-lines pairs."""
    marks = []
    for width, points in _paths(page):
        kinds = [kind for kind, _, _ in points]
        if width == 0.3 and kinds == [pdfium_c.FPDF_SEGMENT_MOVETO, pdfium_c.FPDF_SEGMENT_LINETO] * (len(kinds) // 2):
            marks += [(points[i][1:], points[i + 1][1:]) for i in range(0, len(points), 2)]
    return marks


def test_every_mark_and_header_line_prints_inside_the_printable_area(card_sheets):
    pdf, _ = card_sheets
    for page in pdf:
        width, height = page.get_size()
        for _, points in _paths(page):
            for _, x, y in points:
                assert PRINTABLE_MARGIN - TOLERANCE <= x <= width - PRINTABLE_MARGIN + TOLERANCE, (x, y)
                assert PRINTABLE_MARGIN - TOLERANCE <= y <= height - PRINTABLE_MARGIN + TOLERANCE, (x, y)
        for obj in page.get_objects(max_depth=1):
            if obj.type == pdfium_c.FPDF_PAGEOBJ_TEXT:
                left, bottom, right, top = obj.get_bounds()
                assert left >= PRINTABLE_MARGIN - 0.5 and right <= width - PRINTABLE_MARGIN + 0.5
                assert bottom >= PRINTABLE_MARGIN - 0.5 and top <= height - PRINTABLE_MARGIN + 0.5


def test_every_cut_line_keeps_a_mark_at_both_ends(card_sheets):
    """A full sheet's grid of C columns and R rows has C + 1 vertical and R + 1 horizontal cut lines, each
    marked at both ends by a mark no shorter than CROP_SHORTEST."""
    pdf, marks = card_sheets
    front = pdf[0]
    if marks == "lines":  # no marks to count: cut lines instead, and 9 cards on Letter, the title at the left
        cards = face_forms(front)
        assert len(cards) == 9 and front.get_size() == (612.0, 792.0)
        return
    marks = _marks(front)
    lengths = [abs(x2 - x1) + abs(y2 - y1) for (x1, y1), (x2, y2) in marks]
    verticals = {round(x1, 1) for (x1, _), (x2, _) in marks if abs(x1 - x2) < TOLERANCE}
    horizontals = {round(y1, 1) for (_, y1), (_, y2) in marks if abs(y1 - y2) < TOLERANCE}
    cards_on_page = (len(verticals) - 1) * (len(horizontals) - 1)
    assert cards_on_page >= 8
    assert len(marks) == 2 * (len(verticals) + len(horizontals))
    assert min(lengths) >= CROP_SHORTEST - TOLERANCE


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marked_cards_keep_room_for_their_marks(paper):
    """In numbers: each crop mark of every page of a deck stays inside the printable area and off the
    title band, whichever way the page turned."""
    settings = settings_for(POKER, {"gutter": "0mm", "marks": "crop"}, paper)
    for page in impose([Run(POKER, 30, settings, True)]):
        x, y, w, h = page.header
        for x1, y1, x2, y2 in page.cuts:
            for px, py in ((x1, y1), (x2, y2)):
                assert PRINTABLE_MARGIN - TOLERANCE <= px <= page.size[0] - PRINTABLE_MARGIN + TOLERANCE
                assert PRINTABLE_MARGIN - TOLERANCE <= py <= page.size[1] - PRINTABLE_MARGIN + TOLERANCE
                assert not (x + TOLERANCE < px < x + w - TOLERANCE and y + TOLERANCE < py < y + h - TOLERANCE)
