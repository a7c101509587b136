"""Hex-map files (maps/*.yaml in a kit): their schema, parsing into HexMap, and the checks every map gets.

A map is rows of one-character hex letters plus a legend naming what each letter is, so a designer edits the
board by eye. What the legend's words mean, the fields a file adds and the rules its regions obey are the
kit's (kit.yaml `map_rules:`, pnpgen.maps.declared); every problem is reported with its file, line and field.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.yamlio import read_mapping
from pnpgen.lengths import parse_length
from pnpgen.shapes import ACROSS
from pnpgen.maps.geometry import ORIENTATIONS, HexGrid, hex_label
from pnpgen.maps.rules import MAX_BOXES, OFF_MAP, MapRules, Track
from pnpgen.problems import Problems
from pnpgen.schema import (
    INVALID, Bool, Choice, Field, Int, Length, ListOf, MapOf, Record, Str, Where, optional,
)

TRACK = Record({
    "id": Field(Str(r"[A-Za-z0-9_-]+", "an id of letters, digits, _ or -")),
    "caption": optional(Str(), "", "printed above the boxes"),
    "boxes": optional(Int(1, MAX_BOXES), None, "how many numbered boxes (1, 2, ...)"),
    "first": optional(Int(), 1, "the first box's number"),
    "labels": optional(ListOf(Str(), 1), None, "or what each box shows, instead of numbers"),
    "wrap": optional(Bool(), True, "run onto more rows at the board's width; false: one row"),
}, "a track {id, caption, boxes or labels, first, wrap}")

CORE_FIELDS = {
    "title": optional(Str(), None, "printed above the grid (default: the file's name)"),
    "orientation": optional(Choice(ORIENTATIONS), "flat", "flat: flat-topped hexes in columns; pointy: in rows"),
    "hex_size": optional(Length(0, 6 * 72, hint="a length such as 1.25in or 32mm"), "1.25in",
                         "across the flats (or the corners: `across`); big enough for a stack of counters"),
    "across": optional(Choice(ACROSS), "flats", "hex_size measured across the flats or the corners"),
    "tracks": optional(ListOf(TRACK), [], "rows of numbered boxes printed under the grid"),
    "fills": optional(MapOf(Str(r"#[0-9a-fA-F]{6}", "a colour written #rrggbb")), {},
                      "a region's fill (a region named after a player colour takes that colour's tint)"),
}
MAX_BOARD_IN = 120  # a side of the poster: ten feet, far past any table


def map_schema(rules: MapRules) -> Record:
    """The kit's own fields, then the core's (less `title` where the kit's rules make the title), then the
    legend and the rows."""
    own = {f.name: _extra_field(f) for f in rules.fields}
    core = {k: v for k, v in CORE_FIELDS.items() if not (k == "title" and rules.title)}
    pattern, hint = rules.legend_pattern()
    return Record(own | core | {
        "legend": Field(MapOf(Str(pattern, hint), key=Str(r"\S", "a single character")), doc="what each letter means"),
        "rows": Field(ListOf(Str(), 1), doc="one text per row of hexes, one letter per hex; spaces are ignored"),
    }, "a map")


def _extra_field(declared) -> Field:
    if declared.kind == "whole":
        return Field(Int(declared.min, declared.max), doc=declared.doc)
    if declared.kind == "entry":
        return Field(Str(r"[A-Za-z0-9][A-Za-z0-9_-]*", f"an id from {declared.of}"), doc=declared.doc)
    return Field(Str(), doc=declared.doc)


@dataclass(frozen=True)
class HexMap:
    """One board: its grid, which region (and mark) each on-map hex has, and where each field was written."""

    id: str
    file: Path
    title: str
    orientation: str
    hex_size: float                 # points across the flats
    cols: int
    rows: int
    tracks: tuple                   # Track per `tracks:` entry of the file
    fills: dict = field(compare=False)        # region -> "#rrggbb", as the file gives them
    extra: dict = field(compare=False)        # the kit's own fields (map_rules.fields), as checked
    regions: dict = field(compare=False)      # (col, row) -> region; off-map hexes absent
    marks: dict = field(compare=False)        # (col, row) -> mark, for marked hexes only
    legend: dict = field(compare=False)       # letter -> (region, mark) or None (off-map)
    lines: dict = field(compare=False, repr=False)  # field path -> line
    families: dict = field(default_factory=dict, compare=False)  # region -> the legend kind's region word
    rules: MapRules = field(default_factory=MapRules, compare=False, repr=False)  # as the kit declares them

    @property
    def grid(self) -> HexGrid:
        return HexGrid(self.orientation, self.hex_size, self.cols, self.rows)

    @property
    def order(self) -> list[str]:
        """Its regions in drawing and legend order (the kit's legend kinds', then as the rows show them)."""
        return self.rules.order(self.seen, self.families)

    @property
    def seen(self) -> list[str]:
        """Its regions in the order the rows first show them."""
        return list(dict.fromkeys(self.regions.values()))

    def hexes(self, region: str) -> list[tuple[int, int]]:
        return sorted(h for h, r in self.regions.items() if r == region)

    def marked(self, region: str, mark: str) -> list[tuple[int, int]]:
        return [h for h in self.hexes(region) if self.marks.get(h) == mark]

    def error(self, problems: Problems, at: str, message: str) -> None:
        """A located error: `at` is a field path, or `region:NAME` (its legend entry's line)."""
        if at.startswith("region:"):
            at = self.region_field(at.split(":", 1)[1])
        problems.error(self.file, self.lines.get(at, self.lines.get("legend", 1)), at, message)

    def region_field(self, region: str) -> str:
        """A region's legend entry, the line a designer looks at to find its letter (unmarked letters first)."""
        letters = sorted((meant[1] is not None, i, letter) for i, (letter, meant) in enumerate(self.legend.items())
                         if meant and meant[0] == region)
        return f"legend.{letters[0][2]}" if letters else "legend"


def load_hex_maps(root: Path, folder: str, kit, problems: Problems, named: tuple | None = None,
                  declared: dict | None = None, docs: dict | None = None, broken: frozenset = frozenset(),
                  files: dict | None = None) -> tuple[HexMap, ...]:
    """Every maps/*.yaml of a kit, parsed and checked against the rules kit.yaml declares (`declared`, its
    `map_rules:` block, read over the module's `docs`, kit.yaml and any kit file, as `checks:` are); problems
    are recorded, not raised. `named` is (file, line, field) where kit.yaml names the folder: then it must
    exist. A rule over a data file that failed its own schema (`broken`) leaves the maps unread."""
    from pnpgen.declared_paths import Sources
    from pnpgen.maps.declared import read_map_rules
    from pnpgen.maps.region_checks import check_maps
    rules = read_map_rules(declared, Sources(docs or {}, kit.lines, root), broken, tuple(c.id for c in kit.colours),
                           files, Path(root) / "kit.yaml", problems)
    path, inside = (Path(root) / folder).resolve(), Path(root).resolve()
    if rules is None:
        return ()
    if not path.is_relative_to(inside) or (named and not path.is_dir()):
        file, line, at = named or (kit.locate("kit", "maps") + ("maps",))
        problems.error(file, line, at, f"{folder!r} is not a folder inside the kit")
        return ()
    files_found = sorted(path.glob("*.yaml")) if path.is_dir() else []
    for file in files_found:
        if not file.resolve().is_relative_to(inside):
            problems.error(file, 0, "", "links to a file outside the kit folder")
    schema, written, maps = map_schema(rules), [], []
    for file in (f for f in files_found if f.resolve().is_relative_to(inside)):
        raw = read_mapping(file, root, problems, "")
        if raw is not None:
            written.append(raw)
            maps.append(_load_one(file, raw, schema, rules, kit, problems))
    maps = tuple(m for m in maps if m is not None)
    check_maps(rules, maps, written, problems)
    return maps


def _load_one(path: Path, raw, schema: Record, rules: MapRules, kit, problems: Problems) -> HexMap | None:
    before = len(problems.errors())
    doc = schema.check(raw, Where(path, "", raw.line, problems))
    if doc is INVALID:
        return None
    hexmap = _parse(path, raw, doc, rules, problems)
    if hexmap is None or len(problems.errors()) > before:
        return None
    _check_sizes(hexmap, kit.counter_size, problems)
    return hexmap


def _parse(path: Path, raw, doc: dict, rules: MapRules, problems: Problems) -> HexMap | None:
    """Rows of letters -> regions; ragged rows and letters missing from the legend are located errors."""
    lines = {f"legend.{k}": raw["legend"].line_of(k) for k in doc["legend"]}
    lines.update({f"rows[{i}]": raw["rows"].line_of(i) for i in range(len(doc["rows"]))})
    lines.update({f"tracks[{i}]": raw["tracks"].line_of(i) for i in range(len(doc.get("tracks") or []))})
    lines.update({k: raw.line_of(k) for k in raw})
    cells = [[c for c in text if not c.isspace()] for text in doc["rows"]]
    tracks = _tracks(path, doc.get("tracks") or [], lines, problems)
    if not _check_rows(path, cells, doc["legend"], lines, problems) or tracks is None:
        return None
    meant = {k: None if v == OFF_MAP else rules.meaning(v) for k, v in doc["legend"].items()}
    legend = {k: m and m[:2] for k, m in meant.items()}
    families = _families(path, meant, lines, problems)
    if families is None:
        return None
    regions, marks = {}, {}
    for row, letters in enumerate(cells):
        for col, letter in enumerate(letters):
            if legend[letter] is not None:
                regions[(col, row)], mark = legend[letter]
                if mark is not None:
                    marks[(col, row)] = mark
    extra = {f.name: doc[f.name] for f in rules.fields}
    title = doc.get("title") or (rules.title and rules.text(rules.title, extra)) or path.stem
    return HexMap(id=path.stem, file=path, title=title, orientation=doc["orientation"],
                  hex_size=_flats(doc), cols=len(cells[0]), rows=len(cells), tracks=rules.tracks_of(extra) + tracks,
                  fills=doc.get("fills") or {}, extra=extra, regions=regions, marks=marks, legend=legend, lines=lines,
                  families=families, rules=rules)


def _families(path: Path, meant: dict, lines: dict, problems: Problems) -> dict | None:
    """region -> the legend kind's region word that makes it; a region two kinds make (a colour's and a
    fixed word's) would fall under two sets of rules: a located error."""
    families: dict = {}
    for letter, m in meant.items():
        if m and families.setdefault(m[0], m[2]) != m[2]:
            problems.error(path, lines[f"legend.{letter}"], f"legend.{letter}",
                           f"region {m[0]!r} is made by two legend words ({families[m[0]]} and {m[2]}): "
                           f"name it apart")
            return None
    return families


def _tracks(path: Path, docs: list, lines: dict, problems: Problems) -> tuple | None:
    """Each `tracks:` entry as a Track: its numbered boxes, or its labels."""
    out = []
    for i, t in enumerate(docs):
        if (t["boxes"] is None) == (t["labels"] is None):
            problems.error(path, lines[f"tracks[{i}]"], f"tracks[{i}]", "give either `boxes` (how many) or `labels`")
            return None
        labels = t["labels"] or [str(t["first"] + n) for n in range(t["boxes"])]
        out.append(Track(t["id"], t["caption"], tuple((label, 1) for label in labels), t["wrap"]))
    return tuple(out)


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


def _check_sizes(hexmap: HexMap, counter_size: str, problems: Problems) -> None:
    """A counter must fit in a hex, and a board of thousands of hexes would tile onto thousands of pages."""
    problem = hex_too_small(hexmap, counter_size)
    if problem:
        hexmap.error(problems, "hex_size", problem)
    width, height = hexmap.grid.size
    if max(width, height) > MAX_BOARD_IN * 72:
        hexmap.error(problems, "rows", f"the board measures {width / 72:.0f} x {height / 72:.0f} in, more than "
                                       f"{MAX_BOARD_IN} in a side: use fewer rows or columns, or a smaller hex_size")


def hex_too_small(hexmap: HexMap, counter_size: str) -> str | None:
    """Why a counter of `counter_size` does not fit in the map's hexes, or None when it does."""
    needed = parse_length(counter_size) * 2 ** 0.5  # a square counter inside the hex's inscribed circle
    if hexmap.hex_size >= needed:
        return None
    return (f"{hexmap.hex_size / 72:.3g}in across the flats cannot hold a {counter_size} counter "
            f"(needs at least {needed / 72:.3g}in)")


def _flats(doc: dict) -> float:
    """The hex size in points across the flats, however the map gives it (the grid is laid out in flats)."""
    size = parse_length(doc["hex_size"])
    return size * math.sqrt(3) / 2 if doc.get("across") == "corners" else size
