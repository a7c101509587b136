"""Game modules: the one place a game's own Python lives (its derived numbers for charts and chapters).

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
    """A game's own Python, as the core calls it: its loader, its parts, its charts' and documents' names."""

    name: str
    # (root, kit_doc, raw_kit, base fields of Kit, problems) -> the module's Kit; the base fields hold the
    # kit's component tables and their pieces already (loaded first), for a module that reads them
    load: Callable
    parts: tuple = ()     # Parts of its own (a kit's documents under another name, say)
    chart_context: Callable = lambda kit: {}  # the names its charts (charts.yaml) may use
    # (kit, pieces, counter size, tables) -> a ChapterExtras: its documents' own Jinja names and figures
    documents: Callable | None = None


def on_use(module: str, name: str) -> Callable:
    """`module`'s function `name`, imported at its first call: every CLI run lists the modules' parts and most
    load no kit, so a module's loader and texts (and all they import) wait until a kit needs them."""
    def call(*args):
        return getattr(importlib.import_module(module), name)(*args)
    return call


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


def all_parts() -> list:
    """Every module's parts: the CLI offers their options, a build runs those that apply to its kit."""
    return [part for name in names() for part in get(name).parts]
