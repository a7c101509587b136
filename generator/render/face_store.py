"""A disk store of rendered faces: the cairo calls cairosvg made for each face, replayed without cairosvg.

Interpreting SVG is the slow step of a build (cairosvg, in Python); the cairo calls it ends in are few and
fast. The first time a face is drawn, a recorder in front of the cairo context notes each drawing call; the
calls are kept on disk under the face's key (a hash of the templates and the face's parameters). The next
build replays them onto a fresh recording surface: the same drawing, so the same PDF bytes, without parsing
any SVG. A designer's edit therefore re-renders only the faces whose parameters changed.
"""
from __future__ import annotations

import marshal
from functools import lru_cache
from pathlib import Path

from pnpgen.problems import BuildError
from pnpgen.render.face_compact import compact
from pnpgen.render.art import Art, cairo_and_cairosvg
from pnpgen.render.cairo_lib import cairo
from pnpgen.signing import read_sealed, seal
from pnpgen.whole_files import write_whole

QUERIES = ("get_", "copy_", "has_", "in_", "text_extents", "font_extents", "user_to_device", "device_to_user",
           "path_extents", "fill_extents", "stroke_extents", "clip_extents", "glyph_extents")


class NotRecordable(Exception):
    """A call this store cannot replay (a gradient, an image, a copied path): keep that face in memory only."""


# Context methods that take plain numbers and map one-to-one onto a cairo C function of the same name.
NUMERIC = frozenset("""save restore move_to line_to curve_to rel_move_to rel_line_to rel_curve_to arc arc_negative
    rectangle close_path new_path new_sub_path translate scale rotate identity_matrix set_tolerance set_antialias
    set_fill_rule set_line_width set_line_cap set_line_join set_miter_limit set_operator set_source_rgb
    set_source_rgba set_font_size stroke stroke_preserve fill fill_preserve clip clip_preserve reset_clip paint
    paint_with_alpha push_group pop_group_to_source""".split())
TEXT = frozenset(("show_text", "text_path"))


class Recorder:
    """Stands in for a cairocffi.Context: forwards every call and notes the ones that draw or set state."""

    def __init__(self, context):
        self._context = context
        self.ops: list = []   # kept when not recordable too (a gradient, a pattern): the preflight reads them
        self.recordable = True
        self.texts: list = []
        self.svg_images: list = []  # [path, first glyph, after its last] of each SVG image drawn (images.py)

    def show_text(self, text):
        """Drawn as every other call, and measured: each glyph's size and ink box in device points."""
        self.texts.append(glyph_box(self._context, text))
        self.ops.append(["show_text", text])
        return self._context.show_text(text)

    def __getattr__(self, name):
        target = getattr(self._context, name)
        if not callable(target) or name.startswith(QUERIES):
            return target

        ops = self.ops

        def call(*args):
            try:
                ops.append(encode_op(name, args))
            except (NotRecordable, TypeError):
                self.recordable = False   # not stored; the preflight still reads what it stands for
                ops.append(checked_op(name, args))
            return target(*args)
        setattr(self, name, call)  # later calls skip __getattr__
        return call


def glyph_box(context, text: str) -> list:
    """[size in points, x0, y0, x1, y1, text]: the glyph's ink box where the device will show it."""
    x, y = context.get_current_point()
    x_bearing, y_bearing, width, height = context.text_extents(text)[:4]
    corners = [context.user_to_device(x + x_bearing + dx, y + y_bearing + dy)
               for dx in (0, width) for dy in (0, height)]
    font = context.get_font_matrix()
    size = abs(complex(*context.user_to_device_distance(font.as_tuple()[2], font.as_tuple()[3])))
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return [round(size, 3), round(min(xs), 3), round(min(ys), 3), round(max(xs), 3), round(max(ys), 3), text]


def checked_op(name: str, args: tuple) -> list:
    """What the preflight (pnpgen.render.ink_lines) needs of a call the store cannot replay: a gradient
    source as the mean of its colour stops (the ground a text on it is held against), else the call's name."""
    stops = getattr(args[0], "get_color_stops", None) if name == "set_source" and args else None
    if stops is not None and stops():
        colours = [stop[1:] for stop in stops()]
        return ["set_source_rgba", *(sum(c[k] for c in colours) / len(colours) for k in range(4))]
    return ["unrecorded", name]


def encode_op(name: str, args: tuple) -> list:
    if name in NUMERIC or name in TEXT:
        return [name, *args]
    if name == "select_font_face":
        return [name, *args]
    if name == "set_dash":
        return [name, list(args[0]), *args[1:]]
    if name in ("transform", "set_matrix"):
        return [name, *args[0].as_tuple()]
    if name == "set_font_options":
        o = args[0]
        return [name, o.get_antialias(), o.get_hint_style(), o.get_hint_metrics(), o.get_subpixel_order()]
    raise NotRecordable(name)


def record_svg(svg: str, source: str = "", base: Path | None = None,
               unbounded: bool = False) -> tuple[Art, dict | None]:
    """Render one SVG like render.pdf.render_svg, and return its replayable record (None if not storable).
    Images resolve inside the kit folder `base` only (none at all without one). The Art keeps the glyphs
    and calls the preflight reads either way; `unbounded` as for replay()."""
    cairocffi, cairosvg = cairo_and_cairosvg()
    from pnpgen.render.images import kit_fetcher

    class RecordedSvg(cairosvg.surface.PDFSurface):
        @property
        def context(self):
            return self._recorder

        @context.setter
        def context(self, value):
            self._recorder = Recorder(value)

        def _create_surface(self, width, height):
            extents = None if unbounded else (0, 0, width, height)
            return cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, extents), width, height

    try:
        url = Path(base).resolve().as_uri() + "/" if base else None
        tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"), unsafe=False, url=url,
                                    url_fetcher=kit_fetcher(base))
        surface = RecordedSvg(tree, None, 72)
    except Exception as exc:  # cairosvg raises many types on bad SVG
        raise BuildError(f"{f'{source}: ' if source else ''}cannot draw the SVG: {exc}") from None  # located first
    recorder = surface.context
    ops = compact(recorder.ops)   # a face cairosvg drew beyond what the store replays keeps them for its checks
    art = Art(surface.cairo, surface.width, surface.height, tuple(tuple(t) for t in recorder.texts),
              ops, svg_images=tuple(tuple(drawn) for drawn in recorder.svg_images))
    record = {"width": art.width, "height": art.height, "ops": ops, "texts": recorder.texts} \
        if recorder.recordable else None
    if record is not None and recorder.svg_images:
        record["svg_images"] = recorder.svg_images
    return art, record


def replay(record: dict, unbounded: bool = False, for_pdf: bool = False) -> Art:
    """Draw a record straight through cairo's C functions: no SVG, no Python wrapper per call. Art that
    pages place clipped (a board cut into tiles) must be `unbounded` (see render.pdf.render_svg); art only
    ever painted into a PdfDocument may be `for_pdf` (images as stand-ins, see render.pdf_images)."""
    cairocffi = cairo()
    lib = cairocffi.cairo
    width, height = record["width"], record["height"]
    surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None if unbounded else (0, 0, width, height))
    context = cairocffi.Context(surface)
    pointer = context._pointer
    _replay_into(context, record["ops"], [], for_pdf)
    if lib.cairo_status(pointer):
        raise BuildError(f"replaying a stored face failed: cairo status {lib.cairo_status(pointer)}")
    return Art(surface, width, height, tuple(tuple(t) for t in record.get("texts", ())), record["ops"])


@lru_cache(maxsize=None)
def font_options(antialias: int, hint_style: int, hint_metrics: int, subpixel_order: int):
    """One cairo FontOptions per setting, kept for the process (faces set the same few again and again)."""
    import cairocffi
    options = cairocffi.FontOptions()
    for setter, value in zip(("antialias", "hint_style", "hint_metrics", "subpixel_order"),
                             (antialias, hint_style, hint_metrics, subpixel_order)):
        getattr(options, "set_" + setter)(value)
    return options


@lru_cache(maxsize=1)
def c_functions(lib) -> dict:
    """The C function of each call that takes plain numbers (the text calls, which take bytes, are not here)."""
    return {name: getattr(lib, "cairo_" + name) for name in NUMERIC}


def special_op(context, name: str, args: list, keep: list, for_pdf: bool = False) -> None:
    """The few calls that need a C structure built first (a font face name, a matrix, font options)."""
    import cairocffi
    if name == "select_font_face":
        context.select_font_face(*args)
    elif name in ("transform", "set_matrix"):
        getattr(context, name)(cairocffi.Matrix(*args))
    elif name == "set_dash":
        context.set_dash(*args)
    elif name == "set_font_options":
        context.set_font_options(font_options(*args))
    elif name == "fill_pattern":
        fill_pattern(context, *args, keep=keep, for_pdf=for_pdf)
    elif name == "paint_image":
        from pnpgen.render.images import replay_image
        from pnpgen.render.pdf_images import ImageRefused
        try:
            replay_image(context, *args, for_pdf=for_pdf)
        except ImageRefused as exc:
            raise BuildError(str(exc)) from None
    else:
        raise BuildError(f"a stored face holds an unknown drawing call {name!r}; delete the build cache")


def fill_pattern(context, tile: dict, alpha: float, keep: list, for_pdf: bool = False) -> None:
    """Fill the current path (kept) with a repeating tile recorded as calls, in the current user space."""
    import cairocffi
    surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, tile["width"], tile["height"]))
    inner = cairocffi.Context(surface)
    _replay_into(inner, tile["ops"], keep, for_pdf)
    pattern = cairocffi.SurfacePattern(surface)
    pattern.set_extend(cairocffi.EXTEND_REPEAT)
    pattern.set_matrix(cairocffi.Matrix(x0=-tile["x"], y0=-tile["y"]))
    keep += [surface, pattern]
    context.save()
    context.clip_preserve()
    context.set_source(pattern)
    context.paint_with_alpha(alpha)
    context.restore()


def _replay_into(context, ops: list, keep: list, for_pdf: bool = False) -> None:
    """Each call straight to its C function; the common lengths are passed without building an argument list
    (a map replays tens of thousands of line_to)."""
    lib = cairo().cairo
    functions, pointer = c_functions(lib), context._pointer
    for op in ops:
        function = functions.get(op[0])
        if function is None:
            _other_op(context, lib, op, keep, for_pdf)
        elif len(op) == 3:
            function(pointer, op[1], op[2])
        elif len(op) == 1:
            function(pointer)
        else:
            function(pointer, *op[1:])


def _other_op(context, lib, op: list, keep: list, for_pdf: bool) -> None:
    name, *args = op
    pointer = context._pointer
    if name in TEXT:
        getattr(lib, "cairo_" + name)(pointer, args[0].encode("utf-8"))
    elif name == "select_font_face":  # as cairocffi does it, without its wrapper
        lib.cairo_select_font_face(pointer, args[0].encode("utf-8"), args[1], args[2])
    elif name == "set_font_options":
        lib.cairo_set_font_options(pointer, font_options(*args)._pointer)
    else:
        special_op(context, name, args, keep, for_pdf)


class PackedFaceStore:
    """Face records of one part in a single file, read once and written once per build: a kit of a
    thousand faces costs one read and one write instead of thousands of small files. The file is marshal
    (C speed for lists of numbers); it is a local cache, and an unreadable one is simply rebuilt. It is read
    only when signed by this user's pnpgen (pnpgen.signing): marshal is no format for bytes from elsewhere,
    and a record from a shipped cache is never replayed."""

    VERSION = 1

    def __init__(self, path: Path):
        self.path = Path(path)
        self.records: dict = {}
        self.dirty = False
        data = read_sealed(self.path)
        try:
            version, records = marshal.loads(data) if data is not None else (None, None)
            if version == self.VERSION and isinstance(records, dict):
                self.records = records
        except (ValueError, EOFError, TypeError):
            pass

    def get(self, key: str) -> dict | None:
        return self.records.get(key)

    def put(self, key: str, record: dict) -> None:
        self.records[key] = record
        self.dirty = True

    def save(self, keep: set[str]) -> None:
        """Keep only the faces this build used, and write the file if anything changed."""
        if set(self.records) - keep:
            self.records = {k: v for k, v in self.records.items() if k in keep}
            self.dirty = True
        if not self.dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(self.path, seal(marshal.dumps((self.VERSION, self.records))))
