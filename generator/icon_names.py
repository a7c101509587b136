"""How a text names one of the kit's icons (kit.yaml `icons:`): `:name:`, and what an unknown name says.
One place for both roads that place icons: textbox on piece faces (pnpgen.render.textbox) and the typeset
documents (pnpgen.documents.inline_icons)."""
from __future__ import annotations

import difflib
import re

ICON = re.compile(r":([a-z0-9][a-z0-9_-]*):")


def unknown_icon(name: str, icons: dict) -> str:
    """The message for `:name:` naming no icon of the kit, with the nearest name."""
    near = difflib.get_close_matches(name, list(icons), n=1)
    hint = f"did you mean :{near[0]}:? " if near else ""
    known = ", ".join(f":{n}:" for n in icons) or "none: declare them in kit.yaml `icons:`"
    return f"unknown icon :{name}: ({hint}icons: {known})"
