"""Text made safe for markup (reportlab's paragraph markup, the SVG the templates write): `&`, `<` and `>`
escaped, and any further `entities`; and read back (unescape). The very replacements xml.sax.saxutils makes, in the same order,
without its imports (urllib.request, http.client, email, ssl): about 20 ms of every build's serial start
before any part runs, for three string replacements."""
from __future__ import annotations


def escape(text: str, entities: dict[str, str] | None = None) -> str:
    text = text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    for character, entity in (entities or {}).items():
        text = text.replace(character, entity)
    return text


def unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
