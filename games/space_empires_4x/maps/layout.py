"""Map layout files (maps/*.yaml in a kit): their schema, parsing into MapLayout, and the board checks.

A layout is rows of one-character hex letters plus a legend naming what each letter is, so a designer
edits the board by eye. Every problem is reported with its file, line and field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.kit import read_mapping
from generator.lengths import parse_length
from generator.maps.geometry import ORIENTATIONS, HexGrid, hex_label
from generator.problems import Problems
from generator.schema import INVALID, Choice, Field, Int, Length, ListOf, MapOf, Record, Str, Where, optional

OFF_MAP, DEEP_SPACE = "off-map", "deep-space"
LEGEND_ENTRY = Str(r"off-map|deep-space|(home|homeworld) [A-Za-z][A-Za-z0-9_-]*",
                   "'off-map', 'deep-space', 'home COLOUR' or 'homeworld COLOUR'")

MAP = Record({
    "scenario": Field(Str(r"[a-z0-9][a-z0-9-]*", "a scenario id from game.yaml"), doc="the scenario this board is for"),
    "orientation": optional(Choice(ORIENTATIONS), "flat", "flat: flat-topped hexes in columns; pointy: in rows"),
    "hex_size": optional(Length(0, 6 * 72, hint="a length such as 1.25in or 32mm"), "1.25in",
                         "across the flats; big enough for a stack of counters"),
    "rounds": Field(Int(1, 100), doc="boxes on the round track printed in the margin"),
    "legend": Field(MapOf(LEGEND_ENTRY, key=Str(r"\S", "a single character")), doc="what each letter means"),
    "rows": Field(ListOf(Str(), 1), doc="one text per row of hexes, one letter per hex; spaces are ignored"),
}, "a map layout")


@dataclass(frozen=True)
class MapLayout:
    """One board: its grid, which region each on-map hex belongs to, and where each field was written."""

    id: str
    file: Path
    scenario: str
    orientation: str
    hex_size: float                 # points across the flats
    rounds: int
    cols: int
    rows: int
    regions: dict = field(compare=False)      # (col, row) -> "deep-space" or a colour id; off-map absent
    homeworlds: dict = field(compare=False)   # colour id -> [(col, row), ...]
    legend: dict = field(compare=False)       # letter -> legend entry as written
    lines: dict = field(compare=False, repr=False)  # field path -> line

    @property
    def grid(self) -> HexGrid:
        return HexGrid(self.orientation, self.hex_size, self.cols, self.rows)

    @property
    def home_colours(self) -> list[str]:
        """Colours with a home system on this board, in first-seen order."""
        return list(dict.fromkeys(r for r in self.regions.values() if r != DEEP_SPACE))

    def hexes(self, region: str) -> list[tuple[int, int]]:
        return sorted(h for h, r in self.regions.items() if r == region)


def home_system_hexes(kit) -> int:
    """Hexes in one home system, from the data: one per home-system marker plus one per face-up marker."""
    return kit.home_system.total + sum(e.count for e in kit.home_system.face_up)


def load_maps(root: Path, folder: str, kit, problems: Problems) -> tuple[MapLayout, ...]:
    """Every maps/*.yaml layout of a kit, parsed and checked; problems are recorded, not raised."""
    path = (Path(root) / folder).resolve()
    if not path.is_relative_to(Path(root).resolve()) or not path.is_dir():
        file, line = kit.locate("kit", "files.maps")
        problems.error(file, line, "files.maps", f"{folder!r} is not a folder inside the kit")
        return ()
    named: set = set()  # scenarios named by any layout, even a broken one (its errors say enough)
    inside = Path(root).resolve()
    files = sorted(path.glob("*.yaml"))
    for file in files:
        if not file.resolve().is_relative_to(inside):
            problems.error(file, 0, "", "links to a file outside the kit folder")
    layouts = [_load_one(file, kit, problems, named) for file in files if file.resolve().is_relative_to(inside)]
    _warn_unmapped_scenarios(kit, named, problems)
    return tuple(lay for lay in layouts if lay is not None)


def _load_one(path: Path, kit, problems: Problems, named: set) -> MapLayout | None:
    raw = read_mapping(path, problems, "")
    if raw is None:
        return None
    if isinstance(raw.get("scenario"), str):
        named.add(raw["scenario"])
    before = len(problems.errors())
    doc = MAP.check(raw, Where(path, "", raw.line, problems))
    if doc is INVALID:
        return None
    layout = _parse(path, raw, doc, problems)
    if layout is None or len(problems.errors()) > before:
        return None
    check_layout(layout, kit, problems)
    return layout


def _parse(path: Path, raw, doc: dict, problems: Problems) -> MapLayout | None:
    """Rows of letters -> regions; ragged rows and letters missing from the legend are located errors."""
    lines = {f"legend.{k}": raw["legend"].line_of(k) for k in doc["legend"]}
    lines.update({f"rows[{i}]": raw["rows"].line_of(i) for i in range(len(doc["rows"]))})
    lines.update({k: raw.line_of(k) for k in raw})
    cells = [[c for c in text if not c.isspace()] for text in doc["rows"]]
    ok = _check_rows(path, cells, doc["legend"], lines, problems)
    if not ok:
        return None
    regions, homeworlds = {}, {}
    for row, letters in enumerate(cells):
        for col, letter in enumerate(letters):
            kind, _, colour = doc["legend"][letter].partition(" ")
            if kind == DEEP_SPACE:
                regions[(col, row)] = DEEP_SPACE
            elif kind != OFF_MAP:
                regions[(col, row)] = colour
                if kind == "homeworld":
                    homeworlds.setdefault(colour, []).append((col, row))
    return MapLayout(id=path.stem, file=path, scenario=doc["scenario"], orientation=doc["orientation"],
                     hex_size=parse_length(doc["hex_size"]), rounds=doc["rounds"], cols=len(cells[0]),
                     rows=len(cells), regions=regions, homeworlds=homeworlds, legend=doc["legend"],
                     lines=lines)


def _check_rows(path: Path, cells: list, legend: dict, lines: dict, problems: Problems) -> bool:
    ok, width = True, len(cells[0])
    for row, letters in enumerate(cells):
        where = f"rows[{row}]"
        if len(letters) != width:
            problems.error(path, lines[where], where,
                           f"ragged row: {len(letters)} hexes, but the first row has {width}")
            ok = False
        for col, letter in enumerate(letters):
            if letter not in legend:
                known = " ".join(repr(k) for k in legend)
                problems.error(path, lines[where], where, f"letter {letter!r} (hex {hex_label(col, row)}) "
                               f"is not in the legend (known: {known})")
                ok = False
    return ok


def check_layout(layout: MapLayout, kit, problems: Problems) -> None:
    """The board rules: scenario, players, region sizes, one Homeworld each, connected, homes apart."""
    report = _Located(layout, problems)
    scenario = next((s for s in kit.game.scenarios if s.id == layout.scenario), None)
    if scenario is None:
        known = ", ".join(s.id for s in kit.game.scenarios)
        report.error("scenario", f"no scenario {layout.scenario!r} in the game file (known: {known})")
    _check_homes(layout, kit, scenario, report)
    if scenario is not None:
        found = len(layout.hexes(DEEP_SPACE))
        if found != scenario.deep_space_markers:
            report.error(_letter_field(layout, DEEP_SPACE), f"{found} deep-space hexes, but scenario "
                         f"{scenario.id} uses {scenario.deep_space_markers} deep-space markers")
    _check_connected(layout, DEEP_SPACE, report)
    _check_hex_size(layout, kit, report)
    _check_board_size(layout, report)


MAX_BOARD_IN = 120  # a side of the poster; the four-player board is 17.3 x 23.8 in


def _check_board_size(layout: MapLayout, report: "_Located") -> None:
    """A board of thousands of off-map hexes would tile onto thousands of pages: stop before drawing."""
    width, height = layout.grid.size
    if max(width, height) > MAX_BOARD_IN * 72:
        report.error("rows", f"the board measures {width / 72:.0f} x {height / 72:.0f} in, more than "
                             f"{MAX_BOARD_IN} in a side: use fewer rows or columns, or a smaller hex_size")


def _check_homes(layout: MapLayout, kit, scenario, report: "_Located") -> None:
    wanted = home_system_hexes(kit)
    colours = {c.id for c in kit.colours}
    for colour in layout.home_colours:
        at = _letter_field(layout, colour)
        if colour not in colours:
            report.error(at, f"no colour {colour!r} in kit.yaml (known: {', '.join(sorted(colours))})")
            continue
        count = len(layout.hexes(colour))
        if count != wanted:
            report.error(at, f"home system {colour} has {count} hexes; it must have {wanted} "
                         f"(the Homeworld hex and one per home-system marker)")
        homeworlds = layout.homeworlds.get(colour, [])
        if len(homeworlds) != 1:
            report.error(at, f"home system {colour} has {len(homeworlds)} Homeworld hexes; it must have 1")
        _check_connected(layout, colour, report)
    if scenario is not None and len(layout.home_colours) != scenario.players:
        report.error("legend", f"{len(layout.home_colours)} home systems, but scenario {scenario.id} "
                     f"is for {scenario.players} players")
    _check_apart(layout, report)


def _check_connected(layout: MapLayout, region: str, report: "_Located") -> None:
    pieces = connected_pieces(layout, region)
    if len(pieces) > 1:
        starts = ", ".join(hex_label(*min(p)) for p in pieces)
        report.error(_letter_field(layout, region),
                     f"{region} is split into {len(pieces)} separate pieces (starting at {starts})")


def connected_pieces(layout: MapLayout, region: str) -> list[set]:
    """The region's hexes grouped into pieces that touch edge to edge."""
    grid, todo, pieces = layout.grid, set(layout.hexes(region)), []
    while todo:
        stack, piece = [min(todo)], set()
        while stack:
            here = stack.pop()
            if here in todo:
                todo.discard(here)
                piece.add(here)
                stack.extend(grid.neighbours(*here))
        pieces.append(piece)
    return sorted(pieces, key=min)


def _check_apart(layout: MapLayout, report: "_Located") -> None:
    grid, seen = layout.grid, set()
    for here, region in sorted(layout.regions.items()):
        if region == DEEP_SPACE:
            continue
        for there in grid.neighbours(*here):
            other = layout.regions.get(there)
            pair = tuple(sorted((region, other or "")))
            if other not in (None, DEEP_SPACE, region) and pair not in seen:
                seen.add(pair)
                report.error(_letter_field(layout, region), f"home systems {region} and {other} touch "
                             f"(hexes {hex_label(*here)} and {hex_label(*there)}); keep deep space between them")


def _check_hex_size(layout: MapLayout, kit, report: "_Located") -> None:
    problem = hex_too_small(layout, kit.counter_size)
    if problem:
        report.error("hex_size", problem)


def hex_too_small(layout: MapLayout, counter_size: str) -> str | None:
    """Why a counter of `counter_size` does not fit in the layout's hexes, or None when it does."""
    needed = parse_length(counter_size) * 2 ** 0.5  # a square counter inside the hex's inscribed circle
    if layout.hex_size >= needed:
        return None
    return (f"{layout.hex_size / 72:.3g}in across the flats cannot hold a {counter_size} counter "
            f"(needs at least {needed / 72:.3g}in)")


def _letter_field(layout: MapLayout, region: str) -> str:
    """A region's errors point at its legend entry: the line a designer looks at to find its letter."""
    return f"region:{region}"


class _Located:
    """Turns a field name (or region:NAME) into file and line for one layout."""

    def __init__(self, layout: MapLayout, problems: Problems):
        self.layout, self.problems = layout, problems

    def error(self, at: str, message: str) -> None:
        line = self.layout.lines.get(at, self.layout.lines.get("legend", 1))
        if at.startswith("region:"):
            at, line = self._region_line(at.split(":", 1)[1])
        self.problems.error(self.layout.file, line, at, message)

    def _region_line(self, region: str) -> tuple[str, int]:
        names = (region,) if region == DEEP_SPACE else (f"home {region}", f"homeworld {region}")
        for name in names:
            for letter, entry in self.layout.legend.items():
                if entry == name:
                    return f"legend.{letter}", self.layout.lines[f"legend.{letter}"]
        return "legend", self.layout.lines.get("legend", 1)


def _warn_unmapped_scenarios(kit, mapped: set, problems: Problems) -> None:
    for index, scenario in enumerate(kit.game.scenarios):
        if scenario.id not in mapped:
            file, line = kit.locate("game", f"scenarios[{index}]")
            problems.warn(file, line, f"scenarios[{index}]", f"no map layout for scenario {scenario.id}")
