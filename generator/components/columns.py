"""A table's columns, declared in data: each column becomes a schema spec that checks every row's cell.

CSV cells arrive as text; `from_csv` turns them into the column's type first, so one check serves both.
"""
from __future__ import annotations

import re

from pnpgen.lengths import LENGTH_PATTERN
from pnpgen.schema import (
    INVALID, Bool, Choice, Field, Int, ListOf, MapOf, Nullable, Number, Record, Spec, Str, Where, optional,
)

COLUMN_TYPES = ("int", "number", "text", "bool", "choice", "colour", "length", "list", "image", "mapping")
BUILTIN_COLUMNS = ("qty", "id", "front", "back")
# The names a piece template sees besides the row's columns (render/piece_faces.face_context, our template
# globals and Jinja's): a column of one of these names would be hidden by it, so it is refused where declared.
TEMPLATE_NAMES = ("row", "piece", "colour", "side", "kit", "data", "colours", "textbox", "pt", "icons",
                  "range", "dict", "cycler", "joiner", "namespace", "loop", "self")
MAX_QTY = 10_000  # copies of one row: more is a typo (a billion counters), not a game
TEMPLATE = Str(r"[A-Za-z0-9_-]+", "a template name (letters, digits, _ or -), without .svg.j2")
HEX_COLOUR = Str(r"#[0-9a-fA-F]{6}", "a colour written #rrggbb")


class Anything(Spec):
    """Any YAML value (a column default, a place's extra field): checked elsewhere, where its use is known."""

    description = "any value"

    def check(self, value, where):
        return value


class Text(Spec):
    """A text cell: strings, and numbers written where a text is expected ("2", "IV"), as text."""

    description = "a text"

    def check(self, value, where):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return where.error(f"must be {self.description}, not {value!r}")
        return str(value)


class ImagePath(Spec):
    """A path to an image inside the kit folder; the file itself is checked when the kit is loaded."""

    description = "a path inside the kit folder, such as art/ship.png"

    def check(self, value, where):
        if not isinstance(value, str) or not value.strip():
            return where.error(f"must be {self.description}, not {value!r}")
        return value


COLUMN = Record({
    "type": Field(Choice(COLUMN_TYPES), doc="what the cells hold"),
    "required": optional(Bool(), None, "must every row give it (default: yes, unless a default is given)"),
    "default": optional(Anything(), None, "the value of a row that leaves the cell out"),
    "values": optional(ListOf(Anything(), 1), None, "allowed values, for type: choice"),
    "min": optional(Number(), None, "smallest number allowed"),
    "max": optional(Number(), None, "largest number allowed"),
    "pattern": optional(Str(), None, "a regular expression a text cell must match in full, such as [01]{6}"),
    "doc": optional(Str(), "", "one line saying what the column is for"),
    "translate": optional(Bool(), False, "its cells are printed words: a translated edition prints them in "
                                         "its language (pnpgen translate extracts them)"),
}, "a column: {type, required, default, values, min, max, doc, translate}")


def column_spec(column: dict) -> Spec:
    """The spec one column's cells must meet."""
    kind = column["type"]
    low, high = column["min"], column["max"]
    if kind == "int":
        return Int(None if low is None else int(low), None if high is None else int(high))
    if kind == "number":
        return Bounded(Number(low), high)
    if kind == "bool":
        return Bool()
    if kind == "choice":
        return Choice(tuple(column["values"] or ()))
    if kind == "colour":
        return HEX_COLOUR
    if kind == "length":
        return Str(LENGTH_PATTERN, "a length such as 5/8in, 16mm or 45pt")
    if kind == "list":
        return ListOf(Anything())
    if kind == "image":
        return ImagePath()
    if kind == "mapping":
        return MapOf(Anything(), key=Str(r"[A-Za-z][A-Za-z0-9_-]*", "a name of letters, digits, _ or -"))
    if column["pattern"]:
        return Matching(column["pattern"])
    return Text()


class Matching(Spec):
    """A text that must match a pattern in full (a six-edge mask, a code)."""

    def __init__(self, pattern: str):
        self.pattern = pattern

    @property
    def description(self):
        return f"a text matching {self.pattern}"

    def check(self, value, where):
        value = Text().check(value, where)
        if value is not INVALID and not re.fullmatch(self.pattern, value):
            return where.error(f"must be {self.description}, not {value!r}")
        return value


class Bounded(Spec):
    """A number with an upper bound too (Number knows only its minimum)."""

    def __init__(self, inner: Number, high):
        self.inner, self.high = inner, high

    @property
    def description(self):
        return self.inner.description + (f" and <= {self.high}" if self.high is not None else "")

    def check(self, value, where):
        value = self.inner.check(value, where)
        if value is not INVALID and self.high is not None and value > self.high:
            return where.error(f"must be {self.description}, not {value!r}")
        return value


def check_column(name: str, column: dict, where: Where) -> bool:
    """Declarations that contradict themselves: a choice without values, a default of the wrong type."""
    ok = True
    if column["type"] == "choice" and not column["values"]:
        where.child("values", where.line).error("a choice column needs its list of values")
        ok = False
    if column["default"] is not None and column_spec(column).check(column["default"], where.child("default", where.line)) is INVALID:
        ok = False
    if column["pattern"]:
        try:
            re.compile(column["pattern"])
        except re.error as exc:
            where.child("pattern", where.line).error(f"not a regular expression: {exc}")
            ok = False
    if name in BUILTIN_COLUMNS:
        where.error(f"{name!r} is a column every table has; do not declare it")
        ok = False
    elif name in TEMPLATE_NAMES:
        where.error(f"a column named {name!r} would be hidden in the templates by their own {name!r}: "
                    f"rename it (such as my_{name})")
        ok = False
    return ok


def row_record(columns: dict) -> Record:
    """The Record every row of a table must meet: its own columns plus qty, id, front and back."""
    fields = {
        "qty": optional(Int(0, MAX_QTY), 1, "copies of this row"),
        "id": optional(Text(), None, "a name for the row in lists and the manifest"),
        "front": optional(TEMPLATE, None, "this row's own front template"),
        "back": optional(TEMPLATE, None, "this row's own back template"),
    }
    for name, column in columns.items():
        required = column["required"] if column["required"] is not None else column["default"] is None
        spec = column_spec(column)
        if not required and column["default"] is None:  # `null` written out: the cell left empty, as in a CSV
            spec = Nullable(spec)
        fields[name] = Field(spec, required, column["default"], column["doc"])
    return Record(fields, "a row")


def from_csv(text: str, column: dict | None):
    """A CSV cell as the YAML value it stands for: '' is absent (None), numbers and booleans converted."""
    if text is None or text.strip() == "":
        return None
    raw = text.strip()
    kind = column["type"] if column else "text"
    if kind == "int":
        return _number(raw, int)
    if kind == "number":
        return _number(raw, float)
    if kind == "bool":
        return {"true": True, "false": False, "yes": True, "no": False}.get(raw.lower(), raw)
    if kind == "list":
        return [part.strip() for part in raw.split(";") if part.strip()]
    if kind == "mapping":
        return _mapping(raw)
    if kind == "choice":
        return next((v for v in column["values"] or () if str(v) == raw), raw)
    return raw


def _number(raw: str, kind):
    try:
        return kind(raw)
    except ValueError:
        try:
            value = float(raw)
            return int(value) if kind is int and value.is_integer() else value
        except ValueError:
            return raw  # left as text: the column's check then says what was expected


def _mapping(raw: str):
    """A CSV cell `fighters=1; cloaking=2` as the mapping {fighters: 1, cloaking: 2} (whole numbers as
    numbers); a cell without `=` stays text, for the column's check to refuse."""
    if "=" not in raw:
        return raw
    out = {}
    for part in (p.strip() for p in raw.split(";") if p.strip()):
        name, _, value = part.partition("=")
        value = value.strip()
        out[name.strip()] = int(value) if re.fullmatch(r"-?\d+", value) else value
    return out
