"""Every glyph a reportlab canvas sets, recorded where it is set: its ink box on the page, its baseline and
its size, page by page. The text object already knows the font, the size, the pen and the matrices when it
writes a string, so the box costs a few multiplications here; reading the written PDF back through pdfium to
find the same boxes cost more than drawing the page. The aid cards' and record sheets' overprint check
(pnpgen.page_overprint.drawn_overprints) reads this record; the contrast check (pnpgen.page_contrast) reads
the colour each glyph was set in and the filled rectangles and pictures drawn before it, kept beside it
(DrawnGlyphs.inks and .grounds).

Boxes are in points from the page's top-left corner, as pnpgen.page_overprint.page_lines reads them out of
a PDF: the glyph's outline box from the font's `glyf` table (what pdfium reports for a TrueType glyph), or
the font's ascent and descent for a font without outlines to read (the standard Type 1 fonts).
"""
from __future__ import annotations

import re
import struct

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

_FONTS: dict = {}   # font name -> _FontInk
RUNS_KEPT = 20_000  # strings whose run shape a font keeps (see _FontInk.run)


class DrawnGlyphs(dict):
    """{page number: [glyph records]} (see GlyphCanvas), with beside them `inks` {page: [(r, g, b) of each
    glyph record, in step]}, `fine` {page: [whether it was set as small print (GlyphCanvas.small_print), in
    step]} and `grounds` {page: [(glyphs set before it, box, (r, g, b) or None for a picture, alpha)]}:
    every filled rectangle and picture drawn, in the same top-left points as the boxes."""

    def __init__(self):
        super().__init__()
        self.inks: dict = {}
        self.fine: dict = {}
        self.grounds: dict = {}
        self.coarse = False   # True: a record per string set, boxed by the font's ascent and descent, not per
                              # glyph's ink (enough for size and contrast; the overprint check needs the ink)


class GlyphCanvas(Canvas):
    """A reportlab canvas whose text objects record each glyph they set in `drawn_glyphs`, once it is made a
    dict: {page number: [(glyph, (x0, top, x1, bottom), baseline, size, direction)]}, in drawing order
    (direction -1: set right to left on the page, turned half a turn). None (the
    default) records nothing: a document nobody checks pays nothing. `small_print`: set while the drawing
    sets text a page may print smaller than its body (a table, a caption, a running header), which the
    size check (pnpgen.page_contrast.drawn_sizes) holds to the lower floor."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.drawn_glyphs: dict | None = None
        self.small_print = False

    def beginText(self, x=0, y=0, direction=None):
        if self.drawn_glyphs is None:
            return super().beginText(x, y, direction=direction)
        return RecordingText(self, x, y, direction=direction)

    def rect(self, x, y, width, height, stroke=1, fill=0):
        if fill:
            self._ground(x, y, width, height, _rgb(self._fillColorObj))
        return super().rect(x, y, width, height, stroke=stroke, fill=fill)

    def roundRect(self, x, y, width, height, radius, stroke=1, fill=0):
        if fill:   # the rectangle inside the rounded corners' reach stands for it
            inset = min(radius, width / 2, height / 2) * 0.3
            self._ground(x + inset, y + inset, width - 2 * inset, height - 2 * inset, _rgb(self._fillColorObj))
        return super().roundRect(x, y, width, height, radius, stroke=stroke, fill=fill)

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        if width is not None and height is not None:
            self._ground(x, y, width, height, None)
        return super().drawImage(image, x, y, width, height, *args, **kwargs)

    def _ground(self, x, y, width, height, rgb) -> None:
        """Note a filled rectangle (or a picture, rgb None) where the page shows it, after the glyphs so far."""
        if not isinstance(self.drawn_glyphs, DrawnGlyphs):
            return
        page = self.getPageNumber()
        a, b, c, d, e, f = self._currentMatrix
        xs = [e + a * px + c * py for px in (x, x + width) for py in (y, y + height)]
        ys = [f + b * px + d * py for px in (x, x + width) for py in (y, y + height)]
        top = self._pagesize[1]
        box = (min(xs), top - max(ys), max(xs), top - min(ys))
        self.drawn_glyphs.grounds.setdefault(page, []).append(
            (len(self.drawn_glyphs.get(page, ())), box, rgb, getattr(self, "_fillAlpha", 1) or 1))


class RecordingText(PDFTextObject):
    """A text object that follows the PDF's own text state (the line matrix, the pen along the line, T*
    moving down by the leading) beside reportlab's, and records each glyph as its string is written."""

    _horizScale, _charSpace, _wordSpace = 100, 0, 0   # reportlab's text state until set (it keeps none)

    def __init__(self, canvas, x=0, y=0, direction=None):
        self._line, self._pen = (1.0, 0.0, 0.0, 1.0, x, y), 0.0
        super().__init__(canvas, x, y, direction=direction)

    def setTextOrigin(self, x, y):
        super().setTextOrigin(x, y)
        self._line, self._pen = (1.0, 0.0, 0.0, 1.0, x, y), 0.0

    def setTextTransform(self, a, b, c, d, e, f):
        super().setTextTransform(a, b, c, d, e, f)
        self._line, self._pen = (a, b, c, d, e, f), 0.0

    def moveCursor(self, dx, dy):
        super().moveCursor(dx, dy)
        self._next_line(dx, -dy)

    def _next_line(self, tx, ty):
        """PDF's Td: a new line (tx, ty) from the start of this one, in text space."""
        a, b, c, d, e, f = self._line
        self._line, self._pen = (a, b, c, d, e + a * tx + c * ty, f + b * tx + d * ty), 0.0

    def _textOut(self, text, TStar=0):
        self._record(text)
        super()._textOut(text, TStar)
        if TStar:
            self._next_line(0, -self._leading)

    def textOut(self, text):
        self._record(text)
        super().textOut(text)

    def textLine(self, text=""):
        self._record(text)
        super().textLine(text)
        self._next_line(0, -self._leading)

    def _record(self, text) -> None:
        if not text:
            return
        if isinstance(text, bytes):
            text = text.decode("utf8", "replace")
        canvas = self._canvas
        ink = _font_ink(self._fontname)
        size, scale = self._fontsize, self._horizScale / 100
        char_space, word_space = self._charSpace, self._wordSpace
        matrix = self._line if canvas._currentMatrix == _IDENTITY else _multiply(self._line, canvas._currentMatrix)
        place = _Place(matrix, canvas._pagesize[1], size, scale, self._rise)
        add = _adder(canvas, self)
        if getattr(canvas.drawn_glyphs, "coarse", False):   # one record per string, boxed by the font's line:
            advance = ink.width(text) * place.wide            # what size and contrast need, for far less
            if text.strip():
                add((text.strip(), place.box(self._pen, self._pen + advance, *ink.line), place.baseline(self._pen),
                     place.shown, place.direction))
            self._pen += advance + (char_space * len(text) + word_space * text.count(" ")) * scale
            return
        if not (char_space or word_space) and ink.run(text, self._pen, place, add):
            self._pen += ink.width(text) * place.wide
            return
        pen, known = self._pen, ink.glyphs
        for char in text:
            advance, box = known.get(char) or ink.glyph(char)
            if box is not None:
                add((char, place.box(pen + box[0] * place.wide, pen + box[2] * place.wide, box[1], box[3]),
                     place.baseline(pen), place.shown, place.direction))
            pen += advance * place.wide + (char_space + (word_space if char == " " else 0)) * scale
        self._pen = pen


def _adder(canvas, text) -> object:
    """The append of the page's glyph records; with DrawnGlyphs, one that also notes each one's colour and
    whether it is small print. The page's lists are looked up once a page, the colour once a colour object
    (a page sets thousands of strings in a handful of colours)."""
    page, drawn = canvas._pageNumber, canvas.drawn_glyphs
    lists = canvas.__dict__.get("_record_lists")
    if lists is None or lists[0] != page or lists[1] is not drawn:
        described = isinstance(drawn, DrawnGlyphs)
        lists = canvas._record_lists = (page, drawn, drawn.setdefault(page, []),
                                        drawn.inks.setdefault(page, []) if described else None,
                                        drawn.fine.setdefault(page, []) if described else None)
    glyphs, inks, fine = lists[2:]
    if inks is None:
        return glyphs.append
    colour = getattr(text, "_fillColorObj", None) or canvas._fillColorObj
    small = bool(getattr(canvas, "small_print", False))
    last = canvas.__dict__.get("_record_add")   # the last string's, most often this one's too
    if last is not None and last[0] is lists and last[1] is colour and last[2] == small:
        return last[3]
    rgb = _canvas_rgb(canvas, colour)

    def add(record):
        glyphs.append(record)
        inks.append(rgb)
        fine.append(small)
    canvas._record_add = (lists, colour, small, add)
    return add


def _canvas_rgb(canvas, colour) -> tuple:
    """_rgb(colour), kept on the canvas by the colour object's identity (the object is kept with it, so its
    id cannot stand for another's)."""
    known = canvas.__dict__.get("_record_rgbs")
    if known is None:
        known = canvas._record_rgbs = {}
    kept = known.get(id(colour))
    if kept is None or kept[0] is not colour:
        kept = known[id(colour)] = (colour, _rgb(colour))
    return kept[1]


def _rgb(colour) -> tuple:
    """A reportlab colour (a Color, a CMYKColor or a tuple) as (r, g, b), 0-1 each."""
    if colour is None:
        return (0.0, 0.0, 0.0)
    if hasattr(colour, "rgb"):
        return tuple(float(v) for v in colour.rgb())
    if len(colour) == 4:
        c, m, y, k = colour
        return tuple((1 - v) * (1 - k) for v in (c, m, y))
    return tuple(float(v) for v in colour[:3])


class _Place:
    """Where a string's glyphs land on the page: its matrix, the page height (boxes are kept from the top),
    the size, the horizontal scale and the rise."""

    __slots__ = ("matrix", "height", "size", "rise", "wide", "shown", "direction")

    def __init__(self, matrix, height: float, size: float, scale: float, rise: float):
        self.matrix, self.height, self.size, self.rise = matrix, height, size, rise
        self.wide = size * scale
        self.shown, self.direction = size * abs(matrix[3]), (1 if matrix[0] >= 0 else -1)

    def box(self, x0: float, x1: float, low: float, high: float) -> tuple:
        """The page box (x0, top, x1, bottom) of text-space x0..x1 and of `low`..`high` ems about the baseline."""
        a, b, c, d, e, f = self.matrix
        y0, y1 = self.rise + low * self.size, self.rise + high * self.size
        if b == 0 and c == 0:   # upright or turned half a turn: the box's corners stay corners
            left, right, bottom, top = e + a * x0, e + a * x1, f + d * y0, f + d * y1
            left, right = (left, right) if left <= right else (right, left)
            bottom, top = (bottom, top) if bottom <= top else (top, bottom)
        else:
            xs = (a * x0 + c * y0, a * x1 + c * y0, a * x0 + c * y1, a * x1 + c * y1)
            ys = (b * x0 + d * y0, b * x1 + d * y0, b * x0 + d * y1, b * x1 + d * y1)
            left, right, bottom, top = e + min(xs), e + max(xs), f + min(ys), f + max(ys)
        return (left, self.height - top, right, self.height - bottom)

    def baseline(self, pen: float) -> float:
        a, b, c, d, e, f = self.matrix
        return self.height - (b * pen + d * self.rise + f)


_SPACED = re.compile(r"\s\s|[^\S ]")   # blanks running, or a wide one (an em space): a gap the lines may break
                                       # at, so the string is recorded glyph by glyph


_IDENTITY = (1, 0, 0, 1, 0, 0)


def _multiply(first, then) -> tuple:
    """The matrix that applies `first`, then `then` (reportlab's and PDF's a b c d e f)."""
    a, b, c, d, e, f = first
    A, B, C, D, E, F = then
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


class _FontInk:
    """A font's advance and ink box per glyph, per point of size, read once per character."""

    def __init__(self, name: str):
        self.font = pdfmetrics.getFont(name)
        face = getattr(self.font, "face", None)
        self.outlines = None
        if getattr(self.font, "_dynamicFont", False) and hasattr(face, "glyphPos") and "glyf" in face.table:
            self.outlines = (face, face.get_table_pos("glyf")[0], 1 / face.unitsPerEm)
        else:
            self.box = (0.0, (getattr(face, "descent", -200) or -200) / 1000, None,
                        (getattr(face, "ascent", 800) or 800) / 1000)
        self.glyphs: dict = {}
        self.runs: dict = {}   # string -> run()'s shape of it (see _run_shape)
        self.line = ((getattr(face, "descent", -200) or -200) / 1000, (getattr(face, "ascent", 800) or 800) / 1000)

    def width(self, text: str) -> float:
        """The advance of `text` per point of size."""
        return self.font.stringWidth(text, 1)

    def run(self, text: str, pen: float, place: "_Place", add) -> bool:
        """Record `text` as one run (its glyphs, set with single blanks, all join one line): the box from its
        first glyph's left to its last one's right and over all their heights. False (nothing recorded)
        where the string may part into several lines (blanks running, a wide blank) or a first or last
        glyph has no ink of its own to bound the run."""
        shape = self.runs.get(text, self)
        if shape is self:
            if len(self.runs) >= RUNS_KEPT:   # a long-lived process (the studio) sets ever new strings
                self.runs.clear()
            shape = self.runs[text] = self._run_shape(text)
        if shape is False:
            return False
        if shape is not None:
            words, lead, body, left, right, low, high = shape
            start = pen + lead * place.wide
            end = pen + body * place.wide
            add((words, place.box(start + left * place.wide, end + right * place.wide, low, high),
                 place.baseline(start), place.shown, place.direction))
        return True

    def _run_shape(self, text: str):
        """What run() needs of `text`, per point of size, worked out once a string: (its words joined, the
        advance of its leading blanks, of all but its last glyph, its first glyph's ink left, its last's
        right, the lowest and highest ink), None for a string of blanks only, False for no run."""
        if _SPACED.search(text):
            return False   # blanks running, or a wide one: a gap the lines may break at
        words = text.split()
        if not words:
            return None
        if " " in text and self.glyph(" ")[0] > 0.5:
            return False   # a font with wide blanks: a word space may part two lines
        for char in set(text):
            if char not in self.glyphs:
                self.glyph(char)
        first, last = self.glyphs[words[0][0]][1], self.glyphs[words[-1][-1]][1]
        if first is None or last is None:
            return False
        boxes = [self.glyphs[char][1] for char in set(text)]
        low = min(box[1] for box in boxes if box is not None)
        high = max(box[3] for box in boxes if box is not None)
        return ("".join(words), self.width(text[:len(text) - len(text.lstrip())]), self.width(text.rstrip()[:-1]),
                first[0], last[2], low, high)

    def glyph(self, char: str) -> tuple:
        known = self.glyphs.get(char)
        if known is None:
            known = self.glyphs[char] = (self.font.stringWidth(char, 1), None if char.isspace() else self._box(char))
        return known

    def _box(self, char: str):
        if self.outlines is None:
            width = self.font.stringWidth(char, 1)
            return (0.0, self.box[1], width, self.box[3]) if width > 0 else None
        face, glyf, unit = self.outlines
        glyph = (face.charToGlyph or {}).get(ord(char), 0)
        if glyph + 1 >= len(face.glyphPos) or face.glyphPos[glyph + 1] <= face.glyphPos[glyph]:
            return None   # an empty glyph: no ink
        _, x0, y0, x1, y1 = struct.unpack_from(">hhhhh", face._ttf_data, glyf + face.glyphPos[glyph])
        return (x0 * unit, y0 * unit, x1 * unit, y1 * unit) if x1 > x0 else None


def _font_ink(name: str) -> _FontInk:
    ink = _FONTS.get(name)
    if ink is None or ink.font is not pdfmetrics.getFont(name):   # a font registered again under the name
        ink = _FONTS[name] = _FontInk(name)
    return ink
