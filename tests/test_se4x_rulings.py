"""Space Empires 4X read back from its PDFs (issue 28): every kit ruling is printed with its mark and listed,
under that number and in the same words, in the booklet's Kit rulings chapter; no text marks a choice any
other way; the rules stated once in data/rules.yaml read the same on cards, sheets and booklet; and the
disagreements the issue found are gone. One full build of the kit (about 2 s)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from pnpgen.cli import main
from pnpgen.games.space_empires_4x.text import kit_context
from pnpgen.kit import load_kit
from tests.conftest import DEFAULT_KIT_DIR

MARK = re.compile(r"\(kit ruling (\d+)\)")
# Words that say a text departs from the sources or settles a point they leave open: they may only come
# from a ruling (its mark) or the Kit rulings chapter, never be typed into a text.
DEPARTURE = re.compile(r"kit'?s (own|choice)|kit ruling \d", re.IGNORECASE)


@pytest.fixture(scope="module")
def out(default_kit_build) -> Path:
    return default_kit_build


@pytest.fixture(scope="module")
def kit():
    return load_kit(DEFAULT_KIT_DIR)[0]


@pytest.fixture(scope="module")
def rulings(kit):
    return kit_context(kit)["rulings"]()


def flat(pdf: Path) -> str:
    """A PDF's words, whitespace folded, a hyphen that ends a wrapped line joined to the next word, and the
    booklet's running footer (title, chapter, page number) taken out, so a sentence reads on across pages."""
    pages = []
    for page in PdfReader(pdf).pages:
        lines = page.extract_text().splitlines()
        if len(lines) >= 3 and lines[-1].strip().isdigit() and lines[-3].strip() == "Space Empires 4X":
            lines = lines[:-3]
        pages.append(" ".join(" ".join(lines).split()))
    return re.sub(r"-\s", "-", " ".join(pages))


@pytest.fixture(scope="module")
def printed(out) -> dict:
    texts = {name: flat(out / name) for name in ("booklet.pdf", "cards.pdf", "ship-tech-sheet.pdf",
                                                 "production-sheet.pdf", "counters-neutral.pdf")}
    booklet = texts["booklet.pdf"]
    start = booklet.index("Kit rulings These are the points")
    end = booklet.index("Glossary", start)
    texts["chapter"], texts["booklet.pdf"] = booklet[start:end], booklet[:start] + booklet[end:]
    return texts


def outside_chapter(printed: dict) -> str:
    return " ".join(text for name, text in printed.items() if name.endswith(".pdf"))


# Kit rulings: marked where printed, listed in one chapter ---------------------------------------------------

def test_every_ruling_is_listed_under_its_number_with_its_words(printed, rulings):
    chapter = printed["chapter"]
    where = 0
    for r in rulings:
        entry = f"{r.number}. {r.title} ({r.where}). " + (r.text or "The kit wrote the whole section.")
        assert chapter.find(entry, where) > where, entry  # present, and after the one before
        where = chapter.index(entry, where)
        assert chapter.startswith(f" The rules summaries {r.source}", where + len(entry)), r.id


def test_every_ruling_is_printed_with_its_mark_where_it_applies(printed, rulings):
    text = outside_chapter(printed)
    for r in rulings:
        mark = f"(kit ruling {r.number})"
        assert (f"{r.text} {mark}" if r.text else mark) in text, r.id


def test_every_mark_printed_names_a_listed_ruling(printed, rulings):
    numbers = {r.number for r in rulings}
    for name, text in printed.items():
        found = {int(n) for n in MARK.findall(text)}
        assert found <= numbers, (name, sorted(found - numbers))
    assert {int(n) for n in MARK.findall(outside_chapter(printed))} == numbers


def kit_texts(kit_dir: Path):
    """(file, text) for every text a kit prints from: chapters, and each string in its YAML files (comments
    are not printed). The rulings themselves are where departures are meant to be written."""
    for path in sorted(kit_dir.rglob("*.md")):
        yield path, path.read_text(encoding="utf-8")
    for path in sorted(kit_dir.rglob("*.yaml")):
        source = re.sub(r"\{%.*?%\}", "", re.sub(r"\{\{.*?\}\}", "0", path.read_text(encoding="utf-8"), flags=re.S),
                        flags=re.S)  # the aid files are Jinja over YAML: their expressions are not prose
        document = yaml.safe_load(source)
        if path.name == "rules.yaml":
            document = {k: v for k, v in document.items() if k != "rulings"}
        yield from ((path, text) for text in strings(document))


def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings(value)


def unlisted_departures(kit_dir: Path) -> list[str]:
    """Texts that say they are the kit's choice without quoting a ruling: a departure the chapter misses."""
    return [f"{path.relative_to(kit_dir)}: {hit.group(0)!r}" for path, text in kit_texts(kit_dir)
            for hit in DEPARTURE.finditer(re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", text, flags=re.S))]


def test_no_text_marks_a_choice_except_through_a_ruling():
    assert unlisted_departures(DEFAULT_KIT_DIR) == []


def test_a_choice_typed_into_a_chapter_is_caught(kit_copy):
    chapter = kit_copy / "rules" / "08-economy.md"
    chapter.write_text(chapter.read_text() + "\nBids are paid in advance (kit's choice).\n")
    assert unlisted_departures(kit_copy) == ["rules/08-economy.md: \"kit's choice\""]


def test_a_ruling_the_data_does_not_hold_stops_the_build_at_its_line(kit_copy, tmp_path, capsys):
    chapter = kit_copy / "rules" / "04-sequence.md"
    chapter.write_text(chapter.read_text() + "\nOne more. {{ ruling('house_rule') }}\n")
    assert main(["build", "--data", str(kit_copy), "--only", "booklet", "--out", str(tmp_path), "--quiet"]) == 1
    error = capsys.readouterr().err
    assert "04-sequence.md:" in error and "no ruling 'house_rule'" in error and "Traceback" not in error


def test_a_ruling_without_its_source_stops_the_build_at_the_chapter_that_lists_it(kit_copy, tmp_path, capsys):
    rules = kit_copy / "data" / "rules.yaml"
    rules.write_text(rules.read_text().replace("    source: do not say how bids are made or who pays.\n", ""))
    assert main(["build", "--data", str(kit_copy), "--only", "booklet", "--out", str(tmp_path), "--quiet"]) == 1
    error = capsys.readouterr().err
    assert "ruling 'bids' in data/rules.yaml needs source" in error and "Traceback" not in error


# Rules stated once and quoted -------------------------------------------------------------------------------

@pytest.mark.parametrize("rid", ["bids", "discarded", "colony_fire", "upgrading", "shipyard_per_planet",
                                 "shipyard_counters", "black_hole", "new_colony"])
def test_a_card_quotes_a_ruling_in_the_booklets_words(printed, rulings, rid):
    r = next(r for r in rulings if r.id == rid)
    quoted = f"{r.text} (kit ruling {r.number})"
    assert quoted in printed["cards.pdf"] and quoted in printed["booklet.pdf"], rid


def test_the_victory_rules_read_the_same_in_the_welcome_and_in_teams_and_solo(printed, rulings, kit):
    booklet = printed["booklet.pdf"]
    welcome = booklet[booklet.index("How you win"):booklet.index("What a game looks like")]
    teams = booklet[booklet.index("Teams and solo play The game is"):]
    assert kit.data["rules"]["say"]["victory"].split()[0] in welcome
    assert " ".join(kit.data["rules"]["say"]["victory"].split()) in welcome
    for r in (r for r in rulings if r.id in ("team_victory", "solo")):
        quoted = f"{r.text} (kit ruling {r.number})"
        assert quoted in welcome and quoted in teams, r.id
    assert "In every scenario" not in booklet


# The disagreements of issue 28 -----------------------------------------------------------------------------

def unit_row(unit) -> str:
    """A unit's row as the unit charts print it: code and name, class, att-def, hull, cost, ship size, upkeep,
    limit (without the upkeep, which the test reads)."""
    name = unit.name if (unit.name + " ").startswith(unit.code + " ") else f"{unit.code} {unit.name}"
    fight = f"{unit.attack}–{unit.defence}" if unit.attack is not None else "–"
    return (rf"{re.escape(name)} {unit.cls or '–'} {fight} {unit.hull} {unit.cost} {unit.ship_size or '–'} "
            rf"(\d+) {unit.counters if isinstance(unit.counters, int) else len(unit.counters)}")


def test_upkeep_is_the_hull_size_except_for_the_units_the_booklet_names(printed, kit):
    booklet = printed["booklet.pdf"]
    listed = booklet[booklet.index("which cost none:"):booklet.index("Colonies and the Homeworld cost nothing")]
    free = {u.code for u in kit.units.values() if re.search(rf"• {re.escape(u.name)}\b", listed)}
    assert free == {"CO", "Miner", "SY", "Base", "Decoy"}  # seed 000's list (and the Decoy's own entry)
    for unit in kit.units.values():
        for name in ("booklet.pdf", "cards.pdf"):
            upkeep = re.search(unit_row(unit), printed[name])
            assert upkeep, (unit.code, name)
            assert int(upkeep.group(1)) == (0 if unit.code in free else unit.hull), (unit.code, name)


def test_the_setup_names_no_column_its_table_lacks(printed):
    booklet = printed["booklet.pdf"]
    assert "Home hexes" not in booklet
    assert "Scenario Players Deep-space markers Duel, small galaxy" in booklet


def test_the_ship_technology_sheet_records_what_ships_keep_from_their_build(printed, kit):
    sheet, colours = printed["ship-tech-sheet.pdf"], len(kit.colours)
    for code, line in (("SC", "Point Defence: 0 1 2 3"), ("DD", "Scanners: 0 1 2"), ("CA", "Exploration: 0 1"),
                       ("F", "Fighters: 1 2 3"), ("R", "Cloaking: 1 2"), ("SW", "Mine Sweeping: 1 2")):
        assert sheet.count(line) == kit.units[code].counters * colours, line  # the Carrier's rows print none
    assert sheet.count("Terraforming bought in Economic Phase") == colours
    assert sheet.count("Shipyard counters, when out of Group size counters") == colours


def test_colony_fire_and_black_holes_count_ships_not_rounds_or_units(printed):
    everything = outside_chapter(printed)
    for stale in ("each ship once per round", "for every unit that enters", "Each unit that enters",
                  "Every unit that enters stops", "Decoys: Decoys"):
        assert stale not in everything, stale
    assert "d10 roll Each ship that enters 1–6 survives" in printed["booklet.pdf"]
    assert "a group once per ship" in printed["cards.pdf"] and "a group once per ship" in printed["booklet.pdf"]


def test_advanced_sources_and_shipyards_are_said_as_they_are(printed, rulings):
    booklet = printed["booklet.pdf"]
    assert "list the advanced pieces and their prices" not in booklet
    assert "give neither prices nor rules" in booklet
    levels = next(r for r in rulings if r.id == "shipyard_levels")
    technology = booklet[booklet.index("Shipyard capacity"):booklet.index("Ship Size To build")]
    assert f"{levels.text} (kit ruling {levels.number})" in technology
    for name in ("booklet.pdf", "cards.pdf", "production-sheet.pdf"):  # the research charts mark its row
        assert f"Shipyard (kit ruling {levels.number})" in printed[name], name
    assert "as one Shipyard counter with a Group size counter showing 4 under it" in booklet


def test_hit_counters_are_called_what_they_print_and_fighter_costs_say_what_they_buy(printed, kit):
    name = kit.counters["damage"].name
    assert name == "Hit" and f"Put a {name} counter by a ship" in printed["booklet.pdf"]
    assert printed["counters-neutral.pdf"].count(name) >= kit.counters["damage"].copies
    assert "Damage counter" not in printed["booklet.pdf"]
    assert "Fighters level Att–Def Research cost 1 5–0 25 CP" in printed["booklet.pdf"]
    assert f"a Fighter itself costs {kit.units['F'].cost} CP" in printed["booklet.pdf"]


# Issue 39: each kind of disagreement a rules lawyer found, caught if it comes back ---------------------------
# (1) two printed texts of one rule differ; (2) a ruling or a record makes another printed rule dead, or a
# count does not add up; (3) a departure from the rules summaries without its mark (every chart says where its
# numbers come from).

QUOTE = re.compile(r"kit\.data\.rules\.say\.(\w+)|\bruling\('(\w+)'\)")
PRINTED_FROM = {"rules": ("booklet.pdf",), "aids/cards.yaml": ("cards.pdf",),
                "aids/sheets.yaml": ("production-sheet.pdf", "ship-tech-sheet.pdf")}


def quotes(kit_dir: Path) -> dict[str, set[tuple[str, str]]]:
    """For each of the kit's printed documents, the rules its sources quote: ('say', key) or ('ruling', id)."""
    found: dict[str, set[tuple[str, str]]] = {}
    for source, pdfs in PRINTED_FROM.items():
        path = kit_dir / source
        text = "".join(f.read_text() for f in sorted(path.glob("*.md"))) if path.is_dir() else path.read_text()
        names = {("say", say) if say else ("ruling", rid) for say, rid in QUOTE.findall(text)}
        for pdf in pdfs:
            found.setdefault(pdf, set()).update(names)
    return found


def rule_words(kit, rulings, kind: str, key: str) -> str:
    if kind == "say":
        return " ".join(kit.data["rules"]["say"][key].split())
    r = next(r for r in rulings if r.id == key)
    return f"{r.text} (kit ruling {r.number})"


def test_every_rule_stated_once_reads_the_same_in_every_document_that_prints_it(printed, kit, rulings):
    """A rule the data states once is printed word for word wherever a text quotes it, so the card and the
    booklet cannot word one rule two ways (the first-hex rule, the Space Wreck roll, Tactics)."""
    quoted = quotes(DEFAULT_KIT_DIR)
    for pdf, names in quoted.items():
        text = printed["ship-tech-sheet.pdf"] + printed["production-sheet.pdf"] if pdf.endswith("-sheet.pdf") \
            else printed[pdf]
        for kind, key in sorted(names):
            assert rule_words(kit, rulings, kind, key) in text, (pdf, kind, key)
    # every rule a card or sheet prints is in the booklet too: no rule lives on an aid alone
    aids = set().union(*(names for pdf, names in quoted.items() if pdf != "booklet.pdf"))
    assert aids <= quoted["booklet.pdf"], sorted(aids - quoted["booklet.pdf"])
    assert {("say", key) for key in kit.data["rules"]["say"]} <= quoted["booklet.pdf"]


def test_the_movement_and_firing_rules_come_from_one_entry_each(printed, kit):
    say = kit.data["rules"]["say"]
    for key in ("first_hex", "unarmed_entry", "tactics", "space_wreck"):
        words = " ".join(say[key].split())
        assert words in printed["booklet.pdf"] and words in printed["cards.pdf"], key
    assert say["first_hex"].startswith("A unit with an attack strength")  # seed 000: combat-capable units only
    everything = outside_chapter(printed)
    for stale in ("A ship that can fire may enter", "Economic Phase in which your Miner delivers",
                  "side with the higher Tactics", "side with the better Tactics", "side with more Tactics",
                  "basic group counters of a 4-player game, and", "Its back is a group back, to bluff",
                  "Print only the colours you play"):
        assert stale not in everything, stale
    cards = printed["cards.pdf"]  # the Decoys paragraph is a bullet of its own on every player aid
    assert cards.count("• Decoys: A Decoy never fights") == cards.count("Decoys: A Decoy") == len(kit.colours)


def test_the_group_size_counters_add_up_to_the_tables_counts(printed, kit):
    """The kit chapter's numbers are the neutral table's and the unit table's, and say they can run short."""
    numeral, players = kit.counters["numeral"], kit.players[1]
    groups = sum(u.counters for u in kit.units.values() if u.groups and u.rules == "basic") * players
    yards = kit.units["SY"].counters * players
    booklet = printed["booklet.pdf"]
    assert f"The kit prints {numeral.copies} Group size counters of each value" in booklet
    assert f"That makes {numeral.copies * len(numeral.values)} Group size counters" in booklet
    assert f"can field {groups} basic group counters and {yards} Shipyard counters, {groups + yards} in all" \
        in booklet
    assert groups + yards > numeral.copies * len(numeral.values)  # so the ruling for running out is needed


def test_the_sheet_records_a_level_only_where_a_rule_reads_it(printed, kit):
    """Each technology the ship technology sheet records for a unit (its Other column) is one a booklet
    sentence reads at the unit's level, and Tactics, recorded per group, is ruled per group."""
    sentences = re.split(r"(?<=[.;:])\s", printed["booklet.pdf"])
    for code, techs in kit.data["rules"]["built_with"].items():
        unit = kit.units[code]
        for tech in techs:
            name = kit.technologies[tech].name
            assert any(name in s and unit.name in s and ("level" in s or "built with" in s) for s in sentences), \
                (code, tech)
    tactics = kit.data["rules"]["say"]["tactics"]
    assert "Tactics" in printed["ship-tech-sheet.pdf"] and "each group at the level" in tactics


def test_group_labels_read_the_same_on_the_sheet_and_the_counters(out, kit):
    label = re.compile(r"\b(" + "|".join(u.code for u in kit.units.values() if u.groups) + r") ?(\d)\b")
    sheet = {m.group(0) for m in label.finditer(PdfReader(out / "ship-tech-sheet.pdf").pages[0].extract_text())}
    counters = {m.group(0) for page in PdfReader(out / "counters-red.pdf").pages
                for m in label.finditer(page.extract_text())}
    assert sheet and sheet <= counters and all(" " in s for s in sheet)


def charts_printed(kit_dir: Path) -> set[str]:
    return {m for f in (kit_dir / "rules").glob("*.md") for m in re.findall(r"table\('([\w-]+)'", f.read_text())}


def charts_without_source(kit_dir: Path) -> list[str]:
    """Charts a chapter prints that data/rules.yaml `sources:` does not account for."""
    sources = yaml.safe_load((kit_dir / "data" / "rules.yaml").read_text()).get("sources") or {}
    return sorted(charts_printed(kit_dir) - set(sources))


def test_every_chart_the_booklet_prints_says_where_its_numbers_come_from(printed, kit):
    assert charts_without_source(DEFAULT_KIT_DIR) == []
    notes = {chart: note for chart, note in kit.data["rules"]["sources"].items() if note}
    assert {"units", "research", "scenarios"} <= set(notes)  # the published charts the summaries lack
    booklet = printed["booklet.pdf"]
    for chart in notes:
        words = kit_context(kit)["source_note"](chart)
        assert words in booklet, chart


def test_a_chart_printed_without_a_source_entry_is_caught(kit_copy):
    chapter = kit_copy / "rules" / "11-advanced.md"
    chapter.write_text(chapter.read_text() + "\n{{ table('doomsday') }}\n")
    assert charts_without_source(kit_copy) == ["doomsday"]


def test_the_solo_games_second_colour_is_on_the_printing_list(printed):
    booklet = printed["booklet.pdf"]
    printing = booklet[booklet.index("These are the files:"):booklet.index("Cutting and assembly")]
    assert "the solo game also needs a second colour's file" in printing
    assert "a second colour's" in booklet[booklet.index("Solo: the sleeping machines"):]


def booklet_chapters(pdf: Path) -> dict[str, str]:
    """The booklet's text chapter by chapter, split where the PDF outline says each chapter starts."""
    reader = PdfReader(pdf)
    starts = [(o.title, reader.get_destination_page_number(o)) for o in reader.outline if not isinstance(o, list)]
    pages = [" ".join(" ".join(p.extract_text().splitlines()[:-3]).split()) for p in reader.pages]
    offsets = [sum(len(p) + 1 for p in pages[:i]) for i in range(len(pages))]
    text = " ".join(pages)
    at = [text.index(title, offsets[page]) for title, page in starts] + [len(text)]
    return {title: text[at[i]:at[i + 1]] for i, (title, _) in enumerate(starts)}


def test_every_ruling_is_marked_in_every_chapter_its_entry_names(out, rulings):
    """A ruling's entry says where it applies; each of those chapters prints its mark, so a ruling is never
    listed for a chapter whose own text still says something else."""
    chapters = booklet_chapters(out / "booklet.pdf")
    for r in rulings:
        for where in r.where.split("; "):
            title = next(t for t in chapters if t.startswith(where))
            assert f"(kit ruling {r.number})" in chapters[title], (r.id, where)


def test_rulings_written_as_a_list_are_a_located_error_that_says_the_format(kit_copy, tmp_path, capsys):
    """A list of rulings was read as none: a quote failed with "known: none", far from the cause. (A kit's own
    templates may read a list of its own, as 4x-space-euro's do: only ruling() and its kin need the mapping.)"""
    rules = kit_copy / "data" / "rules.yaml"
    text = rules.read_text()
    start = text.index("\nrulings:\n") + 1
    line = text[:start].count("\n") + 1
    rules.write_text(text[:start] + "rulings:\n  - id: bids\n    title: Bids\nold_rulings:\n" + text[start + 9:])
    assert main(["build", "--data", str(kit_copy), "--only", "booklet", "--out", str(tmp_path), "--quiet"]) == 1
    error = capsys.readouterr().err
    assert f"data/rules.yaml:{line}: rulings holds a list" in error and "a mapping keyed by each ruling's id" in error
    assert "known: none" not in error and "Traceback" not in error
