"""Loading the Space Empires 4X data files that kit.yaml's `files:` names into the game's model, with the
game's own checks; the generic fields come from the core (pnpgen.kit.base_fields)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from pnpgen.games.space_empires_4x import checks
from pnpgen.games.space_empires_4x.model import (
    CounterSet, Game, Level, MarkerKind, Mix, MixEntry, Scenario, Se4xKit, Technology, Unit,
)
from pnpgen.games.space_empires_4x.schemas import FILE_SCHEMAS, FILES
from pnpgen.declared_checks import check_declared
from pnpgen.kit import KIT_FILE, index_lines, read_mapping
from pnpgen.schema import INVALID, Where

# Stand-ins for a file that failed its schema, so checks on the other files can still run.
_NO_MIX = {"total": 0, "mix": [], "face_up": []}
EMPTY_DOCS = {
    "units": {"units": {}},
    "technologies": {"technologies": {}},
    "markers": {"kinds": {}, "home_system": _NO_MIX, "deep_space": _NO_MIX},
    "counters": {"counters": {}},
    "game": {"setup": {"starting_forces": []}, "scenarios": [], "sequence": {}, "economy": {}, "combat": {},
             "tables": {}},
}


def load(root: Path, kit_doc: dict, raw_kit, base: dict, problems) -> Se4xKit:
    """The kit with the data files kit.yaml's `files:` names (units, technologies, markers, counters, game,
    maps), checked; a file that fails its schema stands in empty so the other files are still checked."""
    lines = base["lines"]
    files = _files(kit_doc, raw_kit, root, problems)
    docs = {key: _load_data_file(root, key, rel, raw_kit, problems, lines) if files else None
            for key, rel in (files or dict.fromkeys(FILE_SCHEMAS)).items() if key in FILE_SCHEMAS}
    broken = frozenset(key for key, doc in docs.items() if doc is None)
    kit = _build_model(base, {key: doc or EMPTY_DOCS[key] for key, doc in docs.items()})
    checks.check_kit(kit, problems, broken)  # still run the checks whose files are sound, to report all at once
    check_declared(kit_doc["checks"], {key: doc or EMPTY_DOCS[key] for key, doc in docs.items()} | {"kit": kit_doc},
                   broken, lines, root, problems)  # the rules kit.yaml declares over these files (and any other)
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
                       "the space_empires_4x module reads its data files from `files:` (units, technologies, "
                       "markers, counters, game, maps)")
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


def _build_model(base: dict, docs: dict) -> Se4xKit:
    markers = docs["markers"]
    return Se4xKit(
        **base,
        units={code: _unit(code, u) for code, u in docs["units"]["units"].items()},
        technologies={tid: _technology(tid, t) for tid, t in docs["technologies"]["technologies"].items()},
        marker_kinds={kid: _marker_kind(kid, k) for kid, k in markers["kinds"].items()},
        home_system=_mix("home_system", markers["home_system"]),
        deep_space=_mix("deep_space", markers["deep_space"]),
        counters={cid: CounterSet(id=cid, **c) for cid, c in docs["counters"]["counters"].items()},
        game=_game(docs["game"]),
    )


def _unit(code: str, u: dict) -> Unit:
    counters = u["counters"]
    numbers = tuple(counters) if isinstance(counters, list) else tuple(range(1, counters + 1))
    return Unit(
        code=code, name=u["name"], cls=u["class"], attack=u["attack"], defence=u["defence"], hull=u["hull"],
        cost=u["cost"], ship_size=u["ship_size"], requires=tuple(sorted((u["requires"] or {}).items())),
        pays_maintenance=u["pays_maintenance"], movement=u["movement"], groups=u["groups"],
        group_numbers=numbers, back=u["back"], rules=u["rules"], note=u["note"],
        template=u["template"], back_template=u["back_template"],
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
                      stats=k["stats"], template=k["template"])


def _mix(name: str, m: dict) -> Mix:
    def entries(items):
        return tuple(MixEntry(kind=e["kind"], value=e["value"], count=e["count"]) for e in items)
    return Mix(name=name, total=m["total"], entries=entries(m["mix"]), face_up=entries(m["face_up"]))


def _game(g: dict) -> Game:
    return Game(
        starting_forces=tuple((f["unit"], f["count"]) for f in g["setup"]["starting_forces"]),
        scenarios=tuple(Scenario(**s) for s in g["scenarios"]),
        sequence=g["sequence"], economy=g["economy"], combat=g["combat"], tables=g["tables"],
    )
