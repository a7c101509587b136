"""A figure the booklet story can place: the SVG of each piece of art it shows, and callouts located on the
first. story.py reserves room for it and draws the callouts; overlay.py places the art itself, as vector,
once reportlab has laid the pages out. Any kit's component pieces make figures (generator/documents/
piece_figures.py); a game module adds its own (GameModule.documents)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Art:
    svg: str
    source: str      # the piece it shows, for error messages
    caption: str


@dataclass(frozen=True)
class Callout:
    label: str
    fx: float        # where it points, as a fraction of the art's width and height
    fy: float


@dataclass(frozen=True)
class Figure:
    name: str
    arts: tuple[Art, ...]
    callouts: tuple[Callout, ...] = ()   # on the first art
    missing: tuple[str, ...] = ()        # callouts whose text the template does not print
    width: float | None = None           # printed width of each art in points (None: the counter default)
