"""Record sheets of a kit made of data only (aids/sheets.yaml): a line to write on, a form of blank boxes and
one of its charts, a copy per player colour; and the bad-input treatment for the file."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from aid_helpers import page_words
from conftest import edit

MINI = Path(__file__).parent / "kits" / "mini"
SCORE_SHEET = """sheets:
  score:
    title: Score sheet
    pages:
      - - field: Player
        - text: Write your points at the end of each round; the game lasts {{ players.max * 2 }} rounds.
        - form:
            corner: Round
            columns: [{{ range(1, players.max * 2 + 1) | join(", ") }}]
            rows:
              - {label: Cards played}
              - {label: Cards discarded, minus: true}
              - {label: Points, total: true}
        - heading: The deck
        - chart: deck
  tally:
    title: Tally
    file: tally.pdf
    per: table
    pages:
      - - form: {columns: [A, B], rows: [{label: Seen}], row_height: 40, label_width: 0.5}
"""


@pytest.fixture
def kit(tmp_path):
    folder = tmp_path / "kit"
    shutil.copytree(MINI, folder)
    (folder / "aids").mkdir()
    (folder / "aids" / "sheets.yaml").write_text(SCORE_SHEET, encoding="utf-8")
    return folder


def build(run_cli, kit, out):
    result = run_cli("build", "--data", kit, "--out", out, "--only", "sheets")
    manifest = json.loads((out / "mini" / "manifest.json").read_text()) if result.code == 0 else None
    return result, manifest


def test_a_data_kit_prints_its_record_sheets_per_colour_with_forms_and_charts(kit, run_cli, tmp_path):
    result, manifest = build(run_cli, kit, tmp_path / "out")
    assert result.code == 0, result.err
    part = manifest["parts"]["sheets"]
    assert [(f["path"], f["pages"], f["page_size"]) for f in part["files"]] == [
        ("score-sheet.pdf", 2, [612.0, 792.0]), ("tally.pdf", 1, [612.0, 792.0])]
    assert [p["colour"] for p in part["pages"]["score"]] == ["red", "blue"]
    assert [p["colour"] for p in part["pages"]["tally"]] == ["neutral"]
    red, blue = page_words(tmp_path / "out" / "mini" / "score-sheet.pdf")
    assert red.startswith("Score sheet · Red") and blue.startswith("Score sheet · Blue")
    assert "Player: ____" in red and "the game lasts 8 rounds" in red
    assert "Round 1 2 3 4 5 6 7 8 Cards played" in red and "\u2212 Cards discarded" in red
    assert "Card Cost Copies" in red.split("The deck", 1)[1]  # the kit's own chart, its header row
    tally = page_words(tmp_path / "out" / "mini" / "tally.pdf")[0]
    assert "A B Seen" in tally


def test_a_form_row_is_as_tall_as_asked(kit, run_cli, tmp_path):
    """The tally form's one row is 40 pt, its heading 14: the content is that tall plus a 6 pt space."""
    _, manifest = build(run_cli, kit, tmp_path / "out")
    assert manifest["parts"]["sheets"]["pages"]["tally"][0]["content_height"] == pytest.approx(6 + 14 + 40)
    edit(kit / "aids" / "sheets.yaml", "row_height: 40", "row_height: 60")
    _, manifest = build(run_cli, kit, tmp_path / "out")
    assert manifest["parts"]["sheets"]["pages"]["tally"][0]["content_height"] == pytest.approx(6 + 14 + 60)


def test_an_edit_the_sheets_do_not_print_keeps_them_and_one_they_print_draws_them(kit, run_cli, tmp_path):
    out = tmp_path / "out"
    assert build(run_cli, kit, out)[0].code == 0
    before = (out / "mini" / "score-sheet.pdf").read_bytes()
    edit(kit / "rules" / "01-rules.md", "#", "# ", 1)
    verbose = run_cli("build", "--data", kit, "--out", out, "--only", "sheets", "--verbose")
    assert "sheets: nothing changed" in verbose.err
    edit(kit / "components" / "cards.yaml", "title: Build,", "title: Erect,")  # a row of the deck chart
    verbose = run_cli("build", "--data", kit, "--out", out, "--only", "sheets", "--verbose")
    assert "sheets: nothing changed" not in verbose.err
    after = page_words(out / "mini" / "score-sheet.pdf")[0]
    assert (out / "mini" / "score-sheet.pdf").read_bytes() != before and "Erect" in after.split("The deck", 1)[1]


@pytest.mark.parametrize("old, new, message", [
    ("corner: Round", "coner: Round", "sheets.score.pages[0][2].form.coner: unknown field (did you mean 'corner'?)"),
    ("chart: deck", "chart: dek", "sheets.score.pages[0][4].chart: must be one of"),
    ("- heading: The deck", "- heading: The deck\n          text: two kinds", "a block holds exactly one of"),
    ("per: table", "per: player", "sheets.tally.per: must be one of"),
    ("row_height: 40", "row_height: 900", "sheets.tally.pages[0][0].form.row_height: must be a number from 8 to 200"),
    ("label_width: 0.5", "label_width: 2", "form.label_width: must be a number from 0.05 to 0.9"),
    ("file: tally.pdf", "file: ../tally.pdf", "sheets.tally.file: must be a file name such as score-sheet.pdf"),
])
def test_bad_sheets_are_located_errors_and_output_stays(kit, run_cli, tmp_path, old, new, message):
    out = tmp_path / "out"
    assert build(run_cli, kit, out)[0].code == 0
    before = (out / "mini" / "score-sheet.pdf").read_bytes()
    line = edit(kit / "aids" / "sheets.yaml", old, new)
    result, _ = build(run_cli, kit, out)
    assert result.code == 1
    assert f"aids/sheets.yaml:{line}:" in result.err and message in result.err, result.err
    assert (out / "mini" / "score-sheet.pdf").read_bytes() == before


def test_a_page_that_overflows_runs_on_to_a_continued_page(kit, run_cli, tmp_path):
    """30 more form rows: the form splits between rows, its heading row repeated on the page it runs on to (a
    band marked "(continued)"); each row is printed once; the heading and chart under it move on whole."""
    rows = "\n".join("              - {label: Row %d}" % n for n in range(30))
    edit(kit / "aids" / "sheets.yaml", "              - {label: Points, total: true}",
         "              - {label: Points, total: true}\n" + rows)
    result, manifest = build(run_cli, kit, tmp_path / "out")
    assert result.code == 0, result.err
    pages = manifest["parts"]["sheets"]["pages"]["score"]
    assert [(p["colour"], p.get("continued", False)) for p in pages] == [
        ("red", False), ("red", True), ("blue", False), ("blue", True)]   # one-sided: no blank page between copies
    assert all(p["content_height"] <= p["frame"][3] for p in pages)
    first, second = page_words(tmp_path / "out" / "mini" / "score-sheet.pdf")[:2]
    assert first.startswith("Score sheet · Red") and second.startswith("Score sheet (continued) · Red")
    assert "Round 1 2 3 4 5 6 7 8 Cards played" in first and "Round 1 2 3 4 5 6 7 8 Row" in second
    both = f"{first} {second}"
    assert all(both.count(f"Row {n} ") == 1 for n in range(30)) and both.count("Points") == 1
    assert "The deck Card Cost Copies" in second and "The deck" not in first
    assert first.count("Player: ___") == 1 and second.count("Player: ___") == 1   # a loose page says whose it is
    assert second.index("Player: ___") < second.index("Round 1 2 3")              # at its top, under the band


@pytest.mark.parametrize("file, old, new, place", [
    ("aids/sheets.yaml", "text: Write your points", "text: " + "Write your points. " * 700 + "Write your points",
     "aids/sheets.yaml:6: sheets.score.pages[0][1] (page 1)"),
    ("components/cards.yaml", "title: Build,", "title: " + "Build " * 900 + "it,",   # one row of the chart
     "aids/sheets.yaml:15: sheets.score.pages[0][4] (page 1)"),
])
def test_a_block_taller_than_a_whole_page_is_an_error_at_its_line(kit, run_cli, tmp_path, file, old, new, place):
    edit(kit / file, old, new)
    result, _ = build(run_cli, kit, tmp_path / "out")
    assert result.code == 1, file
    assert f"{place}: this block is " in result.err, result.err
    assert "pt tall but a whole page holds 692 pt" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "out" / "mini").exists()


def test_two_sheets_printing_to_one_file_is_a_located_error(kit, run_cli, tmp_path):
    line = edit(kit / "aids" / "sheets.yaml", "  tally:", "  tally:")
    edit(kit / "aids" / "sheets.yaml", "file: tally.pdf", "file: score-sheet.pdf")
    result, _ = build(run_cli, kit, tmp_path / "out")
    assert result.code == 1
    assert f"aids/sheets.yaml:{line}: sheets.tally: prints to score-sheet.pdf, as sheets.score does" in result.err


def test_a_heading_at_the_foot_of_a_page_moves_on_with_the_block_it_heads():
    from reportlab.platypus import Paragraph, Spacer

    from pnpgen.aids.fit import flow
    from pnpgen.aids.styles import styles
    heading = Paragraph("The deck", styles()["heading"])
    text = Paragraph("Write your points. " * 60, styles()["body"])
    pages = flow([Spacer(1, 640), heading, text], 400, 692, "a sheet")
    assert [len(page.flowables) for page in pages] == [1, 2] and pages[1].flowables[0] is heading
    assert pages[1].offsets[0] == 0   # no space left above it at the top of its page
