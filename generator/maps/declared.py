"""kit.yaml `map_rules:`, what a kit's hex maps mean, read into MapRules: its schema, and the numbers and lists
it names in the data, each found once at load (a path that finds nothing is a located error in kit.yaml).

A number source is a number, a data path `FILE:FIELD.FIELD` (the numbers found there, added; written and read
as kit.yaml `checks:` paths are, by pnpgen.declared_paths: FILE a game module's file, `kit` or a kit file's
path), a name of `numbers:`, a map field (`rounds`), a field of the entry a map field names
(`scenario.players`), or a list of these, added up.
"""
from __future__ import annotations

from pnpgen.declared_checks import PATH
from pnpgen.declared_paths import Sources, is_file_path, is_wild, split
from pnpgen.maps.rules import (
    COLOUR, NAME, NAME_PATTERN, ExtraField, LegendKind, MapRules, RegionRule, TrackRule, placeholders,
)
from pnpgen.schema import Bool, Choice, Either, Field, Int, ListOf, MapOf, Record, Str, optional

DATA_PATH = PATH.pattern   # FILE:FIELD.FIELD as kit.yaml `checks:` writes it
MAP_PATH = r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*"
ONE_SOURCE = Either((Int(0, 10 ** 6), Str(f"{DATA_PATH}|{MAP_PATH}", "FILE:FIELD, a number's name or a map field")))
SOURCE = Either((ONE_SOURCE, ListOf(ONE_SOURCE, 1)))
NAME_KEY = Str(r"[a-z_][a-z0-9_]*", "a name of lower-case letters, digits and _")
# names a map template already has, and a map file's own fields: a declared name must not hide them
RESERVED = {"view", "w_mm", "h_mm", "font", "condensed", "board", "title", "kit", "flats", "hex_inches",
            "regions", "outline", "styles", "thumbnail", "orientation", "hex_size", "across", "tracks", "fills",
            "legend", "rows"}

FIELD = Record({
    "type": Field(Choice(("whole", "text", "entry")), doc="a whole number, a text, or the id of a data entry"),
    "doc": optional(Str(), "", "what the field says, for the designer"),
    "min": optional(Int(), None, "whole: the smallest value"),
    "max": optional(Int(), None, "whole: the largest value"),
    "of": optional(Str(DATA_PATH, "FILE:FIELD such as data/eras.yaml:eras"), None,
                   "entry: the list (entries with an `id`) or mapping whose ids a map names"),
    "every_entry_has_a_map": optional(Bool(), False, "entry: an entry no map names is a warning"),
}, "{type, doc, min, max, of, every_entry_has_a_map}")
LEGEND_KIND = Record({
    "region": Field(Str(f"{COLOUR}|{NAME}|{NAME_PATTERN}", "COLOUR, NAME or a region's name")),
    "mark": optional(Str(NAME_PATTERN, "a mark's name"), None, "what its hexes carry besides the region"),
}, "{region, mark}")
REGION_RULE = Record({
    "rule": Field(Str(), doc="the rule's name, quoted in its errors"),
    "regions": Field(Str(f"{COLOUR}|{NAME}|{NAME_PATTERN}", "COLOUR, NAME or a region's name")),
    "count": optional(SOURCE, None, "how many such regions a map has"),
    "size": optional(SOURCE, None, "hexes in each"),
    "marked": optional(MapOf(SOURCE), {}, "mark -> how many hexes of each carry it"),
    "connected": optional(Bool(), False, "each region in one piece"),
    "apart": optional(Bool(), False, "no two of these regions touch"),
}, "{rule, regions, count, size, marked, connected, apart}")
TRACK_RULE = Record({
    "id": Field(Str(NAME_PATTERN, "an id of letters, digits, _ or -")),
    "caption": optional(Str(), "", "printed above the boxes; {name} prints a value"),
    "boxes": Field(SOURCE, doc="how many numbered boxes"),
    "first": optional(Int(), 1, "the first box's number"),
    "after": optional(ListOf(Record({"label": Field(Str()), "wide": optional(Int(1, 20), 1, "boxes wide")},
                                    "{label, wide}")), [], "boxes after the numbered ones"),
    "wrap": optional(Bool(), True, "run onto more rows at the board's width; false: one row"),
}, "{id, caption, boxes, first, after, wrap}")
MAP_RULES = Record({
    "numbers": optional(MapOf(SOURCE, key=NAME_KEY), {}, "numbers from the data, by name"),
    "fields": optional(MapOf(FIELD, key=NAME_KEY), {}, "a map file's own fields beyond the core's"),
    "title": optional(Str(), None, "a map's title from its values, e.g. '{era.name}'"),
    "legend": optional(MapOf(LEGEND_KIND, key=Str(r"[A-Za-z0-9_-]+( [A-Za-z0-9_-]+)*", "words")), {},
                       "the words a legend entry may say besides off-map; COLOUR or NAME stands for one"),
    "regions": optional(ListOf(REGION_RULE), [], "rules every map's regions obey"),
    "tracks": optional(ListOf(TRACK_RULE), [], "tracks every map prints, before its own"),
}, "{numbers, fields, title, legend, regions, tracks}")


class _Reader:
    """Turns the checked block into MapRules, recording located problems at kit.yaml's lines."""

    def __init__(self, sources: Sources, broken: frozenset, kit_file, problems):
        self.sources, self.broken, self.kit_file, self.problems = sources, broken, kit_file, problems
        self.named_files: set[str] = set()

    def error(self, at: str, message: str) -> None:
        self.problems.error(self.kit_file, self.sources.locate("kit", at)[1], at, message)

    def found(self, path: str, at: str):
        """[Found] a data path reaches, or None with the problem recorded."""
        file_key, steps = split(path)
        self.named_files.add(file_key)
        if file_key in self.broken:
            return None   # its own errors say enough; the maps wait for it
        unreadable = self.sources.load(file_key) if self.sources.knows(file_key) else (
            f"no data file {file_key!r} (files: {', '.join(self.sources.names())}, or a kit file's path)")
        if unreadable:
            self.error(at, unreadable)
            return None
        found = self.sources.find(path)[1]
        if not found and not any(map(is_wild, steps)):
            self.error(at, f"nothing at {path}")
            return None
        return found

    def number(self, source, at: str):
        """A data path (or a list with one) as its number; other sources stay as written (a tuple for a list)."""
        if isinstance(source, list):
            parts = [self.number(s, f"{at}[{i}]") for i, s in enumerate(source)]
            if any(p is None for p in parts):
                return None
            return sum(parts) if all(isinstance(p, int) for p in parts) else tuple(parts)
        if not isinstance(source, str) or ":" not in source:
            return source
        found = self.found(source, at)
        if found is None:
            return None
        bad = [f.path for f in found if isinstance(f.value, bool) or not isinstance(f.value, int)]
        if bad:
            self.error(at, f"{source}: {bad[0]} is not a whole number")
            return None
        return sum(f.value for f in found)


def read_map_rules(block: dict | None, sources: Sources, broken: frozenset, colours: tuple, files: dict | None,
                   kit_file, problems) -> MapRules | None:
    """The kit's MapRules from its checked `map_rules:` block (None: the defaults), its paths read through
    `sources`. None back when the block names a data file that failed its own schema (its errors say
    enough) or is itself wrong."""
    if not block:
        return MapRules(colours=colours)
    reader, before = _Reader(sources, broken, kit_file, problems), len(problems.errors())
    numbers = {name: reader.number(s, f"map_rules.numbers.{name}") for name, s in block["numbers"].items()}
    fields = tuple(_field(reader, name, f) for name, f in block["fields"].items())
    rules = MapRules(
        fields=fields, colours=colours, numbers=numbers, title=block["title"],
        legend=tuple(LegendKind(tuple(w.split()), k["region"], k["mark"]) for w, k in block["legend"].items()),
        regions=tuple(_region_rule(reader, i, r) for i, r in enumerate(block["regions"])),
        tracks=tuple(_track(reader, i, t) for i, t in enumerate(block["tracks"])),
    )
    if reader.named_files & broken:
        return None
    _check_names(reader, rules, block)
    if len(problems.errors()) > before:
        return None
    ignored = tuple(sorted(rel for key, rel in (files or {}).items() if rel and key not in reader.named_files
                           and key in sources.docs))
    reads = tuple(sorted(key for key in reader.named_files if is_file_path(key)))
    return MapRules(**{**rules.__dict__, "ignores": ignored, "reads": reads})


def _field(reader: _Reader, name: str, spec: dict) -> ExtraField:
    at = f"map_rules.fields.{name}"
    entries, paths = {}, {}
    if spec["type"] == "entry":
        if not spec["of"]:
            reader.error(at, "an entry field says which data it names: `of: FILE:FIELD`")
        else:
            entries, paths = _entries(reader, spec["of"], f"{at}.of")
    return ExtraField(name, spec["type"], spec["doc"], spec["min"], spec["max"], spec["of"], entries,
                      tuple(paths.items()), spec["every_entry_has_a_map"], reader.sources.locate("kit", at))


def _entries(reader: _Reader, path: str, at: str) -> tuple[dict, dict]:
    """id -> entry and id -> (path, file, line) of the entry, of a list of mappings with `id` or of a mapping."""
    file_key = split(path)[0]
    entries, where = {}, {}
    for found in reader.found(path, at) or []:
        node = found.value
        if isinstance(node, list):
            pairs = [(str(e["id"]), f"{found.path}[{i}]", e) for i, e in enumerate(node)
                     if isinstance(e, dict) and "id" in e]
        elif isinstance(node, dict):
            pairs = [(str(k), f"{found.path}.{k}" if found.path else str(k), v) for k, v in node.items()]
        else:
            reader.error(at, f"{path} is neither a list of entries with an `id` nor a mapping")
            return {}, {}
        for key, entry_path, entry in pairs:
            entries[key], where[key] = entry, (entry_path, *reader.sources.locate(file_key, entry_path))
    return entries, where


def _region_rule(reader: _Reader, index: int, spec: dict) -> RegionRule:
    at = f"map_rules.regions[{index}]"
    marked = {mark: reader.number(s, f"{at}.marked.{mark}") for mark, s in spec["marked"].items()}
    return RegionRule(spec["rule"], spec["regions"], reader.number(spec["count"], f"{at}.count"),
                      reader.number(spec["size"], f"{at}.size"), marked, spec["connected"], spec["apart"],
                      reader.sources.locate("kit", at)[1])


def _track(reader: _Reader, index: int, spec: dict) -> TrackRule:
    at = f"map_rules.tracks[{index}]"
    return TrackRule(spec["id"], spec["caption"], reader.number(spec["boxes"], f"{at}.boxes"), spec["first"],
                     tuple((a["label"], a["wide"]) for a in spec["after"]), spec["wrap"])


def _check_names(reader: _Reader, rules: MapRules, block: dict) -> None:
    """Every name a source or a caption uses is a number or a field; no name hides a core one; a rule's
    regions and marks are ones the legend makes."""
    for name in list(rules.numbers) + [f.name for f in rules.fields]:
        if name in RESERVED:
            reader.error(f"map_rules.{'numbers' if name in rules.numbers else 'fields'}.{name}",
                         f"{name!r} is a name the core's maps use already: choose another")
    for name, source in rules.numbers.items():
        if any(isinstance(s, str) for s in _flat(source)):
            reader.error(f"map_rules.numbers.{name}", "a number comes from the data: a number or FILE:FIELD")
    known = set(rules.numbers) | {f.name for f in rules.fields}
    uses = [(f"map_rules.regions[{i}]", s) for i, r in enumerate(rules.regions)
            for s in (r.count, r.size, *r.marked.values())]
    uses += [(f"map_rules.tracks[{i}].boxes", t.boxes) for i, t in enumerate(rules.tracks)]
    uses += [(f"map_rules.tracks[{i}].caption", tuple(placeholders(t.caption))) for i, t in enumerate(rules.tracks)]
    uses += [("map_rules.title", tuple(placeholders(rules.title or "")))]
    for at, source in uses:
        for name in (s.split(".")[0] for s in _flat(source) if isinstance(s, str)):
            if name not in known:
                reader.error(at, f"unknown name {name!r} (numbers and fields: {', '.join(sorted(known)) or 'none'})")
    _check_families(reader, rules)


def _check_families(reader: _Reader, rules: MapRules) -> None:
    for kind in rules.legend:
        if kind.region in (COLOUR, NAME) and kind.region not in kind.words:
            reader.error(f"map_rules.legend.{' '.join(kind.words)}", f"the region is the word {kind.region} "
                                                                     f"stands for: put {kind.region} in the words")
    if not rules.legend:
        return
    families = {k.region for k in rules.legend}
    for i, rule in enumerate(rules.regions):
        if rule.family not in families:
            reader.error(f"map_rules.regions[{i}].regions", f"no legend word makes {rule.family!r} regions "
                                                            f"(known: {', '.join(sorted(families))})")
        marks = {k.mark for k in rules.legend if k.region == rule.family}
        for mark in rule.marked:
            if mark not in marks:
                reader.error(f"map_rules.regions[{i}].marked.{mark}", f"no legend word marks {mark!r} hexes "
                                                                      f"of {rule.family} regions")


def _flat(source) -> list:
    return list(source) if isinstance(source, tuple) else [source]
