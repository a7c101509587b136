"""OpenType fonts with PostScript (CFF) outlines, made TrueType for reportlab, which embeds only TrueType.

cairo (through FreeType) draws and embeds a CFF font as it is; reportlab's TTF reader refuses one. So the
documents get a TrueType copy: each cubic outline turned into quadratic splines by fontTools' cu2qu (within
a hundredth of an em: no printed difference), the metrics, names and character map kept, so a text measures
and wraps the same in both. A conversion is kept in the user's cache folder by the font's content hash (the
next build only reads it). A font comes from a stranger: anything fontTools cannot read or convert is a
FontOutlineError with the reason, never a traceback, and the command's CPU and memory budgets bound it.
"""
from __future__ import annotations

import hashlib
import io
import os

from pnpgen import resources

MAX_ERROR = 1.0          # font units: how far a quadratic spline may stray from the cubic (1/1000 em or so)
CACHE = "fonts-truetype"
RECIPE = 2               # in the cached file's name: a change to the conversion converts anew
_MADE: dict = {}         # digest -> TrueType bytes made in this process (forked workers inherit them)


class FontOutlineError(ValueError):
    """A font fontTools cannot read or make TrueType; the message says why."""


def is_cff(data: bytes) -> bool:
    """An OpenType font with PostScript outlines starts with the tag 'OTTO'."""
    return data[:4] == b"OTTO"


def truetype_of(data: bytes) -> bytes:
    """The TrueType version of a CFF font's bytes: from this process, the cache, or converted now."""
    digest = hashlib.sha256(data).hexdigest()
    if digest in _MADE:
        return _MADE[digest]
    cached = _cache_file(digest)
    made = _read(cached)
    if made is None:
        made = _convert(data)
        _write(cached, made)
    _MADE[digest] = made
    return made


def _cache_file(digest: str):
    from fontTools import version
    folder = resources.cache_folder(CACHE)
    return None if folder is None else folder / f"{digest[:32]}-{version}-{RECIPE}.ttf"


def _read(path) -> bytes | None:
    try:
        return path.read_bytes() if path is not None else None
    except OSError:
        return None


def _write(path, data: bytes) -> None:
    if path is None:
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)  # whole or not at all: a build beside this one never reads half a font
    except OSError:
        pass  # a cache that cannot be written only costs the next build the conversion


def _convert(data: bytes) -> bytes:
    from fontTools.ttLib import TTFont
    try:
        font = TTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False)  # same bytes in, same bytes out
        if "CFF2" in font:
            raise FontOutlineError("a variable font with CFF2 outlines: use one of its static instances")
        if "CFF " not in font:
            raise FontOutlineError("an OpenType font without CFF outlines")
        _glyf_from_cff(font)
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()
    except FontOutlineError:
        raise
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - a stranger's font: any failure is "cannot convert", said
        raise FontOutlineError(f"cannot read its CFF outlines ({type(exc).__name__}: {str(exc)[:120]})") from None


def _glyf_from_cff(font) -> None:
    """Replace the font's CFF table by glyf/loca holding the same outlines as quadratic splines (the recipe
    of fontTools' otf2ttf snippet)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, glyphs
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    _truetype_maxp(font, glyphs)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\000\001\000\000"


def _truetype_maxp(font, glyphs: dict) -> None:
    from fontTools.ttLib import newTable
    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones",):
        setattr(maxp, field, 1)
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs", "maxStackElements",
                  "maxSizeOfInstructions"):
        setattr(maxp, field, 0)
    maxp.maxComponentElements = max((len(getattr(g, "components", ()) or ()) for g in glyphs.values()), default=0)
    font["maxp"] = maxp
    maxp.compile(font)
