"""Drawing on a reportlab canvas: title bands, cut marks and fitted content. Reads positions, decides none."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from pnpgen.aids.fit import Fitted, Frame, draw_fitted
from pnpgen.render.print_scaling import ask_print_at_full_size
from pnpgen.aids.styles import CUT_MARK, band_fonts
from pnpgen.aids.takes import draw_once
from pnpgen.documents.inline_icons import IconCanvas, lay_icons
from pnpgen.documents.paragraphs import needs_paragraph
from pnpgen.fonts import CONDENSED_FACE as CONDENSED, register_reportlab_fonts
from pnpgen.render.drawn_text import DrawnGlyphs
from pnpgen.model import Colour


def open_canvas(path: Path, title: str, size: tuple[float, float]) -> Canvas:
    """A deterministic PDF canvas (fixed dates and ids) with the shipped fonts available; it records where
    the kit's inline icons go (pnpgen.documents.inline_icons), for close_canvas to draw them, and every glyph
    it sets (`drawn_glyphs`, pnpgen.render.drawn_text), for the overprint check."""
    register_reportlab_fonts()
    canvas = IconCanvas(str(path), pagesize=size, invariant=1, pageCompression=1, initialFontName=CONDENSED,
                        initialFontSize=8)
    canvas.drawn_glyphs = DrawnGlyphs()
    canvas.setTitle(title)
    canvas.setAuthor("pnpgen")
    canvas.setCreator("pnpgen")
    return canvas


def title_band(canvas: Canvas, frame: Frame, colour: Colour, left: str, right: str) -> None:
    """A band in the player's colour; the text uses the colour's own ink so it reads on it."""
    canvas.saveState()
    canvas.setFillColor(colors.HexColor(colour.print))
    canvas.setStrokeColor(colors.HexColor(colour.ink))   # shows the band's edge on a white (neutral) band
    canvas.setLineWidth(0.6)
    canvas.roundRect(frame.x, frame.y, frame.width, frame.height, 3, stroke=1, fill=1)
    canvas.setFillColor(colors.HexColor(colour.ink))
    baseline = frame.y + frame.height / 2 - 3.6
    title_font, words_font = band_fonts()
    canvas.setFont(title_font, 11)
    if needs_paragraph(left):
        _title_with_icons(canvas, left, frame.x + 6, baseline, title_font, colour.ink, frame.width - 12)
    else:
        canvas.drawString(frame.x + 6, baseline, left)
    canvas.setFont(words_font, 8)
    canvas.drawRightString(frame.x + frame.width - 6, baseline + 0.6, right)
    canvas.restoreState()


def _title_with_icons(canvas: Canvas, title: str, x: float, baseline: float, font: str, ink: str,
                      width: float) -> None:
    """A band title holding the kit's icons: one line set as a paragraph whose baseline is the band's (the
    icons one em square on it, drawn by close_canvas)."""
    from pnpgen.xml_escape import escape

    from reportlab import rl_config
    from reportlab.lib.styles import ParagraphStyle

    from pnpgen.documents.paragraphs import paragraph
    style = ParagraphStyle("band", fontName=font, fontSize=11, leading=11, textColor=colors.HexColor(ink))
    line = paragraph(escape(title), style, "a title band")
    _, height = line.wrap(width, 40)
    first = line.blPara.lines[0]    # reportlab sets the first baseline this far below the paragraph's top
    drop = style.fontSize if rl_config.paraFontSizeHeightOffset else getattr(first, "ascent", style.fontSize)
    line.drawOn(canvas, x, baseline - height + drop)


@contextmanager
def card_clip(canvas: Canvas, card: Frame, turned: bool):
    """Draw inside the card only (nothing of a face strays onto its neighbour); a turned face is drawn half
    a turn round the card's centre, so a back placed by a top-bottom flip reads upright behind its front."""
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(card.x, card.y, card.width, card.height)
    canvas.clipPath(path, stroke=0, fill=0)
    if turned:
        canvas.translate(card.x + card.width / 2, card.y + card.height / 2)
        canvas.rotate(180)
        canvas.translate(-(card.x + card.width / 2), -(card.y + card.height / 2))
    try:
        yield
    finally:
        canvas.restoreState()


def close_canvas(canvas: IconCanvas, path: Path, kit) -> None:
    """Write the PDF with the kit's icons drawn in the slots its text left; without icons, asking viewers to
    print at 100 % as it is written (pnpgen.render.print_scaling: the build's post-pass then has nothing to add and
    loads no pypdf)."""
    from pnpgen.whole_files import write_whole
    data = canvas.getpdfdata()
    if canvas.icon_places:
        data = lay_icons(data, canvas.icon_places, kit.icons, kit.root, Path(path).name)
    else:
        data = ask_print_at_full_size(data)
    write_whole(Path(path), data)


def margin_note(canvas: Canvas, where: tuple[float, float], text: str) -> None:
    """The sheet's print line, centred in the page margin at `where`, in grey."""
    canvas.saveState()
    canvas.setFillGray(0.35)
    canvas.setFont(band_fonts()[1], 8)
    canvas.drawCentredString(*where, text)
    canvas.restoreState()


def cut_marks(canvas: Canvas, segments) -> None:
    canvas.saveState()
    canvas.setStrokeColor(CUT_MARK)
    canvas.setLineWidth(0.5)
    for x1, y1, x2, y2 in segments:
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def content(canvas: Canvas, fitted: Fitted, frame: Frame) -> None:
    """The measured blocks in their frame: drawn the first time, the first drawing's marks repeated for
    every later copy in the same place (pnpgen.aids.takes: each colour's copy of a card or sheet)."""
    draw_once(canvas, fitted, (frame.x, frame.y, frame.width, frame.height),
              lambda: draw_fitted(canvas, fitted, frame))
