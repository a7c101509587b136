"""Where a kit's aid cards come from and how their Jinja is rendered: light enough for validation (no reportlab)."""
from __future__ import annotations

import os
from pathlib import Path

from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT
from pnpgen.model import Kit

CARDS_FILE = Path("aids") / "cards.yaml"
SHEETS_FILE = Path("aids") / "sheets.yaml"
BLOCK_KINDS = ("heading", "text", "bullets", "chart")


def aids_path(kit: Kit, rel: Path = CARDS_FILE) -> Path:
    """The kit's own aid file; a game module's kit without one falls back to the built-in default kit's (as
    templates fall back to the built-in folder). A kit of data only has aid cards when it writes them."""
    own = kit.root / rel
    return own if os.path.lexists(own) or not kit.has_game_module else BUILTIN_DATA / DEFAULT_KIT / rel


def aids_root(kit: Kit, path: Path) -> Path:
    """The kit an aid file belongs to (its own, or the built-in one it fell back to): all it may be read from."""
    return kit.root if path.is_relative_to(kit.root) else BUILTIN_DATA / DEFAULT_KIT


def has_aid_cards(kit: Kit) -> bool:
    """The kit has aid cards when its file is there: any entry but a folder (a link out or a FIFO is then
    the kit reader's located error, not a kit without aid cards)."""
    path = aids_path(kit)
    return os.path.lexists(path) and not path.is_dir()


def has_sheets(kit: Kit) -> bool:
    path = aids_path(kit, SHEETS_FILE)
    return os.path.lexists(path) and not path.is_dir()


def render_aid_text(kit: Kit, source: str, origin: Path) -> str:
    """An aid file's Jinja rendered with the names the kit's charts see (a game module's, else its tables,
    data, boards, colours and players: pnpgen.documents.context), quoted data escaped for reportlab's
    paragraph markup."""
    from pnpgen.documents.context import chart_context, render_markup
    return render_markup(source, origin, chart_context(kit), aids_root(kit, Path(origin)))
