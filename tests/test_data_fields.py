"""Declared data fields (issue 26): a data file's fields declared beside it, in data, checked by the core for
any kit with located errors; Space Empires 4X's file schemas are such declarations."""
from __future__ import annotations

import shutil

import pytest

from conftest import edit
from pnpgen.kit import load_kit
from pnpgen.newkit import BLANK_KIT
from pnpgen.problems import KitError

DECLARED = """doc: the season numbers
fields:
  rounds: {type: int, min: 1, max: 12, doc: rounds in a season}
  scoring:
    type: list
    min_items: 1
    of: {type: record, fields: {round: {type: int, min: 1}, points: {type: int, default: 0}}}
"""


@pytest.fixture
def blank(tmp_path):
    """A kit of data only (no game module) with a declared data file."""
    kit = tmp_path / "blank"
    shutil.copytree(BLANK_KIT, kit)
    (kit / "data").mkdir()
    (kit / "data" / "season.yaml").write_text("rounds: 6\nscoring:\n  - {round: 1, points: 2}\n  - {round: 3}\n")
    (kit / "data" / "season.fields.yaml").write_text(DECLARED)
    return kit


def _errors(kit) -> str:
    with pytest.raises(KitError) as caught:
        load_kit(kit)
    return "\n".join(str(p) for p in caught.value.problems)


def test_a_data_kits_declared_file_loads_as_written_and_its_declaration_is_not_data(blank):
    kit, _ = load_kit(blank)
    assert kit.data["season"] == {"rounds": 6, "scoring": [{"round": 1, "points": 2}, {"round": 3}]}
    assert set(kit.data) == {"season"}


def test_a_wrong_value_is_located_at_the_datas_own_line(blank):
    edit(blank / "data" / "season.yaml", "{round: 3}", "{round: 0, pionts: 1}")
    errors = _errors(blank)
    assert "data/season.yaml:4: scoring[1].round: must be a whole number >= 1, not 0" in errors, errors
    assert "data/season.yaml:4: scoring[1].pionts: unknown field (did you mean 'points'?)" in errors, errors


def test_a_broken_declaration_is_located_at_its_own_line(blank):
    edit(blank / "data" / "season.fields.yaml", "{type: int, min: 1}", "{type: integer, min: 1}")
    errors = _errors(blank)
    assert "data/season.fields.yaml:7: fields.scoring.of.fields.round.type: must be one of" in errors, errors


def test_space_empires_files_are_checked_against_the_modules_own_declaration(kit_copy):
    """The module's contract ships with the module: its files are checked against it, with errors at the
    data's line."""
    edit(kit_copy / "data" / "game.yaml", "die: 10", "die: 1000")
    assert "data/game.yaml" in _errors(kit_copy) and "combat.die: must be a whole number >= 2 and <= 100, not 1000" \
        in _errors(kit_copy)


def test_a_shared_kit_cannot_loosen_what_the_module_reads(kit_copy):
    """A kit that leaves out a field the module's Python reads (the Homeworld's numbers), declares it optional
    in a declaration of its own and drops the rules that read it, gets a located error at the data file, not
    an unlocated KeyError: the kit's own declaration is not the module's contract."""
    game = kit_copy / "data" / "game.yaml"
    edit(game, "  homeworld: {cp: 20, loses_per_hit: 5}\n", "")
    (kit_copy / "data" / "game.fields.yaml").write_text("doc: anything\nfields: {}\n", encoding="utf-8")
    kit_yaml = kit_copy / "kit.yaml"
    text = kit_yaml.read_text(encoding="utf-8")
    kit_yaml.write_text(text[:text.index("\nchecks:")] + "\n", encoding="utf-8")
    errors = _errors(kit_copy)
    assert "data/game.yaml:" in errors and "economy.homeworld" in errors, errors
    assert "KeyError" not in errors, errors