"""The kit model every game shares: frozen dataclasses built from validated YAML, the one source every part
reads. A game module (games/) extends Kit with its own fields."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Colour:
    """A player colour (or the neutral one) as kit.yaml declares it."""

    id: str
    name: str
    print: str      # fill colour, "#rrggbb"
    ink: str        # text colour that reads on `print`
    emblem: str     # shape cue that is not colour
    pattern: str    # fill-pattern cue that is not colour


@dataclass(frozen=True)
class Kit:
    """The loaded, checked kit: what every part reads."""

    root: Path
    id: str
    title: str
    subtitle: str
    players: tuple[int, int]
    colours: tuple[Colour, ...]
    neutral: Colour
    counter_size: str
    paper: str
    module: str | None = None  # the game module that loaded it (kit.yaml `module:`), or None
    lines: dict = field(default_factory=dict, compare=False, repr=False)
    # The generic layer: component tables, boards, hex maps, free data, sheet settings, documents, their pieces.
    tables: dict = field(default_factory=dict, compare=False, repr=False)
    boards: tuple = field(default=(), compare=False, repr=False)
    maps: tuple = field(default=(), compare=False, repr=False)  # HexMap per maps/*.yaml (generator/maps/hexmap.py)
    data: dict = field(default_factory=dict, compare=False, repr=False)
    sheets: dict = field(default_factory=dict, compare=False, repr=False)
    documents: dict | None = field(default=None, compare=False, repr=False)
    cover: dict | None = field(default=None, compare=False, repr=False)  # kit.yaml `cover:` (documents/cover_data.py)
    component_pieces: tuple = field(default=(), compare=False, repr=False)
    preflight: dict = field(default_factory=dict, compare=False, repr=False)
    charts: dict = field(default_factory=dict, compare=False, repr=False)  # Chart per name (documents/charts.py)
    icons: dict = field(default_factory=dict, compare=False, repr=False)  # name -> image path in the kit (`:name:`)
    fonts: tuple = field(default=(), compare=False, repr=False)  # KitFont per file of fonts/ (generator/kit_fonts.py)
    document_fonts: dict = field(default_factory=dict, compare=False, repr=False)  # kit.yaml `fonts:` role -> family
    edition: object = field(default=None, compare=False, repr=False)  # the language it prints in (pnpgen.i18n
    # Translator; None: the source): a build prints in the kit's own, whatever was loaded since

    @property
    def has_game_module(self) -> bool:
        """True for a kit a game module loaded (its own parts print it); False for a kit of data only."""
        return self.module is not None

    def colour(self, colour_id: str) -> Colour:
        return next(c for c in self.colours if c.id == colour_id)

    def locate(self, file_key: str, path: str) -> tuple[str, int]:
        """(file, line) of a field, for errors found after loading (a missing template, say)."""
        while (file_key, path) not in self.lines and path:
            parent = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", path)  # a missing field: point at its parent
            path = parent if parent != path else ""  # a first key missing too: the file's top
        return self.lines.get((file_key, path), ("?", 0))
