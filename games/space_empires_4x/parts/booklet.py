"""Part "booklet": the rules booklet in reading order, and imposed for saddle-stitch folding."""
from __future__ import annotations

from generator.parts import Part


def build(ctx) -> dict:
    from games.space_empires_4x.booklet.make import build_booklet  # reportlab and pypdf load only when the booklet is built
    return build_booklet(ctx)


PART = Part(name="booklet", build=build, order=50, doc="the rules booklet, in reading order and imposed for folding",
            aliases=("rules",), ignores=("aids",), needs=("cairo", "reportlab", "pypdf"), weight=0.9)
