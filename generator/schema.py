"""A small declarative schema for the kit's YAML: types, required fields, allowed values, no unknown keys.

Each check records located problems instead of raising, so one run reports everything wrong with a kit.
"""
from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.problems import Problems
from pnpgen.yamlio import LocatedDict, LocatedList

INVALID = object()  # returned by a check that recorded a problem


# An id: a table, a print group, a document, a map key. Ids name output files (cards.pdf, cards-red-back.png),
# so they are kept short: a 300-letter group ended in "File name too long" in the output folder, unlocated.
ID_PATTERN = r"[A-Za-z][A-Za-z0-9_-]{0,63}"
ID_WORDS = "an id of letters, digits, _ or - (at most 64)"


@dataclass
class Where:
    """The place a value came from: file, dotted field path, line."""

    file: Path
    path: str
    line: int
    problems: Problems

    def child(self, name, line: int) -> "Where":
        path = f"{self.path}.{name}" if self.path else str(name)
        return Where(self.file, path, line, self.problems)

    def item(self, index: int, line: int) -> "Where":
        return Where(self.file, f"{self.path}[{index}]", line, self.problems)

    def error(self, message: str) -> object:
        self.problems.error(self.file, self.line, self.path, message)
        return INVALID

    def warn(self, message: str) -> None:
        self.problems.warn(self.file, self.line, self.path, message)


class Spec:
    """Base of all value checks: `check` returns the value (maybe converted) or INVALID."""

    description = "a value"

    def check(self, value, where: Where):
        raise NotImplementedError


@dataclass
class Int(Spec):
    """An integer field, within `min` and `max` when given."""

    min: int | None = None
    max: int | None = None

    @property
    def description(self):
        bounds = []
        if self.min is not None:
            bounds.append(f">= {self.min}")
        if self.max is not None:
            bounds.append(f"<= {self.max}")
        return "a whole number" + (" " + " and ".join(bounds) if bounds else "")

    def check(self, value, where):
        if isinstance(value, bool) or not isinstance(value, int):
            return where.error(f"must be {self.description}, not {value!r}")
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            return where.error(f"must be {self.description}, not {value!r}")
        return value


@dataclass
class Number(Spec):
    """A number field (integer or decimal), within `min` and `max` when given."""

    min: float | None = None
    max: float | None = None

    @property
    def description(self):
        if self.min is not None and self.max is not None:
            return f"a number from {self.min:g} to {self.max:g}"
        return "a number" + (f" >= {self.min}" if self.min is not None else "")

    def check(self, value, where):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return where.error(f"must be {self.description}, not {value!r}")
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            return where.error(f"must be {self.description}, not {value!r}")
        return value


@dataclass
class Str(Spec):
    """A text field, matching `pattern` when given (`hint` says what it wants)."""

    pattern: str | None = None
    hint: str = ""

    @property
    def description(self):
        return self.hint or "a text"

    def check(self, value, where):
        if not isinstance(value, str) or not value.strip():
            return where.error(f"must be {self.description}, not {value!r}")
        if self.pattern and not re.fullmatch(self.pattern, value):
            return where.error(f"must be {self.description}, not {value!r}")
        return value


@dataclass
class Length(Spec):
    """A length written with its unit (5/8in, 16mm, 45pt), within bounds given in points; the text is kept."""

    min_pt: float = 0.0          # exclusive when `positive`, else inclusive
    max_pt: float | None = None
    positive: bool = True
    hint: str = "a length such as 5/8in, 16mm or 45pt"

    @property
    def description(self):
        return self.hint

    def check(self, value, where):
        from pnpgen.lengths import LENGTH_PATTERN, describe_range, parse_length

        if not isinstance(value, str) or not re.fullmatch(LENGTH_PATTERN, value):
            return where.error(f"must be {self.description}, not {value!r}")
        try:
            points = parse_length(value)
        except (ValueError, ZeroDivisionError):
            return where.error(f"must be {self.description}, not {value!r}")
        too_small = points <= self.min_pt if self.positive else points < self.min_pt
        if too_small or (self.max_pt is not None and points > self.max_pt):
            return where.error(f"must be {describe_range(self.min_pt, self.max_pt, self.positive)}, not {value!r}")
        return value


@dataclass
class Choice(Spec):
    """One of a closed set of words."""

    choices: tuple

    @property
    def description(self):
        return "one of " + ", ".join(repr(c) for c in self.choices)

    def check(self, value, where):
        if value not in self.choices:
            return where.error(f"must be {self.description}, not {value!r}")
        return value


class Bool(Spec):
    description = "true or false"

    def check(self, value, where):
        if not isinstance(value, bool):
            return where.error(f"must be true or false, not {value!r}")
        return value


@dataclass
class Nullable(Spec):
    """The inner spec, or null (written `~` or `null` in YAML) where a value does not apply."""

    inner: Spec

    @property
    def description(self):
        return f"{self.inner.description} or null"

    def check(self, value, where):
        return None if value is None else self.inner.check(value, where)


@dataclass
class Either(Spec):
    """The first of several specs that accepts the value; the error names them all."""

    options: tuple

    @property
    def description(self):
        return " or ".join(o.description for o in self.options)

    def check(self, value, where):
        for option in self.options:
            scratch = Where(where.file, where.path, where.line, Problems())
            result = option.check(value, scratch)
            if result is not INVALID:
                return option.check(value, where)
        return where.error(f"must be {self.description}, not {value!r}")


@dataclass
class ListOf(Spec):
    """A list whose every item is `item`, at least `min_items` long."""

    item: Spec
    min_items: int = 0

    @property
    def description(self):
        return f"a list of {self.item.description}"

    def check(self, value, where):
        if not isinstance(value, list):
            return where.error(f"must be {self.description}, not {value!r}")
        if len(value) < self.min_items:
            return where.error(f"must hold at least {self.min_items} item(s)")
        lines = value.line_of if isinstance(value, LocatedList) else (lambda i: where.line)
        out = [self.item.check(v, where.item(i, lines(i))) for i, v in enumerate(value)]
        return INVALID if any(v is INVALID for v in out) else out


@dataclass
class MapOf(Spec):
    """A mapping keyed by ids (unit codes, marker names) whose values all follow one spec."""

    value: Spec
    key: Spec = field(default_factory=lambda: Str(ID_PATTERN, ID_WORDS))

    @property
    def description(self):
        return f"a mapping of {self.value.description}"

    def check(self, value, where):
        if not isinstance(value, dict):
            return where.error(f"must be {self.description}, not {value!r}")
        out, bad = {}, False
        for key, item in value.items():
            sub = where.child(key, _line(value, key, where))
            if self.key.check(key, sub) is INVALID:
                bad = True
                continue
            checked = self.value.check(item, sub)
            bad |= checked is INVALID
            out[key] = checked
        return INVALID if bad else out


@dataclass(frozen=True)
class Field:
    """One key of a record: its spec, whether it must be given, its default, and why it exists."""

    spec: Spec
    required: bool = True
    default: Any = None
    doc: str = ""


def optional(spec: Spec, default=None, doc: str = "") -> Field:
    return Field(spec, required=False, default=default, doc=doc)


@dataclass
class Record(Spec):
    """A mapping with named fields; unknown keys are errors, with the nearest known name suggested."""

    fields: dict
    name: str = "a mapping"

    @property
    def description(self):
        return self.name

    def check(self, value, where):
        if not isinstance(value, dict):
            return where.error(f"must be {self.description}, not {value!r}")
        out, bad = {}, False
        for key in value:
            if key not in self.fields:
                near = difflib.get_close_matches(str(key), list(self.fields), n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else f" (known: {', '.join(self.fields)})"
                where.child(key, _line(value, key, where)).error("unknown field" + hint)
                bad = True
        for name, fld in self.fields.items():
            if name not in value:
                if fld.required:
                    where.child(name, getattr(value, "line", where.line)).error("is required")
                    bad = True
                else:  # a copy: a default handed out is the kit's to change (translated, filled in), never the schema's
                    out[name] = copy.deepcopy(fld.default)
                continue
            checked = fld.spec.check(value[name], where.child(name, _line(value, name, where)))
            bad |= checked is INVALID
            out[name] = checked
        return INVALID if bad else out


def _line(mapping, key, where: Where) -> int:
    return mapping.line_of(key) if isinstance(mapping, LocatedDict) else where.line
