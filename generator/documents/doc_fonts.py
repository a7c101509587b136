"""The kit's own fonts in its typeset documents (chapters, charts, aid cards, record sheets): registered with
reportlab under their family names, the faces kit.yaml `fonts:` picks for body text, headings and tables,
and the check that every character a paragraph sets in a kit font is in that font.

reportlab embeds a TrueType font as a subset of the glyphs a PDF uses; a CFF font is given to it as the
TrueType copy pnpgen.font_outlines makes. `<font face="Kit Sans">` in an aid text or a chart cell, and
`[words]{font="Kit Sans"}` in a chapter, name a family as SVG templates do; `<b>` and `<i>` take the
family's bold and italic files where it has them, else its regular one. A face reportlab knows but
cannot embed (Helvetica, Times, Courier: the PDF's standard fonts) is refused, as is a character the
font has no glyph for, which reportlab would print as an empty box.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.fonts import register_reportlab_fonts

_REGISTERED: dict = {}   # reportlab name -> digest of the file registered under it
_CHARS: dict = {}        # reportlab name -> (family, files shown in messages, characters it has)
_FILES: dict = {}        # reportlab name -> the KitFont registered under it (its style is the file's own)


@dataclass(frozen=True)
class Faces:
    """reportlab font names of the kit's chosen fonts; None where the kit keeps pnpgen's own."""

    body: str | None = None
    body_bold: str | None = None
    body_italic: str | None = None
    heading: str | None = None
    table: str | None = None
    table_bold: str | None = None


_current = [Faces()]


def use_document_fonts(kit) -> Faces:
    """Register the kit's fonts with reportlab and make its `fonts:` choice the current faces (the styles of
    every document read them)."""
    register_reportlab_fonts()
    _CHARS.clear()   # fonts of a kit built before in this process are not this kit's
    _FILES.clear()
    families: dict = {}
    for font in kit.fonts:
        families.setdefault(font.family, []).append(font)
    for family, fonts in families.items():
        _register_family(family, fonts, kit.root)
    chosen = getattr(kit, "document_fonts", None) or {}
    _current[0] = Faces(*_face(chosen.get("body"), families), *_face(chosen.get("headings"), families, heading=True),
                        *_face(chosen.get("tables"), families, table=True))
    return _current[0]


def faces() -> Faces:
    return _current[0]


SHIPPED_FACES = {"DejaVu Sans": ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique"),
                 "DejaVu Sans Condensed": ("DejaVuSansCondensed", "DejaVuSansCondensed-Bold", "DejaVuSans-Oblique")}


def _face(family: str | None, families: dict, heading: bool = False, table: bool = False) -> tuple:
    """(regular, bold, italic) names of a role, (bold-or-regular,) for headings, (regular, bold) for tables."""
    if not family:
        return (None,) if heading else (None, None) if table else (None, None, None)
    regular, bold, italic = SHIPPED_FACES.get(family) or _style_names(family, families[family])
    return (bold,) if heading else (regular, bold) if table else (regular, bold, italic)


def _style_names(family: str, fonts: list) -> tuple[str, str, str]:
    have = {(f.bold, f.italic) for f in fonts}
    pick = [_pick(family, have, wanted) for wanted in ((False, False), (True, False), (False, True))]
    return tuple(pick)


def _pick(family: str, have: set, wanted: tuple) -> str:
    """The registered name of the nearest style the family has: the one asked for, else regular, else any."""
    for style in (wanted, (False, False), (wanted[0], False), (False, wanted[1]), *sorted(have)):
        if style in have:
            return _name(family, *style)
    raise KeyError(family)


def _name(family: str, bold: bool, italic: bool) -> str:
    return family + (" Bold" if bold else "") + (" Italic" if italic else "")


def _register_family(family: str, fonts: list, root) -> None:
    """Each file of the family under its style's name, and the family's <b>/<i> mapping (missing styles take
    the nearest the family has)."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics

    from pnpgen.font_faces import KeptFont
    from pnpgen.kit_fonts import truetype_bytes
    from pnpgen.problems import display_path
    have = set()
    for font in fonts:
        name = _name(family, font.bold, font.italic)
        have.add((font.bold, font.italic))
        _CHARS[name] = (family, display_path(font.file), font.chars)
        _FILES[name] = font
        if _REGISTERED.get(name) == font.digest:
            continue
        pdfmetrics.registerFont(KeptFont(name, truetype_bytes(font, root), str(font.file)))
        _REGISTERED[name] = font.digest
    styles = [(bold, italic) for bold in (False, True) for italic in (False, True)]
    for bold, italic in sorted(styles, key=lambda style: style in have):  # the exact styles last: each
        addMapping(family, int(bold), int(italic), _pick(family, have, (bold, italic)))  # file maps back to its own


class FontProblem(ValueError):
    """A paragraph in a face pnpgen cannot embed, or with a character its kit font lacks."""


def check_paragraph(paragraph) -> None:
    """Every fragment of a built Paragraph set in an embeddable face that has each of its characters."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from pnpgen.fonts import REPORTLAB_FONTS
    style = paragraph.style
    pieces = [(f.fontName, getattr(f, "text", "")) for f in paragraph.frags]
    if getattr(paragraph, "bulletText", None):
        pieces.append((style.bulletFontName, paragraph.bulletText))
    for name, text in pieces:
        if not isinstance(pdfmetrics.getFont(name), TTFont):
            raise FontProblem(f"the font {name!r} is one of the PDF's standard fonts, which pnpgen does not "
                              f"embed: name one of the kit's fonts or DejaVu Sans")
        if name not in _CHARS and name not in REPORTLAB_FONTS:
            raise FontProblem(f"the font {name!r} is not one of this kit's fonts (fonts/)")
        problem = missing_character(name, text)
        if problem:
            raise FontProblem(problem)


def other_styles(paragraph) -> list[str]:
    """For each run of a built Paragraph that asks for bold or italic (`<b>`, `<i>`: Markdown's **bold** and
    *italic*) in a kit family with no file of that style, which file it prints in instead. A paragraph's own
    style asks for nothing: a heading set in a display font's single face is that font as chosen."""
    from pnpgen.kit_fonts import printed_instead, style_said
    found = []
    for frag in paragraph.frags:
        font = _FILES.get(getattr(frag, "fontName", None))
        asked = (bool(getattr(frag, "bold", 0)), bool(getattr(frag, "italic", 0)))
        if font is None or (font.bold, font.italic) == asked or not str(getattr(frag, "text", "")).strip():
            continue
        said = printed_instead(font.family, asked, f"the kit's fonts/ has no {style_said(*asked)} file of it", font)
        if said not in found:
            found.append(said)
    return found


def missing_character(name: str, text: str) -> str | None:
    """The first character of `text` the kit font registered as `name` lacks, described; None if none."""
    if name not in _CHARS or not text:
        return None
    family, file, chars = _CHARS[name]
    for char in text:
        if char not in chars and not char.isspace():
            return f"the font {family!r} ({file}) has no {char!r} (U+{ord(char):04X}), in {text.strip()[:40]!r}"
    return None


def unknown_face(exc: Exception, markup: str = "") -> str | None:
    """reportlab's complaint about a face no one registered, said plainly with the names a kit may use."""
    import re
    text = str(exc)
    marker = "Can't map determine family/bold/italic for "
    if marker not in text:
        return None
    face = (text.split(marker, 1)[1].splitlines() or ["?"])[0].strip()
    written = [name for name in re.findall(r"""(?:face|name)\s*=\s*["']?([^"'>]+)""", markup) if name.lower() == face]
    from pnpgen.kit_fonts import SHIPPED
    known = sorted({family for family, _, _ in _CHARS.values()} | set(SHIPPED))
    return f"unknown font {(written or [face])[0]!r} (fonts: {', '.join(known)})"
