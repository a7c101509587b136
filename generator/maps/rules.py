"""What a kit's hex maps mean beyond their geometry, as the kit declares it (kit.yaml `map_rules:`): MapRules.

The core reads a map file (rows of letters, a legend, hex size, tracks), composes it into positions and prints
it. What the legend's words stand for, which extra fields a file holds, the tracks the data sets and the rules
a map's regions obey are the kit's, written as data and turned into a MapRules here (pnpgen.maps.declared
reads the block; pnpgen.maps.region_checks runs the rules). A kit that declares nothing gets the defaults: a
legend entry other than `off-map` is a region's name, then maybe a mark its hexes carry ('forest', 'red
capital').
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

OFF_MAP = "off-map"   # the one legend word the core knows: no hex there
COLOUR, NAME = "COLOUR", "NAME"   # placeholders of a declared legend word: a player colour of kit.yaml, any name
NAME_PATTERN = r"[A-Za-z][A-Za-z0-9_-]*"
MAX_BOXES = 500       # boxes on one track: a long game's rounds, far from a page's worth of rows


@dataclass(frozen=True)
class Track:
    """A row of numbered boxes under the grid (rounds, turns): each box a label and a width in boxes."""

    id: str
    caption: str
    boxes: tuple[tuple[str, int], ...]
    wrap: bool = True    # runs onto more rows at the board's width; False: one row, widening the board


@dataclass(frozen=True)
class LegendKind:
    """One legend word a kit declares ('home COLOUR'): the region its hexes join and a mark they carry."""

    words: tuple[str, ...]       # ('home', 'COLOUR')
    region: str                  # 'COLOUR' or a fixed name ('deep-space'): also the family rules select by
    mark: str | None = None


@dataclass(frozen=True)
class ExtraField:
    """A field of every map file the kit declares: a whole number, a text, or the id of an entry of a list
    (or a key of a mapping) in the data."""

    name: str
    kind: str                    # 'whole', 'text' or 'entry'
    doc: str = ""
    min: int | None = None
    max: int | None = None
    of: str | None = None        # entry: the data path of the list (entries with `id`) or mapping
    entries: dict = field(default_factory=dict, compare=False)  # entry: id -> entry (a mapping), from the data
    at: tuple = ()               # entry: (id, (path, file, line)) of each entry, for a warning at its line
    every_entry: bool = False    # entry: an entry no map names is a warning
    declared_at: tuple = ("kit.yaml", 0)   # (file, line) of its declaration in kit.yaml


@dataclass(frozen=True)
class RegionRule:
    """A rule every map's regions of one family obey, named in each error it gives."""

    rule: str
    family: str                  # the legend kinds' region ('COLOUR' or a fixed name)
    count: object = None         # how many such regions: a number source (see MapRules.value)
    size: object = None          # hexes in each
    marked: dict = field(default_factory=dict)   # mark -> how many hexes of each region carry it
    connected: bool = False      # each region in one piece
    apart: bool = False          # no two of them touch
    line: int = 0


@dataclass(frozen=True)
class TrackRule:
    """A track every map prints: its boxes from a number source, then any wider boxes after them."""

    id: str
    caption: str                 # may name values in braces: "Turn track: {turns} turns"
    boxes: object
    first: int = 1
    after: tuple = ()            # (label, width in boxes) after the numbered boxes
    wrap: bool = True


@dataclass(frozen=True)
class MapRules:
    """A kit's meaning of its map files. Every field has the data kit's default (nothing declared)."""

    fields: tuple = ()           # ExtraField per declared field
    legend: tuple = ()           # LegendKind per declared word; () takes any 'region [mark]'
    colours: tuple = ()          # the kit's colour ids, for COLOUR
    regions: tuple = ()          # RegionRule
    tracks: tuple = ()           # TrackRule, printed before a map file's own tracks
    title: str | None = None     # a map's title from its values ("{scenario.name}"); else the file's
    numbers: dict = field(default_factory=dict)   # name -> number, from the data
    ignores: tuple = ()          # the module's data files the rules never read: editing them keeps the maps
    reads: tuple = ()            # the kit files the rules name by path (`components/x.yaml`): never ignored

    def field_named(self, name: str) -> ExtraField | None:
        return next((f for f in self.fields if f.name == name), None)

    def value(self, source, extra: dict):
        """A number source for one map: a number, a name of `numbers:`, a map field (`rounds`) or a field of
        the entry a map field names (`scenario.players`), or a tuple of them added up. None where the map
        names no such entry (its own error says so)."""
        if isinstance(source, tuple):
            parts = [self.value(s, extra) for s in source]
            return None if any(not isinstance(p, int) for p in parts) else sum(parts)
        if source is None or isinstance(source, int):
            return source
        head, *rest = source.split(".")
        if head in self.numbers:
            return self.numbers[head]
        declared, found = self.field_named(head), extra.get(head)
        if declared is not None and declared.kind == "entry":
            found = declared.entries.get(found)
        for step in rest:
            found = found.get(step) if isinstance(found, dict) else None
        return found

    def text(self, template: str, extra: dict) -> str | None:
        """A caption or title with each {source} replaced by its value; None if one has none."""
        values = {m: self.value(m, extra) for m in placeholders(template)}
        if any(v is None for v in values.values()):
            return None
        return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), template)

    def context(self, extra: dict) -> dict:
        """What a map template reads besides the core's names: each number, and each field's value (an
        entry field: the entry itself, so `scenario.name` prints)."""
        fields = {f.name: self.value(f.name, extra) for f in self.fields}
        return dict(self.numbers) | fields

    def tracks_of(self, extra: dict) -> tuple:
        """The declared tracks for one map, with their boxes counted from its values."""
        out = []
        for t in self.tracks:
            count = self.value(t.boxes, extra)
            count = count if isinstance(count, int) and 0 <= count <= MAX_BOXES else 0  # else region_checks says why
            boxes = tuple((str(t.first + n), 1) for n in range(count)) + tuple(t.after)
            out.append(Track(t.id, self.text(t.caption, extra) or t.caption, boxes, t.wrap))
        return tuple(out)

    def meaning(self, entry: str) -> tuple[str, str | None, str]:
        """A legend entry -> (region, mark, family): the region its hexes join, their mark, the family
        the region rules select (the kind's region word, or the region itself when nothing is declared)."""
        if not self.legend:
            region, _, mark = entry.partition(" ")
            return region, mark or None, region
        words = entry.split()
        for kind in self.legend:
            filled = _fill(kind.words, words)
            if filled is not None:
                return (filled if kind.region in (COLOUR, NAME) else kind.region), kind.mark, kind.region
        raise ValueError(entry)   # the legend's schema let through only declared words

    def legend_pattern(self) -> tuple[str, str]:
        """(regular expression, hint) of a legend entry: off-map or a declared word."""
        if not self.legend:
            return (r"[A-Za-z0-9_-]+( [A-Za-z0-9_-]+)?",
                    "a region's name, then maybe a mark ('forest', 'red capital'), or 'off-map'")
        colours = "|".join(self.colours) or "(?!)"
        slots = {COLOUR: f"(?:{colours})", NAME: NAME_PATTERN}
        kinds = [" ".join(slots.get(w, re.escape(w)) for w in k.words) for k in self.legend]
        names = ", ".join(repr(" ".join(k.words)) for k in self.legend)
        hint = f"'off-map' or one of {names}" + (
            f" (COLOUR: {', '.join(self.colours)})" if any(COLOUR in k.words for k in self.legend) else "")
        return "|".join([OFF_MAP] + kinds), hint

    def order(self, seen: list[str], families: dict) -> list[str]:
        """Regions in drawing and legend order: by their legend kind's place in the declaration, then as
        the rows first show them."""
        place = {k.region: i for i, k in reversed(list(enumerate(self.legend)))}
        return sorted(seen, key=lambda r: place.get(families.get(r), 0))


PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def placeholders(template: str) -> list[str]:
    """The sources a caption or title prints: 'Turn track: {turns} turns' -> ['turns']."""
    return PLACEHOLDER.findall(template)


def _fill(pattern: tuple, words: list) -> str | None:
    """The word a placeholder stands for when `words` match `pattern`, '' when no placeholder; else None."""
    if len(pattern) != len(words):
        return None
    filled = ""
    for want, got in zip(pattern, words):
        if want in (COLOUR, NAME):
            filled = got
        elif want != got:
            return None
    return filled


DEFAULT = MapRules()


def rules_of(kit) -> MapRules:
    """The rules the kit's maps were read with (each map keeps them), or the defaults."""
    return kit.maps[0].rules if kit.maps else DEFAULT
