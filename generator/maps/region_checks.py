"""The rules a kit declares for its hex maps (kit.yaml `map_rules:`), run over every map that parsed: each
entry a map names exists, each region rule holds (how many regions, their sizes, their marked hexes, in one
piece, apart), and an entry no map names is a warning. Each error is located at the map's field or legend
line and names the rule."""
from __future__ import annotations

from pnpgen.maps.geometry import hex_label
from pnpgen.maps.rules import COLOUR, MAX_BOXES, NAME, MapRules, RegionRule


def connected_pieces(hexmap, region: str) -> list[set]:
    """The region's hexes of a HexMap grouped into pieces that touch edge to edge."""
    grid, todo, pieces = hexmap.grid, set(hexmap.hexes(region)), []
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


def check_maps(rules: MapRules, hexmaps, written: list, problems) -> None:
    """Every declared rule over every map; then the entries (scenarios...) no file names, even a broken one."""
    for hexmap in hexmaps:
        _check_entries(rules, hexmap, problems)
        _check_tracks(rules, hexmap, problems)
        for rule in rules.regions:
            _check_rule(rules, rule, hexmap, problems)
    for declared in (f for f in rules.fields if f.every_entry):
        _warn_unmapped(declared, written, problems)


def _warn_unmapped(declared, written: list, problems) -> None:
    """Each entry of a field's list that no map file names: a warning at the entry's line (or at the field's
    declaration in kit.yaml, where no line index knows the entry)."""
    named = {str(raw.get(declared.name)) for raw in written if raw.get(declared.name) is not None}
    for key, (path, file, line) in declared.at:
        if key in named:
            continue
        if not line:
            (file, line), path = declared.declared_at, f"map_rules.fields.{declared.name}"
        problems.warn(file, line, path, f"no map layout for {declared.name} {key}")


def _check_entries(rules: MapRules, hexmap, problems) -> None:
    for declared in (f for f in rules.fields if f.kind == "entry"):
        value = hexmap.extra.get(declared.name)
        if value is not None and str(value) not in declared.entries:
            hexmap.error(problems, declared.name, f"no {declared.name} {value!r} in {declared.of} "
                                                  f"(known: {', '.join(declared.entries)})")


def _check_tracks(rules: MapRules, hexmap, problems) -> None:
    """A declared track's box count, for this map: a whole number the page can hold."""
    for track in rules.tracks:
        count = rules.value(track.boxes, hexmap.extra)
        if count is not None and (not _whole(count) or not 0 <= count <= MAX_BOXES):
            hexmap.error(problems, "legend", f"track {track.id}: {_said(rules, track.boxes, hexmap.extra)} is "
                                             f"{count!r}, not a whole number of boxes from 0 to {MAX_BOXES}")


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _wanted(rules: MapRules, source, extra: dict, error, at: str):
    """The number a rule asks for on this map, or None (no such entry; or not a number: a located error)."""
    value = rules.value(source, extra)
    if value is not None and not _whole(value):
        error(at, f"{_said(rules, source, extra)} is {value!r}, not a whole number")
        return None
    return value


def _check_rule(rules: MapRules, rule: RegionRule, hexmap, problems) -> None:
    chosen = ([r for r in hexmap.seen if hexmap.families.get(r) == rule.family]
              if rule.family in (COLOUR, NAME) else [rule.family])
    extra = hexmap.extra

    def error(at: str, message: str) -> None:
        hexmap.error(problems, at, f"{rule.rule}: {message}")

    wanted = _wanted(rules, rule.count, extra, error, "legend")
    if wanted is not None and len(chosen) != wanted:
        error("legend", f"{len(chosen)} regions ({', '.join(chosen) or 'none'}), but "
                        f"{_said(rules, rule.count, extra)} is {wanted}")
    for region in chosen:
        _check_region(rules, rule, hexmap, region, error)
    if rule.apart:
        _check_apart(hexmap, chosen, error)


def _check_region(rules: MapRules, rule: RegionRule, hexmap, region: str, error) -> None:
    at, extra = f"region:{region}", hexmap.extra
    wanted, count = _wanted(rules, rule.size, extra, error, at), len(hexmap.hexes(region))
    if wanted is not None and count != wanted:
        error(at, f"{region} has {count} hexes; it must have {wanted} ({_said(rules, rule.size, extra)})")
    for mark, source in rule.marked.items():
        wanted, count = _wanted(rules, source, extra, error, at), len(hexmap.marked(region, mark))
        if wanted is not None and count != wanted:
            error(at, f"{region} has {count} hexes marked {mark}; it must have {wanted}")
    if rule.connected:
        pieces = connected_pieces(hexmap, region)
        if len(pieces) > 1:
            starts = ", ".join(hex_label(*min(p)) for p in pieces)
            error(at, f"{region} is split into {len(pieces)} separate pieces (starting at {starts})")


def _check_apart(hexmap, chosen: list, error) -> None:
    grid, seen, chosen = hexmap.grid, set(), set(chosen)
    for here, region in sorted(hexmap.regions.items()):
        if region not in chosen:
            continue
        for there in grid.neighbours(*here):
            other = hexmap.regions.get(there)
            pair = tuple(sorted((region, other or "")))
            if other in chosen and other != region and pair not in seen:
                seen.add(pair)
                error(f"region:{region}", f"{region} and {other} touch (hexes {hex_label(*here)} and "
                                          f"{hex_label(*there)}); keep other hexes between them")


def _said(rules: MapRules, source, extra: dict) -> str:
    """Where a number came from, as the rules wrote it: 'scenario.players of four-player', 'home_hexes'."""
    if isinstance(source, tuple):
        return " + ".join(_said(rules, s, extra) for s in source)
    if not isinstance(source, str):
        return str(source)
    head = source.split(".")[0]
    declared = rules.field_named(head)
    return f"{source} of {extra[head]}" if declared and declared.kind == "entry" and "." in source else source

