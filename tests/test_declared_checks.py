"""Cross-file rules declared in kit.yaml (`checks:`, pnpgen.declared_checks): a designer adds one without code,
a broken one is located at kit.yaml's line, and what it finds is located at the data's own line."""
from __future__ import annotations

from conftest import edit

RULE = """  - rule: one Homeworld lies face up in each Home System
    sum: markers:home_system.face_up.*.count
    equals: {n}
"""


def add_rule(kit, text: str) -> int:
    """Append a rule to kit.yaml's checks; return its first line."""
    path = kit / "kit.yaml"
    before = path.read_text(encoding="utf-8")
    path.write_text(before + text, encoding="utf-8")
    return before.count("\n") + 1


def test_a_designer_s_own_count_rule_passes(kit_copy, run_cli):
    add_rule(kit_copy, RULE.format(n=1))
    assert run_cli("validate", "--data", kit_copy).code == 0


def test_every_broken_rule_and_every_finding_is_located_in_one_run(kit_copy, run_cli):
    """One validate reports them all: a rule's own problems at kit.yaml's line, findings at the data's."""
    counted = add_rule(kit_copy, RULE.format(n=2))
    no_file = add_rule(kit_copy, "  - {rule: units need ships, each: unit:units.*.name, in: units:units}\n")
    half = add_rule(kit_copy, "  - {rule: half a rule, each: units:units.*.name}\n")
    requires = edit(kit_copy / "units.yaml", "requires: {fighters: 1}", "requires: {fightrs: 1}")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1 and counted
    face_up = (kit_copy / "markers.yaml").read_text().splitlines().index("  face_up:") + 1
    assert (f"markers.yaml:{face_up}: home_system.face_up: one Homeworld lies face up in each Home System: "
            "the entries add up to 1, the rules call for 2") in result.err
    assert f"kit.yaml:{no_file}: checks[10]: units need ships: no data file 'unit'" in result.err
    assert f"kit.yaml:{half}: checks[11]: half a rule: give `each` or `each_key` with `in`" in result.err
    assert (f"units.yaml:{requires}: units.CV.requires.fightrs: every technology a unit requires is on the research "
            "chart: 'fightrs' is not one of them (did you mean 'fighters'?") in result.err


def test_a_kit_without_a_game_module_is_told_its_checks_have_no_files(tmp_path, run_cli):
    import shutil
    from pathlib import Path
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    line = add_rule(kit, "checks:\n  - {rule: x, sum: 'a:b.*', equals: 1}\n") + 1
    result = run_cli("validate", "--data", kit)
    assert result.code == 1 and f"kit.yaml:{line}: checks[0]: x: no data file 'a' (files: none" in result.err
