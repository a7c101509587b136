"""The Eclipse kit's rules (issue 28), read back from the printed files.

The kit is built once for the module. Rules stated once in data/eclipse/data/rules.yaml must print word
for word on the information cards and in the booklet; every `ruling:` marker in the kit's data must name a
ruling the booklet's *Kit rulings* chapter lists, and a rule that carries one is marked where it prints;
the boards, the booklet's layout and the tiles print what a group needs to play without house-ruling.
"""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml


KIT = Path(__file__).resolve().parent.parent / "data" / "eclipse"
RULINGS = "Kit rulings Where the rules source"   # the chapter's title and first words
MM = 72 / 25.4


def squash(text: str) -> str:
    """Text without whitespace: pdfium and reportlab break lines at different places."""
    return re.sub(r"\s+", "", text)


def pdf_pages(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    return [" ".join(page.get_textpage().get_text_range().split()) for page in doc]


def text_in_box(path: Path, x_mm: float, y_mm: float, w_mm: float, h_mm: float, page: int = 0) -> str:
    """Text printed inside a box given in mm from the page's top-left corner."""
    pg = pdfium.PdfDocument(str(path))[page]
    top = pg.get_height() - y_mm * MM
    return " ".join(pg.get_textpage().get_text_bounded(left=x_mm * MM, bottom=top - h_mm * MM,
                                                       right=(x_mm + w_mm) * MM, top=top).split())


class Printed:
    def __init__(self, root: Path):
        self.root = root
        manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
        self.placements = manifest["parts"]["components"]["placements"]
        # each page without its running footer ("Eclipse Combat 9"), so a sentence over a page break reads whole
        self.booklet = [re.sub(r" Eclipse [A-Za-z ,'-]{1,40} \d+$", "", page)
                        for page in pdf_pages(root / "booklet.pdf")]

    def piece_text(self, ref: str, side: str = "front") -> str:
        p = next(q for q in self.placements if q["ref"] == ref and q["side"] == side)
        pg = pdfium.PdfDocument(str(self.root / p["file"]))[p["page"] - 1]
        top = pg.get_height() - p["y"]
        return " ".join(pg.get_textpage().get_text_bounded(left=p["x"], bottom=top - p["h"], right=p["x"] + p["w"],
                                                           top=top).split())

    def card_text(self, ref: str, side: str = "front") -> str:
        """A card face's text without spaces and without the bold names before its rules ("Pinning:"). A back
        printed upside down for the flip (short-edge duplex) reads its bold names out of their place in the
        line; the rule sentences keep their order."""
        text = squash(self.piece_text(ref, side))
        labels = [rule["name"] for rule in rules()["say"].values()] + ["Ancient ship", "Centre defence",
                                                                         "Reputation draws"]
        for label in sorted(labels, key=len, reverse=True):
            text = text.replace(squash(label) + ":", "")
        return text

    def chapter_start(self, opening: str) -> int:
        """The page that opens a chapter: its title followed by its first words (the contents page and a
        mention in the text have the title alone)."""
        return next(i for i, page in enumerate(self.booklet) if opening in page)

    def chapter(self, opening: str) -> str:
        """The text of the booklet from the page that opens the chapter to the end."""
        return " ".join(self.booklet[self.chapter_start(opening):])


@pytest.fixture(scope="module")
def printed(kit_build) -> Printed:
    return Printed(kit_build("eclipse"))


def rules() -> dict:
    return yaml.safe_load((KIT / "data" / "rules.yaml").read_text(encoding="utf-8"))


def ruling_markers(tree, where: str = "") -> list[tuple[str, str]]:
    """(where, ruling id) for every marker in a data tree: a `ruling:` key, or the values of a `ruled:` map."""
    found = []
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key == "ruling" and isinstance(value, str):
                found.append((where, value))
            elif key == "ruled" and isinstance(value, dict):
                found += [(f"{where}.ruled.{k}", v) for k, v in value.items()]
            else:
                found += ruling_markers(value, f"{where}.{key}")
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            found += ruling_markers(value, f"{where}[{index}]")
    return found


def kit_markers() -> list[tuple[str, str]]:
    """Every ruling marker in the kit's data files and tables (YAML keys; a CSV column named `ruling`)."""
    found = []
    for path in sorted((KIT / "data").glob("*.yaml")) + sorted((KIT / "components").glob("*.yaml")):
        found += ruling_markers(yaml.safe_load(path.read_text(encoding="utf-8")), path.name)
    for path in sorted((KIT / "data").glob("*.csv")) + sorted((KIT / "components").glob("*.csv")):
        for line, row in enumerate(csv.DictReader(path.open(encoding="utf-8")), 2):
            if row.get("ruling"):
                found.append((f"{path.name}:{line}", row["ruling"]))
    return found


def unlisted(markers: list[tuple[str, str]], rulings: dict, chapter: str) -> list[str]:
    """Markers whose ruling is not in rules.yaml, or whose title the printed chapter does not list."""
    return [f"{where}: {rid}" for where, rid in markers
            if rid not in rulings or squash(rulings[rid]["title"]) not in squash(chapter)]


# ------------------------------------------------------------------------------------------ rulings

def test_every_ruling_marker_is_listed_in_the_kit_rulings_chapter(printed):
    markers = kit_markers()
    assert len(markers) >= 10 and {rid for _, rid in markers} >= {"pinning", "terran_only", "reputation_slots"}
    chapter = printed.chapter(RULINGS)
    assert unlisted(markers, rules()["rulings"], chapter) == []
    for ruling in rules()["rulings"].values():          # each listed with its reason
        assert squash(ruling["title"] + ".") in squash(chapter) and squash(ruling["why"]) in squash(chapter)


def test_the_player_count_is_marked_as_the_kits(printed):
    """The source lists six player boards and speaks of a two-player game but states no player count: the
    front cover and the booklet's first chapter mark 2-6 as the kit's ruling, listed with its reason."""
    r = rules()["rulings"]
    number = list(r).index("player_count") + 1
    assert f"For 2–6 players (kit ruling {number})" in printed.booklet[0]
    assert squash(f"for 2 to 6 players (Kit ruling: {r['player_count']['title']})") in squash(" ".join(printed.booklet))



def test_a_marker_the_chapter_does_not_list_is_caught(printed):
    """The check above fails for a rule text in data that says it departs when the chapter lacks it."""
    doctored = {"actions": [{"id": "move", "text": "Ships jump.", "ruling": "jump_drive"}]}
    assert unlisted(ruling_markers(doctored, "game.yaml"), rules()["rulings"], printed.chapter(RULINGS)) \
        == ["game.yaml.actions[0]: jump_drive"]


def test_a_ruled_rule_is_marked_where_it_prints(printed):
    """A `say` rule with a ruling prints with "(Kit ruling: <title>.)" in the booklet and on the cards."""
    r = rules()
    booklet = squash(" ".join(printed.booklet))
    cards = "".join(printed.card_text(f"info-cards.{i}", side)
                    for i in ("info-explore", "info-scoring") for side in ("front", "back"))
    ruled = {key: rule for key, rule in r["say"].items() if rule.get("ruling")}
    assert set(ruled) >= {"pinning", "terran_only", "reputation_keep"}
    for key, rule in ruled.items():
        marked = squash(rule["text"] + f" (Kit ruling: {r['rulings'][rule['ruling']]['title']}.)")
        assert marked in booklet, key
        if key not in ("reputation_keep", "ambassadors"):   # combat card: below; ambassadors: booklet only
            assert marked in cards, key
    move = squash(printed.piece_text("summary-cards.summary-red"))
    assert squash(f"enemy ships pin it. (Kit ruling: {r['rulings']['pinning']['title']}.)") in move


# --------------------------------------------------------------------------------- rules stated once

QUOTED = {"info-explore": ["explore", "discovery", "artifact", "ancients", "wormholes", "pinning"],
          "info-combat": ["fire_order", "hit", "damage", "reputation_keep"],
          "info-upkeep": ["upkeep", "bankrupt", "cleanup"],
          "info-scoring": ["tie_break", "terran_only"]}


def test_four_information_cards_quote_the_booklet_word_for_word(printed):
    say = rules()["say"]
    booklet = squash(" ".join(printed.booklet))
    for card, keys in QUOTED.items():
        text = printed.card_text(f"info-cards.{card}") + printed.card_text(f"info-cards.{card}", "back")
        for key in keys:
            sentence = squash(say[key]["text"])
            assert sentence in text, (card, key)
            assert sentence in booklet, key          # the same words in the booklet
    assert sum(1 for p in printed.placements if p["ref"].startswith("info-cards.") and p["side"] == "front") == 4
    scoring = printed.piece_text("info-cards.info-scoring")
    assert "Monoliths on your hexes: 3 VP each" in scoring and "The traitor card: -2 VP" in scoring


def test_reference_sheet_and_supply_board_quote_the_same_rules(printed):
    say = rules()["say"]
    reference = squash(" ".join(pdf_pages(printed.root / "reference.pdf")))
    for key in ("fire_order", "hit", "reputation_keep", "wormholes", "pinning", "upkeep", "bankrupt"):
        assert squash(say[key]["text"]) in reference, key
    lower_band = text_in_box(printed.root / "boards" / "supply-poster.pdf", 0, 297 * 0.8, 235, 297 * 0.2)
    assert squash(say["reputation_keep"]["text"]) in squash(lower_band)


# ----------------------------------------------------------------------------------------- boards

def test_supply_board_has_a_traitor_space_and_a_used_lower_fifth(printed):
    poster = printed.root / "boards" / "supply-poster.pdf"
    assert "Traitor card" in text_in_box(poster, 236, 155, 110, 80)
    lower = text_in_box(poster, 0, 297 * 0.8, 420, 297 * 0.2)
    assert "After a battle" in lower and len(lower.split()) > 60
    # the space is big enough for the 63.5 x 100 mm card lying sideways: its dashed outline read in pixels
    page = pdfium.PdfDocument(str(poster))[0]
    image = page.render(scale=100 / 72).to_pil().convert("L")
    px = 100 / 25.4
    row = [min(image.getpixel((round(x * px), round(y * px))) for y in range(195, 206)) for x in range(235, 347)]
    edges = [235 + i for i, v in enumerate(row) if v < 200]
    assert edges and max(edges) - min(edges) >= 100 + 2


def test_player_board_bounds_reputation_and_ambassadors(printed):
    slots = yaml.safe_load((KIT / "data" / "game.yaml").read_text(encoding="utf-8"))["reputation_slots"]
    for colour in ("red", "black"):
        area = text_in_box(printed.root / "boards" / f"player-{colour}-poster.pdf", 344, 218, 76, 79)
        assert f"Reputation track (kit ruling {ruling_number('reputation_slots')})" in area
        labels = re.findall(r"Ambassador|Either|Reputation(?! track)", area)
        assert sorted(labels) == sorted(s.capitalize() for s in slots) and len(labels) == 4


# ---------------------------------------------------------------------------------------- booklet

def test_booklet_numbers_its_steps_and_keeps_the_reputation_table_with_its_heading(printed):
    booklet = squash(" ".join(printed.booklet))
    assert "1.Putthesupplyboard" in booklet and "5.Givethestartplayermarker" in booklet
    assert "4.Collectscienceandmaterials" in booklet
    assert not re.search(r"•\d\.", booklet)
    assert any("ReputationtilesVPTiles1122937" in squash(page) for page in printed.booklet)


def test_booklet_has_figures_and_explains_every_sector_symbol(printed):
    say = rules()["say"]
    setup = next(i for i, page in enumerate(printed.booklet) if "Reading a sector" in page)
    figure_page = " ".join(printed.booklet[setup:setup + 2])
    assert "Front: Sector hexes: Vega" in figure_page and "204" in figure_page  # the art's own text
    # (the summary card has no figure: at the size its 7 pt lines read, 6 pt, it would take a third of a
    # page and run the Spanish edition to a 16th; every player holds the card)
    for word in ("discovery symbol", "artifact", "ancient ship", "wormhole", "advanced square", "ring"):
        assert word in figure_page, word
    booklet = squash(" ".join(printed.booklet))
    for key in ("artifact", "ancients", "pinning", "terran_only"):
        assert squash(say[key]["text"]) in booklet, key
    assert "species bonus" not in " ".join(printed.booklet)


def test_one_spelling_of_the_galactic_centre_everywhere(printed):
    texts = printed.booklet + pdf_pages(printed.root / "sectors.pdf") + pdf_pages(printed.root / "reference.pdf")
    names = re.findall(r"galactic\s+cent\w+", " ".join(texts), re.I)
    assert names and set(names) == {"Galactic Centre"}


def test_wormhole_generator_tile_says_what_it_crosses_for(printed):
    text = squash(printed.piece_text("technologies.Wormhole Generator"))
    assert "moveorexploreacrossit" in text


def test_summary_card_and_booklet_print_the_same_passing_rules(printed):
    say = rules()["say"]
    booklet = squash(" ".join(printed.booklet))
    for colour in ("red", "white"):
        back = printed.card_text(f"summary-cards.summary-{colour}", "back")
        for key in ("passing", "phase_end"):
            assert squash(say[key]["text"]) in back and squash(say[key]["text"]) in booklet, (colour, key)
    reference = squash(" ".join(pdf_pages(printed.root / "reference.pdf")))
    assert squash(say["colony_ships"]["text"]) in reference and squash(say["colony_ships"]["text"]) in booklet


def test_every_species_side_says_it_is_not_played(printed):
    """Terran sides only (a kit ruling): the six species backs say so, the booklet's set-up plays Terran."""
    starts = [row["id"] for row in csv.DictReader((KIT / "components" / "sectors.csv").open(encoding="utf-8"))
              if row["ring"] == "start"]
    assert len(starts) == 6
    for sid in starts:
        mark = f"notplayedinthisset(kitruling{ruling_number('terran_only')})"
        assert mark in squash(printed.piece_text(f"sectors.{sid}", "back")), sid
        assert "notplayed" not in squash(printed.piece_text(f"sectors.{sid}"))
    assert "Terransideup" in squash(" ".join(printed.booklet))


def test_traitor_rule_reads_the_same_on_the_card_the_board_and_in_the_booklet(printed):
    traitor = squash(rules()["say"]["traitor"]["text"])
    assert traitor in squash(printed.piece_text("traitor.traitor"))
    assert traitor in squash(" ".join(printed.booklet))
    assert traitor in squash(" ".join(pdf_pages(printed.root / "boards" / "supply-poster.pdf")))


def test_score_lines_read_the_same_on_the_card_and_in_the_booklet(printed):
    """Each line of rules.yaml `scoring`, with its value filled in, is printed by both; the values are read
    from the card itself, so a line whose number differs between the two fails."""
    card = " ".join(printed.piece_text("info-cards.info-scoring").split())
    chapter = printed.chapter("The end The game ends")
    lines = rules()["scoring"]
    for item in lines:
        pattern = re.escape(item["line"]).replace("%s", "(.+?)")
        on_card = re.search(pattern, card)
        assert on_card, item["line"]
        assert on_card.group(0) in chapter, on_card.group(0)
    assert "Technology tracks: 4 tiles on one track 1 VP, 5 tiles on one track 2 VP" in card


def test_every_ruling_is_marked_by_its_title_outside_its_chapter(printed):
    """Each ruling the chapter lists is applied somewhere else in the booklet, marked "Kit ruling: <title>"."""
    start = printed.chapter_start(RULINGS)
    assert start > 9
    before = squash(" ".join(printed.booklet[:start]))
    for rid, ruling in rules()["rulings"].items():
        assert squash(f"Kit ruling: {ruling['title']}") in before, rid


@pytest.mark.parametrize("target", ["species_sides.csv", "list.yaml"])
def test_a_rules_file_linked_to_a_list_or_a_text_is_located(tmp_path, run_cli, target):
    """Found by the long fuzz run: data/rules.yaml made a link to another file of the kit (whose top is a text
    or a list) ended on "'str' object has no attribute 'get'", naming no file."""
    import shutil
    kit = tmp_path / "eclipse"
    shutil.copytree(Path(__file__).parent.parent / "data" / "eclipse", kit)
    (kit / "data" / "list.yaml").write_text("- one\n- two\n", encoding="utf-8")
    (kit / "data" / "rules.yaml").unlink()
    (kit / "data" / "rules.yaml").symlink_to(target)
    result = run_cli("validate", "--data", kit)
    held = "a text" if target.endswith(".csv") else "a list"
    assert result.code == 1 and "no attribute" not in result.err, result.err
    assert f"data/rules.yaml:1: holds {held}, where the kit's texts read a mapping: `rulings:`" in result.err


# ------------------------------------------------------------------------------- issue 39: the kinds of
# disagreement a rules lawyer found, each caught if it came back

# Rules stated once (rules.yaml `say`) and every printed piece that quotes them besides the booklet: two texts
# of one rule can only differ if a piece stops quoting the data.
PRINTED_ON = {"upgrade_parts": ["summary-cards.summary-red", "summary-cards.summary-black"],
              "population_tokens": ["boards/player-red-poster.pdf", "boards/player-white-poster.pdf"]}


def printed_text(printed: Printed, where: str) -> str:
    if where.endswith(".pdf"):
        return squash(" ".join(pdf_pages(printed.root / where)))
    return squash(printed.piece_text(where))


def test_every_rule_stated_once_prints_in_the_booklet_and_where_it_is_quoted(printed):
    """Every `say` rule is in the booklet word for word (with its ruling's mark where it has one), and the pieces
    that restate it print the same words (issue 39: the Upgrade card said "parts you have the technology for",
    the booklet's Hull needed none)."""
    r = rules()
    booklet = squash(" ".join(printed.booklet))
    for key, rule in r["say"].items():
        text = rule["text"] + (f" (Kit ruling: {r['rulings'][rule['ruling']]['title']}.)" if rule.get("ruling") else "")
        assert squash(text) in booklet, key
    for key, places in PRINTED_ON.items():
        for where in places:
            assert squash(r["say"][key]["text"]) in printed_text(printed, where), (key, where)
    everything = booklet + "".join(printed_text(printed, w) for w in ("summary-cards.summary-red", "reference.pdf"))
    assert "youhavethetechnologyfor" not in everything


def test_every_ship_part_can_be_fitted_by_the_printed_upgrade_rule(printed):
    """A ruling must not leave a printed rule unreachable: every part tile needs either no technology (a
    basic part, named in the booklet's list) or a technology the game has; the basic parts are exactly the
    parts with no technology in ship-parts.csv."""
    parts = list(csv.DictReader((KIT / "components" / "ship-parts.csv").open(encoding="utf-8")))
    techs = {row["name"] for row in csv.DictReader((KIT / "components" / "technologies.csv").open(encoding="utf-8"))}
    basic = [p["name"] for p in parts if not p["tech"]]
    assert basic == ["Ion Cannon", "Electron Computer", "Hull", "Nuclear Drive", "Nuclear Source"]
    assert all(p["tech"] in techs for p in parts if p["tech"])
    listed = "The basic parts are " + ", ".join(basic[:-1]) + " and " + basic[-1] + "."
    assert " ".join(printed.booklet).count(listed) == 2


def test_a_found_part_is_placed_as_the_source_says(printed):
    """Seed 002: a found ship part may go on a ship at once or wait for an Upgrade; the booklet says both."""
    text = squash(rules()["say"]["found_part"]["text"])
    assert squash("fitted at once, free") in text and squash("fitted later by an Upgrade") in text
    assert text in squash(" ".join(printed.booklet))


def test_the_population_count_departs_from_the_source_only_marked(printed):
    """The source lists 264 population cubes (44 a colour); the set prints the tracks' 33 and marks it."""
    game = yaml.safe_load((KIT / "data" / "game.yaml").read_text(encoding="utf-8"))
    table = yaml.safe_load((KIT / "components" / "population.yaml").read_text(encoding="utf-8"))
    per_colour = table["counts"]["per_colour"]
    if per_colour != 264 // 6:
        assert per_colour == 3 * game["cubes_per_track"]
        title = rules()["rulings"]["population_count"]["title"]
        assert squash(f"{per_colour} population tokens (Kit ruling: {title})") in squash(" ".join(printed.booklet))


def test_every_piece_table_has_a_rule_in_the_booklet(printed):
    """A piece printed with no rule for it is dead: the crowded-hex tiles carry the source's rule, and the
    ambassadors say whose token moves and where a received one goes (the player board has room for one)."""
    r = rules()
    actions = squash(printed.chapter("The six actions"))
    assert squash(r["say"]["crowded"]["text"]) in actions and "crowded-hextile" in squash(r["say"]["crowded"]["text"])
    slots = yaml.safe_load((KIT / "data" / "game.yaml").read_text(encoding="utf-8"))["reputation_slots"]
    assert any(slot in ("ambassador", "either") for slot in slots)
    assert "ambassadororeitherspace" in squash(r["say"]["ambassadors"]["text"])


def table_calls(text: str) -> list[str]:
    """The charts a chapter prints: the names its `table('...')` calls give, the last dotted part."""
    return [name.split(".")[-1] for name in re.findall(r"table\('([^']+)'", text)]


def unsourced(chapters: dict[str, str], sources: dict) -> list[str]:
    """Charts printed with no `sources` entry, or whose chapter does not print the entry's note."""
    return [f"{name}: {chart}" for name, text in chapters.items() for chart in table_calls(text)
            if not sources.get(chart) or "data.rules.sources" not in text]


def test_every_chart_carries_a_source_note(printed):
    """The booklet promises every number from the published game rather than the source is marked: each
    chart of the booklet and the reference sheet has a `sources` entry, printed as "Source: ..."."""
    sources = rules()["sources"]
    chapters = {p.name: p.read_text(encoding="utf-8") for p in sorted((KIT / "rules").glob("*.md"))}
    chapters["reference.md"] = (KIT / "reference.md").read_text(encoding="utf-8")
    assert len([c for text in chapters.values() for c in table_calls(text)]) >= 5
    assert unsourced(chapters, sources) == []
    booklet = squash(" ".join(printed.booklet))
    for key, note in sources.items():                       # every note is printed, with its word
        assert squash(f"Source: {note}") in booklet, key
    assert squash(f"Source: {sources['actions']}") in squash(" ".join(pdf_pages(printed.root / "reference.pdf")))
    doctored = {"08-tiles.md": "{{ table('weapons', columns=['name']) }}"}
    assert unsourced(doctored, sources) == ["08-tiles.md: weapons"]


def ruling_number(rid: str) -> int:
    """A ruling's number in the Kit rulings chapter: its place in rules.yaml `rulings`."""
    return list(rules()["rulings"]).index(rid) + 1


def bare_marks(text: str) -> list[str]:
    """'kit ruling' marks that name neither a title ('Kit ruling: <title>') nor a number ('kit ruling 3')."""
    return [m.group(0) for m in re.finditer(r"kit ruling(?!: | \d)\W{0,3}", text, re.I)]


def test_rulings_are_marked_by_title_or_number_on_every_piece_and_board(printed):
    """"(Kit ruling.)" with no title tells a player nothing to look up: every mark on the pieces, the boards and
    the reference names its ruling, by title or by its number in the chapter (which numbers its list)."""
    files = sorted(printed.root.glob("*.pdf")) + sorted((printed.root / "boards").glob("*-poster.pdf"))
    for path in files:
        if path.name not in ("booklet.pdf", "booklet-imposed.pdf"):
            assert bare_marks(" ".join(pdf_pages(path))) == [], path.name
    assert bare_marks("enemy ships pin it. (Kit ruling.)") == ["Kit ruling.)"]
    chapter = squash(printed.chapter(RULINGS))
    for number, ruling in enumerate(rules()["rulings"].values(), 1):
        assert squash(f"{number}. {ruling['title']}.") in chapter, number
    supply = squash(" ".join(pdf_pages(printed.root / "boards" / "supply-poster.pdf")))
    for rid in ("reputation_draws", "reputation_slots", "tiles_two_players"):
        assert squash(f"Kit ruling: {rules()['rulings'][rid]['title']}") in supply, rid


def figure_refs() -> list[str]:
    return [ref for p in sorted((KIT / "rules").glob("*.md"))
            for ref in re.findall(r"figure\('([^']+)'\)", p.read_text(encoding="utf-8"))]


def test_no_figure_caption_prints_a_raw_id(printed):
    """A caption names the piece in the kit's words (the row's name), never a data id like 'summary-red'."""
    booklet = " ".join(printed.booklet)
    captions = re.findall(r"(?:Front|Back): ([A-Z][^:]*?): (.+?)(?=\s?(?:Front|Back):|\s[A-Z][a-z]+\s[a-z]|$)", booklet)
    assert len(figure_refs()) >= 1 and len(captions) >= len(figure_refs())   # one side each (ref:front)
    for ref in figure_refs():
        row_id = ref.split(".", 1)[1].split(":")[0]
        assert f": {row_id}" not in booklet, ref
    assert not any("-" in name and " " not in name for _, name in captions), captions


def test_sheet_titles_are_one_per_file(printed):
    """Each file's pages carry one title (tokens.pdf and tiles.pdf mixed tables' names page to page)."""
    for name in ("tokens", "tiles", "cards", "sectors"):
        titles = {re.sub(r" · (front|back) \d+ of \d+", "", line) for page in pdf_pages(printed.root / f"{name}.pdf")
                  for line in re.findall(r"Eclipse · [^·]+ · (?:front|back) \d+ of \d+", page)}
        assert len(titles) == 1, (name, titles)
