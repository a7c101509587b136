"""A language's typography, applied to translated words as they are printed: a translator types ordinary
spaces and quotes, the edition prints them as the language's printers do (French: a no-break space before
: ; ? ! and inside « », so a line never breaks before the mark); and numbers as the language writes them
(1,5 in French and Spanish), through Babel's CLDR data. The space is U+00A0, not the narrow U+202F of fine
typesetting: reportlab, which sets the booklet and aid cards, breaks lines at U+202F (its list of white
space holds it) and keeps U+00A0 whole, as pnpgen's own textbox does."""
from __future__ import annotations

import re

NO_BREAK = "\u00a0"  # no-break space (espace insécable)
# what typography never touches: Jinja, markup tags, :icons:, {names}, %(names)s and web addresses
PROTECTED = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|<[^>]*>|:[a-z0-9][a-z0-9_-]*:|\{[A-Za-z_]\w*\}"
                       r"|%\(\w+\)[sd]|\w+://\S+", re.S)
_FR_MARK = re.compile(r"(?<=\S)[ \u00a0\u202f]*([;:!?]+)(?=\s|$|[»)\]*<\x01])")
_FR_OPEN = re.compile(r"«[ \u00a0\u202f]*")
_FR_CLOSE = re.compile(r"[ \u00a0\u202f]*»")


def _protected(text: str, change) -> str:
    """`change` applied to the text outside the protected tokens, which come back untouched."""
    kept = []

    def hold(match):
        kept.append(match.group(0))
        return f"\x00{len(kept) - 1}\x01"
    changed = change(PROTECTED.sub(hold, text))
    return re.sub(r"\x00(\d+)\x01", lambda m: kept[int(m.group(1))], changed)


def french(text: str) -> str:
    """French spacing: a no-break space before ; : ! ? and inside « »."""
    def spaced(plain: str) -> str:
        plain = _FR_MARK.sub(lambda m: NO_BREAK + m.group(1), plain)
        return _FR_CLOSE.sub(NO_BREAK + "»", _FR_OPEN.sub("«" + NO_BREAK, plain))
    return _protected(text, spaced)


RULES = {"fr": french}  # Spanish ¿ ¡ are typed by the translator and printed as typed


def apply(language: str, text: str) -> str:
    """The text as `language` prints it (languages without a rule: unchanged)."""
    rule = RULES.get(language.split("_")[0])
    return rule(text) if rule else text


def decimal(value, language: str) -> str:
    """A number as `language` writes it (1.5 -> '1,5' in fr, es); a value that is no number is left as it is."""
    from babel.numbers import format_decimal
    try:
        return format_decimal(value, locale=language)
    except (TypeError, ValueError, ArithmeticError):
        return str(value)
