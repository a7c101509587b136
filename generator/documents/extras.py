"""What a game module adds to its kit's document chapters (GameModule.documents): Jinja names of its own,
helpers included, and the figures only it can draw. The core places them: `{{ figure('name') }}` in a
chapter leaves a directive line, and a figure is drawn only when a chapter places it."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable

from pnpgen.booklet.markdown import directive_line
from pnpgen.problems import BuildError


@dataclass(frozen=True)
class ChapterExtras:
    names: dict = field(default_factory=dict)    # Jinja names and helpers the chapters may use
    figures: dict[str, Callable] = field(default_factory=dict)  # figure name -> () -> pnpgen.booklet.figure.Figure


def figure_helper(figures: dict) -> Callable:
    """`figure('name')`: the directive the story turns into the figure; an unknown name says which exist.
    `name=` places it under a name of its own (the manifest lists it so) and `captions=` gives each of its
    pictures its words, so a chapter says what a piece figure shows in its own terms."""
    told: dict = {}  # name -> what the chapters gave it: one name is one figure, wherever it is placed

    def figure(shows: str, name: str | None = None, captions=None) -> str:
        if shows not in figures:
            known = ", ".join(sorted(figures)) or "none: this kit's documents have no figures"
            raise KeyError(f"unknown figure {shows!r} (known: {known})")
        key = name or shows
        if (name is not None or captions is not None) and told.get(key) != (shows, repr(captions)):
            if key in told or (key != shows and key in figures):
                raise ValueError(f"figure name {key!r} is another figure's already: give each its own name")
            told[key] = (shows, repr(captions))
            figures[key] = _retold(figures[shows], key, captions)
            figure.retold.append((key, shows, captions))
        return directive_line(f"[[figure:{key}]]")
    figure.retold = []   # (name, shows, captions) of each figure retold, in order: retell(), for another context
    return figure


def retell(figures: dict, retold: list) -> None:
    """The figures a chapter's `figure(..., name=, captions=)` retold (figure.retold), retold again in
    `figures` (another context's, for the same text)."""
    for key, shows, captions in retold:
        figures[key] = _retold(figures[shows], key, captions)


def _retold(draw: Callable, name: str, captions) -> Callable:
    """The figure `draw` makes, under `name`, with `captions` (one a picture, in order) when given."""
    def drawn():
        fig = draw()
        if captions is None:
            return dataclasses.replace(fig, name=name)
        if not isinstance(captions, (list, tuple)) or len(captions) != len(fig.arts):
            raise BuildError(f"captions= needs a list of {len(fig.arts)} caption(s), one for each picture of "
                             f"figure {fig.name!r}")
        arts = tuple(dataclasses.replace(art, caption=str(c)) for art, c in zip(fig.arts, captions))
        return dataclasses.replace(fig, name=name, arts=arts)
    return drawn
