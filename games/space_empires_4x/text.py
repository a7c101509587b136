"""Space Empires 4X prose with numbers from the data: rules chapters and aid texts are Jinja over Markdown
or plain text.

Writers type `{{ units.CA.cost }}` instead of a number, so the text can never disagree with the counters.
Undefined names are errors with the file and line, never blanks. Texts come from kit folders a designer may
have downloaded, so Jinja runs sandboxed: `{{ kit.__class__ }}` and the like stop with a located error.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from xml.sax.saxutils import escape as xml_escape

import jinja2

from pnpgen.games.space_empires_4x.rulings import SOURCE as RULINGS_FILE
from pnpgen.games.space_empires_4x.rulings import ruling_names
from pnpgen.model import Kit
from pnpgen.problems import display_path
from pnpgen.documents.context import render_in
from pnpgen.kit_loader import KitLoader
from pnpgen.sandbox import KitSandbox, KitUndefined
from pnpgen.text import TextError, join_and


def kit_context(kit: Kit) -> dict:
    """Everything a text may quote: the model's tables by id, a few derived facts and the kit's rulings."""
    game = kit.game
    rulings = ruling_names(kit, lambda words: render_text(kit, words, kit.root / RULINGS_FILE))
    return rulings | {
        "kit": kit,
        "units": SimpleNamespace(**kit.units),
        "techs": SimpleNamespace(**kit.technologies),
        "markers": SimpleNamespace(**kit.marker_kinds),
        "counters": SimpleNamespace(**kit.counters),
        "home_system": kit.home_system,
        "deep_space": kit.deep_space,
        "game": game,
        "economy": game.economy,
        "combat": game.combat,
        "sequence": game.sequence,
        "tables": game.tables,
        "scenarios": game.scenarios,
        "homeworld_steps": game.homeworld_steps(),
        "colours": kit.colours,
        "players": SimpleNamespace(min=kit.players[0], max=kit.players[1]),
    }


@lru_cache(maxsize=8)
def _env(root: Path, markup: bool) -> jinja2.Environment:
    """The sandbox for this kit's texts; includes name files from the kit folder, read by the kit reader."""
    env = KitSandbox(loader=KitLoader([(root, root)]), undefined=KitUndefined, autoescape=False,
                     keep_trailing_newline=True, finalize=_escape_markup if markup else None)
    env.filters["join_and"] = join_and
    return env


def _escape_markup(value):
    """Data quoted into reportlab paragraph markup: a name like 'R&D <1>' must print, not break it."""
    return xml_escape(value) if isinstance(value, str) else value


def render_text(kit: Kit, source: str, origin: Path | str, extra: dict | None = None, markup: bool = False) -> str:
    """Render one text; `origin` names its file for errors; `markup` escapes quoted data for reportlab."""
    context = kit_context(kit) | (extra or {})
    name = display_path(origin)
    if "\0" in source:
        raise TextError(name, source[: source.index("\0")].count("\n") + 1, "a NUL byte: the file is not text")
    return render_in(_env(Path(kit.root), markup), source, name, context)


def aid_names(kit: Kit) -> dict:
    """Derived lists the aid texts quote: unit names by how they move, colony steps from big to gone."""
    by_movement: dict[str, list[str]] = {}
    for unit in kit.units.values():
        by_movement.setdefault(unit.movement, []).append(unit.name)
    return {"moving": by_movement, "colony_steps": list(reversed(kit.game.economy["colony_growth"])),
            "marker_list": list(kit.marker_kinds.values())}


def render_aid_markup(kit: Kit, source: str, origin: Path) -> str:
    """An aid file (cards, record sheet labels) rendered with the kit's numbers and the lists above."""
    return render_text(kit, source, origin, aid_names(kit), markup=True)
