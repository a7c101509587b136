"""The SE4 Board Game kit (issue 13): built once, then read back from its PDFs and checked against its data.

Expectations come from the kit's own YAML (read here with PyYAML, not through the generator), so a card
that prints something other than its row fails. Text is read with pypdfium2 inside each card's rectangle
(the manifest says where every card sits); pdfium drops most spaces, so texts are compared squashed.
"""
from __future__ import annotations

import json
import re
import shutil
from collections import Counter, deque
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

from pnpgen.cli import main
from pnpgen.kit import load_kit
from tests.cover_helpers import picture_around_pieces
from pnpgen.kit_folder import BUILTIN_DATA

KIT = BUILTIN_DATA / "se4-board-game"
TABLES = ("hulls", "facilities", "colonies", "techs", "components", "armour", "reference")
MARKERS = "markers"      # the map's fleet and colony markers: printed one-sided, named by number, not by name


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def load(rel: str):
    return yaml.safe_load((KIT / rel).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def kit_yaml():
    return load("kit.yaml")


@pytest.fixture(scope="module")
def tables():
    return {name: load(f"components/{name}.yaml") for name in TABLES}


@pytest.fixture(scope="module")
def board():
    return load("boards/galaxy.yaml")


@pytest.fixture(scope="module")
def built(kit_build):
    root = kit_build("se4-board-game")
    return root, json.loads((root / "manifest.json").read_text(encoding="utf-8"))


def pdf_text(path: Path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def cards(built):
    """Every placed card face: (file, side, table, row id, colour, squashed text inside its rectangle)."""
    root, manifest = built
    placements = manifest["parts"]["components"]["placements"]
    found = []
    by_file: dict[str, list] = {}
    for p in placements:
        by_file.setdefault(p["file"], []).append(p)
    for name, items in by_file.items():
        pdf = pdfium.PdfDocument(str(root / name))
        try:
            for p in items:
                page = pdf[p["page"] - 1]
                height = page.get_height()
                box = (p["x"], height - p["y"] - p["h"], p["x"] + p["w"], height - p["y"])
                textpage = page.get_textpage()
                text = turned_text(textpage, box) if p["turned"] else textpage.get_text_bounded(*box)
                table, row = p["ref"].split(".", 1)
                # the sheet's sideways label runs beside the grid and can fall inside an edge card's box
                text = re.sub(r"SE4BoardGame·.*$", "", squash(text))
                found.append((name, p["side"], table, row, p["colour"], text))
        finally:
            pdf.close()
    return found


def turned_text(textpage, box: tuple) -> str:
    """The text of a piece printed half a turn round (a back on a landscape page flipped on the long edge) in
    its own reading order: pdfium finds its lines in order but sets each upside-down line's words by the
    page's left to right, so each line is read again right to left (by the characters' origins)."""
    import ctypes

    import pypdfium2.raw as pdfium_c
    left, bottom, right, top = box
    lines: list[list] = [[]]
    for index in range(textpage.count_chars()):
        char = textpage.get_text_range(index, 1)
        if char in "\r\n":
            lines.append([])
            continue
        x, y = ctypes.c_double(), ctypes.c_double()
        pdfium_c.FPDFText_GetCharOrigin(textpage.raw, index, x, y)
        if left <= x.value <= right and bottom <= y.value <= top:
            lines[-1].append((-x.value, char))
    return "\n".join("".join(char for _, char in sorted(line)) for line in lines if line)


def expected_pieces(table: dict, colours: int) -> int:
    return sum(r.get("qty", 1) for r in table["rows"]) * (colours if table.get("per_colour") else 1)


# --- counts and names read back from the PDFs ---------------------------------------------------------

def test_every_table_prints_its_rule_count_of_cards(cards, tables, kit_yaml):
    colours = len(kit_yaml["colours"])
    fronts = Counter(t for _, side, t, *_ in cards if side == "front")
    backs = Counter(t for _, side, t, *_ in cards if side == "back")
    every = {**tables, MARKERS: load(f"components/{MARKERS}.yaml")}
    for name, table in every.items():
        want = expected_pieces(table, colours)
        assert want == table["counts"]["total"], name          # the data meets its own rule
        assert fronts[name] == want, name
        assert backs[name] == (want if "back" in table else 0), name    # every card is double-sided
    assert sum(fronts.values()) == sum(expected_pieces(t, colours) for t in every.values())


def test_each_card_front_starts_with_its_own_name(cards, tables, kit_yaml):
    """Names read back: every front starts with the name of its row, and each name appears qty times."""
    colours = len(kit_yaml["colours"])
    for name, table in tables.items():
        rows = {r["id"]: r for r in table["rows"]}
        seen = Counter()
        for _, side, t, row, colour, text in cards:
            if t != name or side != "front":
                continue
            title = {"techs": "TECH", "reference": rows[row].get("title")}.get(name, rows[row].get("name"))
            assert text.startswith(squash(title)), (name, row, text[:40])
            if name == "techs":
                assert squash(rows[row]["name"]) in text, (row, text)
            seen[row] += 1
        for r in table["rows"]:
            assert seen[r["id"]] == r.get("qty", 1) * (colours if table.get("per_colour") else 1), r["id"]


def test_every_named_component_is_in_the_deck(cards, tables):
    named = {"Ripper Beam", "Torpedo", "Antiproton Beam", "Capital Ship Missile", "TK Projector", "Repulsor Beam",
             "Planetary Napalm", "Standard Armor", "Organic Armor", "Shield", "Shield Regenerator", "ECM",
             "Combat Sensor", "Point Defense", "Cargo Bay", "Repair Bay"}
    printed = {r["name"] for t in ("components", "armour") for r in tables[t]["rows"]}
    assert named <= printed
    fronts = {text for _, side, t, _, _, text in cards if side == "front" and t in ("components", "armour")}
    for n in named:
        assert any(text.startswith(squash(n)) for text in fronts), n
    backs = {text for _, side, t, _, _, text in cards if side == "back" and t in ("components", "armour")}
    assert backs == {"COMPONENTFacedownonaship:damaged"}          # one common back


def test_research_chart_has_six_results_on_a_d6(tables):
    chart = load("data/research.yaml")
    assert [r["roll"] for r in chart] == [1, 2, 3, 4, 5, 6]
    by_roll = {r["roll"]: r["name"] for r in tables["techs"]["rows"]}
    assert {r["roll"]: r["result"] for r in chart} == by_roll


def test_facility_prices_are_printed(cards, tables):
    rows = {r["id"]: r for r in tables["facilities"]["rows"]}
    for _, side, t, row, _, text in cards:
        if t == "facilities" and side == "front":
            assert f"PRICE{rows[row]['price']}" in text, (row, text[:60])


def test_component_numbers_and_kit_marks_are_printed(cards, tables):
    rows = {r["id"]: r for r in tables["components"]["rows"]}
    for _, side, t, row, _, text in cards:
        if t != "components" or side != "front":
            continue
        r = rows[row]
        if r.get("rof"):
            assert f"ROF{r['rof']}" in text, row
        if r.get("source") == "kit":
            assert "Kit'sown:" + squash(r["kit_numbers"]) in text, row


def test_kit_numbers_are_marked_in_the_data(tables):
    """A row whose numbers are partly the kit's own says so (source: kit) and names them; seed rows name none."""
    for r in tables["components"]["rows"]:
        assert r["source"] in ("seed", "kit"), r["name"]
        assert bool(r.get("kit_numbers")) == (r["source"] == "kit"), r["name"]
    assert {r["name"] for r in tables["techs"]["rows"] if r["source"] == "seed"} == {"Durable Hull"}


def test_colours_have_an_emblem_and_a_pattern_each(kit_yaml):
    colours = kit_yaml["colours"]
    assert len(colours) == 4 and kit_yaml["players"] == {"min": 2, "max": 4}
    assert len({c["emblem"] for c in colours.values()}) == len(colours)
    assert len({c["pattern"] for c in colours.values()}) == len(colours)
    assert kit_yaml["sheets"]["cards"]["marks"] == "crop"


# --- every hull's numbers on its card equal the data -------------------------------------------------

def _signed(v: int) -> str:
    return "0" if v == 0 else f"{v:+d}"


def test_every_hull_card_prints_its_numbers(cards, tables, kit_yaml):
    rows = {r["id"]: r for r in tables["hulls"]["rows"]}
    checked = Counter()
    for _, side, t, row, colour, text in cards:
        if t != "hulls":
            continue
        r = rows[row]
        assert text.startswith(squash(r["name"])), text[:30]
        if side == "front":
            speed, attack, defence = r["speed"], r["attack"], r["defence"]
        else:
            speed, attack, defence = r.get("crippled_speed", 0), r.get("crippled_attack", -1), r.get("crippled_defence", -1)
            assert "CRIPPLED" in text
        m = re.search(r"Speed(-?\d+)Attack([+-]?\d+)Defence([+-]?\d+)Cost(\d+)Upkeep(\d+)", text)
        assert m, (row, side, text[:80])
        assert m.groups() == (str(speed), _signed(attack), _signed(defence), str(r["cost"]), str(r["maintenance"])), (row, side)
        if side == "front":
            slots = {k: r[k] for k in ("general", "weapon", "armour_shield", "cargo")}
            found = re.search(rf"SLOTS{sum(slots.values())}((?:General|Weapon|Arm/Shld|Cargo)*)", text)
            assert found, (row, text)
            labels = {"general": "General", "weapon": "Weapon", "armour_shield": "Arm/Shld", "cargo": "Cargo"}
            for kind, label in labels.items():                 # the slot boxes, before the card's text
                assert found.group(1).count(label) == slots[kind], (row, kind)
        checked[(row, side)] += 1
    for row, r in rows.items():
        assert checked[(row, "front")] == checked[(row, "back")] == r["qty"] * len(kit_yaml["colours"])


def test_hull_chart_matches_the_rules(tables):
    """The seven hulls of the rules: slots, speed, modifiers, cost and upkeep."""
    chart = {r["name"]: (r["general"], r["weapon"], r["armour_shield"], r["cargo"], r["speed"], r["attack"],
                         r["defence"], r["cost"], r["maintenance"]) for r in tables["hulls"]["rows"]}
    assert chart == {
        "Transport": (1, 0, 0, 1, 1, -1, 0, 5, 0), "Escort": (2, 0, 0, 0, 2, 1, 2, 3, 1),
        "Destroyer": (0, 2, 1, 0, 2, 1, 2, 6, 1), "Cruiser": (2, 1, 1, 0, 1, 1, 1, 8, 1),
        "Battleship": (2, 2, 1, 0, 1, 0, 1, 10, 2), "Dreadnaught": (3, 2, 1, 0, 1, 0, 0, 13, 2),
        "Star Base": (8, 0, 0, 0, 0, 2, -1, 10, 1)}


# --- the map -----------------------------------------------------------------------------------------

def _neighbours(board) -> dict:
    ids = [p["id"] for p in board["places"]]
    adj = {i: set() for i in ids}
    for link in board["links"]:
        adj[link["from"]].add(link["to"])
        adj[link["to"]].add(link["from"])
    return adj


def test_links_join_sectors_that_exist(board):
    ids = [p["id"] for p in board["places"]]
    assert len(ids) == len(set(ids))
    pairs = set()
    for link in board["links"]:
        assert link["from"] in ids and link["to"] in ids, link
        assert link["from"] != link["to"]
        pair = frozenset((link["from"], link["to"]))
        assert pair not in pairs, link
        pairs.add(pair)


def test_unstable_lines_are_red_and_dashed(board):
    unstable = [l for l in board["links"] if l.get("label") == "unstable"]
    assert unstable
    for link in board["links"]:
        is_unstable = link.get("label") == "unstable"
        assert (link["style"] == "dashed") == is_unstable, link
        assert (link.get("colour", "").lower() == "#d32f2f") == is_unstable, link


def test_every_home_world_reaches_every_other(board, kit_yaml):
    adj = _neighbours(board)
    kinds = {p["id"]: p["kind"] for p in board["places"]}
    homes = [i for i, k in kinds.items() if k == "home"]
    assert all(p["label"] == "H" for p in board["places"] if p["kind"] == "home")
    assert len(homes) == kit_yaml["players"]["max"]
    for start in homes:
        seen, todo = {start}, deque([start])
        while todo:
            for nxt in adj[todo.popleft()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        assert set(homes) <= seen, start
    in_play = board["fields"]["home_worlds"]
    assert sorted(in_play) == list(range(kit_yaml["players"]["min"], kit_yaml["players"]["max"] + 1))
    for players, ids in in_play.items():
        assert len(ids) == players and set(ids) <= set(homes)
    for kind in ("ringworld", "star", "asteroids", "nebula", "planet"):
        assert kind in kinds.values(), kind
    assert list(kinds.values()).count("ringworld") == 1


def test_map_poster_and_tiles_show_the_sectors(built, board):
    root, manifest = built
    poster = squash(pdf_text(root / "boards" / "galaxy-poster.pdf"))
    for place in board["places"]:
        assert squash(str(place["text"])) in poster, place["id"]
    assert "RINGWORLD" in poster and poster.count("H") >= 4
    tiles = manifest["parts"]["boards"]["files"]
    assert any(f["path"].startswith("boards/galaxy-tiles-") and f["pages"] > 1 for f in tiles)
    # the seams keep off the board's texts (its title sits in the first tile) in the sheets the paper alone needs
    from pnpgen.maps.tiling import plan_tiles
    galaxy = next(f for f in tiles if f["path"].startswith("boards/galaxy-tiles-"))
    poster = next(f for f in tiles if f["path"] == "boards/galaxy-poster.pdf")
    assert galaxy["pages"] == plan_tiles(*poster["page_size"], galaxy["paper"]).count + 1
    assert galaxy["seams_cut"] == [] and "extra_sheets" not in galaxy


# --- texts ---------------------------------------------------------------------------------------------

def test_booklet_lists_the_kits_own_numbers(built, tables):
    root, _ = built
    text = squash(pdf_text(root / "booklet.pdf"))
    for r in tables["components"]["rows"]:
        assert squash(r["name"]) in text, r["name"]
        if r.get("source") == "kit":
            assert squash(f"{r['name']}: {r['kit_numbers']}") in text, r["name"]
    for r in tables["techs"]["rows"]:
        assert squash(r["name"]) in text
    game = load("data/game.yaml")
    assert squash(f"pay {game['research']['cost']} coins for each") in text


@pytest.mark.parametrize("name", ["reference.pdf", "reference-card.pdf"])
def test_reference_has_phases_combat_damage_slots_and_research(built, name):
    """The full-page reference document and the players' large reference cards."""
    root, _ = built
    text = squash(pdf_text(root / name))
    for item in load("data/phases.yaml"):
        assert squash(item["phase"]) in text, item
    for item in load("data/damage.yaml") + load("data/combat.yaml"):
        assert squash(item.get("action", item.get("step", "")))[:30] in text, item
    for item in load("data/research.yaml"):
        assert squash(item["result"]) in text, item
    for item in load("data/slots.yaml")["fill"]:
        assert squash(item["content"]) in text, item
    game = load("data/game.yaml")
    assert squash(f"{game['research']['cost']} coins an attempt") in text
    assert f"{game['combat']['pd_target']}+" in text and f"{game['combat']['pd_support']}+" in text
    if name == "reference.pdf":
        assert "1,3,5" in text and "1,4" in text


# --- bad input is located ----------------------------------------------------------------------------

@pytest.fixture
def broken(tmp_path):
    target = tmp_path / "se4-board-game"
    shutil.copytree(KIT, target)
    return target


def _line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_a_hull_cost_off_the_chart_is_located(broken, capsys):
    hulls = broken / "components" / "hulls.yaml"
    hulls.write_text(hulls.read_text(encoding="utf-8").replace("attack: 1, defence: 2, cost: 3,", "attack: 1, defence: 2, cost: 4,", 1),
                     encoding="utf-8")
    assert main(["validate", "--data", str(broken)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"components/hulls\.yaml:\d+: counts\.where", err), err
    assert "Escort" in err


def test_a_warp_line_to_nowhere_is_located(broken, capsys):
    galaxy = broken / "boards" / "galaxy.yaml"
    galaxy.write_text(galaxy.read_text(encoding="utf-8").replace("{from: H1, to: B1,", "{from: H1, to: Z9,"), encoding="utf-8")
    line = _line_of(galaxy, "to: Z9")
    assert main(["validate", "--data", str(broken)]) == 1
    err = capsys.readouterr().err
    assert f"boards/galaxy.yaml:{line}:" in err and "Z9" in err, err


def test_a_card_text_too_long_for_its_box_is_located(broken, capsys, built):
    """Built into the same output folder as the good kit (its face cache makes this quick): the build stops
    at the row's line and the cards already there are left exactly as they were."""
    root, _ = built
    before = (root / "cards.pdf").read_bytes()
    deck = broken / "components" / "components.yaml"
    short = "A heavy warhead that reloads between volleys; its +1 adds to the attack roll."
    deck.write_text(deck.read_text(encoding="utf-8").replace(f'effect: "{short}"', f'effect: "{(short + " ") * 8}"'),
                    encoding="utf-8")
    line = _line_of(deck, "id: torpedo")
    assert main(["build", "--data", str(broken), "--out", str(root.parent), "--only", "components", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert re.search(rf"components/components\.yaml:{line}\b", err), err
    assert (root / "cards.pdf").read_bytes() == before


# --- own words ---------------------------------------------------------------------------------------

SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"


def test_no_run_of_eight_words_is_taken_from_the_rules_sources():
    """Every text of the kit (cards, booklet, reference, comments) is in the kit's own words."""
    seeds = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    if not seeds:
        pytest.skip(f"{SEEDS} is missing (the rules summaries beside the checkout)")

    def runs(text: str) -> set:
        words = re.findall(r"[a-z0-9]+", text.lower())
        return {tuple(words[i:i + 8]) for i in range(len(words) - 7)}

    theirs = set().union(*(runs(f.read_text(encoding="utf-8")) for f in seeds))
    for path in sorted(p for p in KIT.rglob("*") if p.suffix in (".md", ".yaml", ".j2")):
        text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", path.read_text(encoding="utf-8"))
        shared = runs(text) & theirs
        assert not shared, (path.name, [" ".join(r) for r in sorted(shared)][:3])


# --- issue 28: every printed rule agrees with the source and with itself --------------------------------

RULES = load("data/rules.yaml")
SAY, RULINGS = RULES["say"], RULES["rulings"]


def plain(text: str) -> str:
    """Squashed, with the typographic apostrophe a PDF may hold read as a plain one."""
    return squash(text).replace("\u2019", "'")


@pytest.fixture(scope="module")
def booklet(built):
    """The booklet's running text, page after page, without each page's footer (kit, chapter, page number)."""
    root, _ = built
    pdf = pdfium.PdfDocument(str(root / "booklet.pdf"))
    try:
        pages = [page.get_textpage().get_text_range() for page in pdf]
    finally:
        pdf.close()
    return plain("".join(re.sub(r"\s*SE4 Board Game[^\n]*\s*\d+\s*$", "", page) for page in pages))


@pytest.fixture(scope="module")
def rulings_chapter(booklet):
    start = booklet.find(plain("The rules this kit is built on leave many points open"))
    assert start > 0, "the Kit rulings chapter is missing"
    return booklet[start:]


def card_texts(cards, table: str, row: str, side: str = "front") -> list[str]:
    found = [plain(text) for _, s, t, r, _, text in cards if (t, r, s) == (table, row, side)]
    assert found, (table, row, side)
    return found


def test_ripper_beam_card_booklet_and_references_agree_on_its_first_round(built, cards, booklet, tables):
    """The card's charging round was the booklet's 'ROF 1 fires every round'; now both print one sentence."""
    root, _ = built
    ripper = next(r for r in tables["components"]["rows"] if r["id"] == "ripper-beam")
    rounds = load("data/rof.yaml")[ripper["rof"] - 1]["rounds"]
    firing = ",".join(str(n) for n in rounds if n >= ripper["first_round"])
    for text in card_texts(cards, "components", "ripper-beam"):
        assert plain(SAY["ripper_charge"]) in text and f"Firesinrounds{firing}" in text, text
    assert ripper["first_round"] == 2 and firing.startswith("2")
    for printed in (booklet, plain(pdf_text(root / "reference.pdf")), plain(pdf_text(root / "reference-card.pdf"))):
        assert plain(SAY["ripper_charge"]) in printed


def test_crippled_hull_states_the_kits_choice_on_every_card_and_in_the_booklet(cards, booklet, rulings_chapter):
    """The source says a crippled ship cannot attack (damage order) and gives it an attack modifier (combat):
    the kit's choice is printed, marked, on every crippled side and in the booklet, and explained."""
    backs = [plain(text) for _, side, t, _, _, text in cards if (t, side) == ("hulls", "back")]
    assert len(backs) == 72
    for text in backs:
        assert plain(RULINGS["crippled"]["rule"]) in text and "kit'schoice" in text.lower(), text
        assert "K" in text                                                  # the purple kit mark
    assert "stillfire" in plain(RULINGS["crippled"]["rule"])
    assert plain(RULINGS["crippled"]["why"]) in rulings_chapter and "contradictsitself" in rulings_chapter


def test_every_space_yard_mends_a_card_besides_its_job(cards, booklet):
    """The repair is no longer one choice among four: every yard mends in Administration, as the source says."""
    for text in card_texts(cards, "facilities", "space-yard"):
        assert plain(SAY["yard_jobs"]) in text and plain(SAY["yard_repair"]) in text, text
        assert "OR(inAdministration)" not in text
    assert "whateveritsjobthisturn" in plain(SAY["yard_repair"])
    assert plain(SAY["yard_jobs"]) in booklet and plain(SAY["yard_repair"]) in booklet


def test_cards_stay_on_the_table_and_markers_fit_the_map(built, board, booklet, kit_yaml):
    """Sectors are 40-46 mm circles: two markers fit side by side in the smallest; every colour has its
    twin fleet markers, an H and one colony marker for each numbered colony card; the booklet lays no card
    on the map."""
    root, manifest = built
    placed = [p for p in manifest["parts"]["components"]["placements"] if p["ref"].startswith("markers.")]
    smallest = min(place["size"] for place in board["places"])
    for p in placed:
        assert abs(p["w"] - p["h"]) < 0.01 and 2 * p["w"] * 25.4 / 72 <= smallest, p
    pdf = pdfium.PdfDocument(str(root / "markers.pdf"))
    try:
        text = plain("".join(page.get_textpage().get_text_range() for page in pdf))
    finally:
        pdf.close()
    colours = len(kit_yaml["colours"])
    for n in range(1, 9):
        assert text.count(f"F{n}FLEET") == 2 * colours, n
    for n in range(1, 8):
        assert text.count(f"C{n}COLONY") == colours, n
    assert text.count("HHOME") == colours
    assert plain(RULINGS["fleets"]["rule"]) in booklet and plain(RULINGS["fleet_moves"]["rule"]) in booklet
    lays_on_map = re.findall(r"(?:lay|put|place)[^.]{0,60}card[^.]{0,40}(?:inthesector|ontheplanet|onthehomeworld|onit\.)",
                             booklet.lower())
    assert not lays_on_map, lays_on_map


def test_colony_cards_and_markers_share_numbers(cards, kit_yaml):
    colours = len(kit_yaml["colours"])
    for n in range(1, 8):
        texts = card_texts(cards, "colonies", f"colony-{n}")
        assert len(texts) == colours
        assert all(t.startswith(f"Colony{n}") and f"mapmarkerC{n}" in t for t in texts), texts


def test_armour_and_shield_cards_name_an_armour_shield_slot(cards):
    fronts = [(t, plain(text)) for _, side, t, _, _, text in cards if side == "front" and t in ("components", "armour")]
    assert not [text for _, text in fronts if "fitsaarmour" in text.lower()]
    armoured = [text for _, text in fronts if text.startswith(("StandardArmor", "OrganicArmor", "Shield"))]
    assert len(armoured) == 40 + 10 + 32 + 4                  # Standard Armor, Organic Armor, Shields, Regenerators
    for text in armoured:
        want = "Fitsageneralslotonly" if text.startswith("ShieldRegenerator") else "Fitsanarmour/shieldslotorageneralslot"
        assert want in text, text


# --- item 2: every kit ruling is marked where it is printed and listed in one chapter --------------------

def test_every_ruling_in_the_data_is_listed_in_the_kit_rulings_chapter(rulings_chapter, tables):
    for key, ruling in RULINGS.items():
        assert plain(ruling["rule"]) in rulings_chapter, key
        assert plain(ruling["why"]) in rulings_chapter, key
    for name in ("components", "techs", "facilities"):
        for row in tables[name]["rows"]:
            if row.get("source") == "kit":
                assert plain(row["name"]) in rulings_chapter, (name, row["id"])


def marked_rulings(text: str) -> int:
    """How many rulings the text prints; fails on one not followed by 'Kit's choice'."""
    quoted = 0
    for key, ruling in RULINGS.items():
        for found in re.finditer(re.escape(plain(ruling["rule"])), text):
            quoted += 1
            after = text[found.end():found.end() + 20]
            assert "kit'schoice" in after.lower(), (key, after)
    return quoted


def test_every_ruling_printed_outside_the_chapter_says_kits_choice(built, booklet, rulings_chapter):
    body = booklet[:len(booklet) - len(rulings_chapter)]
    assert marked_rulings(body) >= len(RULINGS)
    for key, ruling in RULINGS.items():
        assert plain(ruling["rule"]) in body, f"ruling {key} is never printed where it applies"
    root, _ = built
    sheet, card = (plain(pdf_text(root / name)) for name in ("reference.pdf", "reference-card.pdf"))
    assert marked_rulings(sheet) >= 2 and marked_rulings(card) >= 4            # crippled; turn order on the sheet
    assert card.count("Theturn,phasebyphase(kit'schoice)") == 4


# --- item 3: one statement of each rule, quoted word for word ----------------------------------------------

def rule_text(key: str) -> str:
    """The one text of a rule: a `say` sentence, or a ruling's rule."""
    return SAY[key] if key in SAY else RULINGS[key]["rule"]


@pytest.mark.parametrize("table, row, side, key", [
    ("components", "ripper-beam", "front", "ripper_charge"),
    ("components", "organic-armor", "front", "organic_heal"),
    ("components", "shield", "front", "shields_back"),
    ("facilities", "space-yard", "front", "yard_repair"),
    ("colonies", "colony-3", "front", "colonise"),
    ("hulls", "transport", "front", "colonise"),
    ("hulls", "destroyer", "back", "construction"),
    ("hulls", "transport", "front", "transport_coin"),
    ("colonies", "home", "front", "miner_limit"),
    ("armour", "standard-armor", "front", "standard_armour"),
])
def test_a_card_prints_the_booklets_sentence(cards, booklet, table, row, side, key):
    sentence = plain(rule_text(key))
    assert sentence in booklet, key
    for text in card_texts(cards, table, row, side):
        assert sentence in text, (row, text)


def test_a_marker_too_large_for_its_sector_is_located(broken, capsys):
    """Every sector holds the markers: a marker that would not fit a sector stops validation at the board."""
    markers = broken / "components" / "markers.yaml"
    markers.write_text(markers.read_text(encoding="utf-8").replace("size: 16mm", "size: 44mm"), encoding="utf-8")
    assert main(["validate", "--data", str(broken)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"boards/galaxy\.yaml:\d+: places\[\d+\] \(B1\)\.holds: markers", err), err


# --- issue 39: no second text of a rule, numbers agree with their sentence, no unmarked departure --------

# What each rule is about, as a pattern over squashed printed text: any printed sentence matching it that is not
# the rule's own text (or the source's account in its ruling's 'why') is a second text of that rule, free to
# disagree with the first, as the booklet's 'outside combat' did with the Organic Armor card and the phase
# summary's 'enemy ships or planets' with the booklet's 'enemy ships or enemy planets'.
SUBJECTS = {
    "organic_heal": r"OrganicArmor[^.]*(roll|die|5or6|above4)|(roll|die)[^.]*OrganicArmor"
                    r"|(good|each|every)(card)?rolls?[^.]*mend",
    "combat_move": r"end\w{0,12}ina?sectors?(with|where|holding|that)",
    "empty_deck": r"(deck|pile)[^.]*(runsdry|runsout|runout|empty|nevers?end)",
}


@pytest.fixture(scope="module")
def printed(built, cards, booklet):
    """Every printed text of the kit by name: the booklet (without its page footers), both references and
    each card face."""
    root, _ = built
    texts = {name: plain(pdf_text(root / name)) for name in ("reference.pdf", "reference-card.pdf")}
    texts["booklet.pdf"] = booklet
    for file, side, table, row, colour, text in cards:
        texts[f"{file}:{table}.{row}:{colour}:{side}"] = plain(text)
    return texts


def second_texts(text: str, key: str) -> list[str]:
    """Sentences of the text about the rule `key` that are neither its one text nor its ruling's 'why'."""
    for own in (rule_text(key), RULINGS.get(key, {}).get("why", "")):
        if own:
            text = text.replace(plain(own), " ")
    return [s for s in re.split(r"\.|\n", text) if re.search(SUBJECTS[key], s)]


@pytest.mark.parametrize("key", sorted(SUBJECTS))
def test_no_rule_is_printed_a_second_time_in_other_words(printed, key):
    """Card, booklet and references may only state a rule by quoting its one text: a sentence about the same
    thing in other words (a qualifier after the quote, a summary with its own wording) fails here."""
    assert plain(rule_text(key)) in printed["booklet.pdf"], key
    assert re.search(SUBJECTS[key], plain(rule_text(key))), "the pattern must find the rule's own text"
    found = {name: second_texts(text, key) for name, text in printed.items()}
    assert not {name: s for name, s in found.items() if s}, key


def test_a_second_text_of_a_rule_would_be_caught():
    """The check is live: the two disagreements issue 39 found are found by it."""
    assert second_texts(plain("Healing. Every card rolls, damaged or not, and outside combat one card's good roll "
                              "may mend another."), "organic_heal")
    assert second_texts(plain("Intact ships may retreat, then move to end in sectors with enemy ships or planets."),
                        "combat_move")
    assert second_texts(plain("Cards go to the bottom of the component deck, so it never runs dry."), "empty_deck")


def test_organic_armor_heals_by_the_one_marked_ruling_on_card_and_in_booklet(cards, booklet, rulings_chapter):
    """The source's rule and its worked example disagree; the kit's choice is one text, marked on every card."""
    rule = plain(RULINGS["organic_heal"]["rule"])
    assert "5or6" in rule and "face-downOrganicArmorcard" in rule and "Aftereachcombatround" in rule
    texts = card_texts(cards, "components", "organic-armor")
    assert len(texts) == 10
    for text in texts:
        assert rule + "(Kit'schoice.)" in text and "Kit'schoice:seeKitrulings" in text, text
    assert rule + "(Kit'schoice.)" in booklet
    assert "contradictsitself" in plain(RULINGS["organic_heal"]["why"])


def test_every_card_that_quotes_a_ruling_marks_it(cards, tables):
    """A card quoting a kit ruling prints 'Kit's choice' after it: a ruling cannot reach a card unmarked."""
    quoted = 0
    for name in ("components", "facilities"):
        for row in tables[name]["rows"]:
            for key in row.get("rules", []):
                if key in RULINGS:
                    for text in card_texts(cards, name, row["id"]):
                        quoted += 1
                        assert plain(RULINGS[key]["rule"]) + "(Kit'schoice.)" in text, (row["id"], key)
    assert quoted >= 10


def test_every_card_price_is_what_its_sentence_says(cards, booklet, tables):
    """An accounting miner card 'costs that many times a single miner's price': its printed price (card and
    booklet table) is its miners times the single miner's, not the single price printed again."""
    rows = tables["facilities"]["rows"]
    single = next(r for r in rows if r["kind"] == "miner" and r["miners"] == 1)
    assert "coststhatmanytimesasingleminer'sprice" in booklet
    accounting = [r for r in rows if r["kind"] == "miner" and r["miners"] > 1]
    assert {r["miners"] for r in accounting} == {2, 5}
    for r in accounting:
        assert r["price"] == r["miners"] * single["price"], r["id"]
        assert plain(f"{r['name']}{r['price']}{r['miners']}{r['qty']}") in booklet, r["id"]     # the table row
        for text in card_texts(cards, "facilities", r["id"]):
            assert f"PRICE{r['price']}coinsfor{r['miners']}miners" in text, text


def test_a_miner_card_priced_off_its_sentence_is_located(broken, capsys):
    """The table's counts rules hold every miner card to 3 coins a miner, so 'Price 3' on an x5 card stops
    validation at the facilities table."""
    facilities = broken / "components" / "facilities.yaml"
    text = facilities.read_text(encoding="utf-8")
    facilities.write_text(text.replace("miners: 5, price: 15,", "miners: 5, price: 3,"), encoding="utf-8")
    assert main(["validate", "--data", str(broken)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"components/facilities\.yaml:\d+: counts\.where", err), err


def charts_printed() -> set[str]:
    """Every table a chapter or the reference prints, by the name its table() call gives."""
    files = sorted((KIT / "rules").glob("*.md")) + [KIT / "reference.md"]
    return {name for f in files for name in re.findall(r"\{\{ table\('([\w.]+)'", f.read_text(encoding="utf-8"))}


def test_every_chart_has_a_source_note_printed_under_it_in_the_booklet(booklet):
    """No chart is an unmarked departure: each one the kit prints says where its numbers come from, in the
    sentence right after it in the booklet (a new chart without a sources entry fails here)."""
    sources = RULES.get("sources") or {}
    charts = charts_printed()
    assert {"hulls", "facilities", "components", "data.rof", "data.research"} <= charts
    assert charts <= set(sources), sorted(charts - set(sources))
    for chart in charts:
        assert sources[chart], chart
        assert "Source:" + plain(sources[chart]) in booklet, chart


def test_the_booklet_cover_is_a_starfield_with_a_planet_and_the_back_lists_the_kit(built, kit_yaml):
    """kit.yaml cover: art: stars: the front's picture is the dark sky with a planet in the first colour
    (red), shaded, around the kit's pieces laid on it; the title and players below it; the back lists the cards counted from the tables and
    says the decks print in cards-<colour>.pdf."""
    root, _ = built
    document = pdfium.PdfDocument(str(root / "booklet.pdf"))
    front = " ".join(document[0].get_textpage().get_text_range().split())
    back = " ".join(document[len(document) - 1].get_textpage().get_text_range().split())
    assert kit_yaml["title"] in front and "For 2–4 players" in front and "Kit version 1.0" in front
    assert "72 × Hull cards (18 per colour)" in back and "cards-<colour>.pdf" in back and "Suicide Junkie" in back
    pixels = picture_around_pieces(document[0], load_kit(KIT)[0])   # the cards and markers laid on it aside
    reds = {p for p in pixels if p[0] > p[1] + 60 and p[0] > p[2] + 60}
    assert sum(1 for p in pixels if sum(p) < 150) > len(pixels) // 3          # the sky
    assert sum(1 for p in pixels if p in reds) > len(pixels) // 10 and len(reds) >= 5   # a shaded red planet
