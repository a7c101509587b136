"""The fields of a kit's data file, declared in data beside it: `game.fields.yaml` beside `game.yaml` gives
each field's type, bounds and purpose in the words of a table's columns (components/columns.py), nested where
the file nests (`record` with its `fields`; `list` and `mapping` with what every item is, `of`). Any kit's
data/ files and a game module's files are checked against theirs with located errors, so a designer reads
what a file may hold beside it, and a game's schemas are data, not Python."""
from __future__ import annotations

import os
from pathlib import Path

from pnpgen.components.columns import COLUMN, COLUMN_TYPES, Anything, column_spec
from pnpgen.problems import Problems
from pnpgen.schema import INVALID, Bool, Choice, Field, Int, ListOf, MapOf, Nullable, Record, Str, Where, optional
from pnpgen.yamlio import LocatedDict

SUFFIX = ".fields.yaml"  # game.fields.yaml declares game.yaml

FIELD = Record(COLUMN.fields | {
    "type": Field(Choice((*COLUMN_TYPES, "record")), doc="what the value holds"),
    "fields": optional(MapOf(Anything()), None, "type record: its fields, each declared as this one"),
    "of": optional(Anything(), None, "type list or mapping: what every item is, declared as this one"),
    "min_items": optional(Int(0), 0, "type list: the fewest items it holds"),
    "nullable": optional(Bool(), False, "a required field that may be null (written ~ or null)"),
}, "a field: {type, required, default, nullable, values, min, max, pattern, fields, of, min_items, doc}")
FILE = Record({"doc": optional(Str(), "", "what the file holds"),
               "fields": Field(MapOf(Anything()), doc="its top-level fields, each declared as a field")},
              "a declaration of a data file's fields: {doc, fields}")


def fields_path(data_path: Path) -> Path:
    return data_path.with_name(data_path.name.split(".", 1)[0] + SUFFIX)


def check_data(path: Path, raw, root: Path, problems: Problems, declaration: Path | None = None):
    """`raw` (the data file at `path`) checked against the fields declared beside it (or in `declaration`, a
    game module's own), defaults filled in; `raw` itself where nothing is declared; INVALID where it or its
    declaration is wrong (problems recorded)."""
    from pnpgen.yamlio import read_mapping
    own = declaration is None
    declaration = fields_path(path) if own else declaration
    if not os.path.lexists(declaration):
        return raw
    decl = read_mapping(declaration, root if own else declaration.parent, problems, "")
    decl = INVALID if decl is None else FILE.check(decl, Where(declaration, "", getattr(decl, "line", 1), problems))
    spec = INVALID if decl is INVALID else _record(decl["fields"], decl["doc"] or "the file",
                                                  Where(declaration, "fields", 1, problems))
    return INVALID if spec is INVALID else spec.check(raw, Where(path, "", getattr(raw, "line", 1), problems))


def _record(fields: dict, name: str, where: Where):
    """The Record its declared fields make, or INVALID."""
    out = {}
    for key, raw in fields.items():
        out[key] = _field(raw, where.child(key, fields.line_of(key) if isinstance(fields, LocatedDict) else where.line))
    return INVALID if INVALID in out.values() else Record(out, name)


def _field(raw, where: Where):
    """One declared field as a schema Field (its spec, whether required, its default, its doc), or INVALID."""
    decl = FIELD.check(raw, where)
    if decl is INVALID:
        return INVALID
    line = raw.line_of if isinstance(raw, LocatedDict) else (lambda key: where.line)
    kind = decl["type"]
    if kind == "choice" and not decl["values"]:
        return where.child("values", where.line).error("a choice field needs its list of values")
    if kind == "record":
        spec = _record(decl["fields"] or {}, decl["doc"] or "a mapping", where.child("fields", line("fields")))
    elif kind in ("list", "mapping") and decl["of"] is not None:
        item = _field(decl["of"], where.child("of", line("of")))
        spec = INVALID if item is INVALID else ListOf(item.spec, decl["min_items"]) if kind == "list" \
            else MapOf(item.spec)
    else:
        spec = column_spec(decl)
    if spec is INVALID:
        return INVALID
    required = decl["required"] if decl["required"] is not None else decl["default"] is None
    nullable = decl["nullable"] or (not required and decl["default"] is None)
    return Field(Nullable(spec) if nullable else spec, required, decl["default"], decl["doc"])



def module_file(root: Path, key: str, rel: str, raw_kit, problems: Problems, lines: dict, declaration: Path):
    """A data file a game module reads (kit.yaml `files.KEY`): inside the kit, checked against the module's own
    `declaration` of its fields (shipped with the module, not the kit: the module's Python relies on them, and
    a shared kit must not loosen them into a traceback), its lines indexed for the declared rules; or None."""
    from pnpgen.kit_folder import KIT_FILE
    from pnpgen.yamlio import index_lines, read_mapping
    kit_file, field_line = root / KIT_FILE, raw_kit["files"].line_of(key)
    path = (root / rel).resolve()
    if not path.is_relative_to(root.resolve()):
        problems.error(kit_file, field_line, f"files.{key}", f"{rel!r} points outside the kit folder")
        return None
    raw = read_mapping(path, root, problems, f"files.{key}", kit_file, field_line)
    if raw is None:
        return None
    lines.update(index_lines(key, path, raw))
    doc = check_data(path, raw, root, problems, declaration)
    return None if doc is INVALID else doc
