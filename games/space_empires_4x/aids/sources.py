"""Where the aid texts come from and what they may quote: light enough for validation (no reportlab)."""
from __future__ import annotations

from pathlib import Path

from generator.kit import BUILTIN_DATA, DEFAULT_KIT
from generator.model import Kit

AIDS_FILE = Path("aids") / "cards.yaml"
BLOCK_KINDS = ("heading", "text", "bullets", "chart")


def aids_path(kit: Kit, rel: Path = AIDS_FILE) -> Path:
    """The kit's own aid texts, else the built-in ones (as templates fall back to the built-in folder)."""
    own = kit.root / rel
    return own if own.exists() else BUILTIN_DATA / DEFAULT_KIT / rel


def text_context(kit: Kit) -> dict:
    """Derived lists the texts quote: unit names by how they move, colony steps from big to gone."""
    by_movement: dict[str, list[str]] = {}
    for unit in kit.units.values():
        by_movement.setdefault(unit.movement, []).append(unit.name)
    return {"moving": by_movement, "colony_steps": list(reversed(kit.game.economy["colony_growth"])),
            "marker_list": list(kit.marker_kinds.values())}
