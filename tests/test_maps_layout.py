"""Map layouts: every shipped board obeys the board rules kit.yaml declares (map_rules), and broken layout
files are located errors naming the rule."""
from __future__ import annotations

import pytest

from conftest import edit
from pnpgen.maps.region_checks import connected_pieces

DEEP_SPACE, HOMEWORLD = "deep-space", "homeworld"   # the kit's legend words (kit.yaml map_rules.legend)

MAPS = "maps/four-player.yaml"


def _homes(layout) -> list[str]:
    return [r for r in layout.seen if r != DEEP_SPACE]


def test_every_scenario_has_one_board(default_kit):
    assert sorted(m.extra["scenario"] for m in default_kit.maps) == sorted(s.id for s in default_kit.game.scenarios)


def test_home_system_size_comes_from_the_marker_mix(default_kit):
    mix = default_kit.home_system
    rules = default_kit.maps[0].rules
    assert rules.numbers["home_hexes"] == mix.total + sum(e.count for e in mix.face_up) == 26
    assert rules.numbers["turns"] == default_kit.game.sequence["turns_per_round"]


@pytest.mark.parametrize("scenario", ["duel-small", "duel-standard", "duel-large", "duel-xl",
                                      "three-player", "four-player"])
def test_region_counts_and_connectivity(default_kit, scenario):
    layout = next(m for m in default_kit.maps if m.extra["scenario"] == scenario)
    rules = next(s for s in default_kit.game.scenarios if s.id == scenario)
    assert len(_homes(layout)) == rules.players
    assert len(layout.hexes(DEEP_SPACE)) == rules.deep_space_markers
    assert len(connected_pieces(layout, DEEP_SPACE)) == 1
    for colour in _homes(layout):
        assert len(layout.hexes(colour)) == 26
        homeworlds = [h for h, mark in layout.marks.items() if mark == HOMEWORLD and layout.regions[h] == colour]
        assert len(homeworlds) == 1 and layout.marked(colour, HOMEWORLD) == homeworlds
        assert len(connected_pieces(layout, colour)) == 1


@pytest.mark.parametrize("scenario", ["duel-small", "duel-xl", "three-player", "four-player"])
def test_home_systems_do_not_touch_and_each_borders_deep_space(default_kit, scenario):
    layout = next(m for m in default_kit.maps if m.extra["scenario"] == scenario)
    grid = layout.grid
    for colour in _homes(layout):
        around = {layout.regions.get(n) for h in layout.hexes(colour) for n in grid.neighbours(*h)}
        assert around - {colour, DEEP_SPACE, None} == set()
        assert DEEP_SPACE in around


def _validate(run_cli, kit_dir):
    result = run_cli("validate", "--data", kit_dir)
    assert result.code == 1, result.err
    return result.err


def test_home_system_of_25_hexes_is_rejected(run_cli, kit_copy):
    path = kit_copy / MAPS
    edit(path, '- ". . . r . .', '- ". . . . . .')  # the top hex of red's home system goes off the map
    line = _line_of(path, "  r: home red")
    err = _validate(run_cli, kit_copy)
    assert (f"{MAPS}:{line}: legend.r: a home system holds one hex per Home System marker and its Homeworld: "
            f"red has 25 hexes; it must have 26 (home_hexes)") in err
    assert "nothing was built" in err


def test_unknown_letter_is_rejected_with_its_row(run_cli, kit_copy):
    path = kit_copy / MAPS
    line = edit(path, '- ". r r r r', '- ". r r x r')
    err = _validate(run_cli, kit_copy)
    assert f"{MAPS}:{line}: rows[1]: letter 'x' (hex 0402) is not in the legend" in err


def test_ragged_row_is_rejected_with_its_row(run_cli, kit_copy):
    path = kit_copy / MAPS
    line = edit(path, '- ". r r r r', '- "r r r r')
    err = _validate(run_cli, kit_copy)
    assert f"{MAPS}:{line}: rows[1]: ragged row: 14 hexes, but the first row has 15" in err


def test_touching_homes_unknown_scenario_and_small_hexes_are_rejected(run_cli, kit_copy):
    path = kit_copy / "maps/duel-small.yaml"
    scenario_line = edit(path, "scenario: duel-small", "scenario: duel-tiny")
    size_line = edit(path, "hex_size: 1.25in", "hex_size: 0.75in")
    err = _validate(run_cli, kit_copy)
    assert f"maps/duel-small.yaml:{scenario_line}: scenario: no scenario 'duel-tiny' in game:scenarios" in err
    assert f"maps/duel-small.yaml:{size_line}: hex_size: 0.75in across the flats cannot hold a 5/8in counter" in err
    assert "no map layout for scenario duel-small" in err  # the scenario lost its board: a warning


def test_homes_that_touch_are_rejected(run_cli, kit_copy):
    path = kit_copy / "maps/duel-small.yaml"
    text = path.read_text()
    rows = [line for line in text.splitlines() if line.startswith('  - "')]
    # fill the deep space between the two homes with red: red then touches blue (and grows past 26)
    edit(path, rows[2], rows[2].replace("+", "r"))
    err = _validate(run_cli, kit_copy)
    assert "its Homeworld: red and blue touch (hexes" in err


def _line_of(path, text: str) -> int:
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(text))


def test_yaml_syntax_error_in_a_map_is_located(run_cli, kit_copy):
    path = kit_copy / MAPS
    line = edit(path, "rounds: 20", "rounds: [20")
    err = _validate(run_cli, kit_copy)
    assert f"{MAPS}:" in err and "not valid YAML" in err
    assert int(err.split(f"{MAPS}:")[1].split(":")[0]) >= line


def test_a_kit_without_a_maps_folder_entry_has_no_boards(run_cli, kit_copy, tmp_path):
    edit(kit_copy / "kit.yaml", "  maps: maps", "")
    assert run_cli("validate", "--quick", "--data", kit_copy).code == 0  # the data; the build below draws
    result = run_cli("build", "--data", kit_copy, "--only", "maps", "--out", tmp_path)
    assert result.code == 0
    assert not (tmp_path / "space-empires-4x" / "maps").exists()


def test_every_board_rule_kit_yaml_declares_is_located(run_cli, kit_copy):
    """Space Empires 4X's board rules are kit.yaml map_rules: the players' count, the Homeworld, the deep-space
    count and the colours a legend may name, each an error at the map's line naming its rule."""
    standard, small, four = (kit_copy / f"maps/{m}.yaml" for m in ("duel-standard", "duel-small", "four-player"))
    legend = edit(standard, "scenario: duel-standard", "scenario: three-player") + 4   # `legend:`, 4 lines on
    homeworld = edit(small, "  R: homeworld red", "  R: home red")
    purple = edit(four, "  b: home blue", "  b: home purple")
    result = run_cli("validate", "--quick", "--data", kit_copy)
    assert result.code == 1
    assert (f"maps/duel-standard.yaml:{legend}: legend: one home system per player of the scenario: 2 regions "
            "(red, blue), but scenario.players of three-player is 3") in result.err
    assert ("legend.+: deep space holds the scenario's deep-space markers: deep-space has 34 hexes; it must have "
            "72 (scenario.deep_space_markers of three-player)") in result.err
    assert (f"maps/duel-small.yaml:{homeworld - 1}: legend.r: a home system holds one hex per Home System marker "
            "and its Homeworld: red has 0 hexes marked homeworld; it must have 1") in result.err
    assert f"maps/four-player.yaml:{purple}: legend.b: must be 'off-map' or one of 'home COLOUR'" in result.err
    assert "(COLOUR: red, blue, green, yellow), not 'home purple'" in result.err


@pytest.mark.parametrize("rows, cols, says", [
    (1, 3, "Lay the tiles out as below: in one row, A, columns 1 to 3 from the left."),
    (2, 1, "Lay the tiles out as below: rows A to B from the top, in one column, 1."),
    (2, 3, "Lay the tiles out as below: rows A to B from the top, columns 1 to 3 from the left.")])
def test_the_assembly_page_says_a_single_row_or_column_as_such(rows, cols, says):
    """A map of one row of tiles said "rows A to A"."""
    from types import SimpleNamespace
    from pnpgen.maps.tiling import assembly_steps
    plan = SimpleNamespace(rows=rows, cols=cols, tiles=[SimpleNamespace(label=f"{'AB'[rows - 1]}{cols}")])
    steps = assembly_steps(plan, "Print.", hex_lines=False)
    assert steps[1] == says and "A to A" not in " ".join(steps)
    assert steps[-1].startswith("Join the tiles of each row first" if rows > 1 and cols > 1 else "Join the tiles in order")
