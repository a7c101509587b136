"""What `validate` and `list` may read, and how large a kit's table or text may be before it is read at all.

`validate` and `list` read a kit as a build does, so a kit that builds into itself (`mini/output/`) must not
read its output back through an include; and a CSV, YAML or Markdown file past the `text_file_kb` budget is
refused by its size, unread, in well under a second (a 100 MB CSV cell used to cost ~8 s and 1 GB)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.limit_helpers import kit, run_timed  # noqa: F401 (kit: a fixture)


def _include_the_output(kit: Path) -> None:
    """A chapter that includes a file the build wrote into the kit's own output folder."""
    manifest = kit / "output" / "mini" / "manifest.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text('{"secret": "from the output"}\n')
    with open(kit / "rules" / "01-rules.md", "a", encoding="utf-8") as handle:
        handle.write('\n{% include "output/mini/manifest.json" %}\n')


@pytest.mark.parametrize("command", ["validate", "list"])
def test_validate_and_list_never_read_the_output_inside_the_kit(kit, capsys, monkeypatch, command):
    _include_the_output(kit)
    code, said, _ = run_timed(capsys, command, "--data", str(kit), "--out", str(kit / "output"))
    assert code == 1 and "lies in the build's output folder" in said, said
    assert "01-rules.md" in said and "Traceback" not in said
    monkeypatch.chdir(kit)  # the default --out (./output) of a designer working in the kit folder
    code, said, _ = run_timed(capsys, command, "--data", str(kit))
    assert code == 1 and "lies in the build's output folder" in said, said


def test_without_the_include_validate_reads_the_kit_beside_its_output(kit, capsys):
    (kit / "output" / "mini").mkdir(parents=True)
    code, said, _ = run_timed(capsys, "validate", "--data", str(kit), "--out", str(kit / "output"))
    assert code == 0, said


@pytest.mark.parametrize("rel", ["components/tokens.csv", "components/cards.yaml", "rules/01-rules.md"])
def test_a_table_or_text_over_the_budget_is_refused_unread(kit, capsys, rel):
    """A 100 MB file (sparse: its size is real, its pages are not) is refused by its size, located."""
    with open(kit / rel, "r+b") as handle:
        handle.seek(100 * 2**20)
        handle.write(b"\n")
    code, said, seconds = run_timed(capsys, "validate", "--data", str(kit))
    assert code == 1, said
    line = next(line for line in said.splitlines() if rel in line)
    assert "larger than 4 MB" in line and "text_file_kb" in line, said
    assert seconds < 3 and "Traceback" not in said


def test_the_text_file_budget_is_raised_by_the_user_not_the_kit(kit, capsys):
    """A 5 MB YAML file (a long comment) is refused at the default, still refused when kit.yaml asks for more
    (a warning at the ask says how the user may grant it) and read once the user grants it with --budget."""
    with open(kit / "components" / "cards.yaml", "a", encoding="utf-8") as handle:
        handle.write("# " + "x" * (5 * 2**20) + "\n")
    code, said, _ = run_timed(capsys, "validate", "--data", str(kit))
    assert code == 1 and "cards.yaml" in said and "`--budget text_file_kb=8192`" in said, said
    with open(kit / "kit.yaml", "a", encoding="utf-8") as handle:
        handle.write("budgets: {text_file_kb: 8192}\n")
    code, said, _ = run_timed(capsys, "validate", "--data", str(kit))
    assert code == 1 and "larger than 4 MB" in said, said
    assert "warning: budgets.text_file_kb: the kit asks for 8192" in said, said
    code, said, _ = run_timed(capsys, "validate", "--data", str(kit), "--budget", "text_file_kb=8192")
    assert code == 0 and "warning" not in said, said
    assert os.path.getsize(kit / "components" / "cards.yaml") > 5 * 2**20
