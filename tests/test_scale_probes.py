"""Issue 40's probes of size, each ending in seconds: declared checks near-linear and under the budgets, table
and kit counts tallied once, a booklet too long to typeset and a CSV of a million rows refused where they
pass the limit. Each probe is scaled so that the quadratic code it replaces took well over a minute (a scan
of 20,000 rows per value, 32,768 values each read against 32,768 bounds, 160 million row comparisons), and
the fixed code a second or two; the time guards are generous, for a loaded machine."""
from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

from tests.limit_helpers import MINI, kit, run_timed  # noqa: F401 (kit: a fixture)

N = 20_000


def _checks(kit: Path, lines: list[str]) -> int:
    """kit.yaml gets `checks:` with these rules; the line of the first."""
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    (kit / "kit.yaml").write_text(text + "checks:\n" + "".join(f"  - {r}\n" for r in lines), encoding="utf-8")
    return text.count("\n") + 2


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_selection_per_value_looks_its_row_up(kit, capsys):
    """`rows.code={code}.qty` for each of 20,000 references finds its row in an index of `code`, made once."""
    _write(kit / "data" / "stock.csv", "code,qty\n" + "".join(f"C{i},{i}\n" for i in range(N)))
    refs = [f"C{i},{i}\n" for i in range(N)]
    refs[7] = "C7,8\n"
    _write(kit / "data" / "wanted.csv", "code,n\n" + "".join(refs))
    _checks(kit, ["{rule: stock matches, each: 'data/wanted.csv:*.n', equals: 'data/stock.csv:code={code}.qty'}"])
    code, said, seconds = run_timed(capsys, "validate", "--quick", "--data", kit)
    assert code == 1 and seconds < 30, said
    assert "data/wanted.csv:9: [7].n: stock matches: is 8, the rules call for 7 ([7].qty)" in said, said
    assert said.count("stock matches") == 1


WIDE = "l0: &l0 [1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
    f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 8)}]\n" for i in range(1, 6))  # l5: 8**6 = 262,144 leaves


def test_a_wildcard_past_the_budget_stops_at_its_rule_and_a_wide_bound_is_read_once(kit, capsys):
    _write(kit / "data" / "wide.yaml", WIDE)
    line = _checks(kit, [
        "{rule: every leaf is small, each: 'data/wide.yaml:l5.*.*.*.*.*.*', at_most: 5}",
        "{rule: no leaf passes the first, each: 'data/wide.yaml:l4.*.*.*.*.*', "
        "at_most: 'data/wide.yaml:l4.*.*.*.*.*'}",  # 32,768 values, each against a path of 32,768
    ])
    code, said, seconds = run_timed(capsys, "validate", "--quick", "--data", kit)
    assert code == 1 and seconds < 30, said
    error = next(s for s in said.splitlines() if "every leaf is small" in s)
    assert f"kit.yaml:{line}: checks[0]: every leaf is small: data/wide.yaml:l5.*.*.*.*.*.* reaches more than " \
           "100,000 values: over the check_values budget" in error, said
    assert "`--budget check_values=200000`" in error and "no leaf passes" not in said, said


def test_thousands_of_rules_over_a_long_list_stop_at_the_cpu_budget(kit, capsys):
    """8,000 rules each over 20,000 items is 160 million checks: the declared checks get one text's CPU
    budget (lowered to 1 s here), and the rule then running is the error, at its line."""
    _write(kit / "data" / "items.csv", "n\n" + "".join(f"{i}\n" for i in range(N)))
    first = _checks(kit, [f"{{rule: r{i}, each: 'data/items.csv:*.n', at_most: 99999999}}" for i in range(8000)])
    with open(kit / "kit.yaml", "a", encoding="utf-8") as handle:
        handle.write("budgets: {template_seconds: 1}\n")
    code, said, seconds = run_timed(capsys, "validate", "--quick", "--data", kit)
    assert code == 1 and seconds < 30, said
    error = next(s for s in said.splitlines() if "over the template_seconds budget" in s)
    index = int(error.split("checks[")[1].split("]")[0])
    assert 0 < index < 8000 and f"kit.yaml:{first + index}: checks[{index}]: r{index}: " in error, error
    assert "Traceback" not in said


def test_count_rules_are_tallied_once_not_once_per_rule():
    """8,000 `where:` rules over 20,000 rows, and 8,000 kit rules over 20,000 pieces, in about a second."""
    from pnpgen.components.counts import check_kit_counts, check_table_counts
    from pnpgen.problems import Problems
    pieces = [SimpleNamespace(ref=f"t.{i}", group="counters-1" if i % 2 else "cards", colour=None,
                              front=SimpleNamespace(params={"row": {"kind": f"k{i % 100}", "size": i % 3}}))
              for i in range(N)]
    where = [{"rule": f"w{i}", "match": {"kind": f"k{i % 100}", "size": i % 3}, "total": 0} for i in range(8000)]
    table = SimpleNamespace(id="t", name="things", file="t.yaml", lines={}, per_colour=False, columns={"kind": {}},
                            counts={"total": None, "per_colour": None, "by": None, "where": where})
    problems = Problems()
    start = time.process_time()
    check_table_counts(table, pieces, (), problems)
    rules = [{"rule": f"k{i}", "tables": None, "group": "counters", "total": N // 2} for i in range(8000)]
    check_kit_counts(rules, "kit.yaml", {}, {"t": table}, pieces, problems)
    assert time.process_time() - start < 10
    wrong = {p.message for p in problems.items}
    assert len(problems.items) == 8000 and "w0: the rule asks for 0, the rows make 67" in wrong, wrong


def test_a_booklet_too_long_to_typeset_stops_at_its_heading(kit, capsys, tmp_path):
    """3,000 chapter headings: an error at the 2,001st, before anything is typeset; no staging folder left."""
    out = tmp_path / "out"
    _write(kit / "rules" / "02-many.md", "".join(f"# Part {i}\n\nText.\n\n" for i in range(3000)))
    own = sum(line.startswith("#") for line in (MINI / "rules" / "01-rules.md").read_text("utf-8").splitlines())
    code, said, seconds = run_timed(capsys, "build", "--data", kit, "--only", "documents", "--out", out, "--quiet")
    assert code == 1 and seconds < 60, said
    line = 1 + 4 * (2000 - own)  # the 2,001st heading of the booklet
    assert f"02-many.md:{line}: the booklet document has more than 2000 headings" in said, said
    assert not [p for p in out.rglob("*") if p.name.startswith(".staging")], list(out.rglob("*"))


def test_a_million_row_csv_stops_at_its_limit_line(kit, capsys):
    """A 4 MB CSV of a million rows (within the file budget) is refused at the row past the table limit,
    without reading the rest into memory."""
    (kit / "components" / "tokens.csv").write_text("value,qty\n" + "1,1\n" * 1_000_000, encoding="utf-8")
    code, said, seconds = run_timed(capsys, "validate", "--quick", "--data", kit)
    assert code == 1 and seconds < 30 and "Traceback" not in said, said
    assert "tokens.csv:20002: rows: more than 20000 rows by this line" in said, said
