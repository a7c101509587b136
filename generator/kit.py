"""Find a kit folder, load its YAML files through their schemas, and build the checked kit model."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from generator import checks
from generator.boards.load import load_boards
from generator.components.load import (
    check_counts, check_template_images, load_data_files, load_tables, resize_tables,
)
from generator.documents.load import check_documents
from generator.kit_folder import BUILTIN_DATA, DEFAULT_KIT, KIT_FILE, PROJECT_ROOT, find_kit  # noqa: F401 (re-exported)
from generator.layout.sheets import check_sheets
from generator.maps.layout import load_maps
from generator.model import (
    Colour, CounterSet, Game, Kit, Level, MarkerKind, Mix, MixEntry, Scenario, Technology, Unit,
)
from generator.problems import KitError, Problem, Problems, display_path
from generator.schema import INVALID, Where
from generator.schemas import FILE_SCHEMAS, KIT
from generator.yamlio import LocatedDict, LocatedList, YamlSyntaxError, load_yaml

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


def load_kit(root: Path, strict: bool = False, sizes: dict | None = None) -> tuple[Kit, list[Problem]]:
    """The validated kit and its warnings; raises KitError with every located problem otherwise."""
    problems = Problems()
    root = Path(root)
    raw_kit = _read(root / KIT_FILE, problems, "kit folder")
    if raw_kit is None:
        raise KitError(problems.items)
    kit_doc = KIT.check(raw_kit, Where(root / KIT_FILE, "", getattr(raw_kit, "line", 1), problems))
    lines = _index_lines("kit", root / KIT_FILE, raw_kit)
    if kit_doc is INVALID:
        _stop_on(problems, strict=False)
    if kit_doc["files"]:
        kit = _load_game_module(root, kit_doc, raw_kit, problems, lines)
    else:
        kit = _build_model(root, kit_doc, EMPTY_DOCS, lines)
    kit = dataclasses.replace(kit, **_load_generic(root, kit_doc, raw_kit, kit, problems, lines, sizes or {}))
    _stop_on(problems, strict)
    return kit, problems.warnings()


def _load_game_module(root, kit_doc, raw_kit, problems, lines) -> Kit:
    """The Space Empires 4X data files (units, technologies, markers, counters, game, maps)."""
    docs = {}
    for key, rel in kit_doc["files"].items():
        if key not in FILE_SCHEMAS:  # a folder (maps), loaded after the model below
            continue
        docs[key] = _load_data_file(root, key, rel, raw_kit, problems, lines)
    broken = frozenset(key for key, doc in docs.items() if doc is None)
    kit = _build_model(root, kit_doc, {key: doc or EMPTY_DOCS[key] for key, doc in docs.items()}, lines)
    checks.check_kit(kit, problems, broken)  # still run the checks whose files are sound, to report all at once
    if kit_doc["files"]["maps"] and not broken & {"game", "markers"}:  # boards are checked against both
        kit = dataclasses.replace(kit, maps=load_maps(root, kit_doc["files"]["maps"], kit, problems))
    return kit


def _load_generic(root, kit_doc, raw_kit, kit, problems, lines, sizes: dict) -> dict:
    """Component tables, boards, free data and documents: what every kit may hold."""
    kit_file = root / KIT_FILE
    line = raw_kit.line_of
    before = len(problems.errors())
    tables = resize_tables(load_tables(root, kit_doc["components"], kit_file, line("components"), problems),
                           sizes, problems)
    broken = len(problems.errors()) > before  # a table that failed: kit-wide counts and groups would only echo it
    pieces = check_counts(tables, kit_doc | ({"counts": []} if broken else {}), kit_file, lines, kit.colours,
                          kit.neutral, problems)
    data = load_data_files(root, kit_doc["data"], kit_file, line("data"), problems)
    if tables or not kit.has_game_module:
        check_template_images(root, problems)
    boards = load_boards(root, kit_doc["boards"], kit_file, line("boards"), kit.colours, problems)
    if not broken:
        check_sheets(kit_doc["sheets"], {p.group for p in pieces}, {t.group for t in tables.values()},
                     kit_file, lines, problems)
    documents = check_documents(root, kit_doc["documents"], kit_file, lines, problems,
                                default_booklet=not kit.has_game_module)  # that kit's booklet part makes its own
    return {"tables": tables, "component_pieces": tuple(pieces), "data": data, "boards": boards,
            "sheets": kit_doc["sheets"], "documents": documents, "preflight": kit_doc["preflight"]}


def _load_data_file(root, key, rel, raw_kit, problems, lines):
    kit_file = root / KIT_FILE
    field_line = raw_kit["files"].line_of(key)
    path = (root / rel).resolve()
    if not path.is_relative_to(root.resolve()):
        problems.error(kit_file, field_line, f"files.{key}", f"{rel!r} points outside the kit folder")
        return None
    raw = _read(path, problems, f"files.{key}", kit_file, field_line)
    if raw is None:
        return None
    lines.update(_index_lines(key, path, raw))
    doc = FILE_SCHEMAS[key].check(raw, Where(path, "", getattr(raw, "line", 1), problems))
    return None if doc is INVALID else doc


def _read(path: Path, problems: Problems, field: str, named_in: Path | None = None, named_line: int = 0):
    if not path.is_file():
        where = named_in or path
        problems.error(where, named_line, field, f"file not found: {display_path(path)}")
        return None
    try:
        raw = load_yaml(path)
    except YamlSyntaxError as exc:
        problems.error(path, exc.line, "", exc.message)
        return None
    except (OSError, UnicodeDecodeError) as exc:
        problems.error(path, 0, "", f"cannot read: {exc}")
        return None
    if not isinstance(raw, dict):
        problems.error(path, 1, "", "must hold a mapping of fields at the top level")
        return None
    return raw


def _stop_on(problems: Problems, strict: bool) -> None:
    if problems.errors(strict):
        raise KitError(problems.items)


def _index_lines(file_key: str, path: Path, node, prefix: str = "", shown: str | None = None) -> dict:
    """(file key, dotted field path) -> (file, line) for every key and item in a YAML tree."""
    shown = shown or display_path(path)
    out = {(file_key, prefix): (shown, getattr(node, "line", 1))} if not prefix else {}
    if isinstance(node, LocatedDict):
        for key, value in node.items():
            path_here = f"{prefix}.{key}" if prefix else str(key)
            out[(file_key, path_here)] = (shown, node.line_of(key))
            out.update(_index_lines(file_key, path, value, path_here, shown))
    elif isinstance(node, LocatedList):
        for index, value in enumerate(node):
            path_here = f"{prefix}[{index}]"
            out[(file_key, path_here)] = (shown, node.line_of(index))
            out.update(_index_lines(file_key, path, value, path_here, shown))
    return out


def _build_model(root: Path, kit_doc: dict, docs: dict, lines: dict) -> Kit:
    markers = docs["markers"]
    return Kit(
        root=root,
        id=kit_doc["kit"],
        title=kit_doc["title"],
        subtitle=kit_doc["subtitle"],
        players=(kit_doc["players"]["min"], kit_doc["players"]["max"]),
        colours=tuple(Colour(id=cid, **c) for cid, c in kit_doc["colours"].items()),
        neutral=Colour(id="neutral", emblem="hexagon", pattern="none", **kit_doc["neutral"]),
        counter_size=kit_doc["counter_size"],
        paper=kit_doc["paper"],
        units={code: _unit(code, u) for code, u in docs["units"]["units"].items()},
        technologies={tid: _technology(tid, t) for tid, t in docs["technologies"]["technologies"].items()},
        marker_kinds={kid: _marker_kind(kid, k) for kid, k in markers["kinds"].items()},
        home_system=_mix("home_system", markers["home_system"]),
        deep_space=_mix("deep_space", markers["deep_space"]),
        counters={cid: CounterSet(id=cid, **c) for cid, c in docs["counters"]["counters"].items()},
        game=_game(docs["game"]),
        lines=lines,
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
