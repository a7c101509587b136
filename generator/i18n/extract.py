"""Every printed string of a kit with where it is written (file:line), in reading order: what `pnpgen
translate` puts in the template (locale/messages.pot) and what a translated edition's load checks its
catalogue against. The rule of which strings print is pnpgen.i18n.units', the one the editions read by."""
from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from pnpgen import kit_files
from pnpgen.i18n import units
from pnpgen.i18n.catalogue import LOCALE
from pnpgen.problems import display_path

TEMPLATE_SUFFIXES = (".j2", ".jinja", ".html")
KEYWORDS = ("_", "gettext", "ngettext")


@dataclass(frozen=True)
class Found:
    """One printed string and the place it is written ("data/units.yaml", 12)."""

    text: str
    file: str
    line: int


def kit_strings(root: Path, kit_doc: dict) -> list[Found]:
    """The kit's printed strings, file by file in sorted order (a string written twice is found twice)."""
    root = Path(root)
    rules = units.KitRules.of(root, kit_doc)
    chapters = _chapter_folders(root, kit_doc)
    found = []
    for path in _kit_files(root):
        shown = display_path(path)
        suffix = path.suffix.lower()
        if suffix in (".yaml", ".yml"):
            found += _yaml_strings(path, root, rules, shown)
        elif suffix == ".md" and any(path.resolve() == c or c in path.resolve().parents for c in chapters):
            found += _markdown_strings(path, root, shown)
        if suffix in TEMPLATE_SUFFIXES or suffix == ".md":
            found += _jinja_strings(path, root, shown)
    return found


def _kit_files(root: Path):
    """The kit's files, sorted, without hidden ones, its catalogues or a build's output inside it."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (folder == str(root) and d == LOCALE)
                         and not kit_files.kept_out(os.path.join(folder, d)))
        for name in sorted(files):
            path = Path(folder) / name
            if not name.startswith(".") and kit_files.is_kit_file(path, root):
                yield path


def _chapter_folders(root: Path, kit_doc: dict) -> list[Path]:
    documents = kit_doc.get("documents") or {"booklet": {"chapters": "rules"}}
    return [(root / doc["chapters"]).resolve() for doc in documents.values() if doc.get("chapters")]


def _yaml_strings(path: Path, root: Path, rules, shown: str) -> list[Found]:
    rule = rules.for_file(path)
    source = kit_files.read_text(path, root)
    found = [Found(node.value, shown, line) for node, line in units.yaml_source_units(source, rule)] if rule else []
    return found + _row_strings(path, root, source, shown)


def _row_strings(path: Path, root: Path, source: str, shown: str) -> list[Found]:
    """A component table's cells in its `translate: true` columns (its rows, or the CSV file they name)."""
    import yaml
    try:
        node = yaml.compose(source, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError):
        return []
    top = dict(units._pairs(node)) if node is not None else {}
    columns = [name for name, spec in units._pairs(top["columns"])
               if any(k == "translate" and v.value in ("true", "yes", "True") for k, v in units._pairs(spec))] \
        if "columns" in top else []
    rows = top.get("rows")
    if not columns or rows is None:
        return []
    if isinstance(rows, yaml.ScalarNode) and rows.value.endswith(".csv"):
        return _csv_strings(path.parent / rows.value, root, columns)
    found = []
    for row in getattr(rows, "value", []):
        for key, value in units._pairs(row):
            if key in columns and isinstance(value, yaml.ScalarNode) and units.has_words(value.value):
                found.append(Found(value.value, shown, value.start_mark.line + 1))
    return found


def _csv_strings(path: Path, root: Path, columns: list) -> list[Found]:
    try:
        lines = kit_files.read_text(path, root, "utf-8-sig").splitlines()
    except kit_files.KitFileError:
        return []  # the table's own reading reports it
    found, shown = [], display_path(path)
    for number, row in enumerate(csv.DictReader(lines), start=2):
        for name in columns:
            if units.has_words(row.get(name)):
                found.append(Found(row[name], shown, number))
    return found


def _markdown_strings(path: Path, root: Path, shown: str) -> list[Found]:
    return [Found(unit.text, shown, unit.line) for unit in units.markdown_units(kit_files.read_text(path, root))]


def _jinja_strings(path: Path, root: Path, shown: str) -> list[Found]:
    """`_("...")` and `{% trans %}` of a template or chapter (Babel's extraction, through Jinja's own)."""
    import io

    from jinja2.ext import babel_extract
    source = kit_files.read_text(path, root)
    if "_(" not in source and "gettext" not in source and "trans" not in source:
        return []
    try:
        messages = babel_extract(io.BytesIO(source.encode()), KEYWORDS, [], {"extensions": "jinja2.ext.i18n"})
        return [Found(text if isinstance(text, str) else text[0], shown, line)
                for line, _function, text, _comments in messages
                if (text if isinstance(text, str) else (text or [None])[0])]
    except Exception:  # noqa: BLE001 - a template's syntax error is the build's located error, not extraction's
        return []
