"""The kit's one font family (DejaVu Sans, free licence, shipped in generator/fonts/), for cairo and reportlab.

Both renderers must see the same files on every machine, never whatever the system happens to have:
cairo finds fonts through fontconfig, so we point FONTCONFIG_FILE at a config listing only our folder
(before cairo first loads a font); reportlab gets the TTF files registered by name.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from functools import cache
from pathlib import Path

from pnpgen import kit_files, resources

FONT_DIR = resources.fonts()
FAMILY = "DejaVu Sans"                 # SVG font-family for body text
CONDENSED = "DejaVu Sans Condensed"    # SVG font-family for tight text on small counters

# reportlab font names -> files
REPORTLAB_FONTS = {
    "DejaVuSans": "DejaVuSans.ttf",
    "DejaVuSans-Bold": "DejaVuSans-Bold.ttf",
    "DejaVuSans-Oblique": "DejaVuSans-Oblique.ttf",
    "DejaVuSans-BoldOblique": "DejaVuSans-BoldOblique.ttf",
    "DejaVuSansCondensed": "DejaVuSansCondensed.ttf",
    "DejaVuSansCondensed-Bold": "DejaVuSansCondensed-Bold.ttf",
}
BODY, BOLD, ITALIC, BOLD_ITALIC = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique"
CONDENSED_FACE, CONDENSED_BOLD = "DejaVuSansCondensed", "DejaVuSansCondensed-Bold"

def board_fonts(kit) -> tuple[str, str]:
    """(family, condensed family) of a kit's boards and hex maps: kit.yaml `fonts: {boards: ...}` for both,
    else DejaVu Sans and DejaVu Sans Condensed (the hex coordinates)."""
    family = (getattr(kit, "document_fonts", None) or {}).get("boards")
    return (family, family) if family else (FAMILY, CONDENSED)


_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>{font_dir}</dir>
  <cachedir>{cache_dir}</cachedir>
  <config><rescan><int>0</int></rescan></config>
</fontconfig>
"""


@cache
def use_shipped_fonts_for_cairo() -> Path:
    """Make fontconfig (and so cairo and cairosvg) see only the shipped fonts. Call before rendering."""
    work = resources.cache_folder("fontconfig") or Path(tempfile.mkdtemp(prefix="pnpgen-fontconfig-"))
    (work / "cache").mkdir(exist_ok=True)
    text = _FONTCONFIG.format(font_dir=FONT_DIR, cache_dir=work / "cache")
    # one file per font folder: a clone and an installed pnpgen of the same user each keep their own
    conf = work / f"fonts-{hashlib.sha1(str(FONT_DIR).encode()).hexdigest()[:12]}.conf"
    if not conf.exists() or conf.read_text(encoding="utf-8") != text:
        temporary = conf.with_name(f".{conf.name}.{os.getpid()}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, conf)  # never half a file for a build starting beside this one
    os.environ["FONTCONFIG_FILE"] = str(conf)
    return conf


@cache
def register_reportlab_fonts() -> None:
    """Register the shipped TTFs with reportlab (embedded and subset in every PDF that uses them), read by the
    one reader of files a build uses (pnpgen.kit_files), inside the fonts folder: as a kit's own would be."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics

    from pnpgen.font_faces import KeptFont  # each face parsed once per user, not once per process
    for name, filename in REPORTLAB_FONTS.items():
        data = kit_files.read_bytes(FONT_DIR / filename, FONT_DIR)
        pdfmetrics.registerFont(KeptFont(name, data, str(FONT_DIR / filename)))
    addMapping(BODY, 0, 0, BODY)
    addMapping(BODY, 1, 0, BOLD)
    addMapping(BODY, 0, 1, ITALIC)
    addMapping(BODY, 1, 1, BOLD_ITALIC)
    addMapping(CONDENSED_FACE, 0, 0, CONDENSED_FACE)  # <b> and <i> in condensed text (table cells): the
    addMapping(CONDENSED_FACE, 1, 0, CONDENSED_BOLD)  # condensed bold, and the only oblique faces there are
    addMapping(CONDENSED_FACE, 0, 1, ITALIC)
    addMapping(CONDENSED_FACE, 1, 1, BOLD_ITALIC)


def register_reportlab_fonts_for_forks() -> None:
    """Register the shipped fonts with every table drawing reads at hand (pnpgen.font_faces restores a face's
    big tables when first read): the parent of several workers that typeset calls this before forking them,
    which then share its copy instead of each unpickling its own (measured: ~0.03 s of CPU in a build's three)."""
    from reportlab.pdfbase import pdfmetrics

    from pnpgen.font_faces import read_drawn_tables
    register_reportlab_fonts()
    for name in REPORTLAB_FONTS:
        read_drawn_tables(pdfmetrics.getFont(name).face)
