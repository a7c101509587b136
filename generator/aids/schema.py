"""The schemas of the aid cards (`aids/cards.yaml`) and the record sheets (`aids/sheets.yaml`), checked by
`validate` and by the build.

The files are Jinja over YAML: they are rendered with the kit's numbers first, then read and checked like
every other kit file, so an unknown key, a missing field, an unknown chart or broken paragraph markup is a
located problem (`aids/cards.yaml:LINE: cards.player_aid.frnt: unknown field (did you mean 'front'?)`).
A `chart:` block names one of the kit's charts (charts.yaml).
"""
from __future__ import annotations

import re

from pathlib import Path

from pnpgen.kit_memos import kit_memo
from pnpgen.problems import Problems
from pnpgen.aids.sources import BLOCK_KINDS, CARDS_FILE, SHEETS_FILE
from pnpgen.known_good import KnownGood
from pnpgen.schema import INVALID, Bool, Choice, Field, ListOf, MapOf, Number, Record, Spec, Str, Where, optional

SHEET_BLOCK_KINDS = BLOCK_KINDS + ("field", "form")  # a record sheet adds lines and grids to write on


class Markup(Spec):
    """A paragraph of text (numbers from Jinja are welcome) in reportlab's markup: <b>, <i>, &amp; entities."""

    description = "a paragraph of text"

    def check(self, value, where):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)) or not str(value).strip():
            return where.error(f"must be {self.description}, not {value!r}")
        problem = markup_problem(" ".join(str(value).split()))
        if problem:
            return where.error(f"the text's markup does not parse: {problem}")
        return value


_CHECK_STYLE = None


def _check_style(style_class):
    global _CHECK_STYLE
    _CHECK_STYLE = style_class("markup-check")
    return _CHECK_STYLE


def markup_problem(text: str) -> str | None:
    """Why reportlab cannot read this paragraph (an unclosed <b>, a stray '<' or '&'), or None. Texts that
    parsed before are remembered (by hash, in this user's cache folder), so an unchanged kit is checked
    without loading reportlab at all."""
    digest = _PARSED.digest(text)
    if digest in _PARSED:
        return None
    for name in TAG.findall(text):  # reportlab drops what it cannot read: '<b5</b>' would print nothing
        if name.lower() not in TAGS:
            return (f"<{name}> is not a markup tag (use <b>, <i>, <u>, <font ...>, <br/>, :icon: for the kit's "
                    f"icons; write a lone < as &lt;)")
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    try:  # a built-in font is enough to parse the markup: no TTF to load for a check (a kit font's name is
        # checked when the text is typeset, with the kit's fonts registered)
        Paragraph(FONT_FACE.sub(r'\1"Helvetica"', text), _CHECK_STYLE or _check_style(ParagraphStyle))
    except ValueError as exc:
        message = " ".join(str(exc).split())
        return message.rpartition("caused exception ")[2][:200] or message[:200]
    _PARSED.add(digest)
    return None


_PARSED = KnownGood("markup-ok.txt", "reportlab-paragraph-3")  # 3: <img> refused
TAG = re.compile(r"<\s*/?\s*([A-Za-z][A-Za-z0-9]*)")
FONT_FACE = re.compile(r"""(<font\b[^<>]*?\b(?:face|name)\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)""")
TAGS = frozenset({"b", "i", "u", "strike", "strong", "em", "super", "sup", "sub", "font", "br", "span", "a",
                  "greek"})  # reportlab paragraph markup an aid text may use (no <img>: its src would be read
                             # from anywhere on the disk; a text places the kit's icons as :name:)


FORM_ROW = Record({
    "label": Field(Markup(), doc="the row's label"),
    "total": optional(Bool(), False, "printed bold and shaded"),
    "minus": optional(Bool(), False, "an amount taken away: the label starts with a minus sign"),
}, "a row {label, total, minus}")
FORM = Record({
    "corner": optional(Markup(), "", "the top-left cell, over the labels"),
    "columns": Field(ListOf(Markup(), 1), doc="the column headings; each column is left blank to write in"),
    "rows": Field(ListOf(FORM_ROW, 1), doc="the rows, top to bottom"),
    "label_width": optional(Number(0.05, 0.9), 0.3, "the label column's share of the width"),
    "row_height": optional(Number(8, 200), 22, "points: room to write a number by hand"),
}, "a form {corner, columns, rows, label_width, row_height}")


class Block(Spec):
    """One block of a card face or a record sheet page: exactly one of its kinds."""

    def __init__(self, charts: tuple = (), kinds: tuple = BLOCK_KINDS):
        self.kinds = kinds
        self.description = f"a block {{{'|'.join(kinds)}: ...}}"
        fields = {
            "heading": optional(Markup()),
            "text": optional(Markup()),
            "bullets": optional(ListOf(Markup(), 1)),
            "chart": optional(Choice(tuple(charts))),
            "field": optional(Markup(), None, "a label and a line to write on ('Player: ______')"),
            "form": optional(FORM, None, "a grid of blank boxes to write in"),
        }
        self.record = Record({k: v for k, v in fields.items() if k in kinds}, self.description)

    def check(self, value, where):
        checked = self.record.check(value, where)
        if checked is INVALID:
            return INVALID
        given = [kind for kind in self.kinds if kind in value]
        if len(given) != 1:
            return where.error(f"a block holds exactly one of {', '.join(self.kinds)}, not "
                               f"{', '.join(given) or 'none'}")
        return {given[0]: checked[given[0]]}


def cards_schema(charts: tuple = ()) -> Record:
    """`charts`: the names of the kit's charts (charts.yaml), which a `chart:` block may print."""
    face = ListOf(Block(charts), 1)
    return Record({"cards": Field(MapOf(Record({
        "title": Field(Markup(), doc="printed in the card's header band"),
        "per": optional(Choice(("colour", "table")), "colour", "one card per player colour, or a single card"),
        "front": Field(face, doc="the blocks printed on the front, top to bottom"),
        "back": Field(face, doc="the blocks printed on the back"),
    }, "a card {title, per, front, back}")), doc="the card kinds, in print order")}, "the aid cards file")


def sheets_schema(charts: tuple = ()) -> Record:
    page = ListOf(Block(charts, SHEET_BLOCK_KINDS), 1)
    return Record({"sheets": Field(MapOf(Record({
        "title": Field(Markup(), doc="printed in the page's title band, with the colour's name"),
        "file": optional(Str(r"[a-z0-9][a-z0-9-]*\.pdf", "a file name such as score-sheet.pdf"), None,
                         "the PDF's name (default: the sheet's id, '-sheet.pdf')"),
        "per": optional(Choice(("colour", "table")), "colour", "one copy per player colour, or a single one"),
        "pages": Field(ListOf(page, 1), doc="each page's blocks, top to bottom"),
    }, "a sheet {title, file, per, pages}")), doc="the record sheets, in print order")}, "the record sheets file")


SCHEMAS = {CARDS_FILE: cards_schema, SHEETS_FILE: sheets_schema}


_CHECKED: dict = kit_memo()  # (id of kit, file, schema) -> (kit, the checked mapping): read without a problem


def check_aid_file(kit, rel: Path, problems: Problems, schema=None, rendered=None):
    """Render and read one aid file, record every problem located; the checked mapping, or None. `schema`:
    a function of the kit's chart names giving the file's Record (default: the one SCHEMAS holds for `rel`).
    A file read without a problem is read once per kit object: the aid part's key (pnpgen.parts.sheets)
    renders it in the main process, and the part's worker, forked after, takes it from there (SE4X's cards
    after a data edit: rendered and parsed once, not twice). The mapping is only read by its users.
    `rendered(rel, work)`: the file's text as work() renders it, or as a memo kept it (pnpgen.aids.aid_memo)."""
    key = (id(kit), Path(rel), schema or SCHEMAS.get(Path(rel)))
    entry = _CHECKED.get(key)
    if entry is not None and entry[0] is kit:
        return entry[1]
    count = len(problems.items)
    doc = _check_aid_file(kit, rel, problems, schema, rendered or (lambda _, work: work()))
    if doc is not None and len(problems.items) == count:
        if len(_CHECKED) > 16:
            _CHECKED.clear()
        _CHECKED[key] = (kit, doc)
    return doc


def _check_aid_file(kit, rel: Path, problems: Problems, schema, rendered):
    from pnpgen.aids.sources import aids_path, aids_root, render_aid_text
    from pnpgen.text import TextError, read_text
    from pnpgen.yamlio import YamlSyntaxError, parse_yaml

    path = aids_path(kit, rel)
    try:
        text = rendered(rel, lambda: render_aid_text(kit, read_text(path, aids_root(kit, path)), path))
        raw = parse_yaml(text, path)
    except TextError as exc:
        problems.error(path, exc.line, "", exc.message)
        return None
    except YamlSyntaxError as exc:
        problems.error(path, exc.line, "", exc.message)
        return None
    if not isinstance(raw, dict):
        problems.error(path, 1, "", "must hold a mapping of fields at the top level")
        return None
    doc = (schema or SCHEMAS[rel])(tuple(kit.charts)).check(raw, Where(path, "", getattr(raw, "line", 1), problems))
    if doc is INVALID:
        return None
    for line, field, name in icon_names(raw, getattr(raw, "line", 1)):
        if name not in kit.icons:
            from pnpgen.icon_names import unknown_icon
            problems.error(path, line, field, unknown_icon(name, kit.icons))
    return raw


def icon_names(node, line: int, field: str = ""):
    """(line, field, name) of every `:name:` in the texts of an aid file (checked at validation, --quick
    included, before any typesetting)."""
    from pnpgen.icon_names import ICON
    if isinstance(node, str):
        yield from ((line, field, match.group(1)) for match in ICON.finditer(node))
        return
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        at = node.line_of(key) if hasattr(node, "line_of") else line
        yield from icon_names(value, at, f"{field}[{key}]" if isinstance(node, list) else
                              f"{field}.{key}" if field else str(key))
