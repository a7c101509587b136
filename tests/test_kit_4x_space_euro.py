"""The 4X Space Euro kit (data/4x-space-euro, issue 12), built once and read back from its PDFs and manifest.

The expected numbers below are the rules' own (the prototype's card list, anomaly mix, board links), typed
here on purpose: the kit's data must agree with them, and the printed files with the data."""
from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

from pnpgen.cli import main
from pnpgen.kit_folder import BUILTIN_DATA
from tests.conftest import edit
from tests.duplex_printer import lands_on, page_size
from tests.paper_helpers import assert_pieces_apart, sheets_of

KIT = BUILTIN_DATA / "4x-space-euro"
MM = 72 / 25.4
COLOURS = ("red", "blue", "yellow", "white")

# The prototype's player deck, card by card: (top half, bottom half); tactics are the purple halves.
DECK = [("Move", "Swift Manoeuvres"), ("Move", "Engage"), ("Move", "Sell"), ("Move", "Colonize"), ("Move", "Outpost"),
        ("Engage", "Hidden Weapons"), ("Engage", "Outpost"), ("Engage", "Research"), ("Outpost", "Colonize"),
        ("Build", "Outpost"), ("Build", "Colonize"), ("Build", "Decoy Fleet"), ("Research", "Decoy Fleet"),
        ("Research", "Hidden Weapons"), ("Produce", "Sell"), ("Produce", "Sell"), ("Produce", "Build"),
        ("Produce", "Local Sympathisers"), ("Sell", "Local Sympathisers"), ("Colonize", "Swift Manoeuvres")]
HALVES = {"Move": 5, "Engage": 4, "Sell": 4, "Produce": 4, "Outpost": 4, "Colonize": 4, "Build": 4, "Research": 3,
          "Swift Manoeuvres": 2, "Hidden Weapons": 2, "Decoy Fleet": 2, "Local Sympathisers": 2}
ANOMALIES = {"Wormhole": 2, "Aliens": 2, "Smugglercave": 3, "Emptyspace": 2, "Blackmarket": 1}
PLANETS = {  # quadrant: {planet: (population, goods)}
    "Q1": {"P1": (1, "orange"), "P2": (1, "orange"), "P3": (1, "none"), "P4": (2, "teal")},
    "Q2": {"P1": (2, "pink"), "P2": (3, "pink"), "P3": (2, "none"), "P4": (3, "none")},
    "Q3": {"P1": (1, "teal"), "P2": (2, "none"), "P3": (3, "teal"), "P4": (2, "none"), "P5": (1, "pink")},
    "Q4": {"P1": (1, "pink"), "P2": (2, "orange"), "P3": (3, "none"), "P4": (2, "pink")},
}
DOUBLE = {("Q1P1", "C"), ("Q1P2", "C"), ("Q2P3", "C"), ("Q3P3", "C"), ("Q4P2", "C"), ("Q1P3", "Q4P1"),
          ("Q1P2", "Q2P3"), ("Q2P2", "Q3P1"), ("Q2P1", "Q3P2"), ("Q3P3", "Q4P2"), ("Q3P5", "Q4P4")}
SINGLE = {(q + a, q + b if b != "C" else "C") for q, pairs in {
    "Q1": ["P1-P2", "P1-P3", "P1-P4", "P4-P3", "P3-A3", "P4-A4", "A4-A1", "A1-A3", "P2-A5"],
    "Q2": ["P1-P2", "P2-P3", "P2-P4", "P3-P4", "P1-A1", "A1-A2", "P4-A2"],
    "Q3": ["P1-P2", "P1-P3", "P2-P4", "P3-P4", "P3-P5", "P2-A1", "P4-A1"],
    "Q4": ["P1-P2", "P1-P3", "P2-P4", "P3-P4", "P1-A1", "P3-A1", "P2-A2", "A2-C"]}.items()
    for a, b in (pair.split("-") for pair in pairs)}


@pytest.fixture(scope="module")
def built(kit_build):
    kit_out = kit_build("4x-space-euro")
    return kit_out, json.loads((kit_out / "manifest.json").read_text())


def placements(manifest, file=None, side=None):
    rows = manifest["parts"]["components"]["placements"]
    return [p for p in rows if (file is None or p["file"] == file) and (side is None or p["side"] == side)]


def page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    return ["".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf))]


def text_in(page, x_pt, y_pt, w_pt, h_pt) -> str:
    """The text inside a rectangle given from the page's top-left corner, in points."""
    height = page.get_size()[1]
    box = page.get_textpage().get_text_bounded(left=x_pt, bottom=height - y_pt - h_pt, right=x_pt + w_pt,
                                              top=height - y_pt)
    return "".join(box.split())      # pdfium may split a word where glyphs sit apart: compare without spaces


# Cards ----------------------------------------------------------------------------------------------------

def group_placements(manifest, group: str, side: str) -> list:
    """A print group's placements in whichever file holds them: a deck's last cards print in cards.pdf
    (kit.yaml sheets.cards.remainders)."""
    return [p for p in placements(manifest, side=side) if p["group"] == group]


def banners(kit_out: Path, manifest, group: str) -> dict[str, tuple[str, str]]:
    """Each card's two banner names, read from the PDF inside the banner rectangles of its halves."""
    pdfs = {}
    half = (88 - 2 * 2.6 - 4.4 - 1.2) / 2        # the card template's margins, centre band and half height
    out = {}
    for p in group_placements(manifest, group, "front"):
        pdf = pdfs.get(p["file"]) or pdfs.setdefault(p["file"], pdfium.PdfDocument(str(kit_out / p["file"])))
        page = pdf[p["page"] - 1]
        names = [text_in(page, p["x"] + 12 * MM, p["y"] + (top + 0.8) * MM, p["w"] - 14 * MM, 8.4 * MM)
                 for top in (2.6, 88 - 2.6 - half)]
        out[p["ref"]] = tuple(names)
    return out


@pytest.mark.parametrize("colour", COLOURS)
def test_every_deck_has_the_twenty_cards_of_the_rules(built, colour):
    kit_out, manifest = built
    read = banners(kit_out, manifest, f"cards-{colour}")
    assert len(read) == 20
    squeeze = {name.replace(" ", ""): name for name in HALVES}
    assert [tuple(squeeze.get(n, n) for n in read[f"deck.c{k:02d}"]) for k in range(1, 21)] == DECK
    halves = Counter(squeeze[name] for pair in read.values() for name in pair)
    assert halves == HALVES


def test_tactics_carry_a_lightning_mark_and_their_own_colour(built):
    _, manifest = built
    actions = yaml.safe_load((KIT / "data" / "actions.yaml").read_text())
    colours = {a["name"]: a["banner"].lower() for a in actions.values()}
    tactics = {a["name"] for a in actions.values() if a["kind"] == "tactic"}
    assert tactics == {"Swift Manoeuvres", "Hidden Weapons", "Decoy Fleet", "Local Sympathisers"}
    assert {colours[t] for t in tactics} == {"#800080"}
    assert colours["Move"] == "#32832c" and colours["Engage"] == "#d8301e"
    assert colours["Sell"] == colours["Produce"] and colours["Outpost"] == colours["Colonize"]
    assert colours["Build"] == colours["Research"]
    assert len({colours[n] for n in ("Move", "Engage", "Sell", "Outpost", "Build", "Swift Manoeuvres")}) == 6
    assert "bolt(" in (KIT / "templates" / "_euro.svg.j2").read_text().split("macro half(")[1]


def test_cards_are_63_by_88_mm_with_2_mm_corners(built):
    _, manifest = built
    tables = manifest["parts"]["components"]["tables"]
    for table in ("deck", "bureaucracy"):
        t = tables[table]
        assert (round(t["w"], 2), round(t["h"], 2), round(t["radius"], 2)) == (178.58, 249.45, 5.67)
    sizes = {(round(p["w"], 2), round(p["h"], 2)) for p in placements(manifest)
             if p["ref"].split(".")[0] in ("deck", "bureaucracy")}
    assert sizes == {(178.58, 249.45)}
    assert len([p for p in placements(manifest, "cards-red.pdf", "front") if p["page"] == 1]) == 9


def test_the_card_corners_are_drawn_round(built):
    """On a back (dark blue everywhere), the corner point 0.25 mm in is outside a 2 mm radius and stays
    paper-white; 1.2 mm in along the diagonal, or 0.25 mm in beside the corner, is the card."""
    kit_out, manifest = built
    back = placements(manifest, "cards-red.pdf", "back")[0]
    scale = 300 / 72
    image = pdfium.PdfDocument(str(kit_out / "cards-red.pdf"))[back["page"] - 1].render(scale=scale).to_pil()
    image = image.convert("RGB")

    def pixel(dx_mm, dy_mm):
        return image.getpixel((int((back["x"] + dx_mm * MM) * scale), int((back["y"] + dy_mm * MM) * scale)))

    assert pixel(0.25, 0.25) == (255, 255, 255)
    for dx, dy in ((1.2, 1.2), (0.25, 5), (5, 0.25)):
        r, g, b = pixel(dx, dy)
        assert r < 60 and g < 60 and b < 90, (dx, dy, (r, g, b))


def test_backs_sit_behind_their_fronts_for_long_edge_duplex(built):
    """On the next page, where a long-edge flip lands them: the landscape aid cards mirrored top-bottom and
    turned, the portrait sheets mirrored left-right (the virtual printer checks the drawing itself)."""
    kit_out, manifest = built
    for file in ("cards-red.pdf", "cards.pdf", "pieces.pdf", "aids.pdf"):
        fronts = placements(manifest, file, "front")
        backs = placements(manifest, file, "back")
        assert len(backs) == len(fronts) > 0, file
        for b in backs:
            page = page_size(kit_out / file, b["page"])
            assert any(f["page"] == b["page"] - 1 and f["ref"] == b["ref"] and lands_on(b, f, page, "long")
                       for f in fronts), (file, b)
    faces = Counter(p["face"] for p in group_placements(manifest, "cards-red", "back"))
    assert faces == {"card-back": 20}
    assert Counter(p["face"] for p in group_placements(manifest, "cards", "back")) == {"card-back": 30}


def back_pixels(kit_out: Path, manifest, file: str):
    """The first card back of a file, rendered at 100 dpi and cropped to the card."""
    back = placements(manifest, file, "back")[0]
    scale = 100 / 72
    image = pdfium.PdfDocument(str(kit_out / file))[back["page"] - 1].render(scale=scale).to_pil().convert("RGB")
    x, y = round(back["x"] * scale), round(back["y"] * scale)
    return image.crop((x, y, x + round(back["w"] * scale), y + round(back["h"] * scale)))


def test_bureaucracy_cards_cannot_be_told_from_a_deck_by_their_backs(built):
    """Issue 28: Bureaucracy cards are shuffled into the players' decks, so every card of the game shows the
    same back: the printed backs of each deck and of the Bureaucracy cards match pixel for pixel (within one
    level, for antialiasing at a different place on the page), and the owner's name is on the fronts."""
    from PIL import ImageChops
    kit_out, manifest = built
    bureaucracy = back_pixels(kit_out, manifest, "cards.pdf")
    for colour in COLOURS:
        deck = back_pixels(kit_out, manifest, f"cards-{colour}.pdf")
        assert deck.size == bureaucracy.size
        worst = max(high for _, high in ImageChops.difference(deck, bureaucracy).getextrema())
        assert worst <= 40, (colour, worst)
        backs = "".join(page_texts(kit_out / f"cards-{colour}.pdf")[1::2])
        own = len(placements(manifest, f"cards-{colour}.pdf", "back"))  # its last cards may be in cards.pdf
        assert colour.upper() not in backs.upper() and backs.count("4XSPACEEURO") == own >= 18, colour
        fronts = "".join(page_texts(kit_out / f"cards-{colour}.pdf")[0::2])
        assert fronts.count(colour.capitalize()) >= own, colour


def test_thirty_bureaucracy_cards(built):
    kit_out, manifest = built
    assert Counter(p["ref"] for p in group_placements(manifest, "cards", "front")) == {"bureaucracy.bureaucracy": 30}
    assert {p["file"] for p in group_placements(manifest, "cards", "front")} == {"cards.pdf"}
    fronts = "".join(page_texts(kit_out / "cards.pdf")[0::2])
    assert fronts.count("BureaucracyForms") == 30      # the title, then the card's text


# Tiles, boards and pieces ---------------------------------------------------------------------------------

def anomalies(manifest, side: str) -> list:
    """The anomaly hexes' placements: they print in pieces.pdf, below the player pieces."""
    return [p for p in placements(manifest, side=side) if p["ref"].startswith("anomalies.")]


def test_ten_anomaly_hexes_in_the_rules_mix(built):
    """Each hex's name read inside its own outline on the page, and every back behind a front."""
    kit_out, manifest = built
    fronts = anomalies(manifest, "front")
    assert len(fronts) == 10 and {p["file"] for p in fronts} == {"pieces.pdf"}
    assert {(round(p["w"] / MM, 1), round(p["h"] / MM, 1)) for p in fronts} == {(30.0, 26.0)}   # 30 mm wide, flat
    pdf = pdfium.PdfDocument(str(kit_out / "pieces.pdf"))
    texts = [text_in(pdf[p["page"] - 1], p["x"], p["y"], p["w"], p["h"]) for p in fronts]
    assert {name: sum(name in text for text in texts) for name in ANOMALIES} == ANOMALIES
    backs = anomalies(manifest, "back")
    assert len(backs) == 10 and {p["face"] for p in backs} == {"anomaly-back"}


def test_market_boards_and_technology(built):
    kit_out, manifest = built
    markets = placements(manifest, "markets.pdf", "front")
    assert len(markets) == 4 and {(round(p["w"] / MM), round(p["h"] / MM)) for p in markets} == {(60, 140)}
    assert "".join(page_texts(kit_out / "markets.pdf")).count("START") == 12
    technology = placements(manifest, "technology.pdf", "front")
    boards = [p for p in technology if p["ref"].startswith("techboards.")]
    assert len(boards) == 4 and {(round(p["w"] / MM), round(p["h"] / MM)) for p in boards} == {(160, 30)}
    assert {p["colour"] for p in boards} == set(COLOURS) and {p["page"] for p in boards} == {1}  # one page
    tiles = [p for p in technology if p["ref"].startswith("tech") and p not in boards]
    assert Counter((round(p["w"] / MM), round(p["h"] / MM)) for p in tiles) == {(20, 20): 48, (40, 20): 30}
    assert len(technology) == len(boards) + len(tiles) and 1 in {p["page"] for p in tiles}  # sharing page 1
    assert not placements(manifest, "technology.pdf", "back")  # one-sided
    rows = Counter(p["ref"] for p in tiles)
    plus = sum(n for ref, n in rows.items() if ref.startswith("techsingle.plus-"))
    changers = sum(n for ref, n in rows.items() if ref.startswith("techsingle.") and not ref.startswith("techsingle.plus-"))
    doubles = sum(n for ref, n in rows.items() if ref.startswith("techdouble.double-"))
    assert (plus, changers, doubles, sum(rows.values()) - plus - changers - doubles) == (24, 24, 18, 12)


def test_paper_small_tables_and_strips_share_sheets(built):
    """Each technology strip took an A4 page, each colour's pieces and aid a file, each supply table its own
    pages: now strips, colours and small tables share sheets, counted in the PDFs; nothing overlaps. The
    anomaly hexes, alone on a sheet before, go below the player pieces (both two-sided); the technology
    boards and tiles (both one-sided) share one file: 45 pages on 24 sheets became 43 on 23. The decks end
    on two cards each on A4: three decks' last cards join the Bureaucracy cards' last sheet (kit.yaml
    sheets.cards.remainders), 43 pages on 23 sheets became 37 on 20."""
    kit_out, manifest = built
    files = sheets_of(kit_out, manifest)
    assert files["pieces.pdf"] == (2, 1) and files["aids.pdf"] == (4, 2)
    assert files["supply.pdf"] == (2, 1) and files["technology.pdf"] == (2, 2) and files["markets.pdf"] == (1, 1)
    assert {f"cards-{c}.pdf" for c in COLOURS} <= set(files)  # a player's deck keeps its own file
    assert not {"anomalies.pdf", "techboards.pdf", "techtiles.pdf"} & set(files)
    assert sum(pages for pages, _ in files.values()) == 37 and sum(s for _, s in files.values()) == 20
    assert files["cards.pdf"] == (8, 4) and files["cards-red.pdf"] == (4, 2) and files["cards-white.pdf"] == (6, 3)
    assert_pieces_apart(kit_out, manifest)


@pytest.mark.parametrize("colour", COLOURS)
def test_player_pieces(built, colour):
    _, manifest = built
    kinds = Counter(p["ref"].split(".")[1] for p in placements(manifest, "pieces.pdf", "front") if p["colour"] == colour)
    assert kinds == {"outpost": 8, "trade": 4, "warship": 4, "scout": 2, "settler": 8}


def test_goods_and_credit_in_the_counts_the_kit_states(built):
    kit_out, manifest = built
    supply = Counter(p["ref"] for p in placements(manifest, "supply.pdf", "front"))
    goods = yaml.safe_load((KIT / "components" / "goods.yaml").read_text())
    credits = yaml.safe_load((KIT / "components" / "credits.yaml").read_text())
    for table in (goods, credits):
        for row in table["rows"]:
            ref = f"{'goods' if table is goods else 'credits'}.{row['id']}"
            assert supply[ref] == row["qty"], ref
    booklet = "".join(page_texts(kit_out / "booklet.pdf"))
    total = sum(r["qty"] for r in goods["rows"])
    assert f"{total}goods" in booklet and f"{sum(r['qty'] for r in credits['rows'])}creditcoins" in booklet


def test_the_board_is_a3_landscape_and_its_links_join_places(built):
    kit_out, manifest = built
    w, h = pdfium.PdfDocument(str(kit_out / "boards" / "main-poster.pdf"))[0].get_size()
    assert (round(w / MM), round(h / MM)) == (420, 297)
    info = manifest["parts"]["boards"]["boards"][0]
    assert info["size_mm"] == [420.0, 297.0] and info["places"] == 27 and info["links"] == 42
    tiles = manifest["parts"]["boards"]["files"][1]
    assert tiles["pages"] == len(tiles["tiles"]) + 1 >= 3
    board = yaml.safe_load((KIT / "boards" / "main.yaml").read_text())
    places = {p["id"]: p for p in board["places"]}
    for link in board["links"]:
        assert link["from"] in places and link["to"] in places, link
    links = {(l["from"], l["to"]): l["style"] for l in board["links"]}
    assert {k for k, v in links.items() if v == "double"} == DOUBLE
    assert {k for k, v in links.items() if v == "single"} == SINGLE


def test_the_board_holds_the_planets_of_the_rules(built):
    board = yaml.safe_load((KIT / "boards" / "main.yaml").read_text())
    game = yaml.safe_load((KIT / "data" / "game.yaml").read_text())
    kinds = Counter(p["kind"] for p in board["places"])
    assert kinds == {"centre": 1, "planet": 17, "anomaly": 9}
    centre = next(p for p in board["places"] if p["kind"] == "centre")
    assert centre["population"] == game["centre_population"] == 7 and centre["size"] == 80
    planets = {p["id"]: (p["population"], p["goods"]) for p in board["places"] if p["kind"] == "planet"}
    assert planets == {q + n: v for q, ps in PLANETS.items() for n, v in ps.items()}
    sizes = {p["planet_size"]: p["size"] for p in board["places"] if p["kind"] == "planet"}
    assert sizes == {"small": 30, "medium": 40, "large": 60}
    rim = Counter(p["quadrant"] for p in board["places"] if p["kind"] == "anomaly")
    assert rim == {"Q1": 4, "Q2": 2, "Q3": 1, "Q4": 2}
    track = board["tracks"][0]
    assert (track["spaces"], track["start_box"]) == (game["shuffle_spaces"], True) == (24, True)
    for p in board["places"]:
        r = p["size"] / 2
        assert r <= p["x"] <= 420 - r and r <= p["y"] <= 297 - r, p["id"]


# Texts ----------------------------------------------------------------------------------------------------

def test_booklet_and_aid_quote_the_data(built):
    kit_out, _ = built
    booklet = "".join(page_texts(kit_out / "booklet.pdf"))
    for words in ("80playercards", "4decksof20", "30Bureaucracycards", "10anomalyhexes", "78technologytiles",
                  "8outposts", "4tradeships", "4warships", "2scouts", "8settlers", "**Move**(action):5halves",
                  "17planets", "9outer-rimspaces", "42links", "shuffletrackof24spaces"):
        assert words.replace("**", "") in booklet, words
    assert "{{" not in booklet and "{ship_cost}" not in booklet
    aid = "".join(page_texts(kit_out / "aids.pdf"))
    for name in HALVES:
        assert name.replace(" ", "") in aid, name
    assert "drawbackupto5cards" in aid and "2pointspersettler" in aid


# names and print facts, not rule values: the game's title and id, paper and board sizes, the year
TYPED_OK = [r"\*\*\+1\*\*", r"4X Space Euro", r"4x-space-euro", r"\bA3\b", r"tiles-a4", r"\b2019\b", r"100 %", r"63 x 88 mm"]


def test_no_rule_number_is_typed_by_hand_in_the_booklet():
    from tests.test_booklet_lint import hand_typed_digits
    for path in sorted((KIT / "rules").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for allowed in TYPED_OK:
            text = re.sub(allowed, "", text)
        assert not hand_typed_digits(text), (path.name, hand_typed_digits(text))


def test_list_names_every_table(capsys):
    assert main(["list", "--data", str(KIT)]) == 0
    out = capsys.readouterr().out
    for line in ("Player deck: 80", "Bureaucracy cards: 30", "Outer-rim anomalies: 10", "Player pieces: 104"):
        assert line in out, (line, out)


def test_our_own_words(built):
    """No run of 8 words of the kit's texts (data, rules, templates) is shared with the rules summaries."""
    from tests.test_own_words import SEEDS, runs, words
    if not SEEDS.is_dir():
        pytest.skip(f"{SEEDS} is missing")
    seed_runs = set().union(*(runs(words(f.read_text(encoding="utf-8"))) for f in sorted(SEEDS.glob("*.txt"))))
    for path in sorted(p for p in KIT.rglob("*") if p.suffix in (".md", ".yaml", ".j2")):
        text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", path.read_text(encoding="utf-8"))
        shared = runs(words(text)) & seed_runs
        assert not shared, (path.name, [" ".join(r) for r in sorted(shared)][:3])


# Bad input: located, exit 1 -------------------------------------------------------------------------------

@pytest.fixture
def euro_copy(tmp_path) -> Path:
    target = tmp_path / "4x-space-euro"
    shutil.copytree(KIT, target)
    return target


# (file, text, replaced by, message, the line the problem must be located at: the edit's, or the rule's)
BAD = [
    ("components/deck.yaml", "bottom: manoeuvres}", "bottom: manoevres}", "must be one of", None),
    ("components/deck.yaml", "top: produce,  bottom: sympathisers}", "top: produce,  bottom: sell}",
     "counts.by.bottom.sell: Player deck with bottom sell: the rule asks for 12, the rows make 16", "    bottom: {"),
    ("components/anomalies.yaml", "kind: empty,        qty: 2}", "kind: empty,        qty: 3}",
     "counts.total: Outer-rim anomalies in all: the rule asks for 10, the rows make 11", "  total: 10"),
    ("boards/main.yaml", "{from: Q4A2, to: C,", "{from: Q4A2, to: CC,", "no place with id 'CC'", None),
    ("kit.yaml", "group: cards, total: 110", "group: cards, total: 111", "the rule asks for 111, the tables make 110",
     None),
]


@pytest.mark.parametrize("file,old,new,message,anchor", BAD)
def test_bad_input_is_located(euro_copy, capsys, file, old, new, message, anchor):
    line = edit(euro_copy / file, old, new)
    if anchor:
        text = (euro_copy / file).read_text()
        line = text[: text.index(anchor)].count("\n") + 1
    capsys.readouterr()
    assert main(["validate", "--data", str(euro_copy)]) == 1
    captured = capsys.readouterr()
    err = captured.err + captured.out
    assert message in err, err
    assert f"{Path(file).name}:{line}:" in err, err


def test_a_card_text_too_long_stops_the_build_naming_the_card(euro_copy, tmp_path, capsys):
    out = tmp_path / "out"
    edit(euro_copy / "data" / "actions.yaml", 'text: "Add one population',
         'text: "' + "Settlers walk a long way to the planet. " * 12 + 'Add one population')
    line = edit(euro_copy / "components" / "deck.yaml", "{id: c04,", "{id: c04,")
    capsys.readouterr()
    assert main(["build", "--data", str(euro_copy), "--out", str(out), "-q", "--only", "components"]) == 1
    err = capsys.readouterr().err
    assert "does not fit" in err and f"deck.yaml:{line}" in err and "c04" in err, err
    assert not (out / "4x-space-euro" / "cards-red.pdf").exists()


# Rules (issue 28): the texts follow the prototype, the kit's own rulings are marked and listed, and every
# rule is stated once in data/ and quoted word for word by the cards, the aid and the booklet ---------------

HALF_MM = (88 - 2 * 2.6 - 4.4 - 1.2) / 2       # the card template's half height (margins, band, gap)


def kit_yaml(name: str):
    return yaml.safe_load((KIT / "data" / f"{name}.yaml").read_text(encoding="utf-8"))


def card_texts(kit_out: Path, manifest, group: str = "cards-red") -> dict[str, str]:
    """What each half's text area prints (between its banner and its strip of extras), by half name; the text
    of a half is the same on every card that carries it."""
    pdfs, names, out = {}, banners(kit_out, manifest, group), {}
    for p in group_placements(manifest, group, "front"):
        pdf = pdfs.get(p["file"]) or pdfs.setdefault(p["file"], pdfium.PdfDocument(str(kit_out / p["file"])))
        page = pdf[p["page"] - 1]
        for name, top in zip(names[p["ref"]], (2.6, 88 - 2.6 - HALF_MM)):
            body = text_in(page, p["x"] + 3 * MM, p["y"] + (top + 10.8) * MM, p["w"] - 6 * MM, (HALF_MM - 21) * MM)
            strip = text_in(page, p["x"] + 12 * MM, p["y"] + (top + HALF_MM - 9.8) * MM, p["w"] - 15 * MM, 9 * MM)
            out[name] = (body, strip)
    return out


def squeeze(text: str) -> str:
    return "".join(text.split())


def booklet_text(kit_out: Path) -> str:
    """The booklet's text without its running foot (title, chapter, page number), so that a sentence running
    over a page break reads as one."""
    pdf, pages = pdfium.PdfDocument(str(kit_out / "booklet.pdf")), []
    for page in pdf:
        lines = page.get_textpage().get_text_range().splitlines()
        if len(lines) > 2 and lines[-2].startswith("4X Space Euro ") and lines[-1].strip().isdigit():
            lines = lines[:-2]
        pages.append(squeeze("".join(lines)))
    return "".join(pages)


def ruling_numbers() -> dict[str, int]:
    return {r["id"]: n for n, r in enumerate(kit_yaml("rules")["rulings"], 1)}


def test_card_texts_follow_the_prototype(built):
    """Issue 28: Produce had a fee per planet, Build a fee per outpost, Sell excluded planets that make
    nothing, Outpost asked for goods "worth" the population; Colonize places a settler, marked as a ruling."""
    kit_out, manifest = built
    cards = card_texts(kit_out, manifest)
    produce, build, sell = (" ".join(cards[n]) for n in ("Produce", "Build", "Sell"))
    assert "Eachgood:1cardorcredit" in produce and "planet" not in cards["Produce"][1]
    assert cards["Build"][1] == "Eachship:2cardsorcredit." and "outpost" not in cards["Build"][1]
    assert "ataplanet,noneofthekinditmakes" in sell and "anotherkind" not in sell
    assert "asmanygoodsasitspopulation" in cards["Outpost"][0] and "worth" not in cards["Outpost"][0]
    colonize = cards["Colonize"][0]
    assert "Addonepopulation" in colonize
    assert f"kitruling{ruling_numbers()['colonize_settlers']}(seethebooklet)" in colonize


def test_every_player_can_found_a_first_outpost(built):
    """Issue 28: the first Outpost action needed goods or ships no player has at the start. Set-up now puts
    each player's first outpost on the board, as a marked kit ruling."""
    kit_out, _ = built
    booklet = booklet_text(kit_out)
    start = booklet.index("Settingup", booklet.index("Contents") + 20)   # its line in the contents
    listed = booklet.index("Playingaturn", start)                          # the next chapter's line there
    setup = booklet[start:booklet.index("Playingaturn", listed + 1)]       # to the next chapter's heading
    first = next(r for r in kit_yaml("rules")["rulings"] if r["id"] == "first_outpost")
    assert squeeze(first["text"]) + f"(Kitruling{ruling_numbers()['first_outpost']}.)" in setup
    assert "firstOutpostaction" not in booklet and "withoutshipsthere" not in booklet


def test_the_booklet_names_things_as_the_pieces_print_them(built):
    """Issue 28: the booklet printed raw ids (smuggler-pink, black_market) and quadrants as Q1-Q4, names the
    board never shows. Now the quadrants carry the board's names and the hexes the tiles' names."""
    kit_out, _ = built
    booklet = booklet_text(kit_out)
    for raw in ("smuggler-", "black_market", "black-market", "_"):
        assert raw not in booklet, raw
    assert not re.search(r"Q[1-4]", booklet)
    board = "".join(page_texts(kit_out / "boards" / "main-poster.pdf"))
    markets = "".join(page_texts(kit_out / "markets.pdf"))
    for quadrant in kit_yaml("game")["quadrants"].values():
        name = squeeze(quadrant["name"])
        assert name in booklet and name in board and name in markets, name
    assert "Smugglercave(pink)1" in booklet and "Blackmarket1" in booklet and "Allhexes10" in booklet


def marked_rulings() -> set[str]:
    """Every ruling a kit file names: `ruling:` keys anywhere in the YAML data, and the rulings the chapters
    and templates quote by id."""
    found: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            found.update([node["ruling"]] if isinstance(node.get("ruling"), str) else [])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    for path in sorted(KIT.rglob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    for path in sorted(KIT.rglob("*")):
        if path.suffix in (".md", ".j2"):
            found.update(re.findall(r"""ruling(?:_no)?\(["'](\w+)["']\)""", path.read_text(encoding="utf-8")))
    return found


def test_every_departure_is_marked_and_listed_in_the_kit_rulings_chapter(built):
    """Every ruling a kit file names is listed, with its number and title, in the booklet's "Kit rulings"
    chapter, and printed with its mark where it is quoted: a departure added to the data without a line in
    that chapter fails here. The rulings issue 28 found unmarked are among them."""
    kit_out, manifest = built
    booklet = booklet_text(kit_out)
    start = booklet.index("Theprototype'srulesleavesomepointsopen")
    chapter = booklet[start:booklet.index("Printingthekit", start)]
    numbers, rulings = ruling_numbers(), {r["id"]: r for r in kit_yaml("rules")["rulings"]}
    marked = marked_rulings()
    assert {"fleet_tie", "final_tie", "tech_swap", "first_outpost", "colonize_settlers", "sell_blockade"} <= marked
    assert marked == set(numbers), set(numbers) ^ marked      # no ruling listed that nothing prints, or unlisted
    for ruling_id in sorted(marked):
        n, title = numbers[ruling_id], squeeze(rulings[ruling_id]["title"])
        assert f"{n}.{title}." in chapter, ruling_id
        assert f"(Kitruling{n}.)" in booklet.replace(chapter, ""), ruling_id        # marked where it is quoted
    aid = "".join(page_texts(kit_out / "aids.pdf"))
    assert aid.count(f"(kitruling{numbers['final_tie']})") == len(COLOURS)
    pdfs = {f: pdfium.PdfDocument(str(kit_out / f)) for f in ("cards-red.pdf", "cards.pdf")}
    cards = "".join(text_in(pdfs[p["file"]][p["page"] - 1], p["x"], p["y"], p["w"], p["h"])
                    for p in group_placements(manifest, "cards-red", "front"))
    assert cards.count(f"kitruling{numbers['colonize_settlers']}") == HALVES["Colonize"]
    # the player count, which the prototype never states, carries its mark on the front cover too; its ruling
    # rests on one home quadrant per player, so the most players is the board's quadrants
    players = yaml.safe_load((KIT / "kit.yaml").read_text(encoding="utf-8"))["players"]
    assert players["max"] == len(kit_yaml("game")["quadrants"]) == 4 and players["min"] == 2
    assert f"For2–4players(kitruling{numbers['player_count']})" in page_texts(kit_out / "booklet.pdf")[0]


def test_cards_aid_and_booklet_print_the_same_words(built):
    """A rule is stated once (data/actions.yaml, data/rules.yaml) and quoted: the booklet's quote of each card
    half is what the card prints, the aid's extras are the cards' extras, the Bureaucracy card's text and the
    aid's end of the game are the booklet's."""
    kit_out, manifest = built
    booklet, cards = booklet_text(kit_out), card_texts(kit_out, manifest)
    numbers = ruling_numbers()
    for name in ("Move", "Produce", "Sell", "Outpost", "Colonize", "Build", "Local Sympathisers"):
        body, extra = cards[squeeze(name)]
        body = re.sub(r"kitruling\d+\(seethebooklet\)$", "", body)
        assert f'Card:"{body}"Extras:"{extra}"' in booklet, name
    aid = "".join(page_texts(kit_out / "aids.pdf"))
    for name in ("Move", "Produce", "Build", "Research"):
        assert cards[name][1] in aid, name
    rules, game = kit_yaml("rules"), kit_yaml("game")
    bureaucracy = "".join(page_texts(kit_out / "cards.pdf"))
    for key in ("bureaucracy_card", "bureaucracy_loss"):
        said = squeeze(rules["say"][key])
        assert said in bureaucracy and said in booklet, key
    hand = squeeze(rules["rulings"][numbers["bureaucracy_hand"] - 1]["text"])
    assert f"{hand}(kitruling{numbers['bureaucracy_hand']})" in bureaucracy
    assert f"{hand}(Kitruling{numbers['bureaucracy_hand']}.)" in booklet
    end = squeeze(rules["end"].format(**game))
    assert end in aid and end in booklet
    assert squeeze(rules["rulings"][numbers["final_tie"] - 1]["text"]) in aid


# Issue 39: each kind of disagreement a rules lawyer found, caught if it comes back ---------------------------
# (1) two printed texts of one rule differ; (2) a ruling makes another printed rule unreachable; (3) a
# departure from the prototype without its mark (a renamed card, a chart whose numbers come from elsewhere).

TEMPLATE_PRINTS = {"bureaucracy-front": "cards.pdf", "aid-front": "aids.pdf", "aid-back": "aids.pdf",
                   "deck-front": "cards-red.pdf", "tech-double": "technology.pdf"}
SAY = re.compile(r"""say\.(\w+)|say\[["'](\w+)["']\]|q\.say\(["'](\w+)["']\)""")
RULING = re.compile(r"""(?:q\.ruling|ruling_no)\(["'](\w+)["']\)|"equalto", "(\w+)"\)\|first""")


def quoted_by(path: Path) -> tuple[set[str], set[str]]:
    """The `say` keys and the ruling ids a chapter or template quotes from data/rules.yaml."""
    text = path.read_text(encoding="utf-8")
    says = {next(g for g in m if g) for m in SAY.findall(text)}
    rulings = {next(g for g in m if g) for m in RULING.findall(text)} & set(ruling_numbers())
    return says, rulings


def test_every_rule_stated_once_reads_the_same_wherever_it_is_printed(built):
    """Each `say` sentence and each ruling a template quotes is printed word for word in that template's PDF and
    in the booklet; a card's words about itself ("this card") are quoted by the booklet as the card's (Card:
    "..."), not pasted into a sentence of its own; every turn step and every action's extras carry their ruling mark on the aid
    as in the booklet, and a tactic's text its mark."""
    kit_out, manifest = built
    booklet, rules, game = booklet_text(kit_out), kit_yaml("rules"), kit_yaml("game")
    numbers, by_id = ruling_numbers(), {r["id"]: r for r in kit_yaml("rules")["rulings"]}
    pdfs = {pdf: "".join(page_texts(kit_out / pdf)) for pdf in set(TEMPLATE_PRINTS.values())}
    chapter_says = set().union(*(quoted_by(p)[0] for p in sorted((KIT / "rules").glob("*.md"))))
    assert chapter_says >= set(rules["say"]), set(rules["say"]) - chapter_says     # no rule lives on a card alone
    for template, pdf in TEMPLATE_PRINTS.items():
        says, rulings = quoted_by(KIT / "templates" / f"{template}.svg.j2")
        for key in says:
            words = squeeze(rules["say"][key].format(**game))
            assert words in pdfs[pdf] and words in booklet, (template, key)
            if "thiscard" in words.lower():     # the card speaking of itself: the booklet quotes it as such
                assert f'Card:"{words}' in booklet, key
        for rid in rulings:
            words = squeeze(by_id[rid]["text"].format(**game))
            assert f"{words}(kitruling{numbers[rid]})" in pdfs[pdf], (template, rid)
            assert f"{words}(Kitruling{numbers[rid]}.)" in booklet, (template, rid)
    aid = pdfs["aids.pdf"]
    for step in rules["turn"]:
        words = squeeze(step["head"] + step["text"].format(**game))
        mark = f"(kitruling{numbers[step['ruling']]})" if step.get("ruling") else ""
        assert aid.count(words + mark) == len(COLOURS), step["head"]
        assert words + mark.replace("k", "K", 1).replace(")", ".)") in booklet, step["head"]
    for a in kit_yaml("actions").values():       # the aid prints an action's extras, a tactic's text
        if a.get("ruling"):
            words = squeeze(a["extra" if a["kind"] == "action" else "text"].format(**game))
            assert aid.count(f"{words}(kitruling{numbers[a['ruling']]})") == len(COLOURS), a["name"]


def test_no_stale_wording_comes_back(built):
    """The words issue 39 found: a label repeating its sentence, a sacrificed decoy, the old tactic names, the
    ruling that kept settlers at home."""
    kit_out, _ = built
    everything = booklet_text(kit_out) + "".join("".join(page_texts(kit_out / f)) for f in set(TEMPLATE_PRINTS.values()))
    for stale in ("Anytime:Youmaydiscard", "sacrifice", "Settlersnevertravel", "Settlersstayput"):
        assert stale not in everything, stale
    assert not re.search(r"(?<!Swift)Manoeuvres|(?<!Local)Sympathisers", everything)


def test_card_names_are_the_prototypes():
    """A tactic is called what the prototype's heading calls it ('Swift Manoeuvres', not 'Manoeuvres'), and an
    action's name is its heading or the noun of it ('Outpost' for 'Establish Outpost'): a renamed card would be
    a departure with no mark."""
    from tests.test_own_words import SEEDS
    prototype = SEEDS / "003_4c5344dac5907064.txt"      # the seeds README: the 4X Space Euro prototype
    if not prototype.is_file():
        pytest.skip(f"{prototype} is missing")
    text = prototype.read_text(encoding="utf-8")
    actions_part, tactics_part = text.split("### Card Tactics")
    actions_part = actions_part.split("### Card Actions")[1]
    tactic_heads = {h.strip().lower() for h in re.findall(r"^#### (.+)$", tactics_part.split("\n## ")[0], re.M)}
    action_heads = [h.strip(" :").lower() for h in re.findall(r"^#### (.+)$", actions_part, re.M)]
    for a in kit_yaml("actions").values():
        if a["kind"] == "tactic":
            assert a["name"].lower() in tactic_heads, a["name"]
        else:
            assert any(h.split()[-1] == a["name"].lower() for h in action_heads), a["name"]


# Where may a settler stand? Colonize puts one where its owner has the outpost; only a rule that lets settlers
# move takes one anywhere else. These texts need a settler on a planet without its owner's outpost.
AWAY = [re.compile(p, re.I) for p in (
    r"rival settlers",                                     # the by-force defence, the outpost battle
    r"your settlers stand on a planet where a rival",      # the takeover
    r"your settlers take a rival outpost",                 # the Quiet takeover tile and its ruling
    r"rival outpost \(you need a warship or settler there", # the Engage card
    r"warship or settler on the planet",                   # attacking an outpost
)]
MOVES = re.compile(r"settlers? (?:move|travel|ride)[^.]*any planet", re.I)
STUCK = re.compile(r"settlers? (?:never (?:travel|move)|stays? (?:put|on its planet))", re.I)


def printed_rule_texts(kit_dir: Path) -> list[str]:
    """Every rule text of the kit: the `say` sentences and rulings, the card halves, the special tiles and the
    chapters' own words."""
    data = lambda name: yaml.safe_load((kit_dir / "data" / f"{name}.yaml").read_text(encoding="utf-8"))
    rules, actions = data("rules"), data("actions")
    tiles = yaml.safe_load((kit_dir / "components" / "techdouble.yaml").read_text(encoding="utf-8"))["rows"]
    texts = list(rules["say"].values()) + [r["text"] for r in rules["rulings"]]
    texts += [a["text"] for a in actions.values()] + [t["text"] for t in tiles if t.get("text")]
    texts += [re.sub(r"\s+", " ", p.read_text(encoding="utf-8")) for p in sorted((kit_dir / "rules").glob("*.md"))]
    return texts


def dead_settler_rules(kit_dir: Path) -> list[str]:
    """The texts that need a settler away from its owner's outpost, when no rule can bring one there."""
    texts = printed_rule_texts(kit_dir)
    can_move = any(MOVES.search(t) for t in texts) and not any(STUCK.search(t) for t in texts)
    needing = [p.pattern for p in AWAY if any(p.search(t) for t in texts)]
    assert len(needing) == len(AWAY), set(p.pattern for p in AWAY) - set(needing)   # the patterns still match
    return [] if can_move else needing


def test_no_ruling_leaves_a_settler_rule_dead():
    """Issue 39: 'Settlers never travel' with 'One outpost to a planet' left settlers only on their owner's
    outpost planet, so the takeover, the Quiet takeover tiles, rival settlers in a defence, settler attacks and
    the Engage card's 'or settler there' could never happen. A rule must let a settler reach such a planet."""
    assert dead_settler_rules(KIT) == []
    moves = [r for r in kit_yaml("rules")["rulings"] if MOVES.search(r["text"])]
    assert [r["id"] for r in moves] == ["settlers_travel"]


def test_a_ruling_that_keeps_settlers_home_is_caught(euro_copy):
    edit(euro_copy / "data" / "rules.yaml", 'text: "Settlers move only with a fleet',
         'text: "Settlers never travel. They move only with a fleet')
    assert len(dead_settler_rules(euro_copy)) == len(AWAY)


CHART = re.compile(r"""table\(['"]([\w-]+)['"]\)""")
SOURCE = re.compile(r"""q\.source\(["']([\w-]+)["']\)""")


def charts_without_source(kit_dir: Path) -> list[str]:
    """Charts a chapter prints that data/rules.yaml `sources:` does not account for, and source notes a chapter
    names that have no words."""
    sources = yaml.safe_load((kit_dir / "data" / "rules.yaml").read_text(encoding="utf-8")).get("sources") or {}
    chapters = "".join(p.read_text(encoding="utf-8") for p in sorted((kit_dir / "rules").glob("*.md")))
    charts = set(CHART.findall(chapters))
    return sorted((charts - set(sources)) | {s for s in SOURCE.findall(chapters) if not sources.get(s)})


def test_every_chart_and_list_of_numbers_says_where_it_comes_from(built):
    """Every chart the booklet prints has a sources entry; the deck list, the technology tiles, the market
    prices and the board's numbers, which the prototype's rules text does not give, carry a 'Source:' note."""
    kit_out, _ = built
    assert charts_without_source(KIT) == []
    sources, booklet = kit_yaml("rules")["sources"], booklet_text(kit_out)
    chapters = {p.name: p.read_text(encoding="utf-8") for p in (KIT / "rules").glob("*.md")}
    assert {"deck", "technology", "markets", "board"} <= {k for k, v in sources.items() if v}
    for chart, note in sources.items():
        if note:
            assert squeeze(f"Source: {note}") in booklet, chart
    # where a chapter prints such numbers (not only counts pieces): the halves of the deck, the tiles' effects,
    # the start prices, the centre's population
    for printed, note in (("tables.deck.rows|selectattr", "deck"), ("in tables.techdouble.rows", "technology"),
                          ("table('markets')", "markets"), ("population {{ data.game.centre_population", "board")):
        where = [name for name, text in chapters.items() if printed in text]
        assert where and all(f'q.source("{note}")' in chapters[name] for name in where), (printed, where)


def test_a_chart_printed_without_a_source_entry_is_caught(euro_copy):
    edit(euro_copy / "rules" / "06-outer-rim.md", "{{ table('anomalies') }}",
         "{{ table('anomalies') }}\n{{ table('pieces') }}\n*{{ q.source(\"smugglers\") }}*")
    assert charts_without_source(euro_copy) == ["pieces", "smugglers"]
