"""Type size and contrast where the earlier preflight did not look (issue 37): the rules booklet's pages, boards
and hex maps, aid cards and record sheets, and faces cairosvg draws beyond the SVG subset. Each rule fails on
a small case, found from what the drawing recorded, never from the PDF."""
from __future__ import annotations

import io
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from pnpgen.cli import main
from pnpgen.preflight import Rules
from tests.conftest import edit

KITS = Path(__file__).parent / "kits"


def _typeset(story) -> dict:
    """What the booklet's layout recorded of `story` set on half-Letter body pages (laid: glyphs, chapters)."""
    from reportlab.platypus import NextPageTemplate
    from pnpgen.booklet.document import BookletDoc, build_recording_icons
    laid: dict = {}
    doc = BookletDoc(io.BytesIO(), SimpleNamespace(title="Mini"), (396, 612))
    doc.pageTemplates.sort(key=lambda t: t.id != "body")
    build_recording_icons(doc, [NextPageTemplate("body"), *story], None, laid)
    return laid


def test_the_booklet_holds_body_text_to_8_pt_small_print_to_6_pt_and_text_to_its_contrast():
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph
    from pnpgen.booklet.styles import styles, table_look
    from pnpgen.documents.make import check_type
    from pnpgen.documents.table_data import TableData
    from pnpgen.documents.table_flow import table_flowable
    from pnpgen.problems import BuildError
    st = styles()
    small_body = ParagraphStyle("body", parent=st["body"], fontSize=7.5)
    tiny_caption = ParagraphStyle("caption", parent=st["caption"], fontSize=5.5)
    faint = ParagraphStyle("body", parent=st["body"], textColor="#aaaaaa")
    story = [Paragraph("Read me", st["body"]), Paragraph("Squint here", small_body),
             Paragraph("Tiny credit", tiny_caption), Paragraph("Pale words", faint),
             table_flowable(TableData(("Head", "Other"), (("cell", "7.6 pt"),), (1, 1)), 300, table_look())]
    laid = _typeset(story)
    with pytest.raises(BuildError) as raised:
        check_type(SimpleNamespace(), "booklet.pdf", {**laid, "sources": [(1, "rules/01-play.md")]})
    lines = str(raised.value).splitlines()[1:]
    assert lines == ["rules/01-play.md: booklet.pdf page 1: text 'Squint here' is 7.5 pt, below the 8 pt minimum",
                     "rules/01-play.md: booklet.pdf page 1: text 'Tiny credit' is 5.5 pt, below the 6 pt minimum "
                     "for small print",
                     "rules/01-play.md: booklet.pdf page 1: text 'Pale words' (#aaaaaa on #ffffff) has a contrast of "
                     "2.3:1, below 4.5:1"]
    # the table's 7.6 pt cells, its white head on the dark fill and the 7.2 pt running header pass
    check_type(SimpleNamespace(), "booklet.pdf", _typeset(story[:1] + story[-1:]))


def test_an_aid_card_holds_its_text_to_a_card_s_7_pt_save_what_is_drawn_as_small_print(tmp_path):
    from pnpgen.page_contrast import drawn_sizes
    from pnpgen.render.drawn_text import DrawnGlyphs, GlyphCanvas
    canvas = GlyphCanvas(str(tmp_path / "p.pdf"), pagesize=(200, 200))
    canvas.drawn_glyphs = DrawnGlyphs()
    canvas.setFont("Helvetica", 6.5)
    canvas.drawString(20, 110, "kit ruling 3")
    canvas.small_print = True
    canvas.drawString(20, 60, "cut here")
    canvas.showPage()
    # (a line the canvas set in one string is recorded as one run, its words run together)
    assert drawn_sizes(canvas.drawn_glyphs, 7, 6) == [(1, "text 'kitruling3' is 6.5 pt, below the 7 pt minimum")]


def test_an_aid_card_chart_cell_at_6_pt_stops_the_build_naming_the_card(tmp_path, capsys):
    kit = tmp_path / "typeset"
    shutil.copytree(KITS / "typeset", kit)
    edit(kit / "aids" / "cards.yaml", '- text: "Sell one good;', '- text: "<font size=6>(kit ruling 1)</font> Sell one good;')
    assert main(["build", "--data", str(kit), "--out", str(tmp_path / "out"), "-q", "--only", "cards"]) == 1
    err = capsys.readouterr().err
    assert "aids/cards.yaml: aid-cards.pdf page 1 (trade (front)" in err
    assert "text '(kitruling1)' is 6 pt, below the 7 pt minimum" in err


def test_a_board_s_text_below_6_pt_or_faint_on_its_fill_stops_the_build_located(tmp_path, capsys):
    kit = tmp_path / "mini"
    shutil.copytree(KITS / "mini", kit)
    edit(kit / "boards" / "board.yaml", 'text: "My Game", size: 8, anchor: middle, fill: "#ffffff"',
         'text: "My Game", size: 1.8, anchor: middle, fill: "#ffffff"')
    edit(kit / "boards" / "board.yaml", '  - {x: 140, y: 14,', '  - {x: 140, y: 30, text: "Dusk", size: 6, '
         'anchor: middle, fill: "#2a3550"}\n  - {x: 140, y: 14,')
    assert main(["build", "--data", str(kit), "--out", str(tmp_path / "out"), "-q", "--only", "boards"]) == 1
    err = capsys.readouterr().err
    assert "boards/board.yaml: board board: " in err
    assert "text 'My Game' at (" in err and "is 5.1 pt, below the 6 pt minimum" in err
    assert "text 'Dusk' (#2a3550 on #10182b) has a contrast of 1.5:1, below 4.5:1" in err


def test_a_hex_map_or_board_drawn_at_its_size_is_held_to_6_pt_and_to_its_fill():
    from pnpgen.preflight import art_checks
    from pnpgen.render.pdf import render_svg
    art = render_svg('<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="50mm" viewBox="0 0 100 50">'
                     '<rect width="100" height="50" fill="#e0e0e0"/>'
                     '<text x="5" y="10" font-size="1.9">A1</text>'
                     '<text x="5" y="30" font-size="4" fill="#9e9e9e">Nebula</text>'
                     '<text x="5" y="45" font-size="4">Home</text></svg>')
    found = art_checks(art, Rules())
    assert len(found) == 2
    assert found[0].startswith("text 'A1' at (") and found[0].endswith("is 5.4 pt, below the 6 pt minimum")
    assert found[1] == "text 'Nebula' (#9e9e9e on #e0e0e0) has a contrast of 2.0:1, below 4.5:1"


GRADIENT = ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88"><defs>'
            '<linearGradient id="g"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#dddddd"/>'
            '</linearGradient></defs><rect width="63" height="40" fill="url(#g)"/>'
            '<text x="5" y="20" font-size="4" fill="#ffffff">Ghost</text>'
            '<text x="5" y="70" font-size="4" fill="#1a1a1a">Plain</text></svg>')


def test_a_face_cairosvg_draws_past_the_store_is_checked_for_contrast(tmp_path):
    """A gradient is beyond the SVG subset and beyond what the face store replays: the face is drawn by
    cairosvg with no stored record, and its contrast was not checked before. The gradient counts as the
    mean of its stops."""
    from pnpgen.preflight import contrasts
    from pnpgen.render.ink_lines import read_ink
    from pnpgen.render.piece_arts import draw_face
    art, record, _ = draw_face(GRADIENT, "cards.yaml:3", tmp_path)
    assert record is None and art.ops is not None
    assert contrasts(art.texts, read_ink(art.ops), Rules()) == [
        "text 'Ghost' (#ffffff on #eeeeee) has a contrast of 1.2:1, below 4.5:1"]
