"""The designed covers of a document (pnpgen.documents.cover_data says what they hold): the front a picture
drawn from the kit's colours above the title, the players, ages and time and the kit's version; the back a
strip of the same sky above what the kit holds, how to print it and the credits.

The picture is vector art drawn on the canvas (stars and hexes placed by a generator seeded with the kit's
id, so the same kit draws the same picture, byte for byte), inside a margin a home printer can print; the
words sit on the white page below it, never over the art. Where the kit names pieces (`cover.pieces`), they
are the picture's subject: laid in centred rows (piece_places, which only computes where), each on a pale
rim and a shadow drawn here, its face laid on top afterwards as the figures are (pnpgen.booklet.overlay),
and the hexes behind them dimmed towards the sky."""
from __future__ import annotations

import math
import random
from pnpgen.xml_escape import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepInFrame, PageTemplate, Spacer, Table, TableStyle

from pnpgen.booklet.star_field import stars
from pnpgen.booklet.styles import HEADER_FILL, RULE, styles
from pnpgen.i18n.translator import core_words

EDGE = 22.0          # points from the page edge to the picture: inside any home printer's unprintable margin
FRONT_ART = 0.56     # share of the page's height the front picture takes
BACK_ART = 64.0      # points: the back cover's strip of sky
HEX_ACROSS = 7       # hexes across the front picture
SHADES = 12          # steps of a planet's shading
PIECE_GAP = 12.0     # points between two pieces of the picture, and between its rows
PIECE_PAD = 14.0     # points from the picture's edge to its pieces
RIM = 1.2            # points: the pale rim around each piece, so a dark piece stands out from the sky
SHADOW = (2.4, -2.8)  # points: where each piece's shadow falls


def front_box(page: tuple[float, float]) -> tuple[float, float, float, float]:
    """The front picture's box (x, y, w, h) on a page of size `page`."""
    w, h = page
    art_bottom = h - EDGE - (h - 2 * EDGE) * FRONT_ART
    return EDGE, art_bottom, w - 2 * EDGE, h - EDGE - art_bottom


def piece_places(page: tuple[float, float], sizes: list[tuple[float, float]],
                 breaks: frozenset = frozenset()) -> list[tuple[float, float, float, float]]:
    """Where each piece of the front picture goes, (x, y, w, h) from the bottom left: in rows that fill the
    picture's width in the order given (a piece whose index is in `breaks` starts a new row), each row
    centred, the rows centred in the picture; ValueError (the room needed and given) when they do not fit."""
    x, y, w, h = front_box(page)
    room_w, room_h = w - 2 * PIECE_PAD, h - 2 * PIECE_PAD
    rows: list[list[int]] = []
    for index, (pw, _) in enumerate(sizes):
        if pw > room_w:
            raise ValueError(f"a piece {pw:.0f} pt wide, in a picture {room_w:.0f} pt wide inside its margin")
        if rows and index not in breaks and sum(sizes[i][0] for i in rows[-1]) + PIECE_GAP * len(rows[-1]) + pw <= room_w:
            rows[-1].append(index)
        else:
            rows.append([index])
    heights = [max(sizes[i][1] for i in row) for row in rows]
    tall = sum(heights) + PIECE_GAP * (len(rows) - 1)
    if tall > room_h:
        raise ValueError(f"{len(rows)} rows {tall:.0f} pt tall, in a picture {room_h:.0f} pt tall inside its margin")
    places: list = [None] * len(sizes)
    top = y + h - (h - tall) / 2
    for row, height in zip(rows, heights):
        left = x + (w - sum(sizes[i][0] for i in row) - PIECE_GAP * (len(row) - 1)) / 2
        for i in row:
            pw, ph = sizes[i]
            places[i] = (left, top - height / 2 - ph / 2, pw, ph)
            left += pw + PIECE_GAP
        top -= height + PIECE_GAP
    return places


def templates(doc, cover, frame_for) -> list[PageTemplate]:
    """The front and back cover page templates of `doc`: each draws its picture before the words flow in a
    frame below it (`frame_for(x, y, w, h, id)` makes the frame)."""
    w, h = doc.pagesize
    art_bottom = front_box((w, h))[1]
    front = frame_for(doc.leftMargin, EDGE + 14, w - doc.leftMargin - doc.rightMargin, art_bottom - EDGE - 24,
                      "front-words")
    back = frame_for(doc.leftMargin, EDGE + 10, w - doc.leftMargin - doc.rightMargin, h - 2 * EDGE - BACK_ART - 24,
                     "back-words")
    return [PageTemplate("cover", [front], onPage=lambda canvas, _: _front_art(canvas, (w, h), cover)),
            PageTemplate("back", [back], onPage=lambda canvas, _: _back_art(canvas, (w, h), cover))]


def front_flowables(cover, paragraph) -> list:
    """Title, subtitle, what the document is, the players, ages and time, the kit's version."""
    st = _styles()
    words = [(escape(cover.title), st["cover-title"]), (escape(cover.subtitle), st["cover-sub"])]
    words.append((f"<b>{escape(cover.document)}</b>", st["cover-doc"]))
    words.append((" · ".join(escape(f) for f in cover.facts), st["cover-facts"]))
    if cover.version:
        words.append((escape(cover.version), st["cover-small"]))
    return [paragraph(text, style, "kit.yaml cover") for text, style in words if text]


def back_flowables(cover, paragraph, width: float) -> list:
    """In this kit (two columns), How to print, Credits; shrunk to fit should a kit hold very many tables, so
    the back cover stays one page."""
    st = _styles()
    flow = [paragraph(core_words("In this kit"), st["back-head"], "the back cover")]
    half = -(-len(cover.contents) // 2)
    columns = [cover.contents[:half], cover.contents[half:]]
    cells = [[paragraph(escape(line), st["back-line"], "the back cover") for line in column] or [Spacer(1, 0)]
             for column in columns]  # each column a list of its own lines: a long line moves only its column
    if cover.contents:
        table = Table([cells], colWidths=[width / 2] * 2, hAlign="LEFT")
        table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), st["back-line"].fontName),  # not Helvetica
                                   ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                   ("RIGHTPADDING", (0, 0), (-1, -1), 6), ("TOPPADDING", (0, 0), (-1, -1), 0.5),
                                   ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5)]))
        flow.append(table)
    flow.append(paragraph(core_words("How to print"), st["back-head"], "the back cover"))
    flow += [paragraph(escape(line), st["back-line"], "the back cover", bulletText="•") for line in cover.printing]
    if cover.credits:
        flow.append(paragraph(core_words("Credits"), st["back-head"], "the back cover"))
        flow += [paragraph(escape(line), st["back-line"], "kit.yaml cover.credits") for line in cover.credits]
    return [KeepInFrame(width, 10_000, flow, mode="shrink", name="back cover")]


def _styles() -> dict[str, ParagraphStyle]:
    st = styles()
    body = st["body"]
    return {**st,
            "cover-doc": ParagraphStyle("cover-doc", parent=st["cover-sub"], fontSize=11, leading=15, spaceBefore=6),
            "cover-facts": ParagraphStyle("cover-facts", parent=st["cover-sub"], fontSize=10.5, leading=14,
                                          textColor=HEADER_FILL),
            "cover-small": ParagraphStyle("cover-small", parent=body, fontSize=8, leading=10, alignment=TA_CENTER,
                                          spaceBefore=4),
            "back-head": ParagraphStyle("back-head", parent=st["h2"], spaceBefore=8),
            "back-line": ParagraphStyle("back-line", parent=body, fontSize=8, leading=10, spaceAfter=1.5,
                                        leftIndent=0, bulletIndent=0)}


def _front_art(canvas, page, cover) -> None:
    box = front_box(page)
    _sky(canvas, box, cover, hexes=cover.art == "hexes")
    if cover.pieces:
        _piece_grounds(canvas, page, cover)


def piece_rows(cover) -> tuple[list, frozenset]:
    """What piece_places needs of the cover's pieces: their sizes, and which start a row."""
    return [p.size for p in cover.pieces], frozenset(i for i, p in enumerate(cover.pieces) if p.new_row)


def _piece_grounds(canvas, page, cover) -> None:
    """Under each piece of the picture its shadow, then a pale rim just outside its cut line: the face laid
    on later covers all but the rim."""
    sky = colors.HexColor(cover.sky)
    places = piece_places(page, *piece_rows(cover))
    for piece, (x, y, w, h) in zip(cover.pieces, places):
        scale = w / piece.shape.w
        for dx, dy, grow, colour in ((*SHADOW, RIM, _mix(sky, colors.black, 0.6)),
                                     (0.0, 0.0, RIM, _mix(sky, colors.white, 0.82))):
            canvas.saveState()
            canvas.translate(x + dx, y + dy)
            canvas.scale(scale, scale)
            canvas.setFillColor(colour)
            _outline(canvas, piece.shape, grow / scale)
            canvas.restoreState()


def _outline(canvas, shape, grow: float) -> None:
    """Fill `shape`'s cut path, grown by `grow` points, at the canvas origin."""
    for kind, *numbers in shape.outline(0, 0, grow):
        if kind == "circle":
            canvas.circle(*numbers, stroke=0, fill=1)
        elif kind == "round":
            canvas.roundRect(*numbers, stroke=0, fill=1)
        elif kind == "rect":
            canvas.rect(*numbers, stroke=0, fill=1)
        else:
            path = canvas.beginPath()
            path.moveTo(*numbers[0][0])
            for point in numbers[0][1:]:
                path.lineTo(*point)
            path.close()
            canvas.drawPath(path, stroke=0, fill=1)


def _back_art(canvas, page, cover) -> None:
    w, h = page
    _sky(canvas, (EDGE, h - EDGE - BACK_ART, w - 2 * EDGE, BACK_ART), cover, hexes=False)


def _sky(canvas, box, cover, hexes: bool) -> None:
    """The picture in `box` (x, y, w, h): the sky, its stars, and a drift of hexes in the kit's colours."""
    x, y, w, h = box
    rnd = random.Random(f"{cover.seed}:{round(w)}x{round(h)}")
    canvas.saveState()
    clip = canvas.beginPath()
    clip.roundRect(x, y, w, h, 6)
    canvas.clipPath(clip, stroke=0, fill=0)
    sky = colors.HexColor(cover.sky)
    canvas.setFillColor(sky)
    canvas.rect(x, y, w, h, stroke=0, fill=1)
    stars(canvas, box, sky, rnd, _mix)
    if hexes:
        _hex_drift(canvas, box, cover, rnd, dim=0.72 if cover.pieces else 0.0)
    elif h > BACK_ART:  # the starfield alone: a planet in the palette's first colour and a few bright stars
        _planet(canvas, box, colors.HexColor(cover.palette[0]), sky, rnd)
        for _ in range(5):
            _bright_star(canvas, x + rnd.uniform(0.08, 0.92) * w, y + rnd.uniform(0.1, 0.9) * h,
                         rnd.uniform(3.0, 6.0), _mix(sky, colors.white, 0.85))
    canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.6)
    canvas.roundRect(x, y, w, h, 6, stroke=1, fill=0)
    canvas.restoreState()


def _hex_drift(canvas, box, cover, rnd, dim: float = 0.0) -> None:
    """Flat-topped hexes on a grid, kept more often the nearer they are to the picture's rising diagonal,
    each filled with a colour of the palette, an inner ring a shade lighter; moved a share `dim` towards the
    sky where pieces stand in front of them."""
    x, y, w, h = box
    r = w / (HEX_ACROSS * 1.5)
    step_x, step_y = 1.5 * r, math.sqrt(3) * r
    slope = h / w
    for col in range(-1, int(w / step_x) + 2):
        for row in range(-1, int(h / step_y) + 2):
            cx, cy = x + col * step_x, y + row * step_y + (step_y / 2 if col % 2 else 0)
            off = abs((cy - y) - slope * (cx - x)) / h   # 0 on the diagonal, 1 a picture's height away
            if rnd.random() > 0.9 - 2.2 * off:
                continue
            fill = _mix(colors.HexColor(rnd.choice(cover.palette)), colors.HexColor(cover.sky), dim)
            _hexagon(canvas, cx, cy, r * 0.94, fill, _mix(fill, colors.black, 0.35), 0.8)
            _hexagon(canvas, cx, cy, r * 0.62, None, _mix(fill, colors.white, 0.45), 0.7)


def _planet(canvas, box, colour, sky, rnd) -> None:
    """A planet low in the picture, lit from the upper left: a thin ring behind its disc, shaded in steps."""
    x, y, w, h = box
    r = min(w, h) * rnd.uniform(0.26, 0.32)
    cx, cy = x + w * rnd.uniform(0.58, 0.72), y + h * rnd.uniform(0.22, 0.34)
    canvas.saveState()
    canvas.translate(cx, cy)
    canvas.rotate(-18)
    canvas.scale(1, 0.22)
    canvas.setLineWidth(r * 0.09)
    canvas.setStrokeColor(_mix(colour, colors.white, 0.6))
    canvas.circle(0, 0, r * 1.55, stroke=1, fill=0)
    canvas.restoreState()  # the ring first: the disc hides its middle
    for step in range(SHADES):  # shaded in steps towards the light, each disc inside the last
        t = step / (SHADES - 1)
        shade = _mix(_mix(colour, sky, 0.45), _mix(colour, colors.white, 0.35), t)
        canvas.setFillColor(shade)
        canvas.circle(cx - r * 0.3 * t, cy + r * 0.3 * t, r * (1 - 0.62 * t), stroke=0, fill=1)


def _bright_star(canvas, cx: float, cy: float, size: float, colour) -> None:
    """A star with four thin flares."""
    canvas.setFillColor(colour)
    canvas.circle(cx, cy, size * 0.22, stroke=0, fill=1)
    path = canvas.beginPath()
    for dx, dy in ((size, 0), (0, size), (-size, 0), (0, -size)):
        path.moveTo(cx + dx, cy + dy)
        path.lineTo(cx + dy * 0.08, cy + dx * 0.08)
        path.lineTo(cx - dy * 0.08, cy - dx * 0.08)
        path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _hexagon(canvas, cx: float, cy: float, r: float, fill, stroke, width: float) -> None:
    path = canvas.beginPath()
    for k in range(6):
        px, py = cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)
        path.lineTo(px, py) if k else path.moveTo(px, py)
    path.close()
    canvas.setLineWidth(width)
    canvas.setStrokeColor(stroke)
    if fill is not None:
        canvas.setFillColor(fill)
    canvas.drawPath(path, stroke=1, fill=fill is not None)


def _mix(a, b, t: float):
    """`a` moved a share `t` of the way to `b`: lighter stars and rings without transparency (which some
    home printer drivers flatten badly)."""
    return colors.Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t,
                        a.blue + (b.blue - a.blue) * t)
