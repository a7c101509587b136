"""Loading Space Empires 4X: the data files kit.yaml's `files:` names, each checked against the fields the
module declares for it (fields/*.fields.yaml: pnpgen.data_fields), with the rules kit.yaml declares
between them and its counter tables (loaded by the core before this module), wrapped into its model."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from pnpgen.data_fields import module_file
from pnpgen.declared_checks import check_declared
from pnpgen.games.space_empires_4x.model import Facts, Game, Mix, Se4xKit, Technology, Unit
from pnpgen.kit_folder import KIT_FILE
from pnpgen.schema import INVALID, Field, Nullable, Record, Str, Where, optional

FILES = Record({"technologies": Field(Str()), "markers": Field(Str()), "game": Field(Str()),
                "maps": optional(Nullable(Str()), None, "folder of hex-map layouts, one YAML file per board")},
               "the Space Empires 4X data files (its counters are component tables: components/)")

# The fields of each file, declared in data shipped with the module (pnpgen.data_fields): what its model reads.
FIELDS = Path(__file__).resolve().parent / "fields"
# Stand-ins for a file that failed its schema, so checks on the other files can still run.
EMPTY_DOCS = {"technologies": {"technologies": {}}, "markers": {"kinds": {}},
              "game": {"setup": {"starting_forces": []}, "scenarios": [], "sequence": {}, "economy": {},
                       "combat": {}, "tables": {}}}
# The counter tables the model reads, and the columns it needs of each (a table without them reads as empty:
# the rules over it report what is wrong).
UNITS, HOME_MARKERS, DEEP_MARKERS = "units", "home-system-markers", "deep-space-markers"
COUNTER_TABLES = ("colour-counters", "neutral-counters")
UNIT_COLUMNS = ("name", "class", "attack", "defence", "hull", "cost", "ship_size", "requires", "pays_maintenance",
                "movement", "groups", "rules", "note")


def load(root: Path, kit_doc: dict, raw_kit, base: dict, problems) -> Se4xKit:
    """The kit with its data files and counter tables, checked; a file that fails its schema stands in empty
    so the other files are still checked."""
    files = _files(raw_kit, root, problems)
    docs = {key: module_file(root, key, rel, raw_kit, problems, base["lines"], FIELDS / f"{key}.fields.yaml")
            if files else None
            for key, rel in (files or dict.fromkeys(EMPTY_DOCS)).items() if key in EMPTY_DOCS}
    broken = frozenset(key for key, doc in docs.items() if doc is None)
    sound = {key: doc or EMPTY_DOCS[key] for key, doc in docs.items()}
    kit = _model(base, sound)
    check_declared(kit_doc["checks"], sound | {"kit": kit_doc}, broken, base["lines"], root, problems)
    if files and files["maps"]:  # the core reads them with the rules kit.yaml's map_rules declares
        from pnpgen.maps.hexmap import load_hex_maps
        named = (root / KIT_FILE, raw_kit["files"].line_of("maps"), "files.maps")
        good = {key: doc for key, doc in docs.items() if doc is not None} | {"kit": kit_doc}
        maps = load_hex_maps(root, files["maps"], kit, problems, named, kit_doc["map_rules"], good, broken, files)
        kit = dataclasses.replace(kit, maps=maps)
    return kit


def _files(raw_kit, root: Path, problems) -> dict | None:
    if raw_kit.get("files") is None:
        problems.error(root / KIT_FILE, raw_kit.line_of("module"), "files", "the space_empires_4x module reads "
                       "its data files from `files:` (technologies, markers, game, maps)")
        return None
    files = FILES.check(raw_kit["files"], Where(root / KIT_FILE, "files", raw_kit.line_of("files"), problems))
    return None if files is INVALID else files


def _rows(base: dict, table_id: str, *columns: str) -> list[tuple]:
    """(table, row values) of a counter table that has the columns the model reads, else none."""
    table = base.get("tables", {}).get(table_id)
    if table is None or not set(columns) <= set(table.columns):
        return []
    return [(table, row.values) for row in table.rows]


def _model(base: dict, docs: dict) -> Se4xKit:
    sets: dict[str, list] = {}  # the counter tables' rows by their `set`, as the texts quote them
    for table, row in (pair for table_id in COUNTER_TABLES for pair in _rows(base, table_id, "set", "name")):
        sets.setdefault(row["set"], []).append((table, row))
    return Se4xKit(
        **base,
        units={row["id"]: Unit(row) for _, row in _rows(base, UNITS, *UNIT_COLUMNS) if row.get("id")},
        technologies={tid: Technology(tid, t) for tid, t in docs["technologies"]["technologies"].items()},
        marker_kinds={kid: Facts(kind, id=kid) for kid, kind in docs["markers"]["kinds"].items()},
        home_system=Mix("home_system", [row for _, row in _rows(base, HOME_MARKERS, "kind", "value")]),
        deep_space=Mix("deep_space", [row for _, row in _rows(base, DEEP_MARKERS, "kind", "value")]),
        counters={sid: Facts(id=sid, name=rows[0][1]["name"], copies=rows[0][1]["qty"],
                             per="colour" if rows[0][0].per_colour else "neutral",
                             values=tuple(r["value"] if r.get("value") is not None else r.get("text") for _, r in rows))
                  for sid, rows in sets.items()},
        game=Game(docs["game"]),
    )
