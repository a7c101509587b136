"""Part "booklet": the rules booklet in reading order, and imposed for saddle-stitch folding."""
from __future__ import annotations

from generator.parts import Part


def build(ctx) -> dict:
    from generator.booklet.make import build_booklet  # reportlab and pypdf load only when the booklet is built
    return build_booklet(ctx)


def prepare() -> None:
    from generator.booklet.styles import styles
    from generator.render.pdf import _cairo
    import generator.booklet.make  # noqa: F401
    _cairo()
    styles()


PART = Part(name="booklet", build=build, order=50, doc="the rules booklet, in reading order and imposed for folding",
            aliases=("rules",), ignores=("aids",), prepare=prepare)
