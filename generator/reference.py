"""The reference page, written from the code's own schema: every kit.yaml key, component table key, column
type, declared rule kind and command-line option, with its default and its doc, so docs/reference.md can
never say what the code does not accept. `python -m pnpgen.reference` rewrites it; tests/test_docs.py fails
when the committed page is stale."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pnpgen.schema import Either, Field, ListOf, MapOf, Nullable, Record

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference.md"
COMMAND = "python -m pnpgen.reference"
CONFIG_SHOWN = "~/.config/pnpgen/budgets.yaml"


def reference() -> str:
    """The whole page, as Markdown."""
    from pnpgen.boards.load import BOARD
    from pnpgen.components.columns import COLUMN
    from pnpgen.components.tables import TABLE
    from pnpgen.data_fields import FIELD, FILE as DATA_FIELDS
    from pnpgen.documents.charts import FILE as CHARTS
    from pnpgen.schemas import KIT
    parts = [_HEAD,
             _section("kit.yaml", "The file every kit has.", KIT),
             _section("Component tables (`components/<table>.yaml`)", "One table of pieces.", TABLE),
             _section("A table's columns (`columns: {NAME: ...}`)", "Each column of a table, checked on every row.",
                      COLUMN),
             _column_types(),
             _rule_kinds(),
             _section("Boards (`boards/<board>.yaml`)", "Places, links, tracks and texts.", BOARD),
             _section("Charts (`charts.yaml`)", "Tables printed the same way wherever a text names them.", CHARTS),
             _section("Declared data fields (`data/<file>.fields.yaml`)", "What a free data file holds.", DATA_FIELDS),
             _section("A declared field (`fields: {NAME: ...}`)", "Each field of a data file, declared as a column is.",
                      FIELD),
             _commands()]
    return "\n".join(parts)


_HEAD = f"""# Reference

Generated from the code's own schema by `{COMMAND}`; do not edit by hand (a test fails when this page and
the code disagree). The guide explains these in prose: [kit-format.md](kit-format.md), [the guide](README.md).
A key marked *required* must be given; the others take the default shown.
"""


def _section(title: str, intro: str, record: Record) -> str:
    rows = "\n".join(_rows(record, ""))
    return f"## {title}\n\n{intro}\n\n| key | what it takes | default | what it is for |\n|---|---|---|---|\n{rows}\n"


def _rows(record: Record, prefix: str):
    """One line per key, then the keys of what it holds (a record, a list or mapping of records)."""
    for name, fld in record.fields.items():
        key = f"{prefix}{name}"
        yield f"| `{key}` | {_cell(_takes(fld.spec))} | {_default(fld)} | {_cell(fld.doc)} |"
        inner, joint = _inner_record(fld.spec)
        if inner is not None:
            yield from _rows(inner, f"{key}{joint}")


def _inner_record(spec, joint: str = "."):
    """(the record a value holds, the path joint to its keys): `.`, `[].` for a list, `.ID.` for a mapping."""
    if isinstance(spec, Record):
        return spec, joint
    if isinstance(spec, Nullable):
        return _inner_record(spec.inner, joint)
    if isinstance(spec, ListOf):
        return _inner_record(spec.item, "[]" + joint)
    if isinstance(spec, MapOf):
        return _inner_record(spec.value, ".ID" + joint)
    if isinstance(spec, Either):
        return next(((r, j) for r, j in map(_inner_record, spec.options) if r is not None), (None, joint))
    return None, joint


def _takes(spec) -> str:
    if isinstance(spec, Record):
        return "a mapping (keys below)"
    return spec.description


def _default(fld: Field) -> str:
    if fld.required:
        return "*required*"
    if fld.default in (None, {}, [], ""):
        return ""
    return _cell(f"`{fld.default}`")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _column_types() -> str:
    from pnpgen.components.columns import BUILTIN_COLUMNS, COLUMN_TYPES, column_spec
    blank = {"min": None, "max": None, "values": None, "pattern": None}
    rows = "\n".join(f"| `{kind}` | {_cell(column_spec({**blank, 'type': kind}).description)} |"
                     for kind in COLUMN_TYPES)
    builtin = ", ".join(f"`{name}`" for name in BUILTIN_COLUMNS)
    return (f"## Column types (`type:`)\n\nEvery table also has the columns {builtin}.\n\n"
            f"| type | a cell holds |\n|---|---|\n{rows}\n")


def _rule_kinds() -> str:
    from pnpgen.declared_checks import CHECK, KINDS
    docs = {name: fld.doc for name, fld in CHECK.fields.items()}
    rows = "\n".join(f"| `{kind}` | {_cell(docs[kind])} | {_names(needs)} | {_names(extra)} |"
                     for kind, (needs, extra) in KINDS.items())
    return ("## Rule kinds (kit.yaml `checks:`)\n\nEach rule reads one path with one of these keys, and is checked "
            "with at least one of the keys beside it (the keys are in the kit.yaml table above, under "
            "`checks[].`).\n\n| kind | reads | checked with (one at least) | may add |\n|---|---|---|---|\n"
            f"{rows}\n")


def _names(names) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _commands() -> str:
    from pnpgen.cli import _parser
    parser = _parser()
    out = ["## Commands (`pnpgen COMMAND --help`)\n"]
    for name, sub in _subcommands(parser):
        out.append(f"### `pnpgen {name}`\n\n{_cell(sub.description or '')}\n\n| option | default | what it does |"
                   "\n|---|---|---|")
        out.extend(_option_row(action) for action in sub._actions if not isinstance(action, argparse._HelpAction))
        out.append("")
    return "\n".join(out)


def _subcommands(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                sub.description = sub.description or helps.get(name)
                yield name, sub


def _option_row(action: argparse.Action) -> str:
    names = ", ".join(action.option_strings) or action.dest.upper()
    if action.metavar and action.option_strings:
        names += f" {action.metavar}"
    default = action.default
    shown = "" if default in (None, False, argparse.SUPPRESS, [], ()) else f"`{default}`"
    helped = (action.help or "") % {"default": default, "prog": "pnpgen"} if action.help else ""
    from pnpgen.cli import _config_shown
    helped = helped.replace(_config_shown(), CONFIG_SHOWN)  # this machine's folder: the page shows the usual one
    if action.choices:
        helped += " (one of: " + ", ".join(map(str, action.choices)) + ")"
    return f"| `{_cell(names)}` | {_cell(shown)} | {_cell(helped)} |"


def main(argv: list[str] | None = None) -> int:
    """Write the page (or another path given) and say where."""
    target = Path(argv[0]) if argv else PAGE
    target.write_text(reference(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
