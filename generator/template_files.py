"""Where a kit's templates are: its own templates/ folder first, then pnpgen's built-in ones; the file a
template name resolves to. Kept apart from the Jinja environment (pnpgen.render.templates) so the loaders
that check a template is there (components, boards, declared paths) read files only, drawing nothing."""
from __future__ import annotations

import os
from pathlib import Path

from pnpgen import resources

BUILTIN_TEMPLATES = resources.builtin_templates()
SUFFIX = ".svg.j2"


def template_dirs(kit_root: Path) -> list[Path]:
    """Where templates are looked up, in order: the kit's own templates/ folder, then the built-in one."""
    return [Path(kit_root) / "templates", BUILTIN_TEMPLATES]


def template_path(kit_root: Path, name: str) -> Path | None:
    """The file a template name resolves to, or None. A kit's entry of that name wins even when it cannot be
    read (a link out, a FIFO): reading it is then the located error, never a silent fall back to the built-in."""
    for folder in template_dirs(kit_root):
        candidate = folder / f"{name}{SUFFIX}"
        if os.path.lexists(candidate) and not candidate.is_dir():
            return candidate
    return None
