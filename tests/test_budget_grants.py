"""A kit cannot raise its own limits (issue 40): kit.yaml's `budgets:` may lower what a build may spend, and
only the person who builds grants more, with `--budget NAME=VALUE` or their own budgets.yaml. A kit that
asks for more is told, at its `budgets:` line, how the user may grant it, and builds under the grant."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnpgen.cli import main
from tests.limit_helpers import kit, run_timed  # noqa: F401 (kit: a fixture)

LOOP = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n"


def _ask(kit: Path, budgets: str) -> int:
    """Append `budgets:` to kit.yaml; its line."""
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    (kit / "kit.yaml").write_text(text + f"budgets: {budgets}\n", encoding="utf-8")
    return text.count("\n") + 1


def test_a_kit_asking_for_more_is_told_at_its_line_and_gets_the_default(kit, capsys):
    line = _ask(kit, "{memory_mb: 16384, cpu_seconds: 3600, face_kb: 1024}")
    code, said, _ = run_timed(capsys, "validate", "--quick", "--data", kit)
    assert code == 0, said
    warning = next(w for w in said.splitlines() if "budgets.memory_mb" in w)
    assert f"kit.yaml:{line}: warning: budgets.memory_mb: the kit asks for 16384" in warning, said
    assert "it has 2048" in warning and "`--budget memory_mb=16384`" in warning, warning
    assert "budgets.cpu_seconds" in said and "budgets.face_kb" not in said, said  # lowering is the kit's to do
    code, said, _ = run_timed(capsys, "validate", "--quick", "--data", kit, "--strict")
    assert code == 1 and "budgets.memory_mb" in said, said


def test_a_looping_kit_that_raised_its_cpu_stops_at_the_grant(kit, capsys):
    """The kit asks for 300 s of CPU per text; the user's grant (1 s here, 5 s by default) is what holds, and
    the error says how to grant what the kit asked for."""
    _ask(kit, "{template_seconds: 300, cpu_seconds: 3600}")
    with open(kit / "rules" / "01-rules.md", "a", encoding="utf-8") as handle:
        handle.write(LOOP)
    code, said, seconds = run_timed(capsys, "validate", "--quick", "--data", kit, "--budget", "template_seconds=1")
    assert code == 1 and "01-rules.md" in said and "over the template_seconds budget" in said, said
    assert "`--budget template_seconds=300`" in said and "Traceback" not in said, said
    assert seconds < 20


def test_the_users_config_file_grants_and_the_option_wins(kit, capsys):
    with open(kit / "rules" / "01-rules.md", "a", encoding="utf-8") as handle:
        handle.write(LOOP)
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "pnpgen" / "budgets.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    try:
        config.write_text("# my machine\ntemplate_seconds: 1\n", encoding="utf-8")
        code, said, seconds = run_timed(capsys, "validate", "--quick", "--data", kit)
        assert code == 1 and "(CPU seconds of one template, chapter or text: 1)" in said, said
        assert str(config) in said and seconds < 20, said
        config.write_text("template_seconds: lots\n", encoding="utf-8")
        code, said, _ = run_timed(capsys, "validate", "--quick", "--data", kit, "--budget", "template_seconds=1")
        assert code == 2 and f"{config}:1: template_seconds: template_seconds must be a whole number" in said, said
    finally:
        config.unlink()


@pytest.mark.parametrize("option, words", [
    ("memory", "give NAME=VALUE"),
    ("memroy_mb=4096", "no budget named 'memroy_mb'"),
    ("memory_mb=0", "memory_mb must be a whole number from 1 to 16384"),
    ("memory_mb=99999999", "from 1 to 16384"),
])
def test_a_mistaken_budget_option_is_a_usage_error(kit, capsys, option, words):
    code, said, _ = run_timed(capsys, "validate", "--quick", "--data", kit, "--budget", option)
    assert code == 2 and words in said and "Traceback" not in said, said


def test_build_help_says_how_to_grant(capsys):
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "--budget NAME=VALUE" in said and "memory_mb=4096" in said and "may only lower" in said, said
    assert "budgets.yaml" in said
