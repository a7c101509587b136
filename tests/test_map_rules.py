"""A hex map's meaning as data (kit.yaml `map_rules:`): tests/kits/realms, a kit of data only with its own
legend words ('land COLOUR', 'capital COLOUR', 'wild NAME', 'lake'), fields, title, tracks and region rules,
numbers read from its data file. Its map prints with them, and breaking each rule is an error at the map's
(or kit.yaml's) line that names the rule."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from conftest import edit
from pnpgen.cli import main

REALMS = Path(__file__).parent / "kits" / "realms"
MAP = "maps/skirmish.yaml"
REALM_RULE = "a realm is one piece of the rules' size, with a capital and a port"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("realms-out")
    assert main(["build", "--data", str(REALMS), "--out", str(out), "--only", "maps", "-q"]) == 0
    kit_out = out / "realms"
    poster = pdfium.PdfDocument(str(kit_out / "maps" / "skirmish-poster.pdf"))
    return poster[0].get_textpage().get_text_range(), json.loads((kit_out / "manifest.json").read_text())


def test_the_map_prints_with_its_declared_title_tracks_and_regions(built):
    text, _ = built
    assert "Border Realms: Skirmish on the lake" in text          # title: "{setup.name}"
    assert "Turn track: 5 turns, then the reckoning" in text      # {turns} from data/setups.yaml
    assert "Reckoning" in text and "Seasons (4)" in text
    assert text.count("CAPITAL") == 2 and text.count("PORT") == 2  # one mark of each per realm
    for legend in ("Red (7 hexes)", "Blue (7 hexes)", "forest (4 hexes)", "hills (4 hexes)", "lake (4 hexes)"):
        assert legend in text


def test_the_manifest_says_which_entry_a_map_is_for(built):
    entry = built[1]["parts"]["maps"]["maps"][0]
    assert (entry["map"], entry["setup"], entry["hexes"]) == ("skirmish", "skirmish", 26)


@pytest.fixture
def realms(tmp_path) -> Path:
    kit = tmp_path / "realms"
    shutil.copytree(REALMS, kit)
    return kit


def _problems(kit: Path, capsys, strict: bool = False) -> str:
    assert main(["validate", "--quick", "--data", str(kit)] + (["--strict"] if strict else [])) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(text))


@pytest.mark.parametrize("file, old, new, at, field, words", [
    # a region rule broken in the map: located at the region's legend line (or the legend), naming the rule
    (MAP, '"r r P f', '"r . P f', "  r:", "legend.r", f"{REALM_RULE}: red has 6 hexes; it must have 7 (realm_hexes)"),
    (MAP, '"r R r f', '"r r r f', "  r:", "legend.r", f"{REALM_RULE}: red has 0 hexes marked capital; it must have 1"),
    (MAP, '". r ~ ~ h h b ."\n  - ". .', '". . ~ ~ h h b ."\n  - "r .', "  r:", "legend.r",
     f"{REALM_RULE}: red is split into 2 separate pieces (starting at 0101, 0104)"),
    (MAP, '"r R r f f b', '"r R r f r b', "  r:", "legend.r", f"{REALM_RULE}: red and blue touch (hexes 0501"),
    (MAP, '". . ~ ~', '". . ~ h', '  "~":', "legend.~", "the lake holds the set-up's lake tiles: lake has 3 hexes; "
                                                         "it must have 4 (setup.lake_tiles of skirmish)"),
    (MAP, '". . ~ ~ h h . ."', '". . ~ h h h . ~"', '  "~":', "legend.~",
     "the lake holds the set-up's lake tiles: lake is split into 2 separate pieces (starting at 0303, 0804)"),
    ("data/setups.yaml", "factions: 2", "factions: 3", "legend:", "legend",
     "one realm per faction of the set-up: 2 regions (red, blue), but setup.factions of skirmish is 3"),
    # the map's own fields and legend words, checked against the declaration
    (MAP, "setup: skirmish", "setup: siege", "setup:", "setup",
     "no setup 'siege' in data/setups.yaml:setups (known: skirmish)"),
    (MAP, "seasons: 4", "seasons: 9", "seasons:", "seasons", "must be a whole number >= 1 and <= 8, not 9"),
    (MAP, "  h: wild hills", "  h: hills", "  h:", "legend.h", "must be 'off-map' or one of 'land COLOUR'"),
    (MAP, "  h: wild hills", "  h: wild lake", "  h:", "legend.h", "region 'lake' is made by two legend words"),
    (MAP, "  Q: port blue", "  Q: port purple", "  Q:", "legend.Q", "must be 'off-map' or one of 'land COLOUR', "
     "'capital COLOUR', 'port COLOUR', 'wild NAME', 'lake' (COLOUR: red, blue, green), not 'port purple'"),
    # the declaration itself: located in kit.yaml
    ("kit.yaml", "setups.yaml:realm.hexes", "setups.yaml:realm.hexs", "    realm_hexes:",
     "map_rules.numbers.realm_hexes", "nothing at data/setups.yaml:realm.hexs"),
    ("kit.yaml", "size: realm_hexes", "size: realm_hex", "    - rule: a realm", "map_rules.regions[1]",
     "unknown name 'realm_hex'"),
    ("kit.yaml", "regions: lake", "regions: lakes", "      regions: lake", "map_rules.regions[2].regions",
     "no legend word makes 'lakes' regions"),
    ("kit.yaml", "marked: {capital: 1, port: 1}", "marked: {capital: 1, fort: 1}", "      marked:",
     "map_rules.regions[1].marked.fort", "no legend word marks 'fort' hexes of COLOUR regions"),
    ("kit.yaml", "wild NAME: {region: NAME}", "wild: {region: NAME}", "    wild:", "map_rules.legend.wild",
     "the region is the word NAME stands for: put NAME in the words"),
    ("kit.yaml", "{turns} turns,", "{turn} turns,", "    - {id: turn", "map_rules.tracks[0].caption",
     "unknown name 'turn'"),
    ("kit.yaml", 'of: "data/setups.yaml:setups"', 'of: "rules:setups"', "    setup:", "map_rules.fields.setup.of",
     "no data file 'rules' (files: data/setups.yaml, kit, templates, or a kit"),
    ("kit.yaml", 'of: "data/setups.yaml:setups"', 'of: "data/setup.yaml:setups"', "    setup:",
     "map_rules.fields.setup.of", "no file data/setup.yaml in the kit folder"),
])
def test_each_broken_rule_is_a_located_error_naming_it(realms, capsys, file, old, new, at, field, words):
    edit(realms / file, old, new)
    line = _line(realms / (MAP if file == "data/setups.yaml" else file), at)
    err = _problems(realms, capsys)
    where = "kit.yaml" if file == "kit.yaml" else MAP
    assert f"{where}:{line}: {field}: {words}" in err, err


@pytest.mark.parametrize("old, new, words", [
    ("count: setup.factions", "count: setup.name", "one realm per faction of the set-up: setup.name of skirmish"),
    ("boxes: seasons,", "boxes: setup.name,", "track season: setup.name of skirmish"),
])
def test_a_number_the_data_gives_as_a_text_is_located(realms, capsys, old, new, words):
    edit(realms / "kit.yaml", old, new)
    err = _problems(realms, capsys)
    line = _line(realms / MAP, "legend:")
    assert f"{MAP}:{line}: legend: {words} is 'Skirmish on the lake', not a whole" in err, err


def test_an_entry_with_no_map_is_a_warning(realms, capsys):
    edit(realms / "data/setups.yaml", "lake_tiles: 4}", "lake_tiles: 4}\n  - {id: siege, name: Siege, "
                                                       "factions: 3, lake_tiles: 0}")
    assert main(["validate", "--quick", "--data", str(realms)]) == 0
    line = _line(realms / "data/setups.yaml", "  - {id: siege")
    assert f"data/setups.yaml:{line}: warning: setups[1]: no map layout for setup siege" in capsys.readouterr().err
    assert "no map layout for setup siege" in _problems(realms, capsys, strict=True)


def test_a_file_the_map_rules_read_is_part_of_the_maps_cache_key(tmp_path):
    """The maps part skips the folders maps never read, unless map_rules names a file there by path (Space
    Empires 4X's Home System markers' table): then editing it draws the maps again, and the folder's other
    files (the unit table) still do not."""
    from types import SimpleNamespace

    from pnpgen.maps.rules import MapRules
    from pnpgen.parts.maps import PART
    (tmp_path / "components").mkdir()
    for name in ("home-system.yaml", "units.yaml"):
        (tmp_path / "components" / name).write_text("name: x\n")
    kit = lambda rules: SimpleNamespace(root=tmp_path, maps=[SimpleNamespace(rules=rules)])  # noqa: E731
    assert "components" in PART.ignores_of(kit(MapRules()))
    reading = PART.ignores_of(kit(MapRules(reads=("components/home-system.yaml",), ignores=("technologies.yaml",))))
    assert "components" not in reading and "components/home-system.yaml" not in reading
    assert {"rules", "aids", "boards", "technologies.yaml", "components/units.yaml"} <= set(reading)
