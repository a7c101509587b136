"""Prose with numbers from the data: rules chapters and aid texts are Jinja over Markdown or plain text.

Writers type `{{ units.CA.cost }}` instead of a number, so the text can never disagree with the counters.
Undefined names are errors with the file and line, never blanks.
"""
from __future__ import annotations

import traceback
from pathlib import Path
from types import SimpleNamespace
from xml.sax.saxutils import escape as xml_escape

import jinja2

from generator.model import Kit
from generator.problems import BuildError, display_path


def kit_context(kit: Kit) -> dict:
    """Everything a text may quote: the model's tables by id, plus a few derived facts."""
    game = kit.game
    return {
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


def join_and(items, word: str = "and") -> str:
    """['a', 'b', 'c'] -> 'a, b and c'."""
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def _env(finalize=None) -> jinja2.Environment:
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True,
                             finalize=finalize)
    env.filters["join_and"] = join_and
    return env


def _escape_markup(value):
    """Data quoted into reportlab paragraph markup: a name like 'R&D <1>' must print, not break it."""
    return xml_escape(value) if isinstance(value, str) else value


_ENV = _env()
_MARKUP_ENV = _env(finalize=_escape_markup)


def render_text(kit: Kit, source: str, origin: Path | str, extra: dict | None = None, markup: bool = False) -> str:
    """Render one text; `origin` names its file for errors; `markup` escapes quoted data for reportlab."""
    context = kit_context(kit) | (extra or {})
    name = display_path(origin)
    try:
        return (_MARKUP_ENV if markup else _ENV).from_string(source).render(**context)
    except jinja2.TemplateSyntaxError as exc:
        raise BuildError(f"{name}:{exc.lineno}: template syntax error: {exc.message}") from None
    except (jinja2.UndefinedError, AttributeError, KeyError, TypeError, ValueError) as exc:
        raise BuildError(f"{name}:{_line(exc)}: {exc}") from None


def _line(exc: Exception) -> int:
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename == "<template>":
            return frame.lineno
    return 0


def render_file(kit: Kit, path: Path, extra: dict | None = None, markup: bool = False) -> str:
    return render_text(kit, Path(path).read_text(encoding="utf-8"), path, extra, markup)
