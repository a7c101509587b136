"""Drawing on a reportlab canvas: title bands, cut marks and fitted content. Reads positions, decides none."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from pnpgen.aids.fit import Fitted, Frame, draw_fitted
from pnpgen.aids.styles import CONDENSED, CONDENSED_BOLD, CUT_MARK
from pnpgen.fonts import register_reportlab_fonts
from pnpgen.model import Colour


def open_canvas(path: Path, title: str, size: tuple[float, float]) -> Canvas:
    """A deterministic PDF canvas (fixed dates and ids) with the shipped fonts available."""
    register_reportlab_fonts()
    canvas = Canvas(str(path), pagesize=size, invariant=1, pageCompression=1, initialFontName=CONDENSED,
                    initialFontSize=8)
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
    canvas.setFont(CONDENSED_BOLD, 11)
    canvas.drawString(frame.x + 6, baseline, left)
    canvas.setFont(CONDENSED, 8)
    canvas.drawRightString(frame.x + frame.width - 6, baseline + 0.6, right)
    canvas.restoreState()


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


def cut_marks(canvas: Canvas, segments) -> None:
    canvas.saveState()
    canvas.setStrokeColor(CUT_MARK)
    canvas.setLineWidth(0.5)
    for x1, y1, x2, y2 in segments:
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def content(canvas: Canvas, fitted: Fitted, frame: Frame) -> None:
    draw_fitted(canvas, fitted, frame)
