"""What a game module adds to its kit's document chapters (GameModule.documents): Jinja names of its own,
helpers included, and the figures only it can draw. The core places them: `{{ figure('name') }}` in a
chapter leaves a directive line, and a figure is drawn only when a chapter places it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pnpgen.booklet.markdown import directive_line


@dataclass(frozen=True)
class ChapterExtras:
    names: dict = field(default_factory=dict)    # Jinja names and helpers the chapters may use
    figures: dict[str, Callable] = field(default_factory=dict)  # figure name -> () -> pnpgen.booklet.figure.Figure


def figure_helper(figures: dict) -> Callable:
    """`figure('name')`: the directive the story turns into the figure; an unknown name says which exist."""
    def figure(name: str) -> str:
        if name not in figures:
            known = ", ".join(sorted(figures)) or "none: this kit's documents have no figures"
            raise KeyError(f"unknown figure {name!r} (known: {known})")
        return directive_line(f"[[figure:{name}]]")
    return figure
