"""What a generic kit's texts may quote: its tables (rows and piece counts), free data, colours, players.

Texts are input, not code: they are rendered in Jinja's sandbox, strictly (an unknown name is an error at
the file and line), and `table(...)` leaves a directive line that the story builder turns into a table.
"""
from __future__ import annotations

import os
import sys
import traceback
from functools import lru_cache
from pnpgen.kit_memos import kit_memo
from pnpgen.xml_escape import escape as xml_escape
from collections import ChainMap, Counter
from pathlib import Path

import jinja2

from pnpgen import budgets, kit_files
from pnpgen.documents.charts import build_chart, chart_names_problem
from pnpgen.booklet.markdown import directive_line
from pnpgen.documents.table_data import plain_table
from pnpgen.i18n.translator import words
from pnpgen.problems import display_path
from pnpgen.kit_loader import KitLoader
from pnpgen.sandbox import KitSandbox, KitUndefined, kit_code_failure
from pnpgen.render.templates import format_number
from pnpgen.text import TextError, join_and, read_text


class Namespace(dict):
    """A mapping whose keys read as attributes too (`tables.reputation`, `tables['ship-parts']`); `label` names
    it in messages about a missing key ("no 'shps' in tables")."""

    def __init__(self, *args, label: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._label = label

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _plain(value):
    if isinstance(value, dict):
        return Namespace({k: _plain(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def tables_context(kit) -> Namespace:
    counts = Counter(p.ref.split(".", 1)[0] for p in kit.component_pieces)
    out = Namespace(label="tables")
    for table in kit.tables.values():
        entry = Namespace(id=table.id, name=table.name, count=counts[table.id], rows=[_plain(r.values) for r in table.rows],
                          shape=table.shape.kind, per_colour=table.per_colour)
        out[table.id] = entry
        out[table.id.replace("-", "_")] = entry
    return out


def text_context(kit) -> dict:
    from pnpgen.documents.rulings import SOURCE, ruling_names
    rulings = ruling_names(kit, lambda words: render_string(words, kit.root / SOURCE, text_context(kit), kit.root))
    return rulings | {"kit": Namespace(id=kit.id, title=kit.title, subtitle=kit.subtitle),
            "tables": tables_context(kit), "data": Namespace(_plain(kit.data), label="data"),
            "colours": [Namespace(id=c.id, name=c.name, print=c.print, ink=c.ink, emblem=c.emblem, pattern=c.pattern)
                        for c in kit.colours],
            "boards": Namespace({b.id.replace("-", "_"): _plain(b.params()) for b in kit.boards}, label="boards"),
            "players": Namespace(min=kit.players[0], max=kit.players[1])}


_CONTEXTS: dict = kit_memo()  # id of kit -> (kit, context)


def chart_context(kit) -> dict:
    """The names a kit's charts see: a game-module kit's texts and chart facts, else what its documents
    quote. One context per kit object, so a chart checked at load is not built again by the parts that print
    it (build_chart keeps one table per context; parts forked after the load inherit both)."""
    entry = _CONTEXTS.get(id(kit))
    if entry is not None and entry[0] is kit:
        return entry[1]
    from pnpgen import game_modules
    module = game_modules.of(kit)
    from pnpgen.documents.component_rows import component_rows
    context = {"component_rows": component_rows(kit)} | (module.chart_context(kit) if module else text_context(kit))
    if len(_CONTEXTS) > 16:
        _CONTEXTS.clear()
    _CONTEXTS[id(kit)] = (kit, context)
    return context


def same_context(kit, edited) -> None:
    """`edited` (the kit with only its edition set, as load_kit ends) sees the chart context made for `kit`
    while its texts were checked: the charts built then are not built again by the parts that print them;
    nor are the chapters rendered then (documents.rendered_chapters)."""
    entry = _CONTEXTS.get(id(kit))
    if entry is not None and entry[0] is kit:
        _CONTEXTS[id(edited)] = (edited, entry[1])
    from pnpgen.documents.rendered_chapters import same_kit
    same_kit(kit, edited)


def chapter_context(kit, pieces=(), counter_size: str | None = None, duplex: str = "long",
                    map_figures: dict | None = None) -> tuple[dict, "TableRegistry", dict]:
    """What a document's chapters see, the tables they place and the figures they may place: the kit's chart
    names (a game module's, else its data's), `table(...)`, `figure(...)` (a game module's figures, any
    component piece by its ref, any hex map as `map:<id>`), `flip_edge` ("long edge" or "short edge": the
    build's one duplex flip, which every two-sided file follows), `counter_size` (the size this build prints
    counters at: the kit's, or --counter-size) and a game module's own names (GameModule.documents).
    `map_figures` draws the maps (pnpgen.documents.map_figures, a layer up: a build passes it in); without
    it each map's figure is only a name, enough to render and check the chapters' text."""
    from pnpgen import game_modules
    from pnpgen.documents.extras import ChapterExtras, figure_helper
    from pnpgen.documents.piece_figures import piece_figures
    charts = chart_context(kit)
    registry = TableRegistry(kit, charts)  # the shared context object: a chart built at load is not built again
    context = dict(charts, table=registry, flip_edge=f"{duplex} edge", counter_size=counter_size or kit.counter_size)
    module = game_modules.of(kit)
    extras = module.documents(kit, pieces, counter_size or kit.counter_size, registry) \
        if module and module.documents else ChapterExtras()
    maps = map_figures if map_figures is not None else dict.fromkeys(map_figure_names(kit))
    figures = ChainMap(extras.figures, piece_figures(kit), maps)  # the module's first; figure() adds
    context.update(extras.names)
    context["figure"] = figure_helper(figures)
    return context, registry, figures


def map_figure_names(kit) -> list[str]:
    """`map:<id>` for every hex map of the kit: the names `figure()` knows them by."""
    return [f"map:{hexmap.id}" for hexmap in kit.maps]


class TableRegistry:
    """table('name', columns=[...], headers=[...]) -> a directive; the TableData is kept for the story. A
    chart declared in the kit's charts.yaml is printed as declared (one `section`, some `columns` by id)."""

    def __init__(self, kit, context: dict):
        self.kit, self.context, self.made = kit, context, {}

    def __call__(self, name: str, columns=None, headers=None, where=None, widths=None, section=None) -> str:
        if name in self.kit.charts:
            return self._chart(name, columns, section, given=(headers, where, widths))
        if section is not None:
            raise ValueError(f"table {name!r} is not a chart: it has no sections")
        rows = self._rows(name)
        if where:
            rows = [r for r in rows if all(str(r.get(k)) == str(v) for k, v in where.items())]
        columns = list(columns or (list(rows[0].keys()) if rows else []))
        missing = [c for c in columns if rows and c not in rows[0]]
        if missing:
            raise KeyError(f"table {name!r} has no column {', '.join(missing)} (columns: {', '.join(rows[0])})")
        header = tuple(headers or [c.replace("_", " ").capitalize() for c in columns])
        if len(header) != len(columns):
            raise ValueError(f"table {name!r}: {len(header)} headers for {len(columns)} columns")
        # A cell prints in the edition's language when the catalogue has its text (a choice value such as a
        # track's id, a name a count matches on and so cannot be a translated column): the chapter marks
        # those values with _() so `translate` extracts them. The source edition prints them as written.
        body = tuple(tuple(words(_cell(r.get(c))) for c in columns) for r in rows)
        return self.keep(plain_table(header, body, _widths(name, widths, len(columns))))

    def _chart(self, name: str, columns, section, given) -> str:
        if any(g is not None for g in given):
            raise ValueError(f"chart {name!r} is declared in charts.yaml: give it only section= and columns=")
        problem = chart_names_problem(self.kit.charts, name, section, columns)
        if problem:
            raise ValueError(problem)
        return self.keep(build_chart(self.kit.charts[name], self.context, section, columns))

    def keep(self, data) -> str:
        """The directive that places `data` (a TableData) where the text asked for it."""
        key = f"t{len(self.made)}"
        self.made[key] = data
        return directive_line(f"[[table:{key}]]")

    def _rows(self, name: str) -> list:
        if name.startswith("data."):
            value = self.context["data"]
            for part in name.split(".")[1:]:
                value = value[part] if isinstance(value, dict) and part in value else None
            if not isinstance(value, list):
                raise KeyError(f"{name} is not a list in data/")
            return [v if isinstance(v, dict) else {"value": v} for v in value]
        if name not in self.kit.tables:
            known = [f"{what}: {', '.join(sorted(names))}" for what, names in
                     (("tables", self.kit.tables), ("charts", self.kit.charts)) if names]
            raise KeyError(f"unknown table {name!r} ({'; '.join(known) or 'the kit has no tables'})")
        table = self.kit.tables[name]
        return [{k: v for k, v in r.values.items() if k not in ("front", "back")} | {"qty": r.values["qty"]}
                for r in table.rows]


WIDEST_RATIO = 50  # a column this many times narrower than the widest could not hold one character


def _widths(name: str, widths, count: int) -> list:
    """The relative column widths a chapter's table(..., widths=[...]) gives (default: the first column twice
    the others), refused here, at the text's line, unless one positive number a column within WIDEST_RATIO of
    each other: a column thinner than its own padding stops reportlab without a word of where."""
    if widths is None:
        return [2] + [1] * (count - 1)
    if not isinstance(widths, (list, tuple)) or len(widths) != count:
        raise ValueError(f"table {name!r}: widths= needs a list of {count} numbers, one a column")
    for width in widths:
        if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 < width < float("inf"):
            raise ValueError(f"table {name!r}: widths= holds {_short(width)}: each width is a positive number")
    if max(widths) > WIDEST_RATIO * min(widths):
        raise ValueError(f"table {name!r}: widths= from {_short(min(widths))} to {_short(max(widths))}: the "
                         f"widest column may be at most {WIDEST_RATIO} times the narrowest")
    return list(widths)


def _short(value) -> str:
    """A value as a message quotes it: a number of thousands of digits by its size only."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 15:
        return f"a number of about {value.bit_length() * 30103 // 100000 + 1} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _cell(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return format_number(value)


def _escape_markup(value):
    """Data quoted into reportlab paragraph markup (an aid card): a name like 'R&D <1>' must print, not break it."""
    return xml_escape(value) if isinstance(value, str) else value


@lru_cache(maxsize=8)
def _text_env(root: Path, markup: bool) -> KitSandbox:
    """The sandbox a kit's texts render in; `{% include %}` and `{% import %}` name files from the kit
    folder (rules/_intro.md), read through the kit reader."""
    env = KitSandbox(loader=KitLoader([(root, root)]), undefined=KitUndefined, autoescape=False,
                     keep_trailing_newline=True, finalize=_escape_markup if markup else None)
    env.filters["join_and"] = join_and
    env.filters["num"] = format_number
    return env


def render_markup(source: str, origin: Path, context: dict, root: Path) -> str:
    """A kit text whose output is reportlab markup (an aid card file), quoted data escaped; errors located."""
    return render_string(source, origin, context, root, markup=True)


def render_chapter(path: Path, context: dict, root: Path) -> str:
    """A chapter's text rendered; a file that is not text (not UTF-8, a NUL byte) is a located error too."""
    return render_string(read_text(path, root), path, context, root)


def render_string(source: str, origin: Path | str, context: dict, root: Path, markup: bool = False) -> str:
    """A kit text (a file's, or words quoted from the data) rendered, `origin` naming it in errors; a NUL byte
    is a located error (the text is not text); `markup` escapes quoted data for reportlab."""
    name = display_path(origin)
    if "\0" in source:
        raise TextError(name, source[: source.index("\0")].count("\n") + 1, "a NUL byte: the file is not text")
    return render_in(_text_env(Path(root), markup), source, name, context)


def render_in(env, source: str, name: str, context: dict) -> str:
    """The rendered text; a TextError (a BuildError that keeps its file, line and message apart) otherwise,
    at the line of the included file when the problem is in one."""
    try:
        with budgets.template_clock(""):  # the CPU and size budgets of one text (pnpgen.budgets)
            text = env.cached_from_string(source).render(**context)
        return budgets.check_size(text, "chapter_kb", "")
    except jinja2.TemplateSyntaxError as exc:
        where = display_path(exc.filename) if exc.filename else name
        raise TextError(where, exc.lineno, f"template syntax error: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        raise TextError(*text_location(exc, name), f"include {exc.name!r}: no such file in the kit folder "
                        f"(an include names a file from the kit folder, such as rules/_intro.md)") from None
    except kit_files.KitFileError as exc:
        raise TextError(*text_location(exc, name), f"include {exc.file}: {exc.message}") from None
    except jinja2.exceptions.SecurityError as exc:
        raise TextError(*text_location(exc, name), f"not allowed in a kit text: {exc}") from None
    except (jinja2.UndefinedError, AttributeError, KeyError, TypeError, ValueError, IndexError, ArithmeticError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)  # str(KeyError) adds quotes
        if isinstance(exc, ValueError) and message.startswith("Exceeds the limit"):  # Python's own advice, not a kit's
            message = f"a number of more than {sys.get_int_max_str_digits()} digits: no count or size is that long"
        raise TextError(*text_location(exc, name), message or type(exc).__name__) from None
    except Exception as exc:  # noqa: BLE001 - a kit's text never ends in a traceback: a budget, a recursion...
        raise TextError(*text_location(exc, name), kit_code_failure(exc)) from None


def text_location(exc: Exception, name: str) -> tuple[str, int]:
    """(file, line) of the innermost template frame: the text itself ("<template>") or a file it included."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename == "<template>":
            return name, frame.lineno
        if not frame.filename.endswith(".py") and os.path.isabs(frame.filename):
            return display_path(frame.filename), frame.lineno
    return name, _lexer_line(exc)


def _lexer_line(exc: Exception) -> int:
    """The line jinja's lexer was reading when it failed outside its own syntax errors (a literal of 5,000
    digits is past Python's int conversion limit), or 0."""
    tb = exc.__traceback__
    line = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(os.path.join("jinja2", "lexer.py")):
            line = tb.tb_frame.f_locals.get("lineno", line)
        tb = tb.tb_next
    return line if isinstance(line, int) else 0
