"""Aid cards: every unit, technology and marker in the data is printed, with its numbers, and fits its card."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from aid_helpers import all_text, build, colour_box, embedded_font_problems, hex_rgb, page_words
from conftest import edit
from pnpgen.aids.imposition import card_sheet, content_frame
from pnpgen.paper import half_page_size
from print_words import inside, print_phrase_boxes

DASH = "\u2013"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    kit_out, manifest = build(tmp_path_factory.mktemp("cards"))
    return kit_out / "cards.pdf", manifest["parts"]["cards"]


def _pages_of(part: dict, card_id: str) -> list[int]:
    entry = next(e for e in part["cards"] if e["card"] == card_id)
    return [entry["front"]["page"] - 1, entry["back"]["page"] - 1]


def att_def(unit) -> str:
    return f"{unit.attack}{DASH}{unit.defence}" if unit.combat else DASH


def unit_row(kit, unit) -> str:
    """The unit chart row as the PDF's text reads it."""
    needs = ", ".join(f"{kit.technologies[t].name} {lvl}" for t, lvl in unit.requires) or DASH
    named = unit.name if f"{unit.name} ".startswith(f"{unit.code} ") else f"{unit.code} {unit.name}"  # Miner, MS Pipeline
    return " ".join(str(v) for v in (named, unit.cls or DASH, att_def(unit), unit.hull, unit.cost,
                                     unit.ship_size or DASH, unit.maintenance, unit.counters, needs))


def test_unit_chart_prints_every_unit_with_its_numbers(built, default_kit):
    pdf, part = built
    back = page_words(pdf, [_pages_of(part, "player_aid")[1]])[0]
    for unit in default_kit.units.values():
        assert unit_row(default_kit, unit) in back, unit.code
    assert back.index("Basic rules") < back.index("SC Scout") < back.index("Advanced rules") < back.index("CV Carrier")


def test_research_chart_prints_every_level_cost(built, default_kit):
    pdf, part = built
    back = page_words(pdf, [_pages_of(part, "player_aid")[1]])[0]
    for tech in default_kit.technologies.values():
        assert f"{tech.name} " in back
        for level in tech.upgrades:
            assert f"{level.level}: {level.cost}" in back, (tech.id, level.level)
        assert " ".join(tech.summary.split()) in back, tech.id


def test_movement_chart_and_special_movers(built, default_kit):
    pdf, part = built
    front = page_words(pdf, [_pages_of(part, "player_aid")[0]])[0]
    levels = default_kit.technologies["movement"].levels
    assert "Movement level " + " ".join(str(lv.level) for lv in levels) in front
    for turn in range(3):
        assert f"Hexes in turn {turn + 1} " + " ".join(str(lv.moves[turn]) for lv in levels) in front
    for code in ("CO", "Miner", "Mine", "MS", "SY", "Base", "F", "Decoy"):
        assert default_kit.units[code].name in front.split("Always 1 hex")[1].split("A ship that can fire")[0]


def test_exploration_card_lists_every_marker_and_table(built, default_kit):
    pdf, part = built
    front, back = page_words(pdf, _pages_of(part, "exploration"))
    for kind in default_kit.marker_kinds.values():
        assert kind.name in front, kind.id
        assert " ".join(kind.effect.split()) in front, kind.id
    for row in default_kit.game.tables["space_wreck"]:
        low, high = row["roll"]
        roll = str(low) if low == high else f"{low}{DASH}{high}"
        assert f"{roll} {default_kit.technologies[row['technology']].name}" in back
    for row in default_kit.game.tables["black_hole"]:
        assert f"{row['roll'][0]}{DASH}{row['roll'][1]} {row['result']}" in back
    for scenario in default_kit.game.scenarios:
        assert f"{scenario.name} {scenario.players} {scenario.deep_space_markers}" in back
    for code, count in default_kit.game.starting_forces:
        assert f"{count} \u00d7 {default_kit.units[code].name}" in back
    at = 0  # the chart's After column says, row by row, whether each marker stays or is removed
    for kind in default_kit.marker_kinds.values():
        at = front.index(kind.name, at) + len(kind.name)
        after = re.search(r"\b(stays|removed)\b", front[at:])
        assert after and after.group(1) == kind.after, kind.id


def test_one_card_per_colour_and_kind(built, default_kit):
    _, part = built
    for card_id in ("player_aid", "exploration"):
        colours = [e["colour"] for e in part["cards"] if e["card"] == card_id]
        assert colours == [c.id for c in default_kit.colours]


def test_every_face_fits_its_frame(built):
    _, part = built
    for entry in part["cards"]:
        for side in ("front", "back"):
            face = entry[side]
            assert 0 < face["content_height"] <= face["frame"][3], (entry["card"], side)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_content_fits_on_both_papers(default_kit, paper):
    from pnpgen.aids.cards import plan_cards
    sheet = card_sheet(paper, 2)
    frame = content_frame(sheet.slots[0])
    for card in plan_cards(default_kit, sheet):
        for side, fitted in card.faces.items():
            assert fitted.height <= frame.height, (card.text.id, side)
            assert sum(fitted.heights) <= fitted.height + 0.01


def test_page_size_and_mirrored_backs(built):
    """The build's default long-edge flip turns the landscape sheet over top to bottom: each back sits under
    its own front (same x, mirrored y), on the next page."""
    pdf, part = built
    assert part["files"][0]["page_size"] == [792.0, 612.0] and part["duplex"] == "flip on the long edge"
    card_w, card_h = half_page_size("letter")
    for entry in part["cards"]:
        front, back = entry["front"]["card"], entry["back"]["card"]
        assert front[2:] == back[2:] == [card_w, card_h]
        assert back[0] == pytest.approx(front[0]) and back[1] == pytest.approx(612.0 - front[1] - front[3])
        assert entry["back"]["page"] == entry["front"]["page"] + 1


def test_backs_land_behind_fronts_in_pixels(built, default_kit):
    """The title band drawn in the player's colour: on the back page it is drawn half a turn round, at the
    card's foot, which is where the front's band is once the sheet is turned over on its long edge."""
    pdf, part = built
    colour = default_kit.colours[0]
    entry = next(e for e in part["cards"] if e["colour"] == colour.id)
    front_box = colour_box(pdf, entry["front"]["page"] - 1, hex_rgb(colour.print))
    back_box = colour_box(pdf, entry["back"]["page"] - 1, hex_rgb(colour.print))
    assert back_box[0] == pytest.approx(front_box[0], abs=3) and back_box[2] == pytest.approx(front_box[2], abs=3)
    assert back_box[1] == pytest.approx(612.0 - front_box[3], abs=3)
    assert back_box[3] == pytest.approx(612.0 - front_box[1], abs=3)


def test_a4_and_one_per_page(tmp_path):
    _, manifest = build(tmp_path / "a4", "--paper", "a4")
    part = manifest["parts"]["cards"]
    assert part["files"][0]["page_size"] == pytest.approx([841.89, 595.276], abs=0.01)
    kit_out, manifest = build(tmp_path / "one", "--cards-per-sheet", "1")
    part = manifest["parts"]["cards"]
    assert part["files"][0]["page_size"] == [612.0, 792.0] and part["files"][0]["pages"] == 16
    for entry in part["cards"]:
        assert entry["front"]["card"] == entry["back"]["card"]
    _assert_print_words_off_the_cards(kit_out / "cards.pdf", part, said=True)


def _assert_print_words_off_the_cards(pdf: Path, part: dict, said: bool) -> None:
    """No print instruction overlaps a card's cut box (issue 37: it would stay on the cut card); one-per-page
    sheets say it in the page margin above the card."""
    pages = {}
    for entry in part["cards"]:
        for side in ("front", "back"):
            pages.setdefault(entry[side]["page"], []).append(entry[side]["card"])
    found = {page: print_phrase_boxes(pdf, page - 1) for page in pages}
    assert not [(page, phrase) for page, boxes in found.items() for phrase, box in boxes
                if any(inside(box, card) for card in pages[page])]
    assert bool(found[1]) == said and (said or not any(found.values()))


def test_two_cards_a_sheet_carry_no_print_line(built):
    """Two half-page cards fill the sheet: there is no margin off the cards, so the sheet says nothing about
    printing (the summary and the calibration sheet do)."""
    pdf, part = built
    _assert_print_words_off_the_cards(pdf, part, said=False)


def test_fonts_embedded_and_builds_identical(built, tmp_path):
    pdf, _ = built
    assert embedded_font_problems(pdf) == []
    again, _ = build(tmp_path)
    assert (again / "cards.pdf").read_bytes() == pdf.read_bytes()


def test_an_edited_cost_reaches_every_aid(kit_copy, tmp_path):
    edit(kit_copy / "components/units.yaml", "name: Cruiser\n    class: C\n    attack: 4\n    defence: 1\n    hull: 2\n    cost: 12",
         "name: Cruiser\n    class: C\n    attack: 4\n    defence: 1\n    hull: 2\n    cost: 17")
    edit(kit_copy / "technologies.yaml", "- {level: 2, cost: 10}", "- {level: 2, cost: 13}")
    kit_out, _ = build(tmp_path, "--data", str(kit_copy))
    cards = all_text(kit_out / "cards.pdf")
    assert "CA Cruiser C 4\u20131 2 17 3" in cards and "CA Cruiser C 4\u20131 2 12 3" not in cards
    assert "Ship Size 1 \u00b7 2: 13 \u00b7 3: 15" in cards and "2: 10 \u00b7" not in cards
    production = all_text(kit_out / "production-sheet.pdf")
    assert "2 \u00b7 13 CP" in production and "2 \u00b7 10 CP" not in production


def test_overflow_is_a_located_error(kit_copy, tmp_path, run_cli):
    assert run_cli("build", "--only", "cards", "--data", kit_copy, "--out", tmp_path).code == 0
    before = (tmp_path / "space-empires-4x" / "cards.pdf").read_bytes()
    aids = kit_copy / "aids"
    text = (aids / "cards.yaml").read_text()
    long = "      - text: >-\n          " + "Far too much text for one card. " * 400 + "\n"
    (aids / "cards.yaml").write_text(text.replace("    back:\n      - heading: Units\n",
                                                  "    back:\n" + long + "      - heading: Units\n", 1))
    result = run_cli("build", "--only", "cards", "--data", kit_copy, "--out", tmp_path)
    assert result.code != 0
    assert "aids/cards.yaml:" in result.err and "cards.player_aid.back" in result.err and "frame holds" in result.err
    assert (tmp_path / "space-empires-4x" / "cards.pdf").read_bytes() == before


def test_unknown_name_in_aid_text_is_located(kit_copy, tmp_path, run_cli):
    line = edit(kit_copy / "aids" / "cards.yaml", "{{ combat.fleet_size_bonus }}", "{{ combat.fleet_bonus }}")
    result = run_cli("build", "--only", "cards", "--data", kit_copy, "--out", tmp_path)
    assert result.code != 0 and f"cards.yaml:{line}:" in result.err and "fleet_bonus" in result.err


def test_a_table_card_is_printed_once_in_the_neutral_colour(kit_copy, tmp_path):
    edit(kit_copy / "aids" / "cards.yaml", "title: Exploration\n    per: colour", "title: Exploration\n    per: table")
    _, manifest = build(tmp_path, "--data", str(kit_copy))
    colours = [e["colour"] for e in manifest["parts"]["cards"]["cards"] if e["card"] == "exploration"]
    assert colours == ["neutral"]


def test_names_with_markup_characters_print_as_written(kit_copy, tmp_path):
    edit(kit_copy / "components/units.yaml", "    name: Miner\n", "    name: \"R&D <Miner>\"\n")
    kit_out, _ = build(tmp_path, "--data", str(kit_copy))
    cards = all_text(kit_out / "cards.pdf")
    assert "Colony Ship, R&D <Miner>, Mine" in " ".join(cards.split())  # the prose, not just the chart
    assert "&amp;" not in cards


# A kit of data only with aid cards of its own ------------------------------------------------------------

MINI_CARDS = """cards:
  turn:
    title: Your turn
    per: table
    front:
      - heading: Each turn
      - bullets:
          - Draw one of the {{ tables.cards.count }} action cards.
          - Play it, then pass.
      - chart: tiles
    back:
      - heading: Tokens
      - text: The bag holds {{ tables.tokens.count }} tokens & a <b>bold</b> promise.
"""


@pytest.fixture
def mini_with_aids(tmp_path):
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    (kit / "aids").mkdir()
    (kit / "aids" / "cards.yaml").write_text(MINI_CARDS, encoding="utf-8")
    return kit


def test_a_data_kit_prints_its_own_aid_cards_with_its_numbers_and_charts(mini_with_aids, run_cli, tmp_path):
    """Beside its deck: the kit's `cards` table prints cards.pdf, its aid cards aid-cards.pdf."""
    out = tmp_path / "out"
    result = run_cli("build", "--data", mini_with_aids, "--out", out, "--quiet")
    assert result.code == 0, result.err
    deck = " ".join(p.extract_text() for p in PdfReader(out / "mini" / "cards.pdf").pages)
    assert "Explore" in deck and "Your turn" not in deck
    reader = PdfReader(out / "mini" / "aid-cards.pdf")
    assert [float(v) for v in reader.pages[0].mediabox] == [0, 0, 792, 612]   # two half-letter cards a sheet
    front, back = (" ".join(p.extract_text().split()) for p in reader.pages[:2])
    assert "Your turn Mini Test Kit · front" in front and "Neutral" not in front   # a single card: no colour
    assert "Draw one of the 12 action cards." in front
    assert "Tiles that score Hills 1 2 Tiles that do not Plains 0 3 Void 0 1" in front   # the declared chart
    assert "The bag holds 16 tokens & a bold promise." in back


def test_a_data_kits_aid_card_mistake_is_located(mini_with_aids, run_cli, tmp_path):
    cards = mini_with_aids / "aids" / "cards.yaml"
    cards.write_text(MINI_CARDS.replace("chart: tiles", "chart: tilez").replace("tables.tokens.count", "tables.tokenz.count"),
                     encoding="utf-8")
    result = run_cli("validate", "--data", mini_with_aids)
    assert result.code == 1
    assert "aids/cards.yaml:13: " in result.err and "tokenz" in result.err, result.err
    cards.write_text(MINI_CARDS.replace("chart: tiles", "chart: tilez"), encoding="utf-8")
    result = run_cli("validate", "--data", mini_with_aids)
    assert result.code == 1 and "aids/cards.yaml:10: cards.turn.front[2].chart: " in result.err, result.err


def test_a_data_kit_without_aid_cards_has_no_cards_part(mini_with_aids):
    from pnpgen.kit import load_kit
    from pnpgen.parts import all_parts
    cards = next(p for p in all_parts() if p.name == "cards")
    assert not cards.applies(load_kit(Path(__file__).parent / "kits" / "mini")[0])
    assert cards.applies(load_kit(mini_with_aids)[0])


def test_two_parts_writing_one_file_stop_the_build_naming_both(run_cli, tmp_path):
    """A table whose print group is `booklet` would overwrite the rules booklet (or the booklet it)."""
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    chits = kit / "components" / "chits.yaml"
    chits.write_text(chits.read_text(encoding="utf-8").replace("name:", "group: booklet\nname:", 1), encoding="utf-8")
    kit_yaml = kit / "kit.yaml"
    kit_yaml.write_text(kit_yaml.read_text(encoding="utf-8").replace("  chits:", "  booklet:", 1), encoding="utf-8")
    result = run_cli("build", "--data", kit, "--out", tmp_path / "out", "--quiet")
    assert result.code == 1
    assert "booklet.pdf would be written by both the components part and the documents part" in result.err, result.err
    line = chits.read_text(encoding="utf-8").splitlines().index("group: booklet") + 1
    assert f"chits.yaml:{line}: group:" in result.err  # the table's `group:` line (the kit names no documents)
    assert not (tmp_path / "out" / "mini").exists()


def test_a_broken_tag_in_an_aid_card_is_located_not_dropped(mini_with_aids, run_cli):
    """'<b{{ n }}</b>' renders '<b16</b>': reportlab would print nothing there; validate names it."""
    cards = mini_with_aids / "aids" / "cards.yaml"
    cards.write_text(MINI_CARDS.replace("a <b>bold</b> promise", "a <b{{ tables.tokens.count }}</b> promise"),
                     encoding="utf-8")
    result = run_cli("validate", "--data", mini_with_aids)
    assert result.code == 1
    assert "aids/cards.yaml:13: cards.turn.back[1].text: the text's markup does not parse: <b16> is not a markup tag" \
        in result.err, result.err
