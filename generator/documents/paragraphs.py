"""A paragraph of a kit's text, made for any typeset document: its `:icons:` placed (inline_icons), then
checked (doc_fonts: every face embeddable, every character in its font). A problem is a BuildError at
`where`, the file and line the text came from, never a silent empty box or a stray `:name:`."""
from __future__ import annotations

from reportlab.platypus import Paragraph as PlainParagraph

from pnpgen.documents.doc_fonts import FontProblem, check_paragraph, other_styles, unknown_face, use_document_fonts
from pnpgen.documents.inline_icons import IconProblem, with_icons
from pnpgen.icon_names import ICON
from pnpgen.problems import BuildError

_ICONS: list = [{}]   # the icons of the kit being typeset (set with its fonts: pnpgen.documents.doc_fonts)
_WARNINGS: list = []  # a style asked for that the kit's fonts lack, located, since the last use_kit


class Paragraph(PlainParagraph):
    """reportlab's Paragraph that breaks its lines once for a width: the booklet's layout passes (the contents'
    first, then the printed one) and a table (measured, then drawn) ask a paragraph for the same lines
    again, and breaking them is most of laying a page out. The lines and what breaking them leaves on the
    paragraph (its words, widest line, the widths with the bullet's room taken) are kept and handed back
    while the widths asked for and the words are the ones they were broken for."""

    _BROKEN_STATE = ("_width_max", "height", "_splitLongWordCount", "_hyphenations")

    def breakLines(self, width):
        asked = (isinstance(width, list), tuple(width) if isinstance(width, (list, tuple)) else (width,))
        kept = self.__dict__.get("_broken")
        if kept is not None and kept[0] == asked and kept[1] is self.frags:
            lines, widths, state = kept[2:]
            if isinstance(width, list):
                width[:] = widths   # as breaking them leaves them: the first line's room less the bullet's
            self.__dict__.update(state)
            return lines
        lines = super().breakLines(width)
        self._broken = (asked, self.frags, lines, list(width) if isinstance(width, list) else None,
                        {name: self.__dict__[name] for name in self._BROKEN_STATE if name in self.__dict__})
        return lines


def use_kit(kit) -> None:
    """Typeset `kit`'s texts from now on: its fonts registered and chosen (kit.yaml `fonts:`), its icons."""
    use_document_fonts(kit)
    _ICONS[0] = dict(kit.icons or {})
    _WARNINGS.clear()


def style_warnings() -> list[str]:
    """Each paragraph's bold or italic the kit's fonts have no file of, since the last use_kit: "file:line:
    the text asks for ... it prints in ...", once each, in the order typeset."""
    return list(_WARNINGS)


def styles_lacked() -> dict:
    """A part's {"warnings": style_warnings()}, or nothing when there are none: the part's result keeps them,
    so a build from the part cache says them too."""
    return {"warnings": style_warnings()} if _WARNINGS else {}


def icons() -> dict:
    return _ICONS[0]


def paragraph(text: str, style, where: str, make=Paragraph, **kwargs):
    """`make(markup, style, **kwargs)` (a Paragraph, or a kind of one) of the text with its icons placed."""
    try:
        flow = make(with_icons(str(text), _ICONS[0], style.fontSize), style, **kwargs)
        check_paragraph(flow)
        _WARNINGS.extend(w for w in (f"{where}: {said}" for said in other_styles(flow)) if w not in _WARNINGS)
        return flow
    except (IconProblem, FontProblem) as exc:
        raise BuildError(f"{where}: {exc}") from None
    except ValueError as exc:
        reason = unknown_face(exc, str(text))
        if reason is None:
            raise
        raise BuildError(f"{where}: {reason}") from None


def needs_paragraph(text: str) -> bool:
    """A cell that could be a plain string still needs a Paragraph to place an icon."""
    return ":" in text and ICON.search(text) is not None
