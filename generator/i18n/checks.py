"""What a translation can break, found when an edition loads, each at its line of the PO file or of the
kit: a placeholder or markup the source has and the translation lost (or gained), a string with no usable
translation (printed in the source language: a warning, an error with --strict), and a character the
kit's fonts cannot print."""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from pnpgen.i18n import typography

# placeholders: Jinja, {name}, %(name)s and :icons:; markup: reportlab and HTML tags, ** and * emphasis
PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{[A-Za-z_]\w*\}|%\(\w+\)[sd]|:[a-z0-9][a-z0-9_-]*:", re.S)
MARKUP = re.compile(r"</?[A-Za-z][^>]*>|\*\*|(?<![*\w])\*(?=\S)|(?<=\S)\*(?![*\w])")
SHIPPED_FONT = Path(__file__).resolve().parent.parent / "fonts" / "DejaVuSans.ttf"


def _tokens(pattern, text: str) -> Counter:
    return Counter(re.sub(r"\s+", "", token) for token in pattern.findall(text))  # {{x}} is {{ x }}


def mismatch(source: str, translation: str) -> str | None:
    """What the translation changed of the source's placeholders or markup, said for the translator; None
    when it kept them all (in any order)."""
    for pattern, what in ((PLACEHOLDER, "placeholders"), (MARKUP, "markup")):
        want, got = _tokens(pattern, source), _tokens(pattern, translation)
        if want != got:
            lost, added = sorted((want - got).elements()), sorted((got - want).elements())
            said = "; ".join(part for part in (f"lost {', '.join(lost)}" if lost else "",
                                               f"added {', '.join(added)}" if added else "") if part)
            return f"the translation must keep the source's {what} ({said})"
    return None


def check_entries(entries: dict, problems) -> None:
    """Every translated entry keeps its source's placeholders and markup: else an error at its PO line."""
    for source, entry in entries.items():
        if entry.string:
            said = mismatch(source, entry.string)
            if said:
                problems.error(entry.file, entry.line, "msgstr", f"{said}: msgid {_short(source)}")


def check_missing(found: list, translator, problems, language_name: str) -> None:
    """Every printed string has a usable translation: else a warning at the kit's file and line naming the
    PO file (and its line when the entry is there but fuzzy or empty); it prints as written."""
    seen = set()
    for item in found:
        if item.text in seen or translator.entry(item.text):
            continue
        seen.add(item.text)
        entry = translator.kit.get(item.text)
        if entry is None:
            why = f"no {language_name} translation in {translator.po_file} (run pnpgen translate)"
        elif entry.fuzzy:
            why = f"the {language_name} translation at {entry.file}:{entry.line} is fuzzy (the source changed): check it"
        else:
            why = f"no {language_name} translation yet at {entry.file}:{entry.line}"
        problems.warn(item.file, item.line, "", f"{why}; printed as written: {_short(item.text)}")


def check_glyphs(translator, fonts: dict, problems) -> None:
    """Every character of every translation (as printed, with its typography) is in each font the kit's
    texts print in: {family: characters}. Else an error at the PO line naming the font and the characters."""
    for source, entry in {**translator.core, **translator.kit}.items():
        if not entry.string or entry.fuzzy:
            continue
        printed = set(PLACEHOLDER.sub("", typography.apply(translator.language, entry.string))) - set(" \n\t")
        printed -= set(PLACEHOLDER.sub("", source))  # what the source prints too is the source's to check
        for family, chars in sorted(fonts.items()):
            lacking = sorted(ch for ch in printed if ch not in chars)
            if lacking:
                shown = ", ".join(f"{ch} (U+{ord(ch):04X})" for ch in lacking)
                problems.error(entry.file, entry.line, "msgstr", f"font {family} has no glyph for {shown}: "
                                                                 f"add it to the font or choose another in kit.yaml fonts:")


def kit_fonts(kit) -> dict:
    """{family: characters} of the fonts the kit's texts print in: its document fonts' families (each
    file's characters in common) and pnpgen's DejaVu Sans, which prints pieces and every default."""
    families = {}
    for family in set(kit.document_fonts.values()):
        files = [font.chars for font in kit.fonts if font.family == family]
        if files:
            families[family] = frozenset.intersection(*files)
    return {"DejaVu Sans": shipped_chars(), **families}


@lru_cache(maxsize=1)
def shipped_chars() -> frozenset:
    from fontTools.ttLib import TTFont
    with TTFont(SHIPPED_FONT, lazy=True) as font:
        return frozenset(chr(code) for code in font.getBestCmap())


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= 70 else flat[:67] + "...")
