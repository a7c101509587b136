"""What every drawing module shares: cairocffi and cairosvg loaded with pnpgen's own image and text drawing
installed, and Art, one rendered piece of SVG art. Below pnpgen.render.pdf and pnpgen.render.face_store, which
both make Art, so neither imports the other for it."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from pnpgen.render.cairo_lib import cairo


@cache
def cairo_and_cairosvg():
    """cairocffi and cairosvg, for the SVG beyond the subset pnpgen.render.svg_ops draws by itself."""
    cairocffi = cairo()
    import cairosvg.parser
    import cairosvg.surface
    from pnpgen.render import fast_text, images
    images.install()      # images only from the kit folder, each file once per PDF
    fast_text.install()   # simple text in one call per string
    return cairocffi, cairosvg


@dataclass(frozen=True)
class Art:
    """A rendered piece of SVG art: a cairo recording and its size in points."""

    recording: object
    width: float
    height: float
    texts: tuple = ()   # (size pt, x0, y0, x1, y1, glyph) of every glyph drawn, in art points (for the preflight)
    ops: list | None = field(default=None, compare=False, repr=False)  # the recorded calls, when replayed
    svg_images: tuple = field(default=(), compare=False, repr=False)  # (path, first, end) of texts an SVG
                                                                      # image drew (face_store.Recorder)
