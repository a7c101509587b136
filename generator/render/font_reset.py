"""cairo's font caches made whole again after a failed build, for a process that builds again (`pnpgen serve`,
`build --watch`, a test or fuzz run calling the CLI many times).

When FreeType refuses a font face (a size past its limit, such as the 10^9 pt a template computed; a kit
font file it cannot use), cairo marks that face failed for good (cairo-scaled-font.c, "did we leave the
backend in an error state?"): every size of it not drawn before fails too, in every later build of the
process, whatever was fixed. The face lives as long as a scaled font of it does, and cairo keeps the last
HOLDOVERS scaled fonts alive after their last use. Making more than that many fonts of another face pushes
them all out; the failed face is then freed (by then the failed build's contexts are, by reference counting:
a gc.collect() here would cost a test run of hundreds of failing builds a tenth of a second each), and the
next text finds its font file afresh. The context svg_ops measures text in is dropped too: a context that
met an error keeps it. Only a failed build pays (about 3 ms); a process that never drew with cairo, nothing.
"""
from __future__ import annotations

import sys

HOLDOVERS = 256   # CAIRO_SCALED_FONT_MAX_HOLDOVERS (cairo-scaled-font.c, unchanged since cairo 1.2)
FAMILIES = ("DejaVu Sans Condensed", "DejaVu Sans", "sans-serif")   # any one that is not itself failed


def forget_failed_fonts() -> None:
    """Push every kept scaled font out of cairo's caches, so a face FreeType failed on is freed."""
    forget_fonts()


def use_kit_fonts(fonts: tuple) -> None:
    """Show the kit's fonts, and only them, to cairo (pnpgen.font_config: pnpgen's folder and the kit's
    checked copies), to textbox's measuring and to the glyph check (pnpgen.kit_fonts)."""
    from pnpgen.font_config import show_only
    from pnpgen.kit_fonts import know_kit_fonts
    know_kit_fonts(fonts)
    show_only(tuple(sorted(str(font.copy) for font in fonts if font.copy is not None)), forget_fonts)


def forget_fonts() -> None:
    """Push every kept scaled font out of cairo's caches: the next text of each family makes its font anew,
    from the font file fontconfig names now (a font face FreeType failed on is freed; a kit built next, whose
    families have the same names as the last kit's, gets its own files: pnpgen.kit_fonts)."""
    if "cairocffi" not in sys.modules:
        return
    from pnpgen.render.cairo_lib import cairo
    from pnpgen.render.svg_ops import forget_scratch_context
    cairocffi = cairo()
    forget_scratch_context()   # a cairo context that met the error keeps it: the next build measures in a new one
    made = 0
    for family in FAMILIES:
        face = cairocffi.ToyFontFace(family)
        for step in range(HOLDOVERS + 44 - made):
            try:
                cairocffi.ScaledFont(face, cairocffi.Matrix(xx=1.0 + step / 64, yy=1.0 + step / 64))
            except cairocffi.CairoError:
                break   # this face is the failed one: another pushes the fonts out
            made += 1
        if made > HOLDOVERS:
            return
