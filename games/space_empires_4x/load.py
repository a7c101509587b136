"""Loading Space Empires 4X: the data files kit.yaml's `files:` names (technologies, marker kinds, game) and
its counter tables (components/, loaded by the core before this module) into the game's model, with the rules
kit.yaml declares between them; the generic fields come from the core (pnpgen.kit.base_fields)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from pnpgen.games.space_empires_4x.model import (
    CounterSet, Game, Level, MarkerKind, Mix, MixEntry, Scenario, Se4xKit, Technology, Unit,
)
from pnpgen.games.space_empires_4x.schemas import FILE_SCHEMAS, FILES
from pnpgen.declared_checks import check_declared
from pnpgen.kit import KIT_FILE, index_lines, read_mapping
from pnpgen.schema import INVALID, Where

# Stand-ins for a file that failed its schema, so checks on the other files can still run.
EMPTY_DOCS = {
    "technologies": {"technologies": {}},
    "markers": {"kinds": {}},
    "game": {"setup": {"starting_forces": []}, "scenarios": [], "sequence": {}, "economy": {}, "combat": {},
             "tables": {}},
}
# The counter tables the charts and chapters read (a missing or broken one reads as empty).
UNITS, HOME_MARKERS, DEEP_MARKERS = "units", "home-system-markers", "deep-space-markers"
COUNTER_TABLES = ("colour-counters", "neutral-counters")
UNIT_COLUMNS = ("name", "class", "attack", "defence", "hull", "cost", "ship_size", "requires", "pays_maintenance",
                "movement", "groups", "rules", "note")


def load(root: Path, kit_doc: dict, raw_kit, base: dict, problems) -> Se4xKit:
    """The kit with the data files kit.yaml's `files:` names (technologies, markers, game, maps) and its
    counter tables (`base["tables"]`), checked; a file that fails its schema stands in empty so the other
    files are still checked."""
    lines = base["lines"]
    files = _files(kit_doc, raw_kit, root, problems)
    docs = {key: _load_data_file(root, key, rel, raw_kit, problems, lines) if files else None
            for key, rel in (files or dict.fromkeys(FILE_SCHEMAS)).items() if key in FILE_SCHEMAS}
    broken = frozenset(key for key, doc in docs.items() if doc is None)
    sound = {key: doc or EMPTY_DOCS[key] for key, doc in docs.items()}
    kit = _build_model(base, sound)
    check_declared(kit_doc["checks"], sound | {"kit": kit_doc}, broken, lines, root, problems)
    if files and files["maps"]:  # the core reads them with the rules kit.yaml's map_rules declares
        kit = dataclasses.replace(kit, maps=_load_maps(root, files, kit, kit_doc, raw_kit, docs, broken, problems))
    return kit


def _load_maps(root: Path, files: dict, kit, kit_doc, raw_kit, docs, broken, problems) -> tuple:
    """The maps folder `files.maps` names, read by the core over this module's data files."""
    from pnpgen.maps.hexmap import load_hex_maps
    named = (root / KIT_FILE, raw_kit["files"].line_of("maps"), "files.maps")
    good = {key: doc for key, doc in docs.items() if doc is not None} | {"kit": kit_doc}
    return load_hex_maps(root, files["maps"], kit, problems, named, kit_doc["map_rules"], good, broken, files)


def _files(kit_doc: dict, raw_kit, root: Path, problems) -> dict | None:
    raw = raw_kit.get("files")
    if raw is None:
        problems.error(root / KIT_FILE, raw_kit.line_of("module"), "files",
                       "the space_empires_4x module reads its data files from `files:` (technologies, markers, "
                       "game, maps)")
        return None
    files = FILES.check(raw, Where(root / KIT_FILE, "files", raw_kit.line_of("files"), problems))
    return None if files is INVALID else files


def _load_data_file(root, key, rel, raw_kit, problems, lines):
    kit_file = root / KIT_FILE
    field_line = raw_kit["files"].line_of(key)
    path = (root / rel).resolve()
    if not path.is_relative_to(root.resolve()):
        problems.error(kit_file, field_line, f"files.{key}", f"{rel!r} points outside the kit folder")
        return None
    raw = read_mapping(path, root, problems, f"files.{key}", kit_file, field_line)
    if raw is None:
        return None
    lines.update(index_lines(key, path, raw))
    doc = FILE_SCHEMAS[key].check(raw, Where(path, "", getattr(raw, "line", 1), problems))
    return None if doc is INVALID else doc


def _rows(base: dict, table_id: str, *columns: str) -> list[dict]:
    """The rows of a counter table that has the columns the model reads (none where it has not: a table
    made of another's copy is reported by the rules over it, not read here); a unit row needs its code."""
    table = base.get("tables", {}).get(table_id)
    if table is None or not set(columns) <= set(table.columns):
        return []
    return [row.values for row in table.rows if table_id != UNITS or row.values.get("id")]


def _build_model(base: dict, docs: dict) -> Se4xKit:
    return Se4xKit(
        **base,
        units={row["id"]: _unit(row) for row in _rows(base, UNITS, *UNIT_COLUMNS)},
        technologies={tid: _technology(tid, t) for tid, t in docs["technologies"]["technologies"].items()},
        marker_kinds={kid: _marker_kind(kid, k) for kid, k in docs["markers"]["kinds"].items()},
        home_system=_mix("home_system", _rows(base, HOME_MARKERS, "kind", "value")),
        deep_space=_mix("deep_space", _rows(base, DEEP_MARKERS, "kind", "value")),
        counters=_counter_sets(base),
        game=_game(docs["game"]),
    )


def _unit(row: dict) -> Unit:
    return Unit(
        code=row["id"], name=row["name"], cls=row["class"], attack=row["attack"], defence=row["defence"],
        hull=row["hull"], cost=row["cost"], ship_size=row["ship_size"],
        requires=tuple(sorted((row["requires"] or {}).items())), pays_maintenance=row["pays_maintenance"],
        movement=row["movement"], groups=row["groups"], group_numbers=tuple(range(1, row["qty"] + 1)),
        rules=row["rules"], note=row["note"],
    )


def _technology(tid: str, t: dict) -> Technology:
    levels = tuple(
        Level(level=lv["level"], cost=lv["cost"],
              moves=tuple(lv["moves"]) if lv["moves"] else None,
              hull_capacity=lv["hull_capacity"],
              fighter=(lv["fighter"]["attack"], lv["fighter"]["defence"]) if lv["fighter"] else None)
        for lv in t["levels"]
    )
    return Technology(id=tid, name=t["name"], rules=t["rules"], summary=t["summary"], levels=levels)


def _marker_kind(kid: str, k: dict) -> MarkerKind:
    return MarkerKind(id=kid, name=k["name"], affects=tuple(k["affects"]), duration=k["duration"],
                      after=k["after"], value=k["value"], rules=k["rules"], effect=k["effect"],
                      stats=k["stats"])


def _mix(name: str, rows: list[dict]) -> Mix:
    """A marker table as a mix: its face-down markers and the face-up ones."""
    def entries(face_up: bool):
        return tuple(MixEntry(kind=r["kind"], value=r["value"], count=r["qty"])
                     for r in rows if bool(r.get("face_up")) == face_up)
    return Mix(name=name, entries=entries(False), face_up=entries(True))


def _counter_sets(base: dict) -> dict[str, CounterSet]:
    """The counter tables' rows by their `set`, as the texts quote them (counters.numeral.copies)."""
    sets: dict[str, list] = {}
    for table_id in COUNTER_TABLES:
        table = base.get("tables", {}).get(table_id)
        for row in _rows(base, table_id, "set", "name"):
            sets.setdefault(row["set"], []).append((table, row))
    return {sid: CounterSet(id=sid, name=rows[0][1]["name"], per="colour" if rows[0][0].per_colour else "neutral",
                            copies=rows[0][1]["qty"],
                            values=tuple(r["value"] if r.get("value") is not None else r.get("text") for _, r in rows))
            for sid, rows in sets.items()}


def _game(g: dict) -> Game:
    return Game(
        starting_forces=tuple((f["unit"], f["count"]) for f in g["setup"]["starting_forces"]),
        scenarios=tuple(Scenario(**s) for s in g["scenarios"]),
        sequence=g["sequence"], economy=g["economy"], combat=g["combat"], tables=g["tables"],
    )
