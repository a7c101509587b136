"""Charts declared in a kit's `charts.yaml`, built into TableData: the one chart builder of every document.

A chart names where its rows come from (an expression over the texts' names: a kit table's rows, a `data.*`
list, a model collection), an optional filter, optional sections (shaded title rows that a document may ask
for one at a time), shaded rows, and its columns: a header and a cell, each a small Jinja template rendered in
the kit sandbox with `row` (and `item` for a column repeated over a list), a relative width, an alignment,
and an optional total. A place that prints a chart (an aid block, a chapter's `table(...)`) may pick a
section and some of its columns. Data in a cell is escaped for reportlab's markup; the template's own
markup (<b>, <br/>, <font>) is kept. Every problem names charts.yaml's line and the field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from pnpgen.kit_memos import kit_memo
from pnpgen.xml_escape import escape

import jinja2
from markupsafe import Markup

from pnpgen.documents.table_data import ALIGNS, TableData
from pnpgen.booklet.markdown import directive_line
from pnpgen.problems import BuildError, Problems, display_path
from pnpgen.render.templates import format_number
from pnpgen import kit_files
from pnpgen.kit_loader import KitLoader
from pnpgen.sandbox import KitSandbox, KitUndefined, SealedBytecodeCache, code_folder, kit_code_failure
from pnpgen.schema import (
    ID_PATTERN, ID_WORDS, INVALID, Bool, Choice, Field, ListOf, MapOf, Number, Record, Str, Where, optional,
)
from pnpgen.text import join_and
from pnpgen.yamlio import YamlSyntaxError, load_yaml

CHARTS_FILE = "charts.yaml"
SPACES = re.compile(r"[ \t\r\n]+")
DASH = "\u2013"

COLUMN = Record({
    "id": optional(Str(ID_PATTERN, ID_WORDS), None,
                   "the name a place uses to pick this column (table('x', columns=[...]))"),
    "header": Field(Str(), doc="the header text: a Jinja template (with `item` in a repeated column)"),
    "cell": Field(Str(), doc="each row's cell: a Jinja template with `row` (and `item`)"),
    "width": optional(Number(0.01), 1, "the column's width relative to the others"),
    "align": optional(Choice(ALIGNS), "left", "left, centre or right"),
    "repeat": optional(Str(), None, "an expression giving a list: one column per item, named `item`"),
    "total": optional(Str(), None, "the total row's cell: a Jinja template with `rows` (the chart's rows)"),
}, "a column {id, header, cell, width, align, repeat, total}")
SECTION = Record({
    "title": optional(Str(), None, "printed in a shaded title row when the whole chart prints (none: no row)"),
    "where": Field(Str(), doc="an expression with `row`: the rows of this section"),
}, "a section {title, where}")
CHART = Record({
    "doc": optional(Str(), "", "what the chart is for (not printed)"),
    "rows": Field(Str(), doc="an expression giving the rows: a list, or a mapping whose values are the rows"),
    "where": optional(Str(), None, "an expression with `row`: only the rows it is true for"),
    "sections": optional(MapOf(SECTION), {}, "sections in order, each with a title row"),
    "shade": optional(Str(), None, "an expression with `row`: rows shaded when the whole chart prints"),
    "transpose": optional(Bool(), False, "print each row as a column (a wide, short chart)"),
    "label_width": optional(Number(0.01), 1, "transposed: the label column's width (data columns are 1)"),
    "columns": Field(ListOf(COLUMN, 1), doc="the columns, left to right"),
}, "a chart {rows, columns, ...}")
FILE = Record({"charts": Field(MapOf(CHART), doc="the kit's charts, by name")}, "the charts file")


class ChartError(BuildError):
    """A chart that cannot be built: its file, line and field, and what is wrong."""

    def __init__(self, file: str, line: int, field: str, message: str):
        self.file, self.line, self.field, self.message = file, line, field, message
        super().__init__(f"{file}:{line}: {field}: {message}")

    def __reduce__(self):  # raised in a build worker, it must cross back to the parent whole
        return ChartError, (self.file, self.line, self.field, self.message)


@dataclass(frozen=True)
class Chart:
    id: str
    spec: dict            # the checked declaration
    file: str             # charts.yaml as shown in messages
    lines: dict           # field path inside the chart ("columns[2].cell") -> line
    root: Path | None = None  # the kit folder charts.yaml lies in: where its cells may include files from

    def fail(self, field: str, message: str) -> ChartError:
        """A located error at one field of this chart ("columns[2].cell"), or at its nearest declared parent."""
        at = field
        while at not in self.lines:
            at = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", at) if at else ""
        return ChartError(self.file, self.lines[at], f"charts.{self.id}" + (f".{field}" if field else ""), message)

    def column_ids(self) -> list[str]:
        return [c["id"] for c in self.spec["columns"] if c["id"]]


def charts_path(root: Path, fallback: Path | None) -> Path | None:
    """The kit's own charts.yaml, else `fallback` (the built-in kit's, as aid texts fall back), else None."""
    own = Path(root) / CHARTS_FILE
    if own.exists():
        return own
    return fallback if fallback is not None and fallback.exists() else None


def load_charts(path: Path | None, problems: Problems) -> dict[str, Chart]:
    """Every chart of the file, checked against its schema; problems are recorded, located."""
    if path is None:
        return {}
    try:
        raw = load_yaml(path, Path(path).parent)  # charts.yaml lies at the top of its kit
    except YamlSyntaxError as exc:
        problems.error(path, exc.line, "", exc.message)
        return {}
    doc = FILE.check(raw, Where(path, "", getattr(raw, "line", 1), problems))
    if doc is INVALID:
        return {}
    name = display_path(path)
    return {cid: Chart(cid, spec, name, _lines(raw["charts"][cid], raw["charts"].line_of(cid)), Path(path).parent)
            for cid, spec in doc["charts"].items()}


def _lines(node, line: int, prefix: str = "") -> dict:
    """Field path -> line, for every field of one chart."""
    lines = {prefix: line}
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        path = f"{prefix}[{key}]" if isinstance(node, list) else f"{prefix}.{key}" if prefix else str(key)
        at = node.line_of(key) if hasattr(node, "line_of") else line
        lines.update(_lines(value, at, path))
    return lines


def _cell_value(value):
    """What a `{{ ... }}` prints in a cell: a missing value as a dash, numbers as written, data escaped."""
    if value is None:
        return DASH
    if isinstance(value, Markup):
        return str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return format_number(value)
    return escape(str(value))


@lru_cache(maxsize=8)
def _env(root: Path | None) -> KitSandbox:
    """The sandbox chart cells render in; an include names a file from the kit folder (the kit reader's)."""
    loader = KitLoader([(root, root)]) if root is not None else None
    env = KitSandbox(loader=loader, undefined=KitUndefined, autoescape=False, finalize=_cell_value)
    env.filters["join_and"] = join_and
    env.filters["num"] = format_number
    env.bytecode_cache = _code_cache(env)   # named by its settings, filters among them
    return env


def _code_cache(env: KitSandbox):
    """A kit file the cells `{% import %}` (SE4X's _charts.j2), compiled once for every build instead of in
    each (18 ms of the serial start), kept sealed in this user's code folder (SealedBytecodeCache: a damaged
    or foreign file is compiled again). Its files have a name of their own, with the environment's settings
    in it: the piece templates' environment shares the folder and compiles the same file differently
    (autoescaped), and Jinja names an entry by the file alone."""
    folder = code_folder()
    return None if folder is None else SealedBytecodeCache.of(env, folder, "chart_cells")


_JINJA_ERRORS = (jinja2.TemplateError, AttributeError, KeyError, TypeError, ValueError, ArithmeticError, IndexError,
                 RecursionError, OverflowError)


@lru_cache(maxsize=4096)
def _compiled(root: Path | None, source: str):
    """A chart's template, compiled once per process (a chart renders each cell template once per row)."""
    return _env(root).cached_from_string(source)


class _Renderer:
    """Renders one chart's templates and expressions; every failure is located at the field it came from.

    A chart renders one small template per cell (SE4X's 15 charts: ~1,500 at every load whose inputs
    changed). Jinja's `render` builds each cell's context by copying the environment's globals (a ChainMap,
    iterated in Python) and the chart's names into a new dict, twice over: a third of a cell's time. The
    merged names are made once per chart here (`base`: the globals, then the chart's context over them, as
    Jinja merges them), and each cell's context is `base` with its own `row`/`item` over it, holding what
    `render` would hand the template, with the same globals' names (`globals_keys`, which an `{% import %}`
    compares)."""

    def __init__(self, chart: Chart, context: dict):
        self.chart, self.context = chart, context
        env = _env(chart.root)
        self.base = dict(env.globals) | context
        self.globals_keys = frozenset(env.globals)

    def _context(self, template, names: dict):
        """What template.render(self.context | names) would render with (jinja2.runtime.new_context)."""
        context = template.environment.context_class(template.environment, self.base | names, template.name,
                                                     template.blocks)
        context.globals_keys = set(self.globals_keys)
        return context

    def text(self, field: str, source: str, **names) -> str:
        """A rendered template, its line breaks and runs of spaces made one space (no-break spaces kept)."""
        return SPACES.sub(" ", self._run(field, source, names)).strip(" ")

    def value(self, field: str, source: str, **names):
        """An expression's value: a list of rows, a filter's verdict."""
        return self._run(field, "{%- set result = (" + source + ") -%}", names, module=True)

    def _run(self, field, source, names, module=False):
        try:
            template = _compiled(self.chart.root, source)
            context = self._context(template, names)
            if not module:
                return _rendered(template, context)
            result = jinja2.environment.TemplateModule(template, context).result
            if isinstance(result, jinja2.Undefined):
                result._fail_with_undefined_error()  # the name it misses, or the attribute the sandbox refused
            return result
        except jinja2.TemplateSyntaxError as exc:
            raise self.chart.fail(field, f"template syntax error: {exc.message}") from None
        except jinja2.exceptions.SecurityError as exc:
            raise self.chart.fail(field, f"not allowed in a kit text: {exc}") from None
        except jinja2.TemplateNotFound as exc:
            raise self.chart.fail(field, f"include {exc.name!r}: no such file in the kit folder") from None
        except kit_files.KitFileError as exc:
            raise self.chart.fail(field, f"include {exc}") from None
        except _JINJA_ERRORS as exc:
            raise self.chart.fail(field, str(exc) or type(exc).__name__) from None
        except Exception as exc:  # noqa: BLE001 - a kit's chart must never end in a traceback
            raise self.chart.fail(field, kit_code_failure(exc)) from None


def _rendered(template, context) -> str:
    """Template.render's body, given the context: its output, or its error with the template's lines."""
    try:
        return template.environment.concat(template.root_render_func(context))
    except Exception:  # noqa: BLE001 - raised again, as Template.render raises it
        template.environment.handle_exception()


def _as_list(value, chart: Chart, field: str) -> list:
    """A list, a range, or a mapping's values (a namespace of units, say)."""
    if isinstance(value, SimpleNamespace):
        value = vars(value)
    if isinstance(value, dict):
        value = list(value.values())
    if not isinstance(value, (list, tuple, range)):
        raise chart.fail(field, f"must give a list, not {type(value).__name__} {value!r:.60}")
    return list(value)


_BUILT: dict = kit_memo()  # (ids of chart and context, section, columns) -> (chart, context, TableData)


def build_chart(chart: Chart, context: dict, section: str | None = None, columns=None) -> TableData:
    """The chart as TableData; `section` keeps one section's rows (no title row), `columns` picks columns by id.
    The same chart asked again with the same context object (the aid card of every colour) is built once: the
    entry keeps both alive, so an id is never mistaken for a later object's."""
    key = (id(chart), id(context), section, None if columns is None else tuple(columns))
    entry = _BUILT.get(key)
    if entry is not None and entry[0] is chart and entry[1] is context:
        return entry[2]
    if len(_BUILT) > 256:
        _BUILT.clear()
    data = _build_chart(chart, context, section, columns)
    _BUILT[key] = (chart, context, data)
    return data


def _build_chart(chart: Chart, context: dict, section: str | None, columns) -> TableData:
    spec, render = chart.spec, _Renderer(chart, context)
    if section is not None and section not in spec["sections"]:
        raise chart.fail("sections", f"unknown section {section!r} (sections: {', '.join(spec['sections']) or 'none'})")
    rows = _as_list(render.value("rows", spec["rows"]), chart, "rows")
    if spec["where"]:
        rows = [r for r in rows if render.value("where", spec["where"], row=r)]
    groups = _sections(chart, render, rows, section)
    chosen = _columns(chart, render, columns)
    header = tuple(render.text(f"{field}.header", c["header"], item=item) for field, c, item in chosen)
    body, titles, shaded, kept = [], [], [], []
    for title, members in groups:
        if title is not None:
            titles.append(len(body))
            body.append((f"<b>{escape(title)}</b>",) + ("",) * (len(chosen) - 1))
        for row in members:
            if spec["shade"] and section is None and render.value("shade", spec["shade"], row=row):
                shaded.append(len(body))
            body.append(tuple(render.text(f"{field}.cell", c["cell"], row=row, item=item) for field, c, item in chosen))
            kept.append(row)
    total = _has_totals(chosen)
    if total:
        body.append(tuple(render.text(f"{field}.total", c["total"], rows=kept, item=item) if c["total"] else ""
                          for field, c, item in chosen))
    data = TableData(header, tuple(body), tuple(c["width"] for _, c, _ in chosen), total_row=total,
                     align=tuple(c["align"] for _, c, _ in chosen), sections=tuple(titles), shaded=tuple(shaded),
                     where=f"{chart.file}:{chart.lines.get('', 0)}: charts.{chart.id}")
    return data.transposed(spec["label_width"]) if spec["transpose"] else data


def _has_totals(chosen: list) -> bool:
    """Whether the chosen columns make a total row: one of them must work its total out (Jinja code, over
    `rows` or the data); a row of fixed labels alone ("All ships") would print a label over empty cells."""
    return any(c["total"] and outside_jinja(c["total"]) != c["total"] for _, c, _ in chosen)


def _sections(chart: Chart, render: _Renderer, rows: list, only: str | None) -> list[tuple[str | None, list]]:
    """(title or None, rows) in order: every section (with its title, if it has one), the one asked for
    (without), or all rows when the chart has no sections."""
    sections = chart.spec["sections"]
    if not sections:
        return [(None, rows)]
    out = []
    for sid, sec in sections.items():
        if only is None or sid == only:
            members = [r for r in rows if render.value(f"sections.{sid}.where", sec["where"], row=r)]
            title = None if only or not sec["title"] else render.text(f"sections.{sid}.title", sec["title"])
            out.append((title, members))
    return out


def _columns(chart: Chart, render: _Renderer, ids) -> list[tuple[str, dict, object]]:
    """(field, column, item) per printed column, repeated columns expanded, in the order `ids` names them."""
    declared = list(enumerate(chart.spec["columns"]))
    if ids is not None:
        known = chart.column_ids()
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise chart.fail("columns", f"no column {', '.join(map(repr, unknown))} (columns with an id: "
                                        f"{', '.join(known) or 'none'})")
        declared = [next((n, c) for n, c in declared if c["id"] == i) for i in ids]
    out = []
    for number, column in declared:
        field = f"columns[{number}]"
        if column["repeat"]:
            items = _as_list(render.value(f"{field}.repeat", column["repeat"]), chart, f"{field}.repeat")
            out += [(field, column, item) for item in items]
        else:
            out.append((field, column, None))
    return out


def check_charts(charts: dict[str, Chart], context: dict, problems: Problems, icons: dict | None = None) -> None:
    """Build every chart with the kit's data and every section on its own: a mistyped field, a bad expression
    or a template error is a located problem at validation, not halfway through a build. An icon a header,
    cell, total or section title writes that the kit does not declare is found first, at that field's line."""
    for chart in charts.values():
        unknown = list(_unknown_icons(chart, icons or {}))
        for exc in unknown:
            problems.error(exc.file, exc.line, exc.field, exc.message)
        if unknown:
            continue
        try:
            build_chart(chart, context)
        except ChartError as exc:
            problems.error(exc.file, exc.line, exc.field, exc.message)


JINJA_OPENER = re.compile(r"\{(?=[{%#])")  # openers may overlap: `{{%` opens at its second brace too
JINJA_CLOSER = {"{{": "}}", "{%": "%}", "{#": "#}"}


def outside_jinja(text: str) -> str:
    r"""`text` with each Jinja expression, statement and comment made a space (as the regex
    `\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}` would, but linear: that regex scans to the end for every opener that is
    never closed, and a cell of a million `{{` took minutes). A closer not found once is not looked for again."""
    out, done, unclosed = [], 0, set()
    for found in JINJA_OPENER.finditer(text):
        start = found.start()
        opener = text[start:start + 2]
        if start < done or opener in unclosed:
            continue
        end = text.find(JINJA_CLOSER[opener], start + 2)
        if end < 0:
            unclosed.add(opener)
            continue
        out += [text[done:start], " "]
        done = end + 2
    return "".join(out) + text[done:]


def _unknown_icons(chart: Chart, icons: dict):
    """A ChartError for each `:name:` a chart's own text writes (outside its Jinja code) naming no icon."""
    from pnpgen.icon_names import ICON, unknown_icon
    texts = [(f"sections.{sid}.title", sec["title"]) for sid, sec in chart.spec["sections"].items()]
    texts += [(f"columns[{n}].{key}", column[key]) for n, column in enumerate(chart.spec["columns"])
              for key in ("header", "cell", "total")]
    for field, text in texts:
        for name in ICON.findall(outside_jinja(text)) if isinstance(text, str) else ():
            if name not in icons:
                yield chart.fail(field, unknown_icon(name, icons))


def chart_names_problem(charts: dict, name: str, section=None, columns=None) -> str | None:
    """Why a place cannot print this chart (unknown name, section or column), or None."""
    if name not in charts:
        return f"unknown table {name!r} (known: {', '.join(sorted(charts))})"
    chart = charts[name]
    if section is not None and section not in chart.spec["sections"]:
        return f"chart {name!r} has no section {section!r} (sections: {', '.join(chart.spec['sections']) or 'none'})"
    missing = [c for c in columns or () if c not in chart.column_ids()]
    if missing:
        return f"chart {name!r} has no column {', '.join(map(repr, missing))} (columns: {', '.join(chart.column_ids())})"
    return None



class ChartTables:
    """`table('name', section=..., columns=[...])` in a chapter: checks the names at once and leaves a
    directive line; the story builds each placed chart when it reaches it (`built()`), with `context()`."""

    def __init__(self, charts: dict[str, Chart], context=None):
        self.charts, self.context, self.placed = charts, context, {}

    def __call__(self, name: str, section: str | None = None, columns=None) -> str:
        problem = chart_names_problem(self.charts, name, section, columns)
        if problem:
            raise ValueError(problem)
        key = f"{name}.{len(self.placed)}"
        self.placed[key] = (name, section, None if columns is None else list(columns))
        return directive_line(f"[[table:{key}]]")

    def built(self) -> dict:
        """{directive key: a function that builds its TableData}; the context is made once, on first use."""
        made = {}

        def context():
            if "context" not in made:
                made["context"] = self.context()
            return made["context"]
        return {key: (lambda n=n, s=s, c=c: build_chart(self.charts[n], context(), s, c))
                for key, (n, s, c) in self.placed.items()}
