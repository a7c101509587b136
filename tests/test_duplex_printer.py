"""The virtual duplex printer: every kit (data/ and tests/kits/), Letter and A4, both flips. Each back page is
turned over as paper turns (per the page's orientation, printing.md) and every back's drawn outline, read from
the PDF's own drawing, must land within 0.1 mm of its front's, standing the same way up. Every double-sided
file says on its first page the one flip the build uses; every kit with backs gets a calibration sheet.

The kit builds and their checks live in tests/duplex_builds.py: this file runs them for the test kits (every
kit no other file takes), tests/test_duplex_kit_*.py for each shipped kit, so xdist spreads them."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from pnpgen.cli import main
from tests.duplex_builds import (ROOT, check_build, kit_checks, test_every_back_lands_on_its_front,  # noqa: F401
                                  test_every_shipped_kit_prints_with_bleed_wherever_its_art_meets_a_cut,
                                  test_every_two_sided_file_says_the_builds_one_flip_and_the_kit_has_a_calibration_sheet)
from tests.duplex_printer import MM, where_paper_puts, Drawn

printed = kit_checks(None)


def test_the_printer_itself_turns_paper_as_printing_md_says():
    """The checker's own flips: a portrait long flip mirrors left-right; a landscape long flip mirrors
    top-bottom and stands the piece on its head; short flips the other way round."""
    piece = Drawn(10, 20, 30, 40, False)
    assert where_paper_puts(piece, 600, 800, "long") == Drawn(560, 20, 30, 40, False)
    assert where_paper_puts(piece, 600, 800, "short") == Drawn(10, 740, 30, 40, True)
    assert where_paper_puts(piece, 800, 600, "long") == Drawn(10, 540, 30, 40, True)
    assert where_paper_puts(piece, 800, 600, "short") == Drawn(760, 20, 30, 40, False)
    assert 0.28 < 0.1 * MM < 0.29


@pytest.mark.parametrize("paper", ["letter", "a4", "a3"])
@pytest.mark.parametrize("landscape", [False, True])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_the_core_rule_agrees_with_the_printer_on_every_paper(paper, landscape, flip):
    """pnpgen.duplex's back, turned over by the virtual printer, lands on its front (any paper, either way
    round); a back offset read off the portrait calibration sheet shifts it by that much in the paper's own
    frame (a landscape page is fed turned a quarter, its top edge to the paper's left)."""
    from pnpgen.duplex import back_place
    from pnpgen.paper import paper_size
    page = paper_size(paper, landscape)
    front = Drawn(40.0, 60.0, 90.0, 126.0, False)
    place = back_place(front.x, front.y, front.w, front.h, page, flip)
    landed = where_paper_puts(Drawn(place.x, place.y, front.w, front.h, place.turned), *page, flip)
    assert (landed.x, landed.y, landed.upside_down) == pytest.approx((front.x, front.y, False))
    shifted = back_place(front.x, front.y, front.w, front.h, page, flip, offset=(1 * MM, 2 * MM))
    dx, dy = (shifted.x - place.x) / MM, (shifted.y - place.y) / MM
    assert (dx, dy) == pytest.approx((-2, 1) if landscape else (1, 2))


@pytest.mark.parametrize("per_sheet", [1, 2])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_aid_card_backs_land_on_their_fronts_and_take_the_offset(per_sheet, flip):
    """The aid cards' sheet (bottom-left origin): each back turned over lands on its front; the offset moves
    it as on the component sheets (y up here, so a shift down is a smaller y)."""
    from pnpgen.aids.imposition import card_sheet
    plain, shifted = card_sheet("a4", per_sheet, flip), card_sheet("a4", per_sheet, flip, (1 * MM, 2 * MM))
    landscape = plain.width > plain.height
    for index, front in enumerate(plain.slots):
        back = plain.back_slot(index)
        landed = where_paper_puts(Drawn(back.x, back.y, back.width, back.height, plain.back_turned()),
                                  plain.width, plain.height, flip)
        assert (landed.x, landed.y, landed.upside_down) == pytest.approx((front.x, front.y, False))
        moved = shifted.back_slot(index)
        assert ((moved.x - back.x) / MM, (moved.y - back.y) / MM) == pytest.approx((-2, -1) if landscape else (1, -2))


def test_a_one_sided_table_in_a_two_sided_file_gets_blank_backs(tmp_path):
    """A designer prints one-sided chits in the same file as two-sided cards: the chits leave their places on
    the backs blank, the file still goes front, back, front, back and the cards' backs land on their fronts."""
    import shutil
    kit = tmp_path / "mini"
    shutil.copytree(ROOT / "tests" / "kits" / "mini", kit)
    chits = kit / "components" / "chits.yaml"
    chits.write_text(chits.read_text(encoding="utf-8").replace("front: chit\n", "front: chit\ngroup: cards\n"),
                     encoding="utf-8")
    settings = kit / "kit.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("  chits: {gutter: 3mm}\n", ""), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--data", str(kit), "--out", str(out), "-q", "--only", "components"]) == 0
    reader = PdfReader(str(out / "mini" / "cards.pdf"))
    titles = [page.extract_text() for page in reader.pages]
    assert [(" front " in t, " back " in t) for t in titles] == [(True, False), (False, True)] * (len(titles) // 2)
    assert "flip on the long edge" in titles[0]
    found = check_build(out / "mini", "long")
    assert found["checked"] > 0 and not found["bad"], found["bad"]


def test_the_first_page_names_the_calibration_sheet_and_the_offset_in_use(tmp_path):
    """A two-sided file's first page says where to check the backs' alignment, and, when built with an offset,
    that its backs are shifted by it; later pages and one-sided files say neither."""
    out = tmp_path / "out"
    assert main(["build", "--data", str(ROOT / "tests" / "kits" / "mini"), "--out", str(out), "-q", "--only",
                 "components", "--back-offset", "1,-0.5"]) == 0
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(str(out / "mini" / "tokens-red.pdf")).pages]
    assert "Print duplex-calibration.pdf two-sided" in pages[0] and "shifted 1.0,-0.5 mm" in pages[0]
    assert not any("duplex-calibration" in text for text in pages[1:])
    assert "duplex-calibration" not in PdfReader(str(out / "mini" / "chits.pdf")).pages[0].extract_text()
