"""What Space Empires 4X's hex maps mean (the core reads, composes and prints them: generator/maps): legend words
('home COLOUR', 'homeworld COLOUR', 'deep-space'), each map's scenario and round count, the turn and round
tracks from game.yaml, the board rules checked against the game's data, and its template's names."""
from __future__ import annotations

from pnpgen.maps.geometry import hex_label
from pnpgen.maps.hexmap import connected_pieces
from pnpgen.maps.rules import MapRules, Track
from pnpgen.schema import Field, Int, Str

DEEP_SPACE, HOMEWORLD = "deep-space", "homeworld"
FIELDS = {
    "scenario": Field(Str(r"[a-z0-9][a-z0-9-]*", "a scenario id from game.yaml"), doc="the scenario this board is for"),
    "rounds": Field(Int(1, 100), doc="boxes on the round track printed in the margin"),
    "title": None, "tracks": None,  # the scenario names the map; game.yaml and `rounds` make the tracks
}
LEGEND_ENTRY = Str(r"off-map|deep-space|(home|homeworld) [A-Za-z][A-Za-z0-9_-]*",
                   "'off-map', 'deep-space', 'home COLOUR' or 'homeworld COLOUR'")


def meaning(entry: str) -> tuple[str, str | None]:
    """'deep-space' -> its region; 'home red' -> red's region; 'homeworld red' -> red's, marked Homeworld."""
    kind, _, colour = entry.partition(" ")
    return (DEEP_SPACE, None) if kind == DEEP_SPACE else (colour, HOMEWORLD if kind == HOMEWORLD else None)


def scenario_of(kit, hexmap):
    return next((s for s in kit.game.scenarios if s.id == hexmap.extra["scenario"]), None)


def home_system_hexes(kit) -> int:
    """Hexes in one home system, from the data: one per home-system marker plus one per face-up marker."""
    return kit.home_system.total + sum(e.count for e in kit.home_system.face_up)


def tracks(kit, hexmap) -> tuple[Track, ...]:
    """One box per turn of a round and a double-width box for the Economic Phase; then one box per round."""
    turns = kit.game.sequence["turns_per_round"]
    numbered = lambda n: tuple((str(i + 1), 1) for i in range(n))  # noqa: E731
    return (Track("turn", f"Turn track: {turns} turns, then the Economic Phase", numbered(turns) + (("economic", 2),),
                  wrap=False),
            Track("round", "Round track", numbered(hexmap.extra["rounds"])))


def context(kit, board) -> dict:
    return {"scenario": scenario_of(kit, board.hexmap), "home_hexes": home_system_hexes(kit),
            "turns": kit.game.sequence["turns_per_round"]}


def check(kit, hexmaps, written, problems) -> None:
    """The board rules: scenario, players, region sizes, one Homeworld each, connected, homes apart."""
    for hexmap in hexmaps:
        scenario = scenario_of(kit, hexmap)
        if scenario is None:
            known = ", ".join(s.id for s in kit.game.scenarios)
            hexmap.error(problems, "scenario",
                         f"no scenario {hexmap.extra['scenario']!r} in the game file (known: {known})")
        _check_homes(kit, hexmap, scenario, problems)
        found = len(hexmap.hexes(DEEP_SPACE))
        if scenario is not None and found != scenario.deep_space_markers:
            hexmap.error(problems, f"region:{DEEP_SPACE}", f"{found} deep-space hexes, but scenario "
                         f"{scenario.id} uses {scenario.deep_space_markers} deep-space markers")
        _check_connected(hexmap, DEEP_SPACE, problems)
    # a scenario named by any file, even a broken one (its errors say enough), has its map
    named = {raw.get("scenario") for raw in written if isinstance(raw.get("scenario"), str)}
    for index, scenario in enumerate(kit.game.scenarios):
        if scenario.id not in named:
            file, line = kit.locate("game", f"scenarios[{index}]")
            problems.warn(file, line, f"scenarios[{index}]", f"no map layout for scenario {scenario.id}")


def _check_homes(kit, hexmap, scenario, problems) -> None:
    wanted, colours = home_system_hexes(kit), {c.id for c in kit.colours}
    homes = [r for r in hexmap.seen if r != DEEP_SPACE]
    for colour in homes:
        at = f"region:{colour}"
        if colour not in colours:
            hexmap.error(problems, at, f"no colour {colour!r} in kit.yaml (known: {', '.join(sorted(colours))})")
            continue
        count = len(hexmap.hexes(colour))
        if count != wanted:
            hexmap.error(problems, at, f"home system {colour} has {count} hexes; it must have {wanted} "
                                       f"(the Homeworld hex and one per home-system marker)")
        homeworlds = hexmap.marked(colour, HOMEWORLD)
        if len(homeworlds) != 1:
            hexmap.error(problems, at, f"home system {colour} has {len(homeworlds)} Homeworld hexes; it must have 1")
        _check_connected(hexmap, colour, problems)
    if scenario is not None and len(homes) != scenario.players:
        hexmap.error(problems, "legend", f"{len(homes)} home systems, but scenario {scenario.id} "
                                         f"is for {scenario.players} players")
    _check_apart(hexmap, problems)


def _check_connected(hexmap, region: str, problems) -> None:
    pieces = connected_pieces(hexmap, region)
    if len(pieces) > 1:
        starts = ", ".join(hex_label(*min(p)) for p in pieces)
        hexmap.error(problems, f"region:{region}",
                     f"{region} is split into {len(pieces)} separate pieces (starting at {starts})")


def _check_apart(hexmap, problems) -> None:
    grid, seen = hexmap.grid, set()
    for here, region in sorted(hexmap.regions.items()):
        if region == DEEP_SPACE:
            continue
        for there in grid.neighbours(*here):
            other = hexmap.regions.get(there)
            pair = tuple(sorted((region, other or "")))
            if other not in (None, DEEP_SPACE, region) and pair not in seen:
                seen.add(pair)
                hexmap.error(problems, f"region:{region}", f"home systems {region} and {other} touch (hexes "
                             f"{hex_label(*here)} and {hex_label(*there)}); keep deep space between them")


RULES = MapRules(
    fields=FIELDS, legend_entry=LEGEND_ENTRY, meaning=meaning, tracks=tracks, check=check, context=context,
    order=lambda seen: [r for r in seen if r != DEEP_SPACE] + [DEEP_SPACE],
    title=lambda kit, hexmap: f"{kit.title}: {scenario_of(kit, hexmap).name}",
    manifest=lambda hexmap: {"scenario": hexmap.extra["scenario"]},
    ignores=("units.yaml", "technologies.yaml", "counters.yaml"),
)
