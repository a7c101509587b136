"""pnpgen.aids.takes: a measured block drawn again in the same place and canvas state repeats the first
drawing's marks, and the PDF and the preflight's records are exactly what drawing it again would make."""
from __future__ import annotations

from reportlab.lib import colors
from reportlab.platypus import Paragraph

from pnpgen.aids.draw import content, open_canvas
from pnpgen.aids.fit import Frame, draw_fitted, fit
from pnpgen.aids.styles import grid_table, styles
from pnpgen.documents.inline_icons import with_icons

FRAME, OTHER = Frame(20, 20, 200, 260), Frame(240, 20, 200, 260)


def _blocks(extra: str = "") -> list:
    body = styles()["body"]
    return [Paragraph("<b>Heading</b> and a line long enough to wrap onto a second line of the frame", body),
            Paragraph(with_icons(f"Gain 2 :credit: each turn{extra}", {"credit": "credit.svg"}, body.fontSize), body),
            grid_table([["Round", "1", "2"], ["Income", "", ""], ["Total", "", ""]], [80, 60, 60], shaded_rows=[2])]


def _pages(path, fitted, repeat: bool, between=None):
    """Three pages: the block in FRAME on the first two, in OTHER on the third; `between(canvas)` runs
    before each drawing."""
    canvas = open_canvas(path, "takes", (460, 300))
    for frame in (FRAME, FRAME, OTHER):
        canvas.drawString(30, 285, "a band")   # glyphs before the block's: its grounds count from them
        canvas.saveState()
        if between:
            between(canvas)
        if repeat:
            content(canvas, fitted, frame)
        else:
            draw_fitted(canvas, fitted, frame)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    drawn = canvas.drawn_glyphs
    return canvas, path.read_bytes(), (dict(drawn), drawn.inks, drawn.fine, drawn.grounds, canvas.icon_places)


def _same_as_drawn_again(tmp_path, blocks, between=None):
    fitted = fit(blocks, FRAME.width, FRAME.height, "a test card")
    canvas, pdf, records = _pages(tmp_path / "takes.pdf", fitted, True, between)
    _, again, drawn_again = _pages(tmp_path / "again.pdf", fitted, False, between)
    assert pdf == again
    assert records == drawn_again
    return canvas, records


def test_a_block_drawn_again_in_its_place_repeats_its_marks_byte_for_byte(tmp_path):
    canvas, (glyphs, inks, fine, grounds, icons) = _same_as_drawn_again(tmp_path, _blocks())
    assert len(canvas._takes) == 2                          # one take a place: the second page repeated the first
    assert len(glyphs[1]) == len(glyphs[2]) > 5 and glyphs[1] == glyphs[2]
    assert len(grounds[2]) == len(grounds[1]) >= 2          # the table's shaded rows, under its own glyphs
    assert [page for _, page, _ in icons] == [1, 2, 3]      # the icon's slot on every page, the turned one too


def test_a_drawing_that_changes_more_than_its_marks_is_drawn_every_time(tmp_path):
    linked = _blocks(' <a href="https://example.org">rules</a>')   # an annotation on the page
    canvas, _ = _same_as_drawn_again(tmp_path, linked)
    assert canvas._takes == {}


def test_another_canvas_state_is_another_take(tmp_path):
    def ink(canvas):   # the second page's block is drawn in another fill colour than the first's
        canvas.setFillColor(colors.blue if canvas.getPageNumber() == 2 else colors.red)
    canvas, _ = _same_as_drawn_again(tmp_path, _blocks(), ink)
    assert len(canvas._takes) == 3
