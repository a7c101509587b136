"""Each kind of bad input ends with the exact file, line and field, a non-zero exit, and no output touched."""
import shutil

import pytest

from tests.conftest import edit


@pytest.fixture(scope="module")
def good_output(default_kit_build):
    """The session's full build of the default kit (its output folder); each test starts from a copy of it."""
    return default_kit_build.parent


def snapshot(out):
    return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}


# (file, text to replace, replacement, field expected in the message, words expected in the message)
BAD_EDITS = [
    ("components/units.yaml", "    hull: 1\n    cost: 9", "    hull: -1\n    cost: 9", "rows[1].hull", "whole number >= 0"),
    ("components/units.yaml", "    hull: 2\n    cost: 12", "    hull: two\n    cost: 12", "rows[2].hull", "whole number"),
    ("components/units.yaml", "    cost: 15", "    cost: 15\n    speed: 3", "rows[3].speed", "unknown field"),
    ("components/units.yaml", "    qty: 15", "    qty: -15", "rows[6].qty", "whole number >= 0"),
    ("components/units.yaml", "    qty: 20", "    qty: 2.5", "rows[16].qty", "whole number"),
    ("components/units.yaml", "    ship_size: 6", "    ship_size: 9", "rows[5].ship_size", "is a level of the Ship Size technology: 9 is not one of them"),
    ("components/units.yaml", "requires: {fighters: 1}", "requires: {fighters: 4}", "rows[11].requires.fighters",
     "can be bought, above the starting one: is 4, the rules call for at most 3 (technologies.fighters.levels[3].level)"),
    ("components/units.yaml", "requires: {cloaking: 1}", "requires: {cloaknig: 1}", "rows[13].requires.cloaknig", "on the research chart: 'cloaknig' is not one of them (did you mean 'cloaking'?"),
    ("components/units.yaml", "requires: {cloaking: 1}", "requires: [cloaking]", "rows[13].requires", "a mapping"),
    ("components/units.yaml", "  - id: SC\n    name: Scout", "  - name: Scout", "rows[0].name",
     "every unit has its code (the row's id) beside its name"),
    ("components/units.yaml", "    movement: tech\n    groups: true\n    qty: 5",
     "    movement: warp\n    groups: true\n    qty: 5", "rows[0].movement", "one of"),
    ("components/home-system-markers.yaml", "{kind: planet, qty: 8}", "{kind: planet, qty: 7}", "counts.per_colour",
     "Home System markers per colour (Red): the rule asks for 26, the rows make 25"),
    ("components/deep-space-markers.yaml", "{kind: danger, qty: 26}", "{kind: danger, qty: 25}", "counts.total",
     "Deep Space markers in all: the rule asks for 102, the rows make 101"),
    ("components/deep-space-markers.yaml", "{kind: danger, qty: 26}", "{kind: dangr, qty: 26}", "rows[0].kind", "is a marker kind: 'dangr' is not one of them (did you mean 'danger'?"),
    ("components/deep-space-markers.yaml", "{kind: supernova, qty: 3}", "{kind: supernova, qty: -3}", "rows[7].qty", "whole number >= 0"),
    ("components/colour-counters.yaml", "value: 10, back_value: 5}", "value: 10, back_value: 4}", "rows[1].back_value",
     "a Homeworld damage counter's back shows the Homeworld's value after hits: is 4, the rules call for a multiple of 5"),
    ("components/colour-counters.yaml", "value: 3, back_value: 5, qty: 15}", "value: 3, back_value: 6, qty: 15}",
     "rows[2].back_value", "a Colony counter's back shows a step of the colony growth: 6 is not one of them"),
    ("technologies.yaml", "{level: 3, cost: 25, moves: [1, 2, 2]}", "{level: 3, cost: 25, moves: [1, 2]}",
     "technologies.movement.levels[2].moves", "one number per turn"),
    ("technologies.yaml", "{level: 4, cost: 20}", "{level: 5, cost: 20}", "technologies.ship_size.levels[3].level", "climb by one"),
    ("data/game.yaml", "{unit: CO, count: 3}", "{unit: CO, count: 30}", "setup.starting_forces[2].count",
     "fit in the counters, for units that are not in groups: is 30, the rules call for at most 15 (rows[6].qty)"),
    ("data/game.yaml", "{unit: SC, count: 3}", "{unit: XX, count: 3}", "setup.starting_forces[1].unit", "the starting forces are units: 'XX' is not one of them"),
    ("data/game.yaml", "{roll: [7, 7], technology: tactics}", "{roll: [7, 8], technology: tactics}", "tables.space_wreck", "exactly once"),
    ("data/game.yaml", "terrain_class: E", "terrain_class: F", "combat.terrain_class", "is a firing class: 'F' is not one of them"),
    ("data/game.yaml", "{roll: [7, 7], technology: tactics}", "{roll: [7, 7], technology: tactix}", "tables.space_wreck[3].technology",
     "research chart: 'tactix' is not one of them (did you mean 'tactics'?"),
    ("kit.yaml", "  game: data/game.yaml", "  game: ../../game.yaml", "files.game", "outside the kit folder"),
    ("kit.yaml", "  game: data/game.yaml", "  game: data/gme.yaml", "files.game", "file not found"),
    ("kit.yaml", 'print: "#c62828"', 'print: "red"', "colours.red.print", "#rrggbb"),
]


@pytest.mark.parametrize("filename, old, new, field, words", BAD_EDITS, ids=[e[3] for e in BAD_EDITS])
def test_bad_input_is_located_and_leaves_output_intact(run_cli, kit_copy, tmp_path, good_output, filename, old, new,
                                                     field, words):
    out = tmp_path / "out"
    shutil.copytree(good_output, out)
    before = snapshot(out)
    assert len(before) > 1
    line = edit(kit_copy / filename, old, new)
    result = run_cli("build", "--data", kit_copy, "--out", out)
    assert result.code == 1
    located = [l for l in result.err.splitlines() if f": {field}: " in l]
    assert located, result.err
    assert words in located[0], located[0]
    assert f"{filename}:" in located[0]
    # The line is the edited one, or for whole-list problems the line of the list's key.
    reported_line = int(located[0].split(f"{filename}:")[1].split(":")[0])
    text = (kit_copy / filename).read_text().splitlines()
    assert reported_line == line or field.split(".")[-1].split("[")[0] in text[reported_line - 1], located[0]
    assert snapshot(out) == before
    assert not [p for p in out.iterdir() if p.name.startswith(".staging")]


def test_yaml_syntax_error_names_the_line(run_cli, kit_copy):
    line = edit(kit_copy / "components/units.yaml", "  - id: DD\n", "  - id: [DD\n")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    assert "units.yaml:" in result.err and "not valid YAML" in result.err
    reported = int(result.err.split("units.yaml:")[1].split(":")[0])
    assert abs(reported - line) <= 3


def test_duplicate_keys_are_refused(run_cli, kit_copy):
    line = edit(kit_copy / "components/units.yaml", "    cost: 9\n", "    cost: 9\n    cost: 10\n")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    assert f"units.yaml:{line + 1}: duplicate key 'cost'" in result.err


def test_unsafe_yaml_tags_are_refused(run_cli, kit_copy):
    edit(kit_copy / "components/units.yaml", "    name: Scout", "    name: !!python/object/apply:os.system ['echo pwned']")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    assert "units.yaml:" in result.err and "pwned" not in result.out


def test_all_problems_are_reported_together(run_cli, kit_copy):
    edit(kit_copy / "components/units.yaml", "    cost: 9", "    cost: -9")
    edit(kit_copy / "components/units.yaml", "    cost: 24", "    cots: 24")
    edit(kit_copy / "data/game.yaml", "carry_over_cap: 30", "carry_over_cap: lots")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    for field in ("rows[1].cost", "rows[5].cots", "economy.carry_over_cap"):
        assert f": {field}: " in result.err
    assert "4 error(s)" in result.err  # cots is unknown and cost is then missing


def test_warnings_fail_only_under_strict(run_cli, kit_copy):
    edit(kit_copy / "components/units.yaml", "    qty: 20", "    qty: 0")
    relaxed = run_cli("validate", "--quick", "--data", kit_copy)  # a data warning: --quick finds it too
    assert relaxed.code == 0
    assert "warning: rows[16].qty: every unit type has counters on the sheets: is 0" in relaxed.err
    strict = run_cli("validate", "--quick", "--data", kit_copy, "--strict")
    assert strict.code == 1 and "rows[16].qty" in strict.err


def test_a_schema_error_in_one_file_does_not_hide_rule_count_errors_in_another(run_cli, kit_copy):
    edit(kit_copy / "components/units.yaml", "    cost: 9", "    cost: nine")
    edit(kit_copy / "components/deep-space-markers.yaml", "{kind: nebula, qty: 10}",
         "{kind: nebula, qty: 11}")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    assert ": rows[1].cost: must be a whole number" in result.err
    assert ": counts.total: Deep Space markers in all: the rule asks for 102, the rows make 103" in result.err
    assert "2 error(s)" in result.err


def test_a_template_named_in_the_data_must_exist(run_cli, kit_copy):
    line = edit(kit_copy / "components/units.yaml", "    name: Destroyer\n", "    name: Destroyer\n    front: my-face\n")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    assert f"units.yaml:{line - 1}: rows[1].front: template my-face.svg.j2 not found" in result.err
    (kit_copy / "templates").mkdir(exist_ok=True)
    # a face that draws (validate draws it: an "<svg/>" without a size would be a drawing error, as in a build)
    (kit_copy / "templates" / "my-face.svg.j2").write_text(
        '{% import "_counter.svg.j2" as c %}{% call c.on_piece(piece) %}{{ c.colour_ground(colour) }}{% endcall %}')
    assert run_cli("validate", "--data", kit_copy).code == 0


def test_a_counter_table_holding_another_table_is_located(run_cli, kit_copy):
    """Found by the long fuzz run (a marker table made a link to the unit table): the game's model read a
    `kind` the rows do not have and stopped on a KeyError. The rules over the table say what is wrong."""
    units = (kit_copy / "components" / "units.yaml").read_text()
    (kit_copy / "components" / "home-system-markers.yaml").write_text(units)
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1 and "could not say where" not in result.err, result.err
    assert ("checks[1]: every Home System marker is a marker kind: components/home-system-markers.yaml:rows.*.kind "
            "reaches nothing") in result.err, result.err


def test_the_marker_tables_keep_the_rules_the_old_python_checked(run_cli, kit_copy):
    """kit.yaml's marker rules: a value exactly where the kind prints one, a kind and value in one row, and a
    warning for a marker kind no table prints; each at its row's (or kind's) own line, naming the rule."""
    home = kit_copy / "components" / "home-system-markers.yaml"
    no_value = edit(home, "{kind: minerals, value: 5, qty: 11}", "{kind: minerals, qty: 11}")
    a_value = edit(home, "{kind: planet, qty: 8}", "{kind: planet, value: 3, qty: 8}")
    twice = edit(home, "{kind: black_hole, qty: 1}", "{kind: nebula, qty: 1}")
    kinds = (kit_copy / "data" / "markers.yaml").read_text().splitlines().index("  black_hole:") + 1
    edit(kit_copy / "components" / "deep-space-markers.yaml", "{kind: black_hole, qty: 10}", "{kind: nebula, qty: 10}")
    result = run_cli("validate", "--quick", "--data", kit_copy)
    assert result.code == 1, result.err
    for expected in (
            f"home-system-markers.yaml:{no_value}: rows[1].value: a Home System marker prints a value exactly when "
            "its kind prints one: is not given: the rules call for a value (kinds.minerals.value is 'cp')",
            f"home-system-markers.yaml:{a_value}: rows[2].value: a Home System marker prints a value exactly when its "
            "kind prints one: is 3: the rules call for none (kinds.planet.value is null: leave it null)",
            f"home-system-markers.yaml:{twice}: rows[6]: a marker kind and value is one row of the Home System markers "
            "(add the counts into one row): {kind: nebula, value: null} is given twice (first at rows[3], line",
            f"markers.yaml:{kinds}: warning: kinds.black_hole: every marker kind is printed on some marker counter: "
            "'black_hole' is not one of them"):
        assert expected in result.err, result.err
