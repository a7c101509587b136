"""The default kit against the counts in the rules (seeds 000 and 001): the data must say what the rules say."""
from collections import Counter

import pytest


HOME_MIX = {"Minerals 5 CP": 11, "Planet": 8, "Nebula": 2, "Asteroids": 2, "Barren Planet": 1, "Black Hole": 1}
DEEP_MIX = {
    "Danger": 26, "Minerals 10 CP": 14, "Barren Planet": 12, "Nebula": 10, "Asteroids": 10, "Black Hole": 10,
    "Lost in Space": 5, "Supernova": 3, "Space Wreck": 3, "Warp Point 1": 3, "Warp Point 2": 3,
    "Doomsday Machine 1": 1, "Doomsday Machine 2": 1, "Doomsday Machine 3": 1,
}
# Purchase limits per colour, from the rules summary.
COUNTER_LIMITS = {
    "SC": 5, "DD": 4, "CA": 4, "BC": 4, "BB": 4, "DN": 2,
    "CO": 15, "SY": 4, "Base": 2, "Decoy": 2, "Miner": 2,
    "F": 8, "R": 4, "CV": 4, "Mine": 5, "SW": 3, "MS": 20,
}
GROUP_TYPES = {"SC", "DD", "CA", "BC", "BB", "DN", "CV", "F", "R", "SW"}


@pytest.fixture(scope="module")
def pieces(default_kit):
    return list(default_kit.component_pieces)


def is_marker(piece) -> bool:
    return piece.ref.split(".", 1)[0] in ("home-system-markers", "deep-space-markers")


def markers_in(kit, pieces, colour):
    """Each marker's name ('Minerals 5 CP') and how many of it one colour (or deep space: neutral) has."""
    from pnpgen.games.space_empires_4x.text import marker_label
    rows = [p.front.params["row"] for p in pieces if is_marker(p) and p.colour == colour]
    return Counter(marker_label(kit.marker_kinds[r["kind"]], r["value"]) for r in rows if r["kind"] != "homeworld")


@pytest.mark.parametrize("colour", ["red", "blue", "green", "yellow"])
def test_each_home_system_holds_the_rule_mix_of_25(pieces, colour, default_kit):
    mix = markers_in(default_kit, pieces, colour)
    assert dict(mix) == HOME_MIX
    assert sum(mix.values()) == 25


@pytest.mark.parametrize("colour", ["red", "blue", "green", "yellow"])
def test_each_colour_has_one_face_up_homeworld(pieces, colour):
    homeworlds = [p for p in pieces if p.ref == "home-system-markers.homeworld" and p.colour == colour]
    assert len(homeworlds) == 1


def test_deep_space_holds_the_rule_mix_of_102(pieces, default_kit):
    mix = markers_in(default_kit, pieces, "neutral")
    assert dict(mix) == DEEP_MIX
    assert sum(mix.values()) == 102


def test_deep_space_markers_have_white_borders_and_home_markers_the_player_colour(pieces, default_kit):
    """The marker templates draw the piece's colour as the border: deep space's is the neutral white."""
    markers = [p for p in pieces if is_marker(p)]
    assert len(markers) == 4 * 26 + 102
    for piece in markers:
        border = piece.back.params["colour"]["print"]
        expected = "#ffffff" if piece.group == "counters-deep-space" else default_kit.colour(piece.colour).print
        assert border == expected, piece


@pytest.mark.parametrize("colour", ["red", "blue", "green", "yellow"])
def test_unit_counters_match_the_purchase_limits(pieces, colour):
    counts = Counter(p.ref.split(".")[1] for p in pieces if p.ref.startswith("units.") and p.colour == colour)
    assert dict(counts) == COUNTER_LIMITS


def test_group_counters_are_numbered_one_to_n(pieces):
    for code in GROUP_TYPES:
        labels = sorted(p.label for p in pieces if p.ref == f"units.{code}" and p.colour == "red")
        assert labels == sorted(f"{code} {n}" for n in range(1, COUNTER_LIMITS[code] + 1))


def test_decoy_backs_are_exactly_group_backs(pieces, default_kit):
    """A Decoy bluffs: its back draws exactly what a group counter's back draws (the faces' rows differ, the
    drawing does not)."""
    from pnpgen.render.piece_faces import face_document
    from pnpgen.shapes import Shape

    def drawn(face):
        return face_document(default_kit, face, Shape("square", 45, 45), 0.0, "test")
    group_back = next(p.back for p in pieces if p.label == "DD 3" and p.colour == "blue")
    decoys = [p for p in pieces if p.ref == "units.Decoy" and p.colour == "blue"]
    assert decoys and all(p.back.template == "group-back" and drawn(p.back) == drawn(group_back) for p in decoys)


def test_colony_ship_back_is_a_new_colony(pieces, default_kit):
    """Its back is the colony template, which shows the colony growth's first step (data.game, 1 CP)."""
    colony_ship = next(p for p in pieces if p.ref == "units.CO")
    assert colony_ship.back.template == "colony"
    assert default_kit.data["game"]["economy"]["colony_growth"][0] == default_kit.game.economy["colony_growth"][0] == 1
    from pnpgen.render.piece_faces import face_document
    from pnpgen.shapes import Shape
    svg = face_document(default_kit, colony_ship.back, Shape("square", 45, 45), 0.0, "test")
    assert ">1 CP</text>" in svg


def test_homeworld_and_economy_numbers(default_kit):
    game = default_kit.game
    assert game.homeworld_steps() == (20, 15, 10, 5)
    assert game.economy["carry_over_cap"] == 30
    assert game.economy["colony_growth"] == [1, 3, 5]
    assert dict(game.starting_forces) == {"SY": 4, "SC": 3, "CO": 3, "Miner": 1}


def test_movement_chart_and_shipyard_capacity(default_kit):
    moves = {lv.level: lv.moves for lv in default_kit.technologies["movement"].levels}
    assert moves == {1: (1, 1, 1), 2: (1, 1, 2), 3: (1, 2, 2), 4: (2, 2, 2), 5: (2, 2, 3), 6: (2, 3, 3), 7: (3, 3, 3)}
    capacity = [lv.hull_capacity for lv in default_kit.technologies["shipyard"].levels]
    assert capacity == [1, 1.5, 2]


def test_dice_tables(default_kit):
    wreck = {tuple(r["roll"]): r["technology"] for r in default_kit.game.tables["space_wreck"]}
    assert wreck == {(1, 2): "ship_size", (3, 4): "attack", (5, 6): "defence", (7, 7): "tactics",
                     (8, 9): "movement", (10, 10): "shipyard"}
    black_hole = {r["result"]: tuple(r["roll"]) for r in default_kit.game.tables["black_hole"]}
    assert black_hole == {"survives": (1, 6), "destroyed": (7, 10)}


def test_every_unit_needs_a_ship_size_the_chart_has(default_kit):
    levels = {lv.level for lv in default_kit.technologies["ship_size"].levels}
    for unit in default_kit.units.values():
        assert unit.ship_size is None or unit.ship_size in levels


def test_maintenance_follows_hull_for_ships_only(default_kit):
    units = default_kit.units
    assert units["BB"].maintenance == 3 and units["DD"].maintenance == 1
    for exempt in ("Base", "SY", "CO", "Miner"):
        assert units[exempt].maintenance == 0
