"""What a kit's hex maps mean beyond their geometry: MapRules, the seam a game module fills in.

The core reads a map file (rows of letters, a legend, hex size, tracks), composes it into positions and prints
it. What the legend's words stand for, which extra fields a file holds, the game's own checks and the names
its template needs are the kit's: a data kit gets the defaults here (a legend entry other than `off-map` is a
region's name, then maybe a mark its hexes carry: 'forest', 'red capital'), a game module gives its own
MapRules (GameModule.hex_maps returns it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pnpgen.schema import Str

OFF_MAP = "off-map"   # the one legend word the core knows: no hex there


@dataclass(frozen=True)
class Track:
    """A row of numbered boxes under the grid (rounds, turns): each box a label and a width in boxes."""

    id: str
    caption: str
    boxes: tuple[tuple[str, int], ...]
    wrap: bool = True    # runs onto more rows at the board's width; False: one row, widening the board


@dataclass(frozen=True)
class MapRules:
    """A kit's meaning of its map files. Every field has the data kit's default."""

    # extra fields of a map file (name -> schema Field), or None to drop a core field (title, tracks)
    fields: dict = field(default_factory=dict)
    legend_entry: Str = field(default_factory=lambda: Str(
        r"[A-Za-z0-9_-]+( [A-Za-z0-9_-]+)?",
        "a region's name, then maybe a mark ('forest', 'red capital'), or 'off-map'"))
    # a legend entry -> (region, mark): the region it colours and a mark its hexes carry (or None)
    meaning: Callable = lambda entry: _region_and_mark(entry)
    order: Callable = lambda regions: regions             # regions as first seen -> drawing and legend order
    tracks: Callable = lambda kit, hexmap: hexmap.tracks  # the Tracks printed under the grid, in order
    title: Callable = lambda kit, hexmap: f"{kit.title}: {hexmap.title}"
    # its own checks, once every file is read: the maps that parsed, and every file's mapping as written
    check: Callable = lambda kit, hexmaps, written, problems: None
    context: Callable = lambda kit, board: {}             # names its map template reads besides the core's
    manifest: Callable = lambda hexmap: {}                # what manifest.json says of a map besides the core's
    ignores: tuple = ()   # the module's data files its maps never read (kit-relative): editing them keeps the maps


def _region_and_mark(entry: str) -> tuple[str, str | None]:
    region, _, mark = entry.partition(" ")
    return region, mark or None


DEFAULT = MapRules()


def rules_of(kit) -> MapRules:
    """The kit's game module's MapRules, or the data kit's defaults."""
    from pnpgen import game_modules
    module = game_modules.of(kit)
    return module.hex_maps() if module and module.hex_maps else DEFAULT
