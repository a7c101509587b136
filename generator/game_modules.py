"""Game modules: the one place a game's own Python lives (its derived numbers, its checks, its faces' inputs).

A kit made of data only needs none. A kit that does names its module in kit.yaml (`module:
space_empires_4x`); the module is looked up among those shipped in the `games` package, never loaded from
a kit folder, since kit folders are input from anyone. The core calls a module only through GameModule.
"""
from __future__ import annotations

import dataclasses
import difflib
import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from typing import Callable


@dataclass(frozen=True)
class GameModule:
    name: str
    load: Callable        # (root, kit_doc, raw_kit, base fields of Kit, problems) -> the module's Kit
    pieces: Callable      # (kit) -> [Piece]: every piece the module's data makes, in print order
    parts: tuple = ()     # Parts of its own (a kit's documents under another name, say)
    inventory: Callable = lambda kit, pieces: []   # manifest.json's inventory lines (dicts)
    summary: Callable = lambda kit, pieces: f"{len(pieces)} pieces"  # what `validate` says it checked
    listing: Callable | None = None  # (kit, pieces) -> text for `pnpgen list`
    chart_context: Callable = lambda kit, pieces: {}  # the names its charts (charts.yaml) may use
    # (kit, pieces, counter size, tables) -> a ChapterExtras: its documents' own Jinja names and figures
    documents: Callable | None = None
    # (group, printed name) of its pieces' print groups, in print order: the counters part's files
    print_groups: Callable = lambda kit: [(c.id, c.name) for c in kit.colours] + [("neutral", kit.neutral.name)]


@cache
def names() -> tuple[str, ...]:
    import pnpgen.games as games
    return tuple(sorted(info.name for info in pkgutil.iter_modules(games.__path__) if info.ispkg))


@cache
def get(name: str) -> GameModule:
    """The module called `name`; a KeyError says which ones exist (and the nearest) otherwise."""
    if name not in names():
        near = difflib.get_close_matches(name, names(), n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise KeyError(f"unknown game module {name!r}{hint}; known: {', '.join(names()) or 'none'}")
    module = importlib.import_module(f"pnpgen.games.{name}").MODULE
    parts = tuple(dataclasses.replace(p, applies=lambda kit, a=p.applies: kit.module == name and a(kit))
                  for p in module.parts)
    return dataclasses.replace(module, parts=parts)


def of(kit) -> GameModule | None:
    return get(kit.module) if kit.module else None


def kit_pieces(kit) -> list:
    """Every piece of a kit in print order: its game module's, then its tables'."""
    module = of(kit)
    return (module.pieces(kit) if module else []) + list(kit.component_pieces)


def all_parts() -> list:
    """Every module's parts: the CLI offers their options, a build runs those that apply to its kit."""
    return [part for name in names() for part in get(name).parts]
