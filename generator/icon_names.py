"""How a text names one of the kit's icons (kit.yaml `icons:`): `:name:`, and what an unknown name says.
One place for both roads that place icons: textbox on piece faces (pnpgen.render.textbox) and the typeset
documents (pnpgen.documents.inline_icons)."""
from __future__ import annotations

import difflib
import re

ICON = re.compile(r":([A-Za-z0-9][A-Za-z0-9_-]*):")   # capitals too: `:Credit:` is a slip, not text to print


def unknown_icon(name: str, icons: dict) -> str:
    """The message for `:name:` naming no icon of the kit, with the nearest name."""
    if name.lower() in icons:
        return f"unknown icon :{name}: (did you mean :{name.lower()}:? icon names are lower case; icons: " \
               f"{', '.join(f':{n}:' for n in icons)})"
    near = difflib.get_close_matches(name, list(icons), n=1)
    hint = f"did you mean :{near[0]}:? " if near else ""
    known = ", ".join(f":{n}:" for n in icons) or "none: declare them in kit.yaml `icons:`"
    return f"unknown icon :{name}: ({hint}icons: {known})"
