"""The kit texts' checks at load (charts built, chapters rendered, aid cards read: pnpgen.kit._check_all_texts)
are on every edited build's serial path, so they are made cheap without losing a finding: chart cells render
with one merged context per chart, exactly as Jinja's own render would; the chapter check imports no network
modules; a data edit that breaks a text it quotes is still said at load, at the text's file and line."""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from pnpgen import kit as kit_module
from pnpgen.cli_common import load_quietly
from pnpgen.documents import charts as charts_module
from pnpgen.documents.charts import ChartError, _compiled, build_chart, load_charts
from pnpgen.documents.context import chart_context
from pnpgen.inputs import Inputs
from pnpgen.kit import load_kit
from pnpgen.kit_folder import BUILTIN_DATA
from pnpgen.problems import KitError, Problems
from pnpgen.sandbox import KitSandbox


def _load(root: Path):
    args = argparse.Namespace(kit=None, data=str(root), strict=False, counter_size=None, piece_size=None, lang=None,
                              command="build")
    return load_quietly(args, root, inputs=Inputs(root, root.parent / "out" / "kit"))


def _jinja_render(chart, context: dict, source: str, names: dict) -> str:
    """A cell as Jinja's own Template.render renders it (what the charts did before their merged context)."""
    return charts_module.SPACES.sub(" ", _compiled(chart.root, source).render(context | names)).strip(" ")


@pytest.mark.parametrize("name", ["space-empires-4x", "4x-space-euro"])
def test_every_chart_cell_renders_as_jinja_renders_it(name, monkeypatch):
    """Each cell, header, title and total a build of the kit's charts renders (whole and section by section)
    equals Jinja's Template.render of it with the chart's context and the cell's names: the merged context
    holds the same names, the globals under them."""
    kit, _ = load_kit(BUILTIN_DATA / name)
    context = chart_context(kit)
    compared, real = [], charts_module._Renderer.text

    def text(self, field, source, **names):
        said = real(self, field, source, **names)
        assert said == _jinja_render(self.chart, self.context, source, names), (self.chart.id, field)
        compared.append(field)
        return said
    monkeypatch.setattr(charts_module._Renderer, "text", text)
    for chart in kit.charts.values():
        charts_module._build_chart(chart, context, None, None)
        for section in chart.spec["sections"]:
            charts_module._build_chart(chart, context, section, None)
    assert len(compared) > (1000 if name == "space-empires-4x" else 5)


def _chart(tmp_path: Path, cells: list[str]):
    (tmp_path / "_m.j2").write_text("{% macro twice(n) %}{{ n * 2 }}{% endmacro %}", encoding="utf-8")
    columns = "".join(f"      - {{header: c{n}, cell: {cell!r}}}\n" for n, cell in enumerate(cells))
    (tmp_path / "charts.yaml").write_text(f"charts:\n  demo:\n    rows: rows_given\n    columns:\n{columns}",
                                          encoding="utf-8")
    problems = Problems()
    charts = load_charts(tmp_path / "charts.yaml", problems)
    assert not problems.items, problems.items
    return charts["demo"]


def test_a_cell_sees_its_own_names_over_the_charts_and_the_globals_and_keeps_nothing_for_the_next(tmp_path):
    """A name the cell sets stays in that cell (a fresh context each), a context name hides a Jinja global of
    the same name as in Jinja, the globals (range, _()) and an `{% import %}` of a kit file work."""
    chart = _chart(tmp_path, ["{% set kept = row %}{{ kept }}", "{{ 'leak' if kept is defined else 'none' }}",
                              "{{ cycler }}", "{{ range(row)|list|length }} {{ _('Ship') }}",
                              "{% import '_m.j2' as m %}{{ m.twice(row) }}"])
    data = build_chart(chart, {"rows_given": [1, 3], "cycler": "mine"})
    assert data.rows == (("1", "none", "mine", "1 Ship", "2"), ("3", "none", "mine", "3 Ship", "6"))


def test_a_failing_cell_is_located_and_said_as_before(tmp_path):
    chart = _chart(tmp_path, ["{{ row.nope }}"])
    with pytest.raises(ChartError) as caught:
        build_chart(chart, {"rows_given": [{"n": 1}]})
    assert caught.value.field == "charts.demo.columns[0].cell" and caught.value.line == 5
    with pytest.raises(jinja2.UndefinedError) as jinja_said:
        _compiled(chart.root, "{{ row.nope }}").render({"row": {"n": 1}})
    assert caught.value.message == str(jinja_said.value)


def test_a_row_removed_that_texts_quote_is_found_at_load_at_each_quoting_line(kit_copy, tmp_path, monkeypatch):
    """After a clean load (the memo knows it), a data edit alone (the Decoy row removed from the units table)
    is checked again at load and said at every chapter line that quotes the unit, though no text changed."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    runs, real = [], kit_module._check_all_texts
    monkeypatch.setattr(kit_module, "_check_all_texts", lambda *a, **k: runs.append(1) or real(*a, **k))
    _load(kit_copy)
    _load(kit_copy)
    assert len(runs) == 1
    units = kit_copy / "components" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    start = text.index("  - id: Decoy\n")
    units.write_text(text[:start] + text[text.index("\n  - id:", start + 5) + 1:], encoding="utf-8")
    with pytest.raises(KitError) as caught:
        _load(kit_copy)
    assert len(runs) == 2
    found = {(Path(p.file).name, p.line) for p in caught.value.problems if p.severity == "error"}
    for chapter in ("05-movement.md", "10-units.md"):
        lines = (kit_copy / "rules" / chapter).read_text(encoding="utf-8").splitlines()
        line = next(n for n, words in enumerate(lines, 1) if "units.Decoy" in words)
        assert (chapter, line) in found, found


def test_checking_the_texts_imports_no_network_modules(kit_copy, tmp_path):
    """xml.sax.saxutils (for one unescape) brought urllib.request, http.client, email and ssl into every checked
    load, before any part's worker forks: 18 ms of the serial start."""
    code = ("import sys\nfrom pathlib import Path\nfrom pnpgen.kit import load_kit\n"
            f"load_kit(Path({str(kit_copy)!r}))\n"
            "print(sorted(m for m in ('urllib.request', 'http.client', 'xml.sax.saxutils') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", result.stdout


def test_a_section_before_the_first_chapter_is_quoted_as_written(kit_copy):
    """The heading's markup is dropped and its escaped characters given back (&, <, >) as saxutils did."""
    chapter = kit_copy / "rules" / "01-introduction.md"
    text = chapter.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.startswith("# "))
    chapter.write_text(text.replace(first, "## Fish & *Chips* <3", 1), encoding="utf-8")
    with pytest.raises(KitError) as caught:
        load_kit(kit_copy)
    assert any("the section 'Fish & Chips <3' (##)" in p.message for p in caught.value.problems), caught.value.problems


def test_a_file_the_cells_import_is_compiled_once_kept_apart_and_compiled_again_when_damaged(tmp_path, monkeypatch):
    """SE4X's cells import _charts.j2: compiled in every build it cost 18 ms of the serial start. It is kept in the
    user's code folder under a name of the cells' own (the piece templates compile the same file autoescaped),
    read back by the next build without compiling, and compiled again when its file is damaged."""
    folder = tmp_path / "code"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(charts_module, "code_folder", lambda: folder)
    root = BUILTIN_DATA / "space-empires-4x"
    compiled = []
    real_compile = KitSandbox.compile
    monkeypatch.setattr(KitSandbox, "compile",
                        lambda self, *a, **k: compiled.append(a[1] if len(a) > 1 else k.get("name")) or
                        real_compile(self, *a, **k))

    def macro_output() -> str:
        env = charts_module._env.__wrapped__(root)  # a new environment, as a new build makes
        return env.get_template("_charts.j2").module.mix_count.name

    assert macro_output() == "mix_count" and compiled == ["_charts.j2"]
    kept = [p for p in folder.iterdir()]
    assert len(kept) == 1 and kept[0].name.startswith("__chart_cells_"), kept
    assert macro_output() == "mix_count" and compiled == ["_charts.j2"]  # read back, not compiled
    kept[0].write_bytes(kept[0].read_bytes()[:-5] + b"xxxxx")
    assert macro_output() == "mix_count" and compiled == ["_charts.j2", "_charts.j2"]


def test_compiled_code_is_not_reused_once_the_sandbox_intercepts_other_operators(tmp_path, monkeypatch):
    """Which operators the sandbox checks (KitSandbox.intercepted_binops: those that can make a value larger)
    is compiled into a template's code. Kept under the source and a fixed name alone, the code compiled before
    pnpgen guarded another operator kept running unguarded: the guards are in what the code is kept under."""
    folder = tmp_path / "code"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(charts_module, "code_folder", lambda: folder)
    monkeypatch.setattr("pnpgen.sandbox.code_folder", lambda: folder)
    root = BUILTIN_DATA / "space-empires-4x"
    compiled = []
    real_compile = KitSandbox.compile
    monkeypatch.setattr(KitSandbox, "compile", lambda self, *a, **k: compiled.append(1) or real_compile(self, *a, **k))

    def both() -> None:
        env = charts_module._env.__wrapped__(root)
        env.get_template("_charts.j2").module
        env.cached_from_string("{{ 2 - 1 }}")

    both()
    both()
    assert len(compiled) == 2   # each compiled once, then read back
    monkeypatch.setattr(KitSandbox, "intercepted_binops", KitSandbox.intercepted_binops | {"-"})
    both()
    assert len(compiled) == 4
