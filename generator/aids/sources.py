"""Where a kit's aid cards come from and how their Jinja is rendered: light enough for validation (no reportlab)."""
from __future__ import annotations

from pathlib import Path

from pnpgen import game_modules
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT
from pnpgen.model import Kit

AIDS_FILE = Path("aids") / "cards.yaml"
BLOCK_KINDS = ("heading", "text", "bullets", "chart")


def aids_path(kit: Kit, rel: Path = AIDS_FILE) -> Path:
    """The kit's own aid file; a game module's kit without one falls back to the built-in default kit's (as
    templates fall back to the built-in folder). A kit of data only has aid cards when it writes them."""
    own = kit.root / rel
    return own if own.exists() or not kit.has_game_module else BUILTIN_DATA / DEFAULT_KIT / rel


def has_aid_cards(kit: Kit) -> bool:
    return aids_path(kit).is_file()


def has_sheets(kit: Kit) -> bool:
    from pnpgen.aids.schema import SHEETS_FILE
    return aids_path(kit, SHEETS_FILE).is_file()


def render_aid_text(kit: Kit, source: str, origin: Path) -> str:
    """An aid file's Jinja rendered with what the kit's texts may quote, quoted data escaped for reportlab's
    paragraph markup: a game module's names (GameModule.render_markup), else a data kit's (its tables, data,
    boards, colours, players: pnpgen.documents.context)."""
    module = game_modules.of(kit)
    if module is not None and module.render_markup is not None:
        return module.render_markup(kit, source, origin)
    from pnpgen.documents.context import render_markup, text_context
    return render_markup(source, origin, text_context(kit))
