"""Loading one component table: its header (shape, size, templates, group), its columns and its rows.

Rows come inline from the YAML file or from a CSV file beside it; either way each row keeps the file and
line it came from, so every later problem (a cell, a template, a count, a text that does not fit) is located.
"""
from __future__ import annotations

import csv
import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen import kit_files
from pnpgen.i18n import translator
from pnpgen.components.columns import BUILTIN_COLUMNS, COLUMN, TEMPLATE, Anything, check_column, from_csv, row_record
from pnpgen.lengths import LENGTH_PATTERN, parse_length
from pnpgen.problems import Problems, display_path
from pnpgen.schema import (
    ID_PATTERN, ID_WORDS, INVALID, Bool, Choice, Either, Field, Int, ListOf, MapOf, Record, Str, Where, optional,
)
from pnpgen.shapes import ACROSS, ORIENTATIONS, SHAPES, Shape, parse_size
from pnpgen.yamlio import LocatedDict, LocatedList

ID = Str(ID_PATTERN, ID_WORDS)
MAX_ROWS = 20_000

COUNT_RULE = Record({
    "rule": Field(Str(), doc="the rule's name, quoted in the error"),
    "match": Field(MapOf(Anything(), key=Str()), doc="{column: value} the pieces must have"),
    "total": Field(Anything(), doc="how many pieces match"),
}, "{rule, match, total}")

COUNTS = Record({
    "total": optional(Anything(), None, "pieces in the whole table"),
    "per_colour": optional(Anything(), None, "pieces of each colour (per_colour tables)"),
    "by": optional(MapOf(MapOf(Anything(), key=Anything()), key=Str()), None, "{column: {value: pieces}}"),
    "where": optional(ListOf(COUNT_RULE), None, "named rules over the pieces that match"),
}, "the table's rule counts: {total, per_colour, by, where}")

TABLE = Record({
    "name": optional(Str(), None, "how lists and the booklet name the table (default: its id)"),
    "doc": optional(Str(), "", "what the table holds"),
    "shape": Field(Choice(SHAPES), doc="the outline every piece of the table is cut to"),
    "size": optional(Str(), None, "side, diameter, across-flats, or WIDTHxHEIGHT / a card preset (a square "
                                  "table without one takes kit.yaml's counter_size)"),
    "radius": optional(Str(LENGTH_PATTERN, "a length such as 2mm"), "0mm", "corner radius of a rect"),
    "orientation": optional(Choice(ORIENTATIONS), "flat", "hex: flat top or pointy top"),
    "across": optional(Choice(ACROSS), None, "hex: its size measured across the flats (default) or the corners"),
    "front": Field(TEMPLATE, doc="front template"),
    "back": optional(TEMPLATE, None, "back template (none: printed one-sided)"),
    "group": optional(ID, None, "print group: one PDF per group (default: the table id)"),
    "per_colour": optional(Bool(), False, "make every row once per kit colour"),
    "colour_files": optional(Bool(), None, "per_colour tables: true prints one PDF per colour (each player "
                                           "prints their own), false every colour on shared sheets (default: "
                                           "shared where one colour's pieces cover less than half a page)"),
    "order": optional(Int(-1000, 1000), 0, "where the table comes in its print group (lower first; then file name)"),
    "numbered": optional(Bool(), False, "number the copies of every row 1..qty: templates see `number`, labels "
                                        "end in it (group counters: DD 1, DD 2 ...)"),
    "kind": optional(Choice(("card", "counter")), None, "card (text at least 7 pt) or counter, token or tile (6 pt); "
                                                         "default: a square or rect whose shorter side is 40 mm "
                                                         "or more is a card, every other piece a counter"),
    "mirror_bleed": optional(Bool(), False, "its templates draw to the trim only: a print shop's bleed is made "
                                            "by mirroring each face's edges (print-shop and deck exports)"),
    "columns": optional(MapOf(COLUMN), {}, "the table's own columns"),
    "rows": Field(Either((Str(r"[^/\\#]+\.csv", "a CSV file name beside this file"),
                          Str(r"[^/\\#]+\.xlsx(#[^#]+)?", "a spreadsheet beside this file, and a sheet: cards.xlsx#Ships"),
                          ListOf(Anything()))),
                  doc="a list of rows, a CSV file beside this one, or a spreadsheet's sheet (cards.xlsx#Ships)"),
    "counts": optional(COUNTS, None, "rule counts the rows must meet"),
}, "a component table")


@dataclass(frozen=True)
class Row:
    values: dict
    file: Path
    line: int
    index: int
    label: str          # how lists and the manifest name the row: id, name, the first column, or its number


def row_label(values: dict, columns: dict, index: int) -> str:
    for key in ("id", "name", *list(columns)[:1]):
        if values.get(key) not in (None, ""):
            return str(values[key])
    return str(index + 1)


@dataclass(frozen=True)
class Table:
    id: str
    name: str
    file: Path
    shape: Shape
    front: str
    back: str | None
    group: str
    per_colour: bool
    columns: dict
    rows: tuple[Row, ...]
    counts: dict | None
    order: int = 0
    colour_files: bool | None = None  # per_colour: one file per colour (True), shared (False), by size (None)
    numbered: bool = False            # each copy of a row numbered 1..qty (`number` in its templates)
    mirror_bleed: bool = False        # templates draw to the trim; exports mirror the edges for bleed
    size_chosen: bool = False         # printed at a size the command line chose (--counter-size, --piece-size)
    kind: str | None = None           # card or counter as declared (None: by its size, preflight.piece_kind)
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # dotted path -> line


def load_table(path: Path, raw, problems: Problems, root: Path | None = None,
               counter_size: str = "5/8in") -> Table | None:
    """The checked table of one file of a kit at `root` (default: the table file's folder, all a CSV beside it
    may be read from), or None after recording its problems. A square table that gives no size takes the
    kit's `counter_size`: a kit of counters says their size once, where its booklet and maps read it too."""
    table_id = path.stem
    where = Where(path, "", getattr(raw, "line", 1), problems)
    if ID.check(table_id, Where(path, "", 1, Problems())) is INVALID:
        where.error(f"the file name {path.name!r} must be an id (letters, digits, _ or -, at most 64) followed by .yaml")
        return None
    doc = TABLE.check(raw, where)
    if doc is INVALID:
        return None
    shape = _shape(doc | {"size": doc["size"] or _default_size(doc, raw, where, counter_size)}, raw, where)
    if doc["colour_files"] is not None and not doc["per_colour"]:
        where.child("colour_files", raw.line_of("colour_files")).error(
            "only a per_colour table has colours to print in files of their own: add `per_colour: true`")
        return None
    if doc["numbered"] and "number" in doc["columns"]:
        where.child("columns", raw.line_of("columns")).child("number", _line(raw["columns"], "number")).error(
            "a numbered table gives every copy its `number`: name this column otherwise")
        return None
    columns_ok = all(check_column(n, c, where.child("columns", raw.line_of("columns")).child(n, _line(raw["columns"], n)))
                     for n, c in doc["columns"].items())
    rows = _rows(path, raw, doc, problems, Path(root) if root is not None else path.parent)
    if shape is None or not columns_ok or rows is None:
        return None
    return Table(id=table_id, name=doc["name"] or table_id, file=path, shape=shape, front=doc["front"],
                 back=doc["back"], group=doc["group"] or table_id, per_colour=doc["per_colour"],
                 columns=doc["columns"], rows=tuple(rows), counts=doc["counts"], order=doc["order"],
                 colour_files=doc["colour_files"], numbered=doc["numbered"], mirror_bleed=doc["mirror_bleed"],
                 kind=doc["kind"], lines=_known_lines(raw))


def _default_size(doc: dict, raw, where: Where, counter_size: str) -> str | None:
    """The kit's counter size for a square table that gives none; any other shape must give its size."""
    if doc["shape"] == "square":
        return counter_size
    where.child("size", raw.line_of("shape")).error(
        f"a {doc['shape']} table needs its size (only a square table may leave it to kit.yaml's counter_size)")
    return None


def _shape(doc: dict, raw, where: Where) -> Shape | None:
    if doc["size"] is None:
        return None
    if doc["across"] and doc["shape"] != "hex":
        where.child("across", raw.line_of("across")).error("only a hex is measured across its flats or corners")
        return None
    try:
        w, h = parse_size(doc["shape"], doc["size"], doc["orientation"], doc["across"] or "flats")
    except ValueError as exc:
        where.child("size", raw.line_of("size")).error(str(exc))
        return None
    radius = parse_length(doc["radius"])
    if radius and doc["shape"] != "rect":
        where.child("radius", raw.line_of("radius")).error("only a rect has a corner radius")
        return None
    if radius * 2 > min(w, h):
        where.child("radius", raw.line_of("radius")).error("the corner radius is more than half the piece")
        return None
    return Shape(doc["shape"], w, h, radius, doc["orientation"])


def _rows(path: Path, raw, doc: dict, problems: Problems, root: Path) -> list[Row] | None:
    record = row_record(doc["columns"])
    if isinstance(doc["rows"], str):
        located = _file_rows(path, root, doc, Where(path, "rows", raw.line_of("rows"), problems))
        if located is None:
            return None
    else:
        items = raw["rows"]
        located = [(path, items.line_of(i), item) for i, item in enumerate(items)]
    if len(located) > MAX_ROWS:
        problems.error(path, raw.line_of("rows"), "rows", f"{len(located)} rows: more than {MAX_ROWS} is not a game")
        return None
    rows, bad = [], False
    words = translated_columns(doc["columns"])
    for index, (file, line, item) in enumerate(located):
        checked = record.check(_translated(item, words), Where(file, f"rows[{index}]", line, problems))
        if checked is INVALID:
            bad = True
            continue
        rows.append(Row(checked, file, line, index, row_label(checked, doc["columns"], index)))
    return None if bad else rows


def translated_columns(columns: dict) -> tuple[str, ...]:
    """The columns a table declares `translate: true`: their cells are printed words."""
    return tuple(name for name, column in columns.items() if isinstance(column, dict) and column.get("translate"))


def _translated(item, columns: tuple):
    """A row's cells in the edition's language (pnpgen.i18n): the translated columns' text, the rest as read."""
    if not columns or not isinstance(item, dict):
        return item
    changed = {name: translator.words(item[name]) for name in columns if isinstance(item.get(name), str)}
    if not changed:
        return item
    copy = type(item)(item)
    copy.update(changed)
    for attribute in ("line", "key_lines"):
        if hasattr(item, attribute):
            setattr(copy, attribute, getattr(item, attribute))
    return copy


def _file_rows(path: Path, root: Path, doc: dict, named: Where) -> list | None:
    """The located rows of the CSV file or spreadsheet sheet that `rows:` names, beside the table's file."""
    if doc["rows"].endswith(".csv"):
        return _csv_rows(path.parent / doc["rows"], root, doc["columns"], named)
    from pnpgen.components.spreadsheets import split_source, xlsx_rows
    name, sheet = split_source(doc["rows"])
    known = list(doc["columns"]) + list(BUILTIN_COLUMNS)
    return xlsx_rows(path.parent / name, root, sheet, doc["columns"], known, MAX_ROWS, named)


def _csv_rows(path: Path, root: Path, columns: dict, named: Where) -> list | None:
    """(file, line, row mapping) of each CSV record; header names are checked against the columns. The file
    is read through the kit reader: a link out of the kit, a FIFO or a byte that is not UTF-8 (a latin-1
    export) is an error at the CSV's own line."""
    if not os.path.lexists(path):
        named.error(f"CSV file not found: {display_path(path)}")
        return None
    try:
        text = kit_files.read_text(path, root, encoding="utf-8-sig")
    except kit_files.KitFileError as exc:
        Where(path, "", exc.line, named.problems).error(exc.message)
        return None
    if "\x00" in text:
        named.error(f"{display_path(path)} holds a NUL byte: not a CSV text file")
        return None
    reader = csv.reader(text.splitlines())
    try:
        return _csv_table(reader, path, columns, named)
    except csv.Error as exc:  # a cell over csv.field_size_limit() (131,072 characters), say
        Where(path, "", reader.line_num, named.problems).error(f"not a CSV table this can read: {exc}")
        return None


def _csv_table(reader, path: Path, columns: dict, named: Where) -> list | None:
    header = next(reader, None)
    if not header:
        Where(path, "", 1, named.problems).error("the CSV file is empty: its first line must name the columns")
        return None
    known = list(columns) + list(BUILTIN_COLUMNS)
    header = [h.strip() for h in header]
    unknown = [h for h in header if h not in known]
    for name in unknown:
        near = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else f" (known: {', '.join(known)})"
        Where(path, name, 1, named.problems).error("unknown column" + hint)
    if unknown:
        return None
    out = []
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(out) == MAX_ROWS:  # stopped here, not after millions of rows have filled the memory
            Where(path, "rows", line, named.problems).error(f"more than {MAX_ROWS} rows by this line: not a game")
            return None
        if len(cells) != len(header):
            Where(path, f"rows[{len(out)}]", line, named.problems).error(
                f"{len(cells)} cells where the header names {len(header)} columns")
            return None
        row = LocatedDict()
        row.line, row.key_lines = line, {}
        for name, cell in zip(header, cells):
            value = from_csv(cell, columns.get(name) or ({"type": "int"} if name == "qty" else None))
            if value is not None:
                row[name] = value
                row.key_lines[name] = line
        out.append((path, line, row))
    return out


def _known_lines(raw) -> dict:
    """Lines of `group` and of the counts block: 'counts', 'counts.total', 'counts.by.vp.2', 'counts.where[0]'."""
    lines = {"group": raw.line_of("group")} if isinstance(raw, LocatedDict) and "group" in raw else {}
    counts = raw.get("counts") if isinstance(raw, dict) else None
    if not isinstance(counts, LocatedDict):
        return lines
    lines["counts"] = raw.line_of("counts")
    for key, value in counts.items():
        lines[f"counts.{key}"] = counts.line_of(key)
        if isinstance(value, LocatedDict):
            for col, per in value.items():
                lines[f"counts.{key}.{col}"] = value.line_of(col)
                if isinstance(per, LocatedDict):
                    for v in per:
                        lines[f"counts.{key}.{col}.{v}"] = per.line_of(v)
        elif isinstance(value, LocatedList):
            for i in range(len(value)):
                lines[f"counts.{key}[{i}]"] = value.line_of(i)
    return lines


def _line(mapping, key) -> int:
    return mapping.line_of(key) if isinstance(mapping, LocatedDict) else 0
