"""The core names no game: a game's own Python lives in its module under games/, chosen by kit.yaml's
`module:`, and the core reaches it only through pnpgen.game_modules."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import edit
from pnpgen import game_modules
from pnpgen.kit import load_kit
from pnpgen.parts import all_parts

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "generator"
# Names only Space Empires 4X's model has: core code that reads them is game code in the wrong place.
GAME_NAMES = {"units", "technologies", "marker_kinds", "home_system", "deep_space", "homeworld_steps"}


def _core_files():
    for path in sorted(CORE.rglob("*.py")):
        rel = path.relative_to(CORE).as_posix()
        yield rel, ast.parse(path.read_text(encoding="utf-8"))


def _imports(tree) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_core_imports_no_game_module():
    offenders = {rel: sorted(m for m in _imports(tree) if m == "pnpgen.games" or m.startswith("pnpgen.games."))
                 for rel, tree in _core_files()}
    gateway = offenders.pop("game_modules.py")  # the one door: it lists the games package, names none
    assert gateway == ["pnpgen.games"]
    assert not {rel: mods for rel, mods in offenders.items() if mods}


def test_the_core_reads_no_game_field_of_a_kit():
    reads = {}
    for rel, tree in _core_files():
        names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                 and isinstance(node.value, (ast.Name, ast.Attribute)) and node.attr in GAME_NAMES}
        if names:
            reads[rel] = sorted(names)
    assert not reads


# Words only Space Empires 4X's maps mean: the core's hex maps (generator/maps, the maps part) read a legend's
# words through the kit's MapRules and never name these.
MAP_WORDS = ("home", "homeworld", "deep-space", "deep_space", "scenario", "rounds")


def test_the_core_hex_maps_name_no_game_word():
    files = sorted((CORE / "maps").glob("*.py")) + [CORE / "parts" / "maps.py"]
    found = {}
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings speak of home printers
        texts = [n.value for n in ast.walk(tree)
                 if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]
        names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)] + \
                [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
        words = {w for t in texts for w in re.findall(r"[a-z_-]+", t.lower())} | set(names)
        if words & set(MAP_WORDS):
            found[path.name] = sorted(words & set(MAP_WORDS))
    assert not found


def test_built_in_templates_are_only_what_every_kit_shares():
    """The game's faces (units, markers, counters, its hex map) are its kit's own templates."""
    built_in = {p.name for p in (ROOT / "templates").glob("*.svg.j2")}
    assert built_in == {"_board.svg.j2", "_pieces.svg.j2", "board.svg.j2", "map.svg.j2", "map-assembly.svg.j2",
                        "map-tile.svg.j2"}
    own = {p.name for p in (ROOT / "data" / "space-empires-4x" / "templates").glob("*.svg.j2")}
    assert {"unit-front.svg.j2", "_counter.svg.j2", "marker-danger.svg.j2", "map.svg.j2"} <= own


def test_a_kit_of_data_only_has_no_module_and_the_default_kit_has_its_own(default_kit):
    mini, _ = load_kit(ROOT / "tests" / "kits" / "mini")
    assert mini.module is None and game_modules.of(mini) is None
    assert default_kit.module == "space_empires_4x"
    module = game_modules.of(default_kit)
    assert {p.name for p in module.parts} == {"booklet"}  # maps, sheets: the core's parts
    assert all(not p.applies(mini) for p in module.parts) and all(p.applies(default_kit) for p in module.parts)
    assert "counters" not in {p.name for p in all_parts()}  # its counters are tables: the components part's
    components = next(p for p in all_parts() if p.name == "components")
    assert "counters" in components.aliases and components.applies(default_kit) and components.applies(mini)
    cards = next(p for p in all_parts() if p.name == "cards")  # and any kit's aid cards
    assert cards.applies(default_kit) and not cards.applies(mini)


@pytest.mark.parametrize("old, new, below, message", [
    ("module: space_empires_4x", "module: space_empire_4x", 0,
     "module: unknown game module 'space_empire_4x' (did you mean space_empires_4x?)"),
    ("module: space_empires_4x", "module: ../evil", 0, "module: must be a game module's name"),
    ("module: space_empires_4x", "# no module", 1, "files: data files need the game module that reads them"),
    ("  game: data/game.yaml", "  gmae: data/game.yaml", 0, "files.gmae: unknown field (did you mean 'game'?)"),
])
def test_a_wrong_module_or_files_entry_is_located(kit_copy, run_cli, tmp_path, old, new, below, message):
    line = edit(kit_copy / "kit.yaml", old, new) + below  # `below`: the error is on the line under the edit
    result = run_cli("build", "--data", kit_copy, "--out", tmp_path)
    assert result.code == 1 and "Traceback" not in result.err
    assert f"kit.yaml:{line}: {message}" in result.err, result.err
    assert not (tmp_path / "space-empires-4x").exists()


def test_a_module_kit_without_its_files_is_located(kit_copy, run_cli):
    text = (kit_copy / "kit.yaml").read_text(encoding="utf-8")
    without = re.sub(r"(?m)^files:\n(  .*\n)+", "", text)
    assert without != text
    (kit_copy / "kit.yaml").write_text(without, encoding="utf-8")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    assert "files: the space_empires_4x module reads its data files from `files:`" in result.err, result.err
