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
_LINES: list = [None]  # the document's line memo (documents.line_memo.LineMemo) while one is typeset


class Paragraph(PlainParagraph):
    """reportlab's Paragraph that breaks its lines once for a width: the booklet's layout passes (the contents'
    first, then the printed one) and a table (measured, then drawn) ask a paragraph for the same lines
    again, and breaking them is most of laying a page out. The lines and what breaking them leaves on the
    paragraph (its words, widest line, the widths with the bullet's room taken) are kept and handed back
    while the widths asked for and the words are the ones they were broken for; between builds, in the
    document's line memo (documents.line_memo), while its fragments, style and widths are the same."""

    _BROKEN_STATE = ("_width_max", "height", "_splitLongWordCount", "_hyphenations")

    def breakLines(self, width):
        asked = (isinstance(width, list), tuple(width) if isinstance(width, (list, tuple)) else (width,))
        kept = self.__dict__.get("_broken")
        if kept is not None and kept[0] == asked and kept[1] is self.frags:
            broken = kept[2:]
        else:
            memo = _LINES[0]   # one fragment breaks faster than its lines are read back: several are kept
            key = memo.key(self, asked) if memo is not None and len(self.frags) > 1 else None
            broken = (memo.lines(key) if key is not None else None) or self._break(width, memo, key)
        lines, widths, state = broken
        if isinstance(width, list):
            width[:] = widths   # as breaking them leaves them: the first line's room less the bullet's
        self.__dict__.update(state)
        self._broken = (asked, self.frags, *broken)
        return lines

    def _break(self, width, memo, key) -> tuple:
        """(lines, the widths as breaking them left them, what it left on the paragraph), kept in `memo`
        under `key` for later builds."""
        frags = self.frags
        lines = super().breakLines(width)
        state = {name: self.__dict__[name] for name in self._BROKEN_STATE if name in self.__dict__}
        if self.frags is not frags:   # several fragments: its words, as its split reads them
            state["frags"] = self.frags
        broken = (lines, list(width) if isinstance(width, list) else None, state)
        if key is not None:
            memo.keep(key, broken)
        return broken


def use_kit(kit) -> None:
    """Typeset `kit`'s texts from now on: its fonts registered and chosen (kit.yaml `fonts:`), its icons."""
    use_document_fonts(kit)
    _ICONS[0] = dict(kit.icons or {})
    _WARNINGS.clear()


def use_line_memo(memo) -> None:
    """Break paragraphs' lines through `memo` (documents.line_memo.LineMemo) from now on; None: without one."""
    _LINES[0] = memo


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
