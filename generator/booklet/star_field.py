"""The designed cover's stars (booklet.cover._sky) written as the PDF operators reportlab's canvas writes for
them, without its calls: each star was `setFillColor` then `circle`, which is `ellipse`, a path object,
`bezierArc` (25 sines and cosines of the same four angles, every star) and a fill. SE4X's front and back
covers set about 780 stars: 0.015-0.02 s of a booklet build through the canvas, a few ms here.

The numbers are the very floats reportlab works out (the same expressions in the same order, the angles'
sines and cosines taken once), formatted by its own fp_str, so the page's bytes are the same; a canvas that
draws circles or sets colours its own way (a subclass overriding them, an enforced colour space) is drawn
through its own calls."""
from __future__ import annotations

from math import ceil, cos, pi, sin

from reportlab.lib import colors
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import PATH_OPS, Canvas

SIZES = (0.35, 0.5, 0.5, 0.8, 1.2)   # the stars' radii in points, drawn at random (a half point most often)


def stars(canvas, box, sky, rnd, mix) -> None:
    """int(w * h / 160) stars in `box` (x, y, w, h), each a disc in `sky` moved a random share towards white
    (by `mix`, booklet.cover._mix), where `rnd` places it: rnd draws the same numbers in the same order as
    the canvas's own drawing did, so what the picture draws after the stars is placed the same too."""
    x, y, w, h = box
    count = int(w * h / 160)
    white = colors.white
    if count == 0:
        return
    first = mix(sky, white, rnd.uniform(0.25, 1.0))
    canvas.setFillColor(first)   # the first through the canvas: its alpha state (an ExtGState) is set as it was
    canvas.circle(x + rnd.uniform(0, w), y + rnd.uniform(0, h), rnd.choice(SIZES), stroke=0, fill=1)
    if not _plain(canvas):
        for _ in range(count - 1):
            canvas.setFillColor(mix(sky, white, rnd.uniform(0.25, 1.0)))
            canvas.circle(x + rnd.uniform(0, w), y + rnd.uniform(0, h), rnd.choice(SIZES), stroke=0, fill=1)
        return
    code, fill_op, last = canvas._code, PATH_OPS[0, 1, canvas._fillMode], first
    trig = _circle_trig()
    sr, sg, sb = sky.red, sky.green, sky.blue
    dr, dg, db = white.red - sr, white.green - sg, white.blue - sb
    uniform, choice = rnd.uniform, rnd.choice
    for _ in range(count - 1):
        t = uniform(0.25, 1.0)
        rgb = (sr + dr * t, sg + dg * t, sb + db * t)
        code.append("%s rg" % fp_str(rgb))
        cx, cy, r = x + uniform(0, w), y + uniform(0, h), choice(SIZES)
        _circle(code, cx, cy, r, trig)
        code.append(fill_op)
        last = rgb
    if last is not first:
        canvas._fillColorObj = colors.Color(*last)


def _plain(canvas) -> bool:
    """Whether the canvas sets colours and draws circles as reportlab's Canvas does."""
    kind = type(canvas)
    return (not getattr(canvas, "_enforceColorSpace", None) and kind.setFillColor is Canvas.setFillColor
            and kind.circle is Canvas.circle and kind.ellipse is Canvas.ellipse
            and kind._strokeAndFill is Canvas._strokeAndFill)


def _circle_trig() -> tuple:
    """What pdfgeom.bezierArc works out of a whole turn's angles alone (startAng 0, extent 360): its kappa,
    and cos and sin of each of its four fragments' ends."""
    frags = int(ceil(abs(360) / 90.))
    frag = float(360) / frags
    half = frag * pi / 360.
    kappa = abs(4. / 3. * (1. - cos(half)) / sin(half))
    ends = []
    for i in range(frags):
        theta0, theta1 = (0 + i * frag) * pi / 180., (0 + (i + 1) * frag) * pi / 180.
        ends.append((cos(theta0), sin(theta0), cos(theta1), sin(theta1)))
    return kappa, ends


def _circle(code: list, x_cen: float, y_cen: float, r: float, trig: tuple) -> None:
    """canvas.circle's path (before its fill operator): Canvas.circle -> Canvas.ellipse ->
    PDFPathObject.ellipse -> pdfgeom.bezierArc -> moveTo and curveTo, the same arithmetic."""
    x1, y1, x2, y2 = x_cen - r, y_cen - r, x_cen + r, y_cen + r          # Canvas.circle
    ex, ey, ew, eh = x1, y1, x2 - x1, y2 - y1                             # Canvas.ellipse
    a1, b1, a2, b2 = ex, ey, ex + ew, ey + eh                             # PDFPathObject.ellipse
    a1, b1, a2, b2 = min(a1, a2), max(b1, b2), max(a1, a2), min(b1, b2)   # bezierArc
    xc, yc, rx, ry = (a1 + a2) / 2., (b1 + b2) / 2., (a2 - a1) / 2., (b2 - b1) / 2.
    kappa, ends = trig
    c0, s0 = ends[0][0], ends[0][1]
    code.append("n")   # a new path object's first operator (PDFPathObject._init_code_append)
    code.append("%s m" % fp_str(xc + rx * c0, yc - ry * s0))
    for c0, s0, c1, s1 in ends:
        code.append("%s c" % fp_str(xc + rx * (c0 - kappa * s0), yc - ry * (s0 + kappa * c0),
                                     xc + rx * (c1 + kappa * s1), yc - ry * (s1 - kappa * c1),
                                     xc + rx * c1, yc - ry * s1))
