"""Which font file a family name means to cairo: fontconfig's configuration for the kit being built, and the
file it matches for a family, weight and slant.

cairo finds fonts through fontconfig. pnpgen gives fontconfig its own folder only (pnpgen.fonts), and a kit
with fonts of its own a configuration of its own: that folder and the kit's checked copies
(pnpgen.font_check), never the kit's folder, made current while the kit builds. A configuration is made once
per set of copies and kept for the process: cairo tells configurations apart by their address (a new current
one makes it look a family up again when it next makes a font of it), so one freed and another made at its
address would bring back the old fonts. The fonts cairo made before are pushed out of its caches when the
configuration changes (pnpgen.render.font_reset), so kit B's "Kit Sans" is never kit A's.

The match is fontconfig's own, asked as cairo asks it (a family, bold or not, italic or not): it can differ
from the file a designer meant, as when a bold file holds too few characters to cover the text's language
and fontconfig prefers the regular one (pnpgen.kit_fonts warns then).
"""
from __future__ import annotations

import ctypes
from functools import cache
from typing import Callable

WEIGHT = {False: 100, True: 200}   # FC_WEIGHT_MEDIUM and FC_WEIGHT_BOLD, as cairo's toy fonts ask
SLANT = {False: 0, True: 100}      # FC_SLANT_ROMAN and FC_SLANT_ITALIC
_CONFIGS: dict = {}      # the checked copies of a kit's fonts -> fontconfig configuration showing them
_CURRENT: list = [None]  # the copies of the configuration made current last
_MATCHES: dict = {}      # (copies, family, bold, italic) -> the file fontconfig gives


def show_only(copies: tuple, forget_fonts: Callable[[], None]) -> None:
    """Make fontconfig's current configuration pnpgen's fonts and the font files `copies`. A process that
    never showed a kit font keeps the shipped configuration as it is. `forget_fonts` empties cairo's font caches
    (pnpgen.render.font_reset, above this module)."""
    if not copies and not _CONFIGS:
        return
    from pnpgen.fonts import use_shipped_fonts_for_cairo
    conf = use_shipped_fonts_for_cairo()
    library = _fontconfig()
    if copies not in _CONFIGS:
        config = library.FcConfigCreate()
        if not config or not library.FcConfigParseAndLoad(config, str(conf).encode(), 1):
            raise OSError(f"fontconfig cannot read {conf}")
        for copy in copies:
            library.FcConfigAppFontAddFile(config, copy.encode())
        library.FcConfigBuildFonts(config)
        _CONFIGS[copies] = config
    if _CURRENT[0] == copies:
        return
    library.FcConfigSetCurrent(_CONFIGS[copies])
    forget_fonts()   # cairo keeps the fonts it made by family name: those made before must not be found again
    _CURRENT[0] = copies


def matched_file(family: str, bold: bool, italic: bool) -> str | None:
    """The file fontconfig's current configuration gives cairo for the family in that weight and slant, or
    None when no kit configuration is current."""
    copies = _CURRENT[0]
    if copies is None:
        return None
    key = (copies, family, bold, italic)
    if key not in _MATCHES:
        _MATCHES[key] = _match(_CONFIGS[copies], family, bold, italic)
    return _MATCHES[key]


def _match(config, family: str, bold: bool, italic: bool) -> str | None:
    library = _fontconfig()
    pattern = library.FcPatternCreate()
    try:
        library.FcPatternAddString(pattern, b"family", family.encode())
        library.FcPatternAddInteger(pattern, b"weight", WEIGHT[bold])
        library.FcPatternAddInteger(pattern, b"slant", SLANT[italic])
        library.FcConfigSubstitute(config, pattern, 0)   # FcMatchPattern
        library.FcDefaultSubstitute(pattern)
        result = ctypes.c_int()
        match = library.FcFontMatch(config, pattern, ctypes.byref(result))
        if not match:
            return None
        try:
            file = ctypes.c_char_p()
            found = library.FcPatternGetString(match, b"file", 0, ctypes.byref(file)) == 0
            return file.value.decode() if found and file.value else None
        finally:
            library.FcPatternDestroy(match)
    finally:
        library.FcPatternDestroy(pattern)


@cache
def _fontconfig():
    import ctypes.util
    library = ctypes.CDLL(ctypes.util.find_library("fontconfig") or "libfontconfig.so.1")
    pointer, text, number = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    for name, arguments, result in (
            ("FcConfigCreate", [], pointer), ("FcConfigParseAndLoad", [pointer, text, number], number),
            ("FcConfigAppFontAddFile", [pointer, text], number), ("FcConfigBuildFonts", [pointer], number),
            ("FcConfigSetCurrent", [pointer], number), ("FcPatternCreate", [], pointer),
            ("FcPatternAddString", [pointer, text, text], number),
            ("FcPatternAddInteger", [pointer, text, number], number),
            ("FcConfigSubstitute", [pointer, pointer, number], number), ("FcDefaultSubstitute", [pointer], None),
            ("FcFontMatch", [pointer, pointer, ctypes.POINTER(number)], pointer),
            ("FcPatternGetString", [pointer, text, number, ctypes.POINTER(text)], number),
            ("FcPatternDestroy", [pointer], None)):
        function = getattr(library, name)
        function.argtypes, function.restype = arguments, result
    return library
