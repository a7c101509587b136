"""Space Empires 4X prose with numbers from the data: rules chapters and aid texts are Jinja over Markdown
or plain text.

Writers type `{{ units.CA.cost }}` instead of a number, so the text can never disagree with the counters.
The names are the game's; the rendering is the core's, as every kit's texts (sandboxed, strict, located).
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from pnpgen.documents.rulings import SOURCE as RULINGS_FILE
from pnpgen.documents.rulings import ruling_names
from pnpgen.model import Kit


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


def render_text(kit: Kit, source: str, origin: Path | str, extra: dict | None = None, markup: bool = False) -> str:
    """One text with the kit's names (the core's sandbox, pnpgen.documents.context); `origin` names its file
    for errors; `markup` escapes quoted data for reportlab."""
    from pnpgen.documents.context import render_string
    return render_string(source, origin, kit_context(kit) | (extra or {}), kit.root, markup)


def aid_names(kit: Kit) -> dict:
    """Derived lists the aid texts quote: unit names by how they move, colony steps from big to gone."""
    by_movement: dict[str, list[str]] = {}
    for unit in kit.units.values():
        by_movement.setdefault(unit.movement, []).append(unit.name)
    return {"moving": by_movement, "colony_steps": list(reversed(kit.game.economy["colony_growth"])),
            "marker_list": list(kit.marker_kinds.values())}
