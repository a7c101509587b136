"""A kit's own fonts (`fonts/*.ttf`, `*.otf`): read at load, shown to cairo for drawing faces, checked for
every character a face sets in them and for the weight and slant it asks for.

Templates and textboxes name a kit font by its family (`font-family="Orbitron"`, `textbox(...,
family="Orbitron")`), as they name the shipped DejaVu Sans; a font's family is the name fontconfig lists
first, its legacy name another name for it (pnpgen.font_names). Only the `.ttf` and `.otf` files of
`fonts/` that the kit reader lets through (regular files inside the kit: a link out, a FIFO or a device is
a located error) are read, checked with fontTools and copied to a private folder under their content hash
(pnpgen.font_check); nothing else in `fonts/` is looked at. cairo sees the kit's checked copies and
pnpgen's own fonts, in a fontconfig configuration of the kit's own (pnpgen.font_config), so the PDFs embed
the kit's font as a subset, as they do DejaVu (FreeType reads TrueType and CFF outlines alike). A character
the face prints in lacks would print as an empty box: it is a located error naming the font, the character
and the piece instead; a weight or slant the kit has no usable file of is a warning naming the face it
prints in. The typeset documents use the same fonts through reportlab (pnpgen.documents.doc_fonts), a CFF
font as the TrueType copy pnpgen.font_outlines makes of it. A font file is held to the `font_file_kb`
budget and read through the kit reader; one that cannot be read is an error at its file.
"""
from __future__ import annotations

import hashlib
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from pnpgen import kit_files
from pnpgen.font_names import families, font_names
from pnpgen.font_names import style as font_style
from pnpgen.problems import Problems, display_path

FOLDER = "fonts"
SUFFIXES = (".ttf", ".otf")
SKIPPED = (".pfb", ".pfa", ".afm", ".pfm", ".woff", ".woff2", ".ttc", ".otc", ".dfont", ".fon", ".fnt", ".bdf",
           ".pcf")  # fonts pnpgen does not read: said, so a designer knows why the family is missing
SHIPPED = ("DejaVu Sans", "DejaVu Sans Condensed")
GENERIC_FAMILIES = ("sans-serif", "serif", "monospace")   # fontconfig gives them a shipped font
FAMILY_ATTRIBUTE = re.compile(r"""font-family\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@dataclass(frozen=True)
class KitFont:
    """One font file a kit ships, as templates and documents name it."""

    family: str          # what templates write in font-family
    bold: bool
    file: Path
    digest: str          # of the file's bytes: measures kept between builds are the file's own
    chars: frozenset     # the characters the font has a glyph for
    italic: bool = False
    cff: bool = False    # PostScript outlines: reportlab embeds the TrueType copy pnpgen.font_outlines makes
    copy: Path | None = None   # the checked copy the renderers read (pnpgen.font_check), never the kit's file
    aliases: tuple = ()  # other family names it answers to: the legacy family under the typographic one (font_names)


def load_kit_fonts(root: Path, problems: Problems) -> tuple:
    """Every font of the kit's fonts/ folder; a file that is not a font pnpgen can embed is a located error."""
    folder = Path(root) / FOLDER
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:   # no fonts/ folder (or not one): the kit has no fonts of its own
        return ()
    fonts = []
    for name in names:
        path = folder / name
        if path.suffix.lower() in SKIPPED:
            problems.warn(path, 0, "", "not read: pnpgen uses only .ttf and .otf fonts (TrueType or OpenType)")
        if path.suffix.lower() not in SUFFIXES:
            continue   # a licence, a folder, anything else: never opened, never shown to fontconfig
        font = _read_font(path, root, problems)
        if font is not None:
            fonts.append(font)
    return tuple(fonts)


def read_font_bytes(path: Path, root: Path) -> bytes:
    """A font file's bytes through the kit reader: a regular file inside the kit, within the `font_file_kb`
    budget (refused by its size, unread)."""
    from pnpgen import budgets
    kb = budgets.active().font_file_kb
    try:
        return kit_files.read_bytes(path, root, limit=kb * 1024)
    except kit_files.KitFileError as exc:
        if not exc.message.startswith("is larger than"):
            raise
        raise kit_files.KitFileError(path, f"is larger than {kb} KB, the most a font file may have (the "
                                           f"font_file_kb budget); {budgets.how_to_raise('font_file_kb')}") from None


def truetype_bytes(font: KitFont, root: Path) -> bytes:
    """What reportlab embeds for `font`: its checked copy's bytes, or the TrueType copy of a CFF font."""
    from pnpgen.font_check import read_vetted
    from pnpgen.font_outlines import truetype_of
    data = read_vetted(font.copy) if font.copy is not None else read_font_bytes(font.file, root)
    return truetype_of(data) if font.cff else data


def _read_font(path: Path, root: Path, problems: Problems) -> KitFont | None:
    """The font, its bytes read through the kit reader and checked (pnpgen.font_check) before anything else
    parses them; CFF outlines made TrueType (pnpgen.font_outlines)."""
    from pnpgen.font_check import FontCheckError, vetted_copy
    from pnpgen.font_faces import KeptFontFile, named_stream
    from pnpgen.font_outlines import FontOutlineError, is_cff, truetype_of
    try:
        data = read_font_bytes(path, root)
        copy = vetted_copy(data, path.suffix, display_path(path))
        cff = is_cff(data)
        parsed = KeptFontFile(named_stream(truetype_of(data) if cff else data, str(path)))
    except kit_files.KitFileError as exc:
        problems.error(path, 0, "", exc.message)
        return None
    except FontCheckError as exc:
        problems.error(path, 0, "", str(exc))
        return None
    except FontOutlineError as exc:
        problems.error(path, 0, "", f"an OpenType font with PostScript (CFF) outlines pnpgen cannot use: {exc}")
        return None
    except Exception as exc:  # noqa: BLE001 - TTFError, struct and index errors: any parse failure is "not a font"
        problems.error(path, 0, "", f"not a TrueType or OpenType font pnpgen can embed ({str(exc)[:160]})")
        return None
    names = font_names(data)
    known_as = families(names) or [_name(parsed.familyName)]
    style = (font_style(names) if names else _name(parsed.styleName)).lower()
    if set(known_as) & set(SHIPPED):
        problems.error(path, 0, "", f"the family {known_as[0]!r} is pnpgen's own: a kit font needs another name")
        return None
    return KitFont(known_as[0], "bold" in style, path, hashlib.sha1(data).hexdigest()[:12],
                   frozenset(chr(c) for c in parsed.charToGlyph), "italic" in style or "oblique" in style, cff, copy,
                   tuple(known_as[1:]))


def check_document_fonts(chosen: dict, fonts: tuple, kit_file: Path, raw_kit, problems: Problems) -> dict:
    """kit.yaml `fonts:` ({body, headings, tables, boards}: a family each): every family one of the kit's fonts or
    pnpgen's own, else a located error with the nearest name. The roles it names, for the documents."""
    families = sorted({font.family for font in fonts} | set(SHIPPED))
    named = {alias: font.family for font in fonts for alias in font.aliases} | {f: f for f in families}
    block = raw_kit.get("fonts") if hasattr(raw_kit, "get") else None
    good = {}
    for role, family in (chosen or {}).items():
        if family is None:
            continue
        if family not in named:
            line = block.line_of(role) if hasattr(block, "line_of") else raw_kit.line_of("fonts")
            problems.error(kit_file, line, f"fonts.{role}", no_such_family(family, families))
            continue
        good[role] = named[family]   # a font's other name means its family
    return good


def _name(value) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


_KIT_FONTS: dict = {}   # family -> [KitFont] of the kit being built (the last know_kit_fonts)


def know_kit_fonts(fonts: tuple) -> None:
    """The kit's fonts, by family, for textbox's measuring and the glyph check (cairo is shown them by
    pnpgen.render.font_reset.use_kit_fonts, which calls this)."""
    _KIT_FONTS.clear()
    for font in fonts:
        for family in (font.family, *font.aliases):   # "EB Garamond" and "EB Garamond 12" alike
            _KIT_FONTS.setdefault(family, []).append(font)


def fonts_key(svg: str) -> str:
    """The content of the kit fonts an SVG names (their digests): part of a drawing's key, so a font file
    changed under the same family draws anew. Empty for a kit without fonts of its own."""
    if not _KIT_FONTS:
        return ""
    return "".join(f.digest for family, fonts in sorted(_KIT_FONTS.items()) if family in svg for f in fonts)


def measure_name(family: str) -> str | None:
    """How textbox keys a kit family's measures (its file's digest: a changed font measures anew), or None."""
    fonts = _KIT_FONTS.get(family)
    return f"{family}@{'+'.join(f.digest for f in fonts)}" if fonts else None


def missing_character(family: str, text: str, fonts: list | None = None) -> str | None:
    """The first character of `text` no font of the kit's `family` (or of `fonts`, the face it prints in)
    has, described; None if all are there."""
    fonts = fonts or _KIT_FONTS.get(family)
    if not fonts:
        return None
    chars = frozenset().union(*(f.chars for f in fonts))
    for char in text:
        if char not in chars and not char.isspace():
            return (f"the font {family!r} ({', '.join(display_path(f.file) for f in fonts)}) has no "
                    f"{char!r} (U+{ord(char):04X}), in {text[:40]!r}")
    return None


def check_svg_text(svg: str) -> str | None:
    """The first family a face's SVG names that no font has, or the first character it sets in a kit font
    that the face it prints in lacks, described; or None."""
    if problem := unknown_family(svg):
        return problem
    for family, bold, italic, text in _kit_runs(svg):
        face = face_of(family, bold, italic)
        problem = missing_character(family, text, [face] if face else None)
        if problem:
            return problem
    return None


def face_warnings(svg: str) -> list[str]:
    """For each text of a face's SVG asking for a kit family in a weight or slant the kit has no file of
    (or one fontconfig passes over: a bold file holding 127 characters), which face it prints in instead."""
    found = []
    for family, bold, italic in sorted({run[:3] for run in _kit_runs(svg)}):
        face = face_of(family, bold, italic)
        if face is not None and (face.bold, face.italic) != (bold, italic):
            found.append(_other_face(family, bold, italic, face))
    return found


def note_face_warnings(svg: str, where: str, warnings: list) -> None:
    """Add to `warnings` each of face_warnings(svg) not there yet, located at `where` (a board's or a map's
    file and template: pieces note theirs once per template, pnpgen.render.piece_arts)."""
    for warning in face_warnings(svg):
        if f"{where}: {warning}" not in warnings:
            warnings.append(f"{where}: {warning}")


def _other_face(family: str, bold: bool, italic: bool, face: KitFont) -> str:
    wanted = [f for f in _KIT_FONTS[family] if (f.bold, f.italic) == (bold, italic)]
    why = (f"{display_path(wanted[0].file)} holds only {len(wanted[0].chars)} characters, too few to cover a "
           f"language, so fontconfig passes over it" if wanted
           else f"the kit's fonts/ has no {style_said(bold, italic)} file of it")
    return printed_instead(family, (bold, italic), why, face)


def printed_instead(family: str, asked: tuple, why: str, face) -> str:
    """What a text asking for `family` in the style `asked` (bold, italic) reads as when it prints in `face`
    (a KitFont) instead, `why` said: the same words for faces, boards, maps and documents."""
    return (f"the text asks for {family!r} {style_said(*asked)}, but {why}: it prints in "
            f"{display_path(face.file)} ({style_said(face.bold, face.italic)})")


def style_said(bold: bool, italic: bool) -> str:
    return " ".join(word for word, on in (("bold", bold), ("italic", italic)) if on) or "regular"


def face_of(family: str, bold: bool, italic: bool) -> KitFont | None:
    """The kit font cairo prints `family` in at that weight and slant (fontconfig's match), or None."""
    from pnpgen.font_config import matched_file
    file = matched_file(family, bold, italic)
    return next((f for f in _KIT_FONTS.get(family, ()) if str(f.copy) == file), None)


def _kit_runs(svg: str):
    """(family, bold, italic, text) of every text of the SVG set in a kit family."""
    if not _KIT_FONTS or not any(family in svg for family in _KIT_FONTS):
        return []
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return []  # the renderer says what is wrong with it
    runs: list = []
    _walk(root, ("", False, False), runs)
    return runs


def unknown_family(svg: str) -> str | None:
    """A `font-family` (its first name, the one cairo and the measures use) that is no font of the kit's nor
    pnpgen's, nor a generic name: cairo would set it in DejaVu Sans without a word, and a misspelt family
    would print unseen. Described with the nearest family, as kit.yaml `fonts:` says it."""
    known = set(SHIPPED) | set(_KIT_FONTS) | set(GENERIC_FAMILIES)
    for match in FAMILY_ATTRIBUTE.finditer(svg):
        family = (match[1] if match[1] is not None else match[2]).split(",")[0].strip("\"' ")
        if family and family not in known:
            return no_such_family(family, sorted(set(SHIPPED) | set(_KIT_FONTS)))
    return None


def no_such_family(family: str, families: list) -> str:
    """What a family no font has reads as, wherever it is named: with the nearest family and all of them."""
    import difflib
    near = difflib.get_close_matches(family, families, n=1)
    hint = f"did you mean {near[0]!r}? " if near else ""
    return f"no font of the family {family!r} ({hint}the kit's fonts/ and pnpgen's: {', '.join(families)})"


def _walk(element, inherited: tuple, runs: list) -> None:
    """Collect the texts of `element` and its children with the family, weight and slant each is set in."""
    family, bold, italic = inherited
    family = (element.get("font-family") or family).split(",")[0].strip("\"' ")
    weight = element.get("font-weight")
    if weight is not None:
        bold = weight == "bold" or (weight.isdigit() and int(weight) >= 550)   # as pnpgen.render.svg_ops reads it
    if element.get("font-style") is not None:
        italic = element.get("font-style") in ("italic", "oblique")
    here = (family, bold, italic)
    if family in _KIT_FONTS and (element.text or "").strip():
        runs.append((*here, element.text))
    for child in element:
        _walk(child, here, runs)
        if family in _KIT_FONTS and (child.tail or "").strip():
            runs.append((*here, child.tail))


def type_key(kit) -> list[str]:
    """What the kit's own type adds to a document's key: its fonts' files, its `fonts:` choice, its icons
    (names, files and bytes; read here without reportlab, which a cache hit never loads). Here, not with the
    documents: the record sheets' part key takes it in the main process, before any part starts."""
    fonts = sorted(f"{f.family}:{f.bold}:{f.italic}:{f.digest}" for f in kit.fonts)
    icons = []
    for icon, ref in sorted(kit.icons.items()):
        try:
            data = kit_files.read_bytes(kit.root / ref, kit.root)
        except kit_files.KitFileError as exc:
            data = exc.message.encode()
        icons.append(f"{icon}={ref}:{hashlib.sha1(data).hexdigest()}")
    return [repr(fonts), repr(sorted((kit.document_fonts or {}).items())), *icons]
