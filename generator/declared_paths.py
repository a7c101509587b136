"""The paths a declared check (kit.yaml `checks:`) reads: `FILE:FIELD.FIELD...`, resolved over the kit's files
to the values they reach, each with the dotted field path the line index knows, so a finding is located.

FILE is a game module's data file (a key of kit.yaml `files:`), `kit` (kit.yaml itself), `templates` (the
names of the templates the kit can draw with), or any YAML or CSV file of the kit folder by its path (`components/ships.yaml`, `data/rules.yaml`), read once when a rule names
it. A FIELD step is a key, `*` (every key or item), `{name}` (every key or item, and the one met is named for
the rule's other paths), a list index (`0`, `-1` for the last), `N+` (the items from index N on) or
`FIELD=VALUE` (the items whose field reads VALUE: `rows.code={unit}.qty`, a row found by its code). In a
rule's other paths `{name}` stands for what the rule's own path met there, or for the field `name` of the
mapping that holds the value being checked (`units:units.{unit}.counters` beside a `unit: SC`).

The cost stays near the size of the data: a `FIELD=VALUE` step looks its items up in an index of the field,
made once per list or mapping (a rule filling `rows.code={unit}` for 20,000 units reads the rows once, not
once per unit), and one path may reach at most the `check_values` budget's values (pnpgen.budgets), so a
wildcard over a data file of aliases stops at once with the path named.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen import budgets
from pnpgen.kit_folder import KIT_FILE
from pnpgen.problems import Problems, display_path
from pnpgen.yamlio import YamlSyntaxError, load_yaml

NAMED = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
SLICE = re.compile(r"(\d+)\+")
INDEX = re.compile(r"-?\d+")
WHERE = re.compile(r"([A-Za-z0-9_-]+)=(.*)")
FILE_SUFFIXES = (".yaml", ".yml", ".csv")
TEMPLATES = "templates"  # a FILE of every template's name (template_names), unless files: names one so


@dataclass(frozen=True)
class Found:
    """One value a path reached: where it is (as the line index spells it), what the path's `{name}` steps
    met on the way, and the mapping or list that holds it."""

    path: str
    value: object
    names: dict = field(default_factory=dict)
    holder: object = None


def is_wild(step: str) -> bool:
    return step == "*" or bool(NAMED.fullmatch(step)) or bool(SLICE.fullmatch(step))


def is_plain(step: str) -> bool:
    """A field name, not a wildcard, an index or a selection."""
    return not (is_wild(step) or INDEX.fullmatch(step) or WHERE.fullmatch(step))


def split(spec: str) -> tuple[str, list[str]]:
    """(file key, steps); a file named alone (`data/limits.yaml`) is its whole content: no steps."""
    file_key, colon, path = spec.partition(":")
    return file_key, path.split(".") if colon else []


def template_names(root: Path) -> dict:
    """{name: where it is} of every template a kit draws with, its own templates/ first, then the built-in ones:
    `in: templates` checks that a value names one, found without drawing anything."""
    from pnpgen.template_files import SUFFIX, template_dirs
    names: dict = {}
    for folder in reversed(template_dirs(root)):  # the kit's own last: it wins, as it does when drawing
        if folder.is_dir():
            names |= {p.name[: -len(SUFFIX)]: display_path(p) for p in sorted(folder.glob(f"*{SUFFIX}"))}
    return names


def is_file_path(file_key: str) -> bool:
    return "/" in file_key or file_key.endswith(FILE_SUFFIXES)


class Sources:
    """The files a kit's rules read: the game module's (already checked), kit.yaml, and any other kit file,
    read on first use through the kit reader (never outside the kit folder)."""

    def __init__(self, docs: dict, lines: dict, root: Path):
        self.docs, self.lines, self.root = dict(docs), lines, Path(root)
        self.docs.setdefault(TEMPLATES, template_names(self.root))
        self.unreadable: dict[str, str] = {}
        self.memo: dict = {}  # (what, filled path) -> what a rule's check derived from it, once per path
        self.where = Selections()  # the FIELD=VALUE indexes of the lists and mappings paths select from
        self.filled: dict[str, bool] = {}  # {name} -> whether it ever stood for something (one rule's run)

    def knows(self, file_key: str) -> bool:
        return file_key in self.docs or is_file_path(file_key)

    def names(self) -> list[str]:
        return sorted(self.docs)

    def load(self, file_key: str) -> str | None:
        """Why the file cannot be read, or None once it is in `docs`."""
        if file_key in self.docs or file_key in self.unreadable:
            return self.unreadable.get(file_key)
        self.unreadable[file_key] = reason = self._read(file_key)
        return reason

    def _read(self, rel: str) -> str | None:
        from pnpgen.components.load import data_csv, inside
        from pnpgen.yamlio import index_lines
        path = inside(self.root, rel)
        if path is not None and path.is_file() and path.suffix not in FILE_SUFFIXES:
            return (f"{rel}: a rule reads YAML and CSV files, not {path.suffix or 'this'} (a table's rows kept in a "
                    "spreadsheet are read through the table: components/ships.yaml:rows.*.name)")
        if path is None or not path.is_file():
            return f"no file {rel} in the kit folder" if path else f"{rel!r} points outside the kit folder"
        scratch = Problems()
        if path.suffix == ".csv":
            rows = data_csv(path, self.root, scratch)
            if rows is not None:
                self.docs[rel] = [{k: _cell(v) for k, v in row.items()} for row in rows]
                shown = display_path(path)
                self.lines.update({(rel, f"[{i}]"): (shown, i + 2) for i in range(len(rows))})
        else:
            try:
                raw = load_yaml(path, self.root)
            except YamlSyntaxError as exc:
                return f"{rel}:{exc.line}: {exc.message}"
            self.docs[rel] = raw
            self.lines.update(index_lines(rel, path, raw))
            self._table_rows(rel, path, raw)
        return str(scratch.items[0]) if scratch.items else None

    def _table_rows(self, rel: str, path: Path, raw) -> None:
        """A component table whose `rows:` names a CSV file or a spreadsheet's sheet reads as the rows there, as
        the table checked them, each at its own line: so `components/ships.yaml:rows.*.name` means the rows
        wherever they are kept (a table that fails its own checks keeps its text; its problems are reported)."""
        if not (isinstance(raw, dict) and isinstance(raw.get("rows"), str)):
            return
        from pnpgen.components.tables import load_table
        table = load_table(path, raw, Problems(), self.root)
        if table is None:
            return
        self.docs[rel] = {**raw, "rows": [dict(row.values) for row in table.rows]}
        for row in table.rows:
            self.lines[(rel, f"rows[{row.index}]")] = (display_path(row.file), row.line)

    def missing(self, spec: str) -> str | None:
        """Why a path reaches nothing because a field it names is in none of the mappings before it (a misspelt
        field, of the rule or of the data: `rows.*.titel`), with the nearest field; None when it reaches
        something, or stops at an empty list, an index or a selection that finds no item (data, not a typo) unless
        the selection names a field no item has or a value one letter or two from one the items have, or at a
        column a table declares that no row gives."""
        if ("missing", spec) not in self.memo:
            self.memo[("missing", spec)] = self._missing(spec)
        return self.memo[("missing", spec)]

    def _missing(self, spec: str) -> str | None:
        file_key, steps = split(spec)
        nodes = [Found("", self.docs[file_key])]
        for index, step in enumerate(steps):
            after = walk(nodes, [step], where=self.where, spec=spec)
            plain = is_plain(step) and not self._declared_column(file_key, steps, index)
            mappings = [n for n in nodes if isinstance(n.value, dict)]
            if not after and plain and mappings:
                fields = sorted({str(k) for n in mappings for k in n.value})
                near = difflib.get_close_matches(step, fields, n=1)
                where = f" in {mappings[0].path}" if mappings[0].path else ""
                hint = f"did you mean {near[0]!r}? " if near else ""
                return f"no field {step!r}{where} ({hint}fields: {', '.join(fields[:12]) or 'none'})"
            lists = [n for n in nodes if isinstance(n.value, list)]
            if not after and plain and lists and len(lists) == len(nodes):
                where = lists[0].path or "the file"
                return (f"{where} is a list of {len(lists[0].value)} items, with no field {step!r}: `*` steps into "
                        "its items (a CSV file is the list of its rows)")
            selection = WHERE.fullmatch(step)
            if not after and selection and "{" not in step:
                return _selection_problem(nodes, *selection.groups())
            if not after:
                return None
            nodes = after
        return None

    def _declared_column(self, file_key: str, steps: list[str], index: int) -> bool:
        """`rows.*.FIELD` where FIELD is one of the table's `columns:`: a field of every row, null where a row
        leaves it out (an optional column no row gives yet)."""
        doc = self.docs[file_key]
        columns = doc.get("columns") if isinstance(doc, dict) else None
        return index == 2 and steps[0] == "rows" and isinstance(columns, dict) and steps[2] in columns

    def find(self, spec: str, beside: Found | None = None, nulls: bool = False) -> tuple[str, list[Found]]:
        """(file key, every value `spec` reaches); for one of a rule's other paths, `beside` is the value being
        checked, whose `{name}` steps and holder fill the path's own `{name}`. `nulls`: a last field that a
        mapping leaves out is found there as null (a row without `value:` gives none, as `given` asks)."""
        if beside is not None:
            spec = self.fill(spec, beside)
            if spec is None:
                return "", []
        if ("find", spec, nulls) not in self.memo:
            file_key, steps = split(spec)
            found = (walk([Found("", self.docs[file_key])], steps, nulls, self.where, spec)
                     if self.load(file_key) is None else [])
            self.memo[("find", spec, nulls)] = (file_key, found)
        return self.memo[("find", spec, nulls)]

    def derived(self, what: str, spec: str, beside: Found | None, derive):
        """`derive(every value spec reaches)`, worked out once per filled path (a bound or `unless` path the same
        for 20,000 values is read once, not once per value); None when `{name}` leaves the path unfilled."""
        if beside is not None:
            spec = self.fill(spec, beside)
            if spec is None:
                return None
        if (what, spec) not in self.memo:
            self.memo[(what, spec)] = derive(self.find(spec)[1])
        return self.memo[(what, spec)]

    def fill(self, spec: str, beside: Found) -> str | None:
        filled, missing = _fill(spec, beside.names, beside.holder)
        for name in NAMED.findall(spec):
            self.filled[name] = self.filled.get(name, False) or name not in missing
        return filled

    def groups(self, spec: str) -> tuple[str, list[tuple[str, list[Found]]]]:
        """(file key, [(container's path, its members' values)]): the values `spec` reaches, grouped by the
        list or mapping its last wildcard step runs over (the list it reaches, without one); a member where the
        rest of the path reaches nothing stands as None at the path it would have."""
        file_key, steps = split(spec)
        if self.load(file_key) is not None:
            return file_key, []
        if not any(map(is_wild, steps)):
            steps = [*steps, "*"]
        last = max(i for i, step in enumerate(steps) if is_wild(step))
        out = []
        for container in walk([Found("", self.docs[file_key])], steps[:last], where=self.where, spec=spec):
            members = []
            for member in walk([container], [steps[last]], where=self.where, spec=spec):
                reached = walk([member], steps[last + 1:], where=self.where, spec=spec)
                members.append(reached[0] if reached else Found(".".join([member.path, *steps[last + 1:]]), None))
            out.append((container.path, members))
        return file_key, out

    def locate(self, file_key: str, path: str) -> tuple:
        """(file, line) of a field, or of its nearest parent that has one."""
        while (file_key, path) not in self.lines and path:
            parent = re.sub(r"(\.[^.\[]*|\[-?\d+\])$", "", path)
            path = parent if parent != path else ""  # a first field with no line of its own: the file's
        if (file_key, path) in self.lines:
            return self.lines[(file_key, path)]
        return (self.root / KIT_FILE if file_key == "kit" else file_key), 0


def _selection_problem(nodes: list[Found], field_name: str, wanted: str) -> str | None:
    """Why `FIELD=VALUE` selects nothing when it is a typo: no item has that field at all, or none reads that
    value but one reads a value close to it (`set=bounti` beside a `set: bounty`); a rule over such a path
    would check nothing and pass. None when the value is merely absent (an option the data does not use)."""
    items = [v for n in nodes for v in (n.value.values() if isinstance(n.value, dict) else
                                        n.value if isinstance(n.value, list) else ()) if isinstance(v, dict)]
    where = next((n.path for n in nodes if n.path), "the file")
    fields = sorted({str(k) for item in items for k in item})
    if items and field_name not in fields:
        near = difflib.get_close_matches(field_name, fields, n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        return f"no item of {where} has a field {field_name!r} ({hint}fields: {', '.join(fields[:12])})"
    values = sorted({str(item[field_name]) for item in items if item.get(field_name) is not None})
    near = difflib.get_close_matches(wanted, values, n=1, cutoff=0.75)
    if near:
        return f"no item of {where} has {field_name}={wanted} (did you mean {field_name}={near[0]}?)"
    return None


class Selections:
    """{field: {value as text: [(key, item)]}} of each list or mapping a `FIELD=VALUE` step selects from, made
    on first use: every later selection of that field there is one look-up, not a scan of the items."""

    def __init__(self):
        self.indexes: dict = {}  # (id of the list or mapping, field) -> (it, its index): it kept, so its id is

    def items(self, node, field_name: str, wanted: str) -> list:
        key = (id(node), field_name)
        if key not in self.indexes:
            index: dict = {}
            for k, v in _items(node):
                if isinstance(v, dict):
                    index.setdefault(str(v.get(field_name)), []).append((k, v))
            self.indexes[key] = (node, index)
        return self.indexes[key][1].get(wanted, [])


def walk(nodes: list[Found], steps: list[str], nulls: bool = False, where: Selections | None = None,
         spec: str = "") -> list[Found]:
    """The values `steps` reach from `nodes`; `nulls`: a mapping without the last step's field (a plain
    name) gives it as null; `where`: the indexes FIELD=VALUE steps look items up in (else they scan). Past
    the `check_values` budget, BudgetExceeded names `spec`."""
    limit = budgets.active().check_values
    for index, step in enumerate(steps):
        absent = nulls and index == len(steps) - 1 and is_plain(step)
        reached = []
        for node in nodes:
            reached.extend(_step(node, step, where) or _absent(node, step, absent))
            if len(reached) > limit:
                raise budgets.BudgetExceeded("check_values", f"{spec or '.'.join(steps)} reaches more than "
                                                             f"{limit:,} values")
        nodes = reached
    return nodes


def _items(node):
    return node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()


def _absent(at: Found, step: str, absent: bool) -> list[Found]:
    return [Found(_join(at.path, step), None, at.names, at.value)] if absent and isinstance(at.value, dict) else []


def _step(at: Found, step: str, selections: Selections | None = None) -> list[Found]:
    node, named, where = at.value, NAMED.fullmatch(step), WHERE.fullmatch(step)
    if where:  # the items (of a list or mapping) whose field `where[1]` reads `where[2]`
        items = (selections.items(node, *where.groups()) if selections is not None else
                 [(k, v) for k, v in _items(node) if isinstance(v, dict) and str(v.get(where[1])) == where[2]])
        return [Found(f"{at.path}[{k}]" if isinstance(node, list) else _join(at.path, str(k)), v, at.names, node)
                for k, v in items]
    if isinstance(node, dict):
        if step == "*" or named:
            chosen = list(node.items())
        else:
            key = step if step in node else int(step) if INDEX.fullmatch(step) and int(step) in node else None
            chosen = [(key, node[key])] if key is not None else []
        return [Found(_join(at.path, str(k)), v, _named(at, named, k), node) for k, v in chosen]
    if isinstance(node, list):
        if step == "*" or named:
            chosen = range(len(node))
        elif SLICE.fullmatch(step):
            chosen = range(int(step[:-1]), len(node))
        elif INDEX.fullmatch(step) and -len(node) <= int(step) < len(node):
            chosen = [int(step) % len(node)]
        else:
            chosen = []
        return [Found(f"{at.path}[{i}]", node[i], _named(at, named, i), node) for i in chosen]
    return []


def _named(at: Found, named, key) -> dict:
    return at.names | {named.group(1): key} if named else at.names


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _fill(spec: str, names: dict, holder) -> tuple[str | None, list[str]]:
    """(`spec` with each `{name}` replaced by what the checked path met there, or by the field of the mapping
    that holds the checked value, or None; the names that had nothing to stand for)."""
    missing = []

    def value(match) -> str:
        name = match.group(1)
        if name in names:
            return str(names[name])
        if isinstance(holder, dict) and holder.get(name) is not None:
            return str(holder[name])
        missing.append(name)
        return ""
    filled = NAMED.sub(value, spec)
    return (None if missing else filled), missing


def _cell(text: str):
    """A CSV cell as the number it spells, else as written (empty: null)."""
    if text is None or text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
