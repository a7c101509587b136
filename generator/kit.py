"""Find a kit folder, load its YAML files through their schemas, and build the checked kit model."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from pnpgen import budgets, game_modules
from pnpgen.boards.load import load_boards
from pnpgen.components.load import (
    check_counts, check_sheets, check_template_images, load_data_files, load_tables, resize_tables,
)
from pnpgen.documents.charts import CHARTS_FILE, charts_path, check_charts, load_charts
from pnpgen.documents.context import chart_context, same_context
from pnpgen.documents.load import check_cover, check_documents, check_files_apart
from pnpgen.documents.rulings import check_rulings_file
from pnpgen.i18n import editions, translator
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT, KIT_FILE
from pnpgen.model import Colour, Kit
from pnpgen.problems import KitError, Problem, Problems, display_path
from pnpgen.schema import INVALID, Where
from pnpgen.schemas import KIT
from pnpgen.yamlio import LocatedDict, index_lines, read_mapping



def load_kit(root: Path, strict: bool = False, sizes: dict | None = None,
             counter_size: str | None = None, language: str | None = None,
             texts: bool = True) -> tuple[Kit, list[Problem]]:
    """The validated kit and its warnings; raises KitError with every located problem otherwise. `sizes`
    ({table: size}, --piece-size) and `counter_size` (every square table, --counter-size) resize tables.
    `language`: the edition to read (pnpgen.i18n.editions; None: the source, the kit as written).
    `texts=False` leaves the documents' texts unchecked (charts, chapters, aid cards, templates parsed:
    check_kit_texts does it later), so the studio shows a save's pieces first."""
    problems = Problems()
    root = Path(root)
    translator.activate(None)  # kit.yaml as written: editions.start translates its words with this load's catalogue
    raw_kit = read_mapping(root / KIT_FILE, root, problems, "kit folder")
    if raw_kit is None:
        raise KitError(problems.items)
    kit_doc = KIT.check(raw_kit, Where(root / KIT_FILE, "", getattr(raw_kit, "line", 1), problems))
    lines = index_lines("kit", root / KIT_FILE, raw_kit)
    if kit_doc is INVALID:
        stop_on(problems, strict=False)
    _apply_budgets(kit_doc["budgets"], root / KIT_FILE, lines, problems)  # before any of the kit's texts runs
    editions.start(root, kit_doc, raw_kit, language, problems)  # before any other file is read: in its language
    fallback = BUILTIN_DATA / DEFAULT_KIT / CHARTS_FILE if kit_doc["module"] else None  # as aid texts fall back
    base = base_fields(root, kit_doc, lines) | {"charts": load_charts(charts_path(root, fallback), problems)}
    tables, broken = _load_tables(root, kit_doc, raw_kit, base, problems, lines, sizes or {}, counter_size)
    base |= tables  # before the game module, whose model may read the tables' rows
    module = _game_module(kit_doc, raw_kit, root / KIT_FILE, problems)
    kit = module.load(root, kit_doc, raw_kit, base, problems) if module else Kit(**base)
    kit = dataclasses.replace(kit, **_load_generic(root, kit_doc, raw_kit, kit, problems, lines, broken))
    if texts:
        _check_all_texts(kit, problems, aids_too=bool(module) and _module_data_sound(root, kit_doc, problems))
    editions.finish(kit, kit_doc, problems)
    checked, kit = kit, dataclasses.replace(kit, edition=translator.active())
    same_context(checked, kit)
    stop_on(problems, strict)
    return kit, problems.warnings()


def _apply_budgets(settings: dict | None, kit_file: Path, lines: dict, problems: Problems) -> None:
    """The kit's `budgets:`, which may lower what the person who builds granted and never raise it: a kit
    asking for more gets what was granted, and a warning at its line says how the user may grant the rest."""
    given, asked = budgets.for_kit(settings)
    budgets.apply(given, asked)
    for name, value in asked.items():
        have = getattr(given, name)
        problems.warn(kit_file, lines.get(("kit", f"budgets.{name}"), (None, 0))[1], f"budgets.{name}",
                      f"the kit asks for {value} ({budgets.DOCS[name]}); a kit may only lower its budgets, so it "
                      f"has {have}. If you trust it, grant it as the person who builds: `--budget {name}={value}`,"
                      f" or `{name}: {value}` in {budgets.config_file()}")


def check_kit_texts(kit: Kit, strict: bool = False) -> list[Problem]:
    """What load_kit(texts=False) left unchecked, for a kit it loaded without an error: its warnings, or
    KitError with every located problem."""
    problems = Problems()
    _check_all_texts(kit, problems, aids_too=True)
    stop_on(problems, strict)
    return problems.warnings()


def _check_all_texts(kit: Kit, problems: Problems, aids_too: bool) -> None:
    if kit.charts and not problems.errors():  # every chart built once with the kit's data: errors at validation
        check_charts(kit.charts, chart_context(kit), problems, kit.icons)
    _check_texts(kit, problems, aids_too)


def _check_texts(kit: Kit, problems: Problems, aids_too: bool) -> None:
    """Templates parsed (whatever else is wrong), chapters rendered and aid cards read once the data is sound:
    what a build would trip on, found now. `aids_too`: read the aid cards beside other problems (a game
    module's kit whose data files are sound: what its aid texts quote is whole)."""
    from pnpgen.aids.schema import check_aid_file
    from pnpgen.aids.sources import CARDS_FILE, SHEETS_FILE, has_aid_cards, has_sheets
    from pnpgen.validate_texts import check_chapters, check_template_files
    sound = not problems.errors()
    check_template_files(kit.root, problems)
    if sound:
        check_chapters(kit, problems)
    if not (sound or aids_too):
        return
    if has_aid_cards(kit):
        check_aid_file(kit, CARDS_FILE, problems)
    if has_sheets(kit):
        check_aid_file(kit, SHEETS_FILE, problems)


def _module_data_sound(root: Path, kit_doc: dict, problems: Problems) -> bool:
    """No error in kit.yaml, in a data file its game module reads (`files:`) or in a component table (its
    model reads their rows: a broken table stands in empty, and texts quoting it would only echo that)."""
    files = [root / rel for rel in (kit_doc["files"] or {}).values() if rel and "\0" not in rel]
    paths = [root / KIT_FILE, *files]
    shown = {display_path(p) for p in paths} | {display_path(p.resolve()) for p in paths}
    tables = tuple(f"{display_path(folder)}/" for folder in {root / kit_doc["components"],
                                                              (root / kit_doc["components"]).resolve()})
    return not any(p.file in shown or str(p.file).startswith(tables) for p in problems.errors())


def _game_module(kit_doc, raw_kit, kit_file: Path, problems):
    """The game module kit.yaml names (`module:`), if any; its data files (`files:`) need one."""
    name = kit_doc["module"]
    if not name:
        if kit_doc["files"]:
            problems.error(kit_file, raw_kit.line_of("files"), "files",
                           f"data files need the game module that reads them: add `module:` "
                           f"({', '.join(game_modules.names()) or 'none installed'})")
        return None
    try:
        return game_modules.get(name)
    except KeyError as exc:
        problems.error(kit_file, raw_kit.line_of("module"), "module", exc.args[0])
        return None


def base_fields(root: Path, kit_doc: dict, lines: dict) -> dict:
    """The fields of Kit every kit has, from kit.yaml; a game module adds its own beside them."""
    return dict(
        root=root, id=kit_doc["kit"], title=kit_doc["title"], subtitle=kit_doc["subtitle"],
        players=(kit_doc["players"]["min"], kit_doc["players"]["max"]),
        colours=tuple(Colour(id=cid, **c) for cid, c in kit_doc["colours"].items()),
        neutral=Colour(id="neutral", emblem="hexagon", pattern="none", **kit_doc["neutral"]),
        counter_size=kit_doc["counter_size"], paper=kit_doc["paper"], module=kit_doc["module"], lines=lines,
    )


def _load_tables(root, kit_doc, raw_kit, base: dict, problems, lines, sizes: dict,
                 counter_size: str | None = None) -> tuple[dict, bool]:
    """({tables, component_pieces}, whether a table failed): the component tables, expanded and counted."""
    kit_file = root / KIT_FILE
    before = len(problems.errors())
    tables = resize_tables(load_tables(root, kit_doc["components"], kit_file, raw_kit.line_of("components"),
                                       problems, kit_doc["counter_size"]), sizes, problems, counter_size)
    broken = len(problems.errors()) > before  # a table that failed: kit-wide counts and groups would only echo it
    pieces = check_counts(tables, kit_doc | ({"counts": []} if broken else {}), kit_file, lines, base["colours"],
                          base["neutral"], problems)
    return {"tables": tables, "component_pieces": tuple(pieces)}, broken


def _load_generic(root, kit_doc, raw_kit, kit, problems, lines, broken: bool) -> dict:
    """Boards, hex maps, free data and documents: what every kit may hold beside its tables."""
    kit_file = root / KIT_FILE
    line = raw_kit.line_of
    tables, pieces = kit.tables, kit.component_pieces
    module_files = frozenset((root / rel).resolve() for rel in (kit_doc["files"] or {}).values() if rel and "\0" not in rel)
    data = load_data_files(root, kit_doc["data"], kit_file, line("data"), problems, module_files)
    check_rulings_file(root / kit_doc["data"], data, problems)
    check_template_images(root, problems)
    boards = load_boards(root, kit_doc["boards"], kit_file, line("boards"), kit.colours, problems, tables)
    maps = kit.maps if kit.has_game_module else _load_maps(root, kit_doc, kit, problems)
    if not broken:
        check_sheets(kit_doc["sheets"], {p.group for p in pieces}, {t.group for t in tables.values()},
                     kit_file, lines, problems)
    documents = check_documents(root, kit_doc["documents"], kit_file, lines, problems)
    check_files_apart(documents, tables.values(), kit_file, lines, problems)
    check_cover(kit_doc["cover"], kit.colours, kit_file, lines, problems)
    icons = check_icons(root, kit_doc["icons"], kit_file, raw_kit, problems)
    if not kit.has_game_module:  # a module runs them with its own files beside the kit's
        from pnpgen.declared_checks import check_declared
        check_declared(kit_doc["checks"], {"kit": kit_doc}, frozenset(), lines, root, problems)
    from pnpgen.kit_fonts import check_document_fonts, load_kit_fonts
    fonts = load_kit_fonts(root, problems)
    document_fonts = check_document_fonts(kit_doc["fonts"], fonts, kit_file, raw_kit, problems)
    return {"icons": icons, "fonts": fonts, "document_fonts": document_fonts, "data": data, "boards": boards, "maps": maps,
            "sheets": kit_doc["sheets"], "documents": documents, "cover": kit_doc["cover"], "preflight": kit_doc["preflight"]}


def check_icons(root: Path, icons: dict, kit_file: Path, raw_kit, problems: Problems) -> dict:
    """kit.yaml `icons:`: each a readable image inside the kit (as any image a template shows)."""
    from pnpgen.images import check_image
    block = raw_kit.get("icons") if isinstance(raw_kit, LocatedDict) else None
    good = {}
    for name, ref in icons.items():
        reason = check_image(root, ref)
        if reason:
            line = block.line_of(name) if isinstance(block, LocatedDict) else raw_kit.line_of("icons")
            problems.error(kit_file, line, f"icons.{name}", reason)
        else:
            good[name] = ref
    return good


def _load_maps(root: Path, kit_doc: dict, kit, problems: Problems) -> tuple:
    """A data kit's hex maps, with the rules kit.yaml declares over its files (a game module's kit: its
    module loads them from where its files say, over its own files too)."""
    from pnpgen.maps.hexmap import load_hex_maps
    return load_hex_maps(root, kit_doc["maps"], kit, problems, declared=kit_doc["map_rules"], docs={"kit": kit_doc})


def stop_on(problems: Problems, strict: bool) -> None:
    if problems.errors(strict):
        raise KitError(problems.items)
