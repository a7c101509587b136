"""Record sheets: the production sheet and the ship technology sheet follow the data and fit their pages."""
from __future__ import annotations

import re

import pytest

from aid_helpers import all_text, build, embedded_font_problems, page_words
from conftest import edit


ROWS = ["CP carried over", "Colony CP", "Mineral CP", "MS Pipeline CP", "Total", "Upkeep", "Bid",
        "Technology spending", "Ship spending", "Remaining"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    kit_out, manifest = build(tmp_path_factory.mktemp("sheets"))
    return kit_out, manifest["parts"]["sheets"]


def test_files_pages_and_sizes(built, default_kit):
    _, part = built
    files = {f["path"]: f for f in part["files"]}
    colours = len(default_kit.colours)
    assert files["production-sheet.pdf"]["pages"] == colours * 2   # aids/sheets.yaml: two pages a copy
    assert files["ship-tech-sheet.pdf"]["pages"] == colours
    assert all(f["page_size"] == [612.0, 792.0] for f in files.values())


def test_production_sheet_rows_phases_and_cap(built, default_kit):
    kit_out, _ = built
    first, second = page_words(kit_out / "production-sheet.pdf", [0, 1])
    for row in ROWS:
        assert first.count(row) >= 1 and second.count(row) >= 1, row
    assert "Economic Phase " + " ".join(str(p) for p in range(1, 11)) in first
    assert "Economic Phase " + " ".join(str(p) for p in range(11, 21)) in second
    assert "Economic Phase " + " ".join(str(p) for p in range(21, 31)) in second
    assert f"Remaining (keep at most {default_kit.game.economy['carry_over_cap']} CP)" in first


def test_technology_block_lists_every_level_and_cost(built, default_kit):
    kit_out, _ = built
    first = page_words(kit_out / "production-sheet.pdf", [0])[0]
    block = first.split("Technology progression", 1)[1]
    for tech in default_kit.technologies.values():
        cells = " ".join([f"start {tech.start}"] + [f"{lv.level} \u00b7 {lv.cost} CP" for lv in tech.upgrades])
        # a row whose levels are the kit's ruling carries its mark under the name (data/rules.yaml charted)
        assert re.search(rf"{re.escape(tech.name)}( \(kit ruling \d+\))? {re.escape(cells)}", block), tech.id


def test_ship_sheet_has_one_row_per_group_counter(built, default_kit):
    kit_out, _ = built
    page = page_words(kit_out / "ship-tech-sheet.pdf", [0])[0]
    expected = [f"{u.code} {n}" for u in default_kit.units.values() if u.groups for n in u.group_numbers]
    found = re.findall(r"\b([A-Z]{1,2} \d+) (?=\d)", page.split("Other", 1)[1])
    assert found == expected
    size = default_kit.game.economy["group_size"]
    ships = " ".join(str(n) for n in range(size["min"], size["max"] + 1))
    moves = " ".join(str(lv.level) for lv in default_kit.technologies["movement"].levels)
    assert page.count(f"{moves} {ships}") == len(expected)


def test_attack_levels_stop_at_the_hull(built, default_kit):
    kit_out, _ = built
    page = page_words(kit_out / "ship-tech-sheet.pdf", [0])[0]
    attack = default_kit.technologies["attack"]
    for code in ("SC", "CA", "BB"):
        unit = default_kit.units[code]
        levels = " ".join(str(lv.level) for lv in attack.levels if lv.level <= unit.hull)
        assert f"{code} 1 {levels} {levels} " in page, code


def test_sheets_fit_fonts_and_determinism(built, tmp_path):
    kit_out, part = built
    for entries in part["pages"].values():
        assert all(0 < e["content_height"] <= e["frame"][3] for e in entries)
    again, _ = build(tmp_path)
    for name in ("production-sheet.pdf", "ship-tech-sheet.pdf"):
        assert embedded_font_problems(kit_out / name) == []
        assert (again / name).read_bytes() == (kit_out / name).read_bytes()


def test_edited_data_reaches_the_sheets(kit_copy, tmp_path):
    edit(kit_copy / "data/game.yaml", "carry_over_cap: 30", "carry_over_cap: 25")
    edit(kit_copy / "components/units.yaml", "name: Destroyer\n    class: D\n    attack: 4\n    defence: 0\n    hull: 1\n"
         "    cost: 9\n    ship_size: 2\n    pays_maintenance: true\n    movement: tech\n    groups: true\n"
         "    qty: 4", "name: Destroyer\n    class: D\n    attack: 4\n    defence: 0\n    hull: 1\n"
         "    cost: 9\n    ship_size: 2\n    pays_maintenance: true\n    movement: tech\n    groups: true\n"
         "    qty: 6")
    kit_out, _ = build(tmp_path, "--data", str(kit_copy), "--paper", "a4")
    production = all_text(kit_out / "production-sheet.pdf")
    assert "keep at most 25 CP" in production and "keep at most 30 CP" not in production
    ships = page_words(kit_out / "ship-tech-sheet.pdf", [0])[0]
    assert "DD 6 " in ships and "DD 7 " not in ships
    cards = all_text(kit_out / "cards.pdf")
    assert "Keep at most 25 CP" in cards and "Keep at most 30" not in cards
