"""The Space Empires 4X kit read back from its PDFs (issue 14): counter text legible and clear of the cuts, cut
lines that show on every colour, calibration and assembly pages that keep their words apart and on the
paper, booklet headers and tables where a reader expects them, no escaped markup on the cards, one wording
of each rule on the cards and in the booklet, and counts that cover a four-player game. One full build."""
from __future__ import annotations

import ctypes
import json
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader

from pnpgen.cli import main
from pnpgen.kit import load_kit
from tests.conftest import DEFAULT_KIT_DIR

MM = 72 / 25.4
MIN_TEXT, CUT_MARGIN = 6.0, 1 * MM
H1 = 15.0  # the booklet's chapter headings (generator/booklet/styles.py)


@pytest.fixture(scope="module")
def out(default_kit_build) -> Path:
    return default_kit_build


@pytest.fixture(scope="module")
def manifest(out) -> dict:
    return json.loads((out / "manifest.json").read_text())


@pytest.fixture(scope="module")
def kit():
    return load_kit(DEFAULT_KIT_DIR)[0]


def glyphs(pdf: Path, page_number: int) -> tuple[list[tuple], float, float]:
    """Every visible glyph of a page: (char, size pt, x0, top, x1, bottom, baseline), top-left origin, points."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        page = document[page_number - 1]
        width, height = page.get_size()
        text = page.get_textpage()
        matrix, found = pdfium_c.FS_MATRIX(), []
        ox, oy = ctypes.c_double(), ctypes.c_double()
        for i in range(text.count_chars()):
            char = chr(pdfium_c.FPDFText_GetUnicode(text.raw, i))
            if char.isspace():
                continue
            pdfium_c.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
            size = pdfium_c.FPDFText_GetFontSize(text.raw, i) * abs(matrix.d)
            left, bottom, right, top = text.get_charbox(i)
            pdfium_c.FPDFText_GetCharOrigin(text.raw, i, ctypes.byref(ox), ctypes.byref(oy))
            found.append((char, size, left, height - top, right, height - bottom, height - oy.value))
        return found, width, height
    finally:
        document.close()


@cache  # the files are built once for the session and only read: their words are read once too
def words(pdf: Path) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)


def folded(text: str) -> str:
    return " ".join(text.split())


# Counters ---------------------------------------------------------------------------------------------------

def test_counter_text_is_at_least_6pt_and_1mm_inside_its_cut_line(out, manifest):
    """Every glyph on every counter page, held against the counter it sits on (the preflight's two rules)."""
    by_page = defaultdict(list)
    for p in manifest["parts"]["components"]["placements"]:
        by_page[(p["file"], p["page"])].append(p)
    seen, problems = set(), []
    for (name, page), placed in sorted(by_page.items()):
        for char, size, x0, y0, x1, y1, _ in glyphs(out / name, page)[0]:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            piece = next((p for p in placed if p["x"] <= cx <= p["x"] + p["w"]
                          and p["y"] <= cy <= p["y"] + p["h"]), None)
            if piece is None:
                continue  # the sheet's title and scale
            seen.add(piece["ref"])
            gap = min(x0 - piece["x"], piece["x"] + piece["w"] - x1, y0 - piece["y"],
                      piece["y"] + piece["h"] - y1)
            if size < MIN_TEXT - 1e-3 or gap < CUT_MARGIN:
                problems.append((name, piece["ref"], piece["side"], char, round(size, 2), round(gap / MM, 2)))
    assert {"neutral-counters.group-size-1", "neutral-counters.turn", "deep-space-markers.doomsday-machine-1",
            "units.CO", "units.MS"} <= seen
    assert not problems, sorted(set(problems))[:20]


def test_group_size_and_doomsday_labels_print_at_6pt(out):
    text = words(out / "counters-neutral.pdf") + " " + words(out / "counters-deep-space.pdf")
    assert "Group size" in text and "Doomsday" in text and "Economic Phase" in text
    for name, label in (("counters-neutral.pdf", "Group"), ("counters-deep-space.pdf", "Doomsday")):
        found, _, _ = glyphs(out / name, 1)
        chars = "".join(g[0] for g in found)
        sizes = [found[m.start()][1] for m in re.finditer(label, chars)]
        assert sizes and min(sizes) >= MIN_TEXT, (label, sizes)


def _render(pdf: Path, page: int, scale: float, box: tuple[float, float, float, float]):
    """The pixels of `box` (x0, top, x1, bottom in points from the top-left) at `scale` pixels per point."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        sheet = document[page - 1]
        width, height = sheet.get_size()
        x0, top, x1, bottom = box
        crop = (x0, height - bottom, width - x1, top)
        return sheet.render(scale=scale, crop=crop).to_pil().convert("RGB")
    finally:
        document.close()


def _placement(manifest, file, ref, face="front", index=0):
    return [p for p in manifest["parts"]["components"]["placements"]
            if p["file"] == file and p["ref"] == ref and p["side"] == face][index]


def test_homeworld_value_keeps_clear_of_its_planet(out, manifest):
    """Between the planet and the printed value there is a band of at least 1 mm with no ink-coloured pixel."""
    for colour, ink in (("red", (255, 255, 255)), ("yellow", (26, 26, 26))):
        file = f"counters-{colour}.pdf"
        for face in ("front", "back"):
            piece = _placement(manifest, file, "colour-counters.homeworld-damage-20", face)
            found, _, _ = glyphs(out / file, 1 if face == "front" else 2)
            inside = [g for g in found if g[0].isdigit() and piece["x"] <= g[2] <= piece["x"] + piece["w"]
                      and piece["y"] <= g[3] <= piece["y"] + piece["h"] and g[1] > 10]
            value_left = min(g[2] for g in inside)
            top, bottom = min(g[3] for g in inside), max(g[5] for g in inside)
            scale = 12
            image = _render(out / file, 1 if face == "front" else 2, scale,
                            (value_left - CUT_MARGIN - 0.3, top, value_left - 0.3, bottom))
            inked = [px for px in image.get_flattened_data() if sum(abs(a - b) for a, b in zip(px, ink)) < 60]
            assert not inked, (colour, face, len(inked))


def test_cut_lines_contrast_with_every_colour(out, manifest):
    """Across the shared edge of two abutting counters, the line's darkest pixel stands well apart from the
    counter colour beside it, on the yellow and green patterns too."""
    for colour in ("red", "blue", "green", "yellow"):
        file = f"counters-{colour}.pdf"
        left, right = _placement(manifest, file, "units.DD", index=2), _placement(manifest, file, "units.DD", index=3)
        assert right["x"] == left["x"] + left["w"]
        edge, scale = right["x"], 10
        image = _render(out / file, 1, scale, (edge - 3, left["y"] + 10, edge + 3, left["y"] + 30)).convert("L")
        columns = [sum(image.getpixel((x, y)) for y in range(image.height)) / image.height
                   for x in range(image.width)]
        middle = columns[len(columns) // 2 - 4: len(columns) // 2 + 4]
        ground = (columns[0] + columns[-1]) / 2
        assert min(middle) < ground - 50 and max(middle) > ground + 50, (colour, ground, min(middle), max(middle))


def test_calibration_words_stay_a_quarter_inch_from_the_edge_and_ask_for_no_tool(out):
    pdf = out / "duplex-calibration.pdf"
    for page in (1, 2):
        found, width, height = glyphs(pdf, page)
        assert found
        assert min(g[2] for g in found) >= 18 and max(g[4] for g in found) <= width - 18
        assert min(g[3] for g in found) >= 18 and max(g[5] for g in found) <= height - 18
    back = folded(PdfReader(pdf).pages[1].extract_text())
    assert "pnpgen" not in back and "Rebuild" not in back
    assert "X = ______ mm" in back and "Both 0" in back


def test_needed_counts_are_printed(manifest, kit):
    pieces = {p["ref"]: p for p in manifest["pieces"]} if isinstance(manifest.get("pieces"), list) else {}
    numerals = sum(p["count"] for p in manifest["pieces"] if p["ref"].startswith("neutral-counters.group-size-"))
    groups = sum(u.counters for u in kit.units.values() if u.groups and u.rules == "basic")
    assert numerals >= groups * kit.players[1]
    colonies = sum(p["count"] for p in manifest["pieces"] if p["ref"] == "colour-counters.colony")
    assert colonies >= kit.units["CO"].counters * len(kit.colours), pieces.keys()


# Maps -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("board", ["duel-large", "duel-xl"])
def test_assembly_steps_keep_off_the_scale_caption(out, board):
    pdf = out / "maps" / f"{board}-tiles-letter.pdf"
    found, width, _ = glyphs(pdf, 1)
    chars = "".join(g[0] for g in found)
    caption = [found[i] for m in re.finditer(r"printedatactualsize,thisbaris[0-9.]+in:", chars)
               for i in range(m.start(), m.end())]
    caption += [found[i] for m in re.finditer("onehexacrosstheflats", chars) for i in range(m.start(), m.end())]
    assert caption
    x0, top = min(g[2] for g in caption), min(g[3] for g in caption)
    x1, bottom = max(g[4] for g in caption), max(g[5] for g in caption)
    steps = [g for g in found if g not in caption and g[1] < 10 and g[5] > top - 2 and g[3] < bottom + 2]
    overlapping = [g for g in steps if g[4] > x0 - 1 and g[2] < x1 + 1]
    assert not overlapping, "".join(g[0] for g in overlapping)
    assert "5." in chars


# Booklet ----------------------------------------------------------------------------------------------------

def test_no_booklet_text_is_below_6pt(out):
    pdf = out / "booklet.pdf"
    for page in range(1, len(PdfReader(pdf).pages) + 1):
        small = [g for g in glyphs(pdf, page)[0] if g[1] < MIN_TEXT]
        assert not small, (page, "".join(g[0] for g in small)[:40])


def test_running_header_names_the_chapter_current_at_the_top_of_the_page(out):
    """A chapter heading (15 pt) that opens a page names it; otherwise the header keeps the chapter that runs
    on from the page before. The last page is the designed back cover (kit.yaml cover:): no running header."""
    pdf = out / "booklet.pdf"
    current, checked = "Contents", 0
    for page in range(3, len(PdfReader(pdf).pages)):
        found, width, height = glyphs(pdf, page)
        header = "".join(g[0] for g in found if g[5] < 40 and g[2] > width / 2)
        body = sorted((g for g in found if g[3] > 40 and g[5] < height - 30), key=lambda g: (round(g[6]), g[2]))
        lines = defaultdict(list)
        for g in body:
            lines[round(g[6])].append(g)
        ordered = [lines[k] for k in sorted(lines)]
        h1 = lambda line: abs(line[0][1] - H1) < 0.05  # noqa: E731
        titles = ["".join(g[0] for g in line) for line in ordered if h1(line)]
        opens = bool(ordered) and h1(ordered[0])
        top_chapter = titles[0] if opens else current
        assert header == top_chapter.replace(" ", ""), (page, header, top_chapter)
        current = titles[-1] if titles else current
        checked += 1
    assert checked > 20


def test_space_wreck_heading_stays_with_its_table(out, kit):
    for page in PdfReader(out / "booklet.pdf").pages:
        text = folded(page.extract_text())
        if "The Space Wreck table" in text:
            after = text.split("The Space Wreck table", 1)[1]
            assert "Technology raised one level" in after
            for row in kit.game.tables["space_wreck"]:
                assert kit.technologies[row["technology"]].name in after
            return
    pytest.fail("no Space Wreck heading")


def test_printing_chapter_names_every_file(out, manifest):
    text = words(out / "booklet.pdf")
    files = [p.name for p in out.glob("*.pdf")]
    assert len(files) >= 12
    for name in files:
        assert name in text, name
    assert "NAME-poster.pdf" in text and "NAME-tiles-PAPER.pdf" in text
    for scenario in manifest["parts"]["maps"]["files"] if isinstance(manifest["parts"]["maps"].get("files"), list) else []:
        assert Path(scenario["path"]).name.split("-poster")[0].split("-tiles")[0] in text
    # one flip for every two-sided file (the build's --duplex, long by default), booklet included
    assert "flipping on the long edge" in text and "short edge" not in text


def test_advanced_and_solo_numbers_come_from_the_data(out, kit):
    rules = kit.data["rules"]
    text = folded(words(out / "booklet.pdf"))
    assert f"up to {rules['carrier']['capacity']} Fighters" in text
    assert f"fire as class {rules['cloaking']['class_when_cloaked']}" in text
    assert f"destroys {rules['mines']['ships_per_mine']} enemy ship" in text
    assert f"pays {rules['ms_pipeline']['cp_per_colony']} CP more" in text
    assert f"by the end of round {rules['solo']['rounds']}" in text
    assert f"collects {rules['team']['lone_cp']} CP more" in text
    for heading in ("Carriers and Fighters", "Raiders, Cloaking and Scanners", "Mines and Minesweepers",
                    "Point Defence", "MS Pipelines", "Warp Points", "Doomsday Machines", "Teams",
                    "Solo: the sleeping machines"):
        assert heading in text, heading


# Cards and agreement ----------------------------------------------------------------------------------------

def test_cards_print_no_markup(out):
    text = words(out / "cards.pdf")
    assert "&#" not in text and "&amp;" not in text and "&gt;" not in text
    assert "5 → 3 → 1 → gone" in text


def test_a_unit_named_by_its_code_prints_its_name_once(out):
    """The unit charts print code then name ("CA Cruiser", "F Fighter"); "Miner" and "MS Pipeline" must not
    double up."""
    for pdf in ("cards.pdf", "booklet.pdf"):
        text = folded(words(out / pdf))
        assert "CA Cruiser" in text and "F Fighter" in text and "R Raider" in text and "MS Pipeline" in text, pdf
        assert "Miner Miner" not in text and "MS MS Pipeline" not in text and "Base Base" not in text, pdf


@pytest.mark.parametrize("rule", ["order", "exploring", "exploration_tech", "shipyards", "one_shipyard",
                                  "decoys", "screened_retreat", "fleet_size_mines", "upgrades", "first_hex",
                                  "unarmed_entry", "tactics", "space_wreck"])
def test_cards_and_booklet_state_a_rule_in_the_same_words(out, kit, rule):
    sentence = folded(kit.data["rules"]["say"][rule])
    flat = lambda pdf: re.sub(r"-\s", "-", folded(words(pdf)))  # noqa: E731 (a wrapped line's hyphen)
    booklet, cards = flat(out / "booklet.pdf"), flat(out / "cards.pdf")
    assert sentence in booklet, rule
    assert sentence in cards, rule


def test_old_disagreements_are_gone(out):
    cards, booklet = folded(words(out / "cards.pdf")), folded(words(out / "booklet.pdf"))
    for stale in ("the order stays", "Shipyard levels add up", "Decoys are removed", "take them out of the hex",
                  "for life", "pays the bid and chooses"):
        assert stale not in cards and stale not in booklet, stale
    assert "(kit ruling 1)" in booklet and "Kit rulings" in booklet


def test_assembly_title_stays_inside_the_margin_on_a4(tmp_path):
    """A4 is narrower than Letter: the longest assembly title shrinks rather than run off the paper."""
    assert main(["build", "--only", "maps", "--map", "duel-xl", "--paper", "a4", "--out", str(tmp_path),
                 "--quiet"]) == 0
    found, width, _ = glyphs(tmp_path / "space-empires-4x" / "maps" / "duel-xl-tiles-a4.pdf", 1)
    assert "Duel,extra-largegalaxy:puttingthe" in "".join(g[0] for g in found)
    assert max(g[4] for g in found) <= width - 18


def test_an_escaped_character_reference_stops_the_cards_at_its_face():
    """`{{ steps | join(" &#8594; ") }}` escapes the &, so the card would print "&#8594;": a located error."""
    from pnpgen.aids.cards import check_markup
    from pnpgen.problems import BuildError

    check_markup([{"text": "5 → 3 → 1 and R&amp;D"}], "cards.yaml:9 cards.x.front")
    with pytest.raises(BuildError, match=r"cards.yaml:9 cards.x.front: '&#8594;' would print as text"):
        check_markup([{"bullets": ["fine", "5 &amp;#8594; 3"]}], "cards.yaml:9 cards.x.front")
