"""The family names a font file answers to, read from its `name` table.

A font may carry two family names: the typographic family (name 16, "EB Garamond") that groups all its
weights, and the legacy family (name 1, "EB Garamond 12", or "Lato Black" for one weight of Lato) that older
programs need, four styles at most to a family. fontconfig knows a font by both and lists the typographic one
first (`fc-list : family` prints "EB Garamond,EB Garamond 12"), so that is the name a designer copies: it is
the font's family in pnpgen, and the legacy name is accepted as another name for it. The table is read
here by hand (a few dozen bytes of a file already read), not by a font library, so a warm build pays nothing.
"""
from __future__ import annotations

import struct

TYPOGRAPHIC_FAMILY, FAMILY = 16, 1
TYPOGRAPHIC_STYLE, STYLE = 17, 2


def font_names(data: bytes) -> dict:
    """{name id: text} of the ids pnpgen reads, in English where the font has it; {} if there is no name table."""
    try:
        table = _table(data, b"name")
        if table is None:
            return {}
        _, count, strings = struct.unpack_from(">HHH", data, table)
        names: dict = {}
        for index in range(count):
            platform, encoding, language, name_id, length, offset = struct.unpack_from(
                ">HHHHHH", data, table + 6 + 12 * index)
            if name_id not in (TYPOGRAPHIC_FAMILY, FAMILY, TYPOGRAPHIC_STYLE, STYLE):
                continue
            raw = data[table + strings + offset: table + strings + offset + length]
            text = _decode(raw, platform, encoding)
            english = (platform, language) in ((3, 0x409), (1, 0))
            if text and (english or name_id not in names):
                names[name_id] = text
        return names
    except struct.error:
        return {}


def families(names: dict) -> list[str]:
    """The font's family names, the one fontconfig lists first (the typographic family) first."""
    found = [names.get(TYPOGRAPHIC_FAMILY), names.get(FAMILY)]
    return [name for index, name in enumerate(found) if name and name not in found[:index]]


def style(names: dict) -> str:
    return names.get(TYPOGRAPHIC_STYLE) or names.get(STYLE) or "Regular"


def _table(data: bytes, tag: bytes) -> int | None:
    """The offset of a table of an sfnt (TrueType or OpenType) file, or None."""
    count = struct.unpack_from(">H", data, 4)[0]
    for index in range(count):
        name, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        if name == tag:
            return offset
    return None


def _decode(raw: bytes, platform: int, encoding: int) -> str:
    if platform == 3 or platform == 0:
        return raw.decode("utf-16-be", errors="replace").strip()
    return raw.decode("latin-1").strip() if platform == 1 and encoding == 0 else ""
