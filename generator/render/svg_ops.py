"""The SVG our templates write, turned straight into replayable cairo calls, without cairosvg.

cairosvg interprets any SVG, in Python, at about 2 ms a face; the templates use a small part of SVG (shapes,
paths, plain text, groups with transforms and opacity, one clip path, images). This module reads that part
with the C XML parser and writes the cairo calls a face store record holds (pnpgen.render.face_store),
so a face costs a fraction of a millisecond and is drawn by the same replay (path data is read by
pnpgen.render.svg_path). Anything outside the part (patterns, gradients, nested <svg>, units inside the
drawing, stroked text, SVG images...) raises Unsupported, and the caller draws that face with cairosvg instead.
"""
from __future__ import annotations

import hashlib
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote

from pnpgen.render.cairo_lib import forget_scratch_context as forget_measuring_context, scratch_context
from pnpgen.render.svg_path import NUMBER, PathDataError, path_calls
from pnpgen.svg_depth import check_depth

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
INHERITED = ("fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
             "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "font-family",
             "font-size", "font-weight", "font-style", "text-anchor", XML_SPACE)
OWN = {"x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "x1", "y1", "x2", "y2", "points", "d",
       "transform", "opacity", "clip-path", "id", "href", XLINK_HREF, "preserveAspectRatio", "viewBox",
       "text-rendering", "shape-rendering", "version", "dx", "dy", "class"}
FINE = "fine-print"   # the class a template gives text that is fine print (held to a counter's floor on a card)
SPACES = re.compile(r"\s+")
URL = re.compile(r"\s*url\(#([^)]+)\)\s*")
TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
COLOURS = {"black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 128, 0),
           "blue": (0, 0, 255), "yellow": (255, 255, 0), "gray": (128, 128, 128), "grey": (128, 128, 128),
           "orange": (255, 165, 0), "purple": (128, 0, 128), "silver": (192, 192, 192), "gold": (255, 215, 0),
           "navy": (0, 0, 128), "teal": (0, 128, 128), "maroon": (128, 0, 0), "lime": (0, 255, 0),
           "brown": (165, 42, 42), "pink": (255, 192, 203), "darkgray": (169, 169, 169),
           "lightgray": (211, 211, 211), "darkgrey": (169, 169, 169), "lightgrey": (211, 211, 211)}
SHAPES = ("rect", "circle", "ellipse", "line", "polyline", "polygon", "path")
NOT_DRAWN = frozenset(("defs", "clipPath", "pattern", "title", "desc", "metadata", ""))
KNOWN = frozenset(OWN) | frozenset(INHERITED)   # the attributes the subset reads
STYLED = frozenset(INHERITED)
LINE_CAPS, LINE_JOINS = {"round": 1, "square": 2}, {"round": 1, "bevel": 2}


_EXTENTS: dict = {}


def forget_scratch_context() -> None:
    """Drop the measuring context (a context FreeType failed in stays failed) and the extents it measured,
    which name a font by its family: the next kit's family of the same name is another font
    (pnpgen.render.font_reset)."""
    forget_measuring_context()
    _EXTENTS.clear()


class Unsupported(Exception):
    """The SVG uses something outside the subset: draw it with cairosvg."""


def record(svg: str, base: Path | None) -> dict:
    """{width, height, ops, texts, placed}: the face as replayable cairo calls, its glyphs and its images.
    An SVG nested past svg_depth.MAX_DEPTH raises TooDeep before anything recurses into it."""
    check_depth(svg)
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as exc:
        raise Unsupported(f"XML: {exc}") from None
    if _tag(root) != "svg":
        raise Unsupported("root is not <svg>")
    return Drawing(root, base).run()


_TAGS: dict = {}   # an element's tag -> its name without the SVG namespace (a few dozen names recur)
_COLOURS: dict = {}   # a colour as written -> (r, g, b) or None
REMEMBERED = 512   # names and colours kept per process at most (a hostile SVG may write any number)


def _tag(element) -> str:
    tag = element.tag
    name = _TAGS.get(tag)
    if name is None:
        name = (tag[len(SVG):] if tag.startswith(SVG) else tag) if isinstance(tag, str) else ""
        if len(_TAGS) < REMEMBERED:
            _TAGS[tag] = name
    return name


def _num(value, default=0.0) -> float:
    if value is None or value == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise Unsupported(f"not a plain number: {value!r}") from None


def _numbers(text: str) -> list[float]:
    return [float(n) for n in NUMBER.findall(text or "")]


def _length_pt(text: str) -> float:
    match = re.fullmatch(r"\s*([-+]?[\d.]+)\s*(mm|pt|in|cm|px)?\s*", text or "")
    if not match:
        raise Unsupported(f"root size {text!r}")
    return float(match.group(1)) * {"mm": 72 / 25.4, "cm": 720 / 25.4, "in": 72, "pt": 1, "px": 1, None: 1}[match.group(2)]


def colour(value: str | None):
    """(r, g, b) in 0-1, or None for none; Unsupported for anything else (gradients, patterns, names we lack)."""
    if value is None:
        return None
    try:
        return _COLOURS[value]
    except KeyError:
        found = _colour(value)
    if len(_COLOURS) < REMEMBERED:
        _COLOURS[value] = found
    return found


def _colour(value: str):
    value = value.strip()
    if value in ("none", "transparent", ""):
        return None
    if value.startswith("#"):
        digits = value[1:]
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        if len(digits) != 6:
            raise Unsupported(f"colour {value}")
        return tuple(int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    if value.startswith("rgb(") and value.endswith(")"):
        parts = [p.strip() for p in value[4:-1].split(",")]
        if len(parts) == 3 and not any(p.endswith("%") for p in parts):
            return tuple(float(p) / 255 for p in parts)
    if value.lower() in COLOURS:
        return tuple(c / 255 for c in COLOURS[value.lower()])
    raise Unsupported(f"colour {value}")


def _style(attributes, inherited: dict) -> dict:
    """The style an element draws with: what it inherits, with its own presentation attributes and its fine
    print mark over it (the inherited dict itself when it sets none: a style is never changed in place)."""
    own = {name: value for name, value in attributes.items() if name in STYLED}
    marks = attributes.get("class")
    fine = marks is not None and FINE in marks.split()
    if not own and not fine:
        return inherited
    style = {**inherited, **own}
    if fine:
        style[FINE] = True
    return style


def multiply(m, n):
    """The matrix that applies n, then m (what cairo's CTM becomes when a transform n is applied under m)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a2 * a + b2 * c, a2 * b + b2 * d, c2 * a + d2 * c, c2 * b + d2 * d,
            e2 * a + f2 * c + e, e2 * b + f2 * d + f)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


class Drawing:
    """One SVG document walked once: ops out, with the current matrix tracked for measurements."""

    def __init__(self, root, base: Path | None):
        self.root, self.base = root, base
        self.ops: list = []
        self.texts: list = []
        self.fine: list = []          # indexes into texts of the fine print (class="fine-print")
        self.placed: list = []
        self.matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        self.stack: list = []
        self.clips: dict = {}
        self.patterns: dict = {}
        self.cursor = [0.0, 0.0]

    # Setup ----------------------------------------------------------------------------------------------

    def run(self) -> dict:
        root = self.root
        width, height = _length_pt(root.get("width")), _length_pt(root.get("height"))
        box = _numbers(root.get("viewBox") or "")
        for element in root.iter():
            if _tag(element) == "clipPath" and element.get("id"):
                self.clips[element.get("id")] = element
            if _tag(element) == "pattern" and element.get("id"):
                self.patterns[element.get("id")] = element
        if box and len(box) == 4:
            self._transform_op("scale", width / box[2], height / box[3])
            self._transform_op("translate", -box[0], -box[1])
        self.op("set_miter_limit", 4.0)
        for child in root:
            self.element(child, {})
        drawn = {"width": width, "height": height, "ops": self.ops, "texts": self.texts, "placed": self.placed}
        return drawn | ({"fine": self.fine} if self.fine else {})

    def op(self, *args) -> None:
        self.ops.append(list(args))

    def save(self) -> None:
        self.ops.append(["save"])
        self.stack.append(self.matrix)

    def restore(self) -> None:
        self.ops.append(["restore"])
        self.matrix = self.stack.pop()

    def _transform_op(self, kind: str, *values) -> None:
        if kind == "translate":
            x, y = values
            self.ops.append(["translate", x, y])
            self.matrix = multiply(self.matrix, (1, 0, 0, 1, x, y))
        elif kind == "scale":
            sx, sy = values
            self.ops.append(["scale", sx, sy])
            self.matrix = multiply(self.matrix, (sx, 0, 0, sy, 0, 0))
        elif kind == "rotate":
            angle, = values
            self.op("rotate", angle)
            cos, sin = math.cos(angle), math.sin(angle)
            self.matrix = multiply(self.matrix, (cos, sin, -sin, cos, 0, 0))
        else:
            self.op("transform", *values)
            self.matrix = multiply(self.matrix, tuple(values))

    def transform(self, text: str | None) -> None:
        if not text:
            return
        for name, args in TRANSFORM.findall(text):
            v = _numbers(args)
            if name == "translate":
                self._transform_op("translate", v[0], v[1] if len(v) > 1 else 0.0)
            elif name == "scale":
                self._transform_op("scale", v[0], v[1] if len(v) > 1 else v[0])
            elif name == "rotate":
                if len(v) == 3:
                    self._transform_op("translate", v[1], v[2])
                self._transform_op("rotate", math.radians(v[0]))
                if len(v) == 3:
                    self._transform_op("translate", -v[1], -v[2])
            elif name == "matrix" and len(v) == 6:
                self._transform_op("matrix", *v)
            else:
                raise Unsupported(f"transform {name}")

    # Elements --------------------------------------------------------------------------------------------

    def element(self, element, inherited: dict) -> None:
        tag = _tag(element)
        if tag in NOT_DRAWN:
            return
        attributes = element.attrib
        for name in attributes:
            if name not in KNOWN and not name.startswith("{http://www.w3.org/2000/xmlns"):
                raise Unsupported(f"attribute {name} on <{tag}>")
        if attributes.get("display") == "none":
            return
        style = _style(attributes, inherited)
        if tag == "g":
            self.group(element, style)
        elif tag in SHAPES:
            self.shape(element, tag, style)
        elif tag == "text":
            self.text(element, style)
        elif tag == "image":
            self.image(element, style)
        else:
            raise Unsupported(f"<{tag}>")

    def group(self, element, style: dict) -> None:
        opacity = _num(element.get("opacity"), 1.0)
        self.save()
        self.transform(element.get("transform"))
        self.clip(element.get("clip-path"))
        if opacity < 1:
            self.op("push_group")
        for child in element:
            self.element(child, style)
        if opacity < 1:
            self.op("pop_group_to_source")
            self.op("paint_with_alpha", opacity)
        self.restore()

    def clip(self, reference: str | None) -> None:
        if not reference:
            return
        match = re.fullmatch(r"url\(#([^)]+)\)", reference.strip())
        if not match or match.group(1) not in self.clips:
            raise Unsupported(f"clip-path {reference}")
        for child in self.clips[match.group(1)]:
            tag = _tag(child)
            if tag not in SHAPES or child.get("transform"):
                raise Unsupported(f"clip shape <{tag}>")
            self.path_of(child, tag)
        self.op("clip")

    def shape(self, element, tag: str, style: dict) -> None:
        if tag == "rect" and (_num(element.get("width")) <= 0 or _num(element.get("height")) <= 0):
            return
        opacity = _num(element.get("opacity"), 1.0)
        self.save()
        self.transform(element.get("transform"))
        self.clip(element.get("clip-path"))
        self.path_of(element, tag)
        self.paint(style, opacity, closed=tag not in ("line", "polyline"))
        self.restore()

    def paint(self, style: dict, opacity: float, closed: bool = True) -> None:
        tile = self.pattern_tile(style.get("fill"))
        if tile is not None:
            self.op("fill_pattern", tile, _num(style.get("fill-opacity"), 1.0) * opacity)
            style = {**style, "fill": "none"}
        fill = colour(style.get("fill", "black"))
        stroke = colour(style.get("stroke"))
        width = _num(style.get("stroke-width"), 1.0)
        ops = self.ops
        if fill is not None:
            alpha = _num(style.get("fill-opacity"), 1.0) * opacity
            ops.append(["save"])
            if style.get("fill-rule") == "evenodd":
                ops.append(["set_fill_rule", 1])  # CAIRO_FILL_RULE_EVEN_ODD
            ops += [["set_source_rgba", *fill, alpha], ["fill_preserve"], ["restore"]]
        if stroke is not None and width > 0:
            self.stroke(style, stroke, width, opacity)
        ops.append(["new_path"])

    def stroke(self, style: dict, stroke: tuple, width: float, opacity: float) -> None:
        alpha = _num(style.get("stroke-opacity"), 1.0) * opacity
        ops = self.ops
        ops += [["save"], ["set_line_width", width], ["set_source_rgba", *stroke, alpha]]
        cap = LINE_CAPS.get(style.get("stroke-linecap"))
        if cap:
            ops.append(["set_line_cap", cap])
        join = LINE_JOINS.get(style.get("stroke-linejoin"))
        if join:
            ops.append(["set_line_join", join])
        if style.get("stroke-miterlimit"):
            ops.append(["set_miter_limit", _num(style["stroke-miterlimit"])])
        dashes = _numbers(style.get("stroke-dasharray") or "")
        if dashes and sum(dashes):
            ops.append(["set_dash", dashes, _num(style.get("stroke-dashoffset"), 0.0)])
        ops += [["stroke_preserve"], ["restore"]]

    def pattern_tile(self, fill: str | None) -> dict | None:
        """A fill of url(#id) naming a <pattern> in user space: its tile as a nested record, else None."""
        match = URL.fullmatch(fill) if fill and "url(" in fill else None
        if not match:
            return None
        element = self.patterns.get(match.group(1))
        if element is None or element.get("patternUnits") != "userSpaceOnUse" or element.get("patternTransform") \
                or element.get("viewBox") or element.get("patternContentUnits") not in (None, "userSpaceOnUse"):
            raise Unsupported(f"fill {fill}")
        w, h = _num(element.get("width")), _num(element.get("height"))
        if w <= 0 or h <= 0:
            raise Unsupported("an empty pattern")
        tile = Drawing(element, self.base)
        tile.patterns, tile.clips = self.patterns, self.clips
        for child in element:
            tile.element(child, {})
        return {"x": _num(element.get("x")), "y": _num(element.get("y")), "width": w, "height": h, "ops": tile.ops}

    # Geometry --------------------------------------------------------------------------------------------

    def path_of(self, element, tag: str) -> None:
        get, ops = element.get, self.ops
        if tag == "path":
            self.path_data(get("d") or "")
        elif tag == "rect":
            x, y, w, h = _num(get("x")), _num(get("y")), _num(get("width")), _num(get("height"))
            rx, ry = get("rx"), get("ry")
            rx = _num(rx if rx is not None else ry)
            ry = _num(ry if ry is not None else get("rx"))
            rx, ry = min(rx, w / 2), min(ry, h / 2)
            if rx <= 0 or ry <= 0:
                ops.append(["rectangle", x, y, w, h])
            else:
                self.rounded(x, y, w, h, rx, ry)
        elif tag == "circle":
            r = _num(get("r"))
            if r > 0:
                ops += [["new_sub_path"], ["arc", _num(get("cx")), _num(get("cy")), r, 0.0, 2 * math.pi], ["close_path"]]
        elif tag == "ellipse":
            rx, ry = _num(get("rx")), _num(get("ry"))
            if rx > 0 and ry > 0:
                self.ellipse(_num(get("cx")), _num(get("cy")), rx, ry)
        elif tag == "line":
            ops += [["move_to", _num(get("x1")), _num(get("y1"))], ["line_to", _num(get("x2")), _num(get("y2"))]]
        else:
            self.polyline(_numbers(get("points") or ""), closed=tag == "polygon")

    def polyline(self, points: list, closed: bool) -> None:
        if len(points) >= 2:
            ops = self.ops
            ops.append(["move_to", points[0], points[1]])
            ops += [["line_to", points[i], points[i + 1]] for i in range(2, len(points) - 1, 2)]
            if closed:
                ops.append(["close_path"])

    def rounded(self, x, y, w, h, rx, ry) -> None:
        """A rounded rectangle, as cairosvg draws it: four quarter ellipses joined by lines."""
        ops = self.ops
        ops += [["move_to", x + rx, y], ["line_to", x + w - rx, y]]
        self._quarter(x + w - rx, y + ry, rx, ry, -math.pi / 2, 0)
        ops.append(["line_to", x + w, y + h - ry])
        self._quarter(x + w - rx, y + h - ry, rx, ry, 0, math.pi / 2)
        ops.append(["line_to", x + rx, y + h])
        self._quarter(x + rx, y + h - ry, rx, ry, math.pi / 2, math.pi)
        ops.append(["line_to", x, y + ry])
        self._quarter(x + rx, y + ry, rx, ry, math.pi, 3 * math.pi / 2)
        ops.append(["close_path"])

    def _quarter(self, cx, cy, rx, ry, start, end) -> None:
        self.ops += [["save"], ["translate", cx, cy], ["scale", rx, ry], ["arc", 0.0, 0.0, 1.0, start, end], ["restore"]]

    def ellipse(self, cx, cy, rx, ry) -> None:
        self.ops.append(["new_sub_path"])
        self._quarter(cx, cy, rx, ry, 0.0, 2 * math.pi)
        self.ops.append(["close_path"])

    def path_data(self, d: str) -> None:
        try:
            path_calls(d, self.ops)
        except PathDataError as exc:
            raise Unsupported(str(exc)) from None

    # Text ------------------------------------------------------------------------------------------------

    def text(self, element, style: dict) -> None:
        opacity = _num(element.get("opacity"), 1.0)
        self.save()
        self.transform(element.get("transform"))
        self.clip(element.get("clip-path"))
        self.cursor = [0.0, 0.0]
        chunks: list = []
        self._chunks(element, style, chunks, root=True)
        _strip_spaces(chunks)
        for text, chunk_style, position in chunks:
            self.show(text, chunk_style, position, opacity)
        self.restore()

    def _chunks(self, element, style: dict, out: list, root: bool = False) -> None:
        get = element.get
        position = (get("x"), get("y"), get("dx"), get("dy"))
        for value in position:
            if value and len(value.replace(",", " ").split()) > 1:
                raise Unsupported("per-letter positions")
        if element.get("rotate") or element.get("letter-spacing"):
            raise Unsupported("rotated or spaced letters")
        out.append([element.text or "", style, position])
        for child in element:
            if _tag(child) != "tspan":
                raise Unsupported(f"<{_tag(child)}> in text")
            unknown = [k for k in child.attrib if k not in KNOWN]
            if unknown:
                raise Unsupported(f"attribute {unknown[0]} on <tspan>")
            self._chunks(child, _style(child.attrib, style), out)
            out.append([child.tail or "", style, (None, None, None, None)])

    def show(self, text: str, style: dict, position: tuple, opacity: float) -> None:
        if colour(style.get("stroke")) is not None:
            raise Unsupported("stroked text")
        x_attr, y_attr, dx, dy = position
        x = _num(x_attr) if x_attr is not None else self.cursor[0]
        y = _num(y_attr) if y_attr is not None else self.cursor[1]
        x += _num(dx) if dx is not None else 0.0
        y += _num(dy) if dy is not None else 0.0
        family, italic, bold, size = _font(style.get("font-family"), style.get("font-weight"), style.get("font-style"),
                                           style.get("font-size"))
        x_bearing, y_bearing, width, height, x_advance = self.extents(text, family, italic, bold, size)
        anchor = style.get("text-anchor")
        align = -(width / 2 + x_bearing) if anchor == "middle" else -(width + x_bearing) if anchor == "end" else 0.0
        fill = colour(style.get("fill", "black"))
        if text.strip() and fill is not None:
            alpha = _num(style.get("fill-opacity"), 1.0) * opacity
            self.ops += [["save"], ["set_source_rgba", *fill, alpha],
                         ["select_font_face", family, 1 if italic else 0, 1 if bold else 0], ["set_font_size", size],
                         ["set_font_options", 0, 1, 1, 0],  # hinting off: the font's own advances, as textbox measures
                         ["move_to", x + align, y], ["show_text", text], ["restore"]]
            if style.get(FINE):
                self.fine.append(len(self.texts))
            self._note_glyphs(text, x + align, y, x_bearing, y_bearing, width, height, size)
        self.cursor = [x + x_advance, y]

    def extents(self, text, family, italic, bold, size):
        """Text extents in user units at `size`, measured by cairo with unhinted metrics (kept per process:
        the same label recurs on many faces)."""
        key = (text, family, italic, bold, size)
        if key not in _EXTENTS:
            _EXTENTS[key] = self._measure(text, family, italic, bold, size)
        return _EXTENTS[key]

    def _measure(self, text, family, italic, bold, size):
        ctx = scratch_context()
        ctx.select_font_face(family, 1 if italic else 0, 1 if bold else 0)
        ctx.set_font_size(size)
        x_bearing, y_bearing, width, height, x_advance, _ = ctx.text_extents(text)
        return x_bearing, y_bearing, width, height, x_advance

    def _note_glyphs(self, text, x, y, x_bearing, y_bearing, width, height, size) -> None:
        """[size, x0, y0, x1, y1, text] in device points: the ink box's four corners through the matrix."""
        a, b, c, d, e, f = self.matrix
        left, top = x + x_bearing, y + y_bearing
        x0, x1, y0, y1 = left + 0, left + width, top + 0, top + height
        xs = (a * x0 + c * y0 + e, a * x0 + c * y1 + e, a * x1 + c * y0 + e, a * x1 + c * y1 + e)
        ys = (b * x0 + d * y0 + f, b * x0 + d * y1 + f, b * x1 + d * y0 + f, b * x1 + d * y1 + f)
        self.texts.append([round(abs(complex(c * size, d * size)), 3), round(min(xs), 3), round(min(ys), 3),
                           round(max(xs), 3), round(max(ys), 3), text])

    # Images ----------------------------------------------------------------------------------------------

    def image(self, element, style: dict) -> None:
        href = element.get("href") or element.get(XLINK_HREF) or ""
        if self.base is None or not href or href.startswith("data:"):
            raise Unsupported("image without a kit folder")
        path, digest, pw, ph = kit_image(Path(self.base), href)
        x, y = _num(element.get("x")), _num(element.get("y"))
        w, h = _num(element.get("width"), pw), _num(element.get("height"), ph)
        sx, sy, tx, ty = _preserve_ratio(element.get("preserveAspectRatio"), w, h, pw, ph)
        opacity = _num(element.get("opacity"), 1.0)
        self.save()
        self.transform(element.get("transform"))
        self.op("rectangle", x, y, w, h)
        self.op("clip")
        self._transform_op("translate", x + tx, y + ty)
        self._transform_op("scale", sx, sy)
        across = abs(complex(self.matrix[0] * pw, self.matrix[1] * pw))
        down = abs(complex(self.matrix[2] * ph, self.matrix[3] * ph))
        self.placed.append((path, pw * 72 / across if across else 0, ph * 72 / down if down else 0))
        self.op("paint_image", path, digest, opacity)
        self.restore()


_KIT_IMAGES: dict = {}   # (kit folder, href) -> (path, size and mtime, content hash, width, height)


def kit_image(base: Path, href: str) -> tuple[str, str, int, int]:
    """(resolved path, content hash, pixel width, height) of a raster image of the kit, read once per process
    while the file is unchanged (a picture on 500 faces is read and measured once)."""
    from pnpgen.render.images import image_size, kit_fetcher
    from pnpgen.render.pdf_images import ImageRefused
    key = (str(base), href)
    cached = _KIT_IMAGES.get(key)
    if cached is not None:
        path, stamp, digest, pw, ph = cached
        try:
            info = Path(path).stat()
            if (info.st_size, info.st_mtime_ns) == stamp:
                return path, digest, pw, ph
        except OSError:
            pass
    url = base.resolve().as_uri() + "/" + href
    try:
        data = kit_fetcher(base)(url)
    except ImageRefused:
        raise Unsupported("image outside the kit: cairosvg refuses it with its message") from None
    if not data.startswith((b"\x89PNG", b"\xff\xd8")):
        raise Unsupported("an SVG image: cairosvg keeps it vector")
    try:
        pw, ph, _ = image_size(data)  # the header is enough here; the pixels are decoded when drawn
    except ImageRefused as exc:
        raise ImageRefused(f"{href}: {exc}") from None
    path = str(Path(unquote(url[len("file://"):])).resolve())
    info = Path(path).stat()
    _KIT_IMAGES[key] = (path, (info.st_size, info.st_mtime_ns), hashlib.sha1(data).hexdigest(), pw, ph)
    return path, _KIT_IMAGES[key][2], pw, ph


def _preserve_ratio(value, w, h, pw, ph):
    """Scale and offset of an image of pw x ph pixels in a w x h box, per preserveAspectRatio."""
    value = (value or "xMidYMid meet").split()
    align = value[0]
    if align == "none":
        return w / pw, h / ph, 0.0, 0.0
    slice_ = len(value) > 1 and value[1] == "slice"
    scale = max(w / pw, h / ph) if slice_ else min(w / pw, h / ph)
    free_x, free_y = w - pw * scale, h - ph * scale
    fx = {"xMin": 0, "xMid": 0.5, "xMax": 1}.get(align[:4], 0.5)
    fy = {"YMin": 0, "YMid": 0.5, "YMax": 1}.get(align[4:], 0.5)
    return scale, scale, free_x * fx, free_y * fy


_FONTS: dict = {}   # (family, weight, style, size as written) -> (family, italic, bold, size)


def _font(family: str | None, weight: str | None, style: str | None, size: str | None) -> tuple:
    """The face and size a text asks for, as cairo's toy font API takes them (read once per process for each
    way of writing them)."""
    key = (family, weight, style, size)
    found = _FONTS.get(key)
    if found is None:
        weight = weight or "normal"
        found = ((family or "sans-serif").split(",")[0].strip("\"' "), style in ("italic", "oblique"),
                 weight == "bold" or (weight.isdigit() and int(weight) >= 550), _font_size(size))
        if len(_FONTS) < REMEMBERED:
            _FONTS[key] = found
    return found


def _font_size(value) -> float:
    if value is None:
        return 12.0
    match = re.fullmatch(r"\s*([\d.]+)\s*(pt|px)?\s*", value)
    if not match:
        raise Unsupported(f"font-size {value}")
    return float(match.group(1))


def _strip_spaces(chunks: list) -> None:
    """SVG's default white-space handling: newlines and tabs are spaces, runs collapse, the text's ends trim."""
    trailing = True  # at the start of the text, a leading space goes
    for chunk in chunks:
        text, style = chunk[0], chunk[1]
        if style.get(XML_SPACE) == "preserve":
            chunk[0] = text.replace("\n", " ").replace("\t", " ")
        else:
            text = SPACES.sub(" ", text.replace("\n", " ").replace("\t", " "))
            if trailing or chunk[2][0] is not None:
                text = text.lstrip(" ")
            chunk[0] = text
        if chunk[0]:
            trailing = chunk[0].endswith(" ")
    for chunk in reversed(chunks):
        if chunk[0]:
            if chunk[1].get(XML_SPACE) != "preserve":
                chunk[0] = chunk[0].rstrip(" ")
            break
