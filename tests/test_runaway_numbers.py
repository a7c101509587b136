"""A number of thousands of digits in a chapter (what the long fuzz run wrote into the SE4 Board Game's
rules/06-ships.md): a table's widths, a literal, a heading. Each must be a located error (the chapter file
and its line), exit 1, never reportlab's own error with exit 2."""
from __future__ import annotations

import shutil

import pytest

from pnpgen.booklet.markdown import Block
from pnpgen.booklet.story import heading
from pnpgen.booklet.styles import table_look
from pnpgen.documents.table_data import plain_table
from pnpgen.documents.table_flow import table_flowable
from pnpgen.kit_folder import BUILTIN_DATA
from pnpgen.problems import BuildError
from tests.test_fuzz import run_cli

CHAPTER = "rules/06-ships.md"
WIDTHS = "widths=[3.2,"


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    copy = tmp_path_factory.mktemp("runaway") / "se4-board-game"
    shutil.copytree(BUILTIN_DATA / "se4-board-game", copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.mark.parametrize("width", ["1000000000", "-1", "0", "9" * 5000, "'wide'"])
def test_a_runaway_table_width_is_an_error_at_its_line(kit, width):
    chapter = kit / CHAPTER
    original = chapter.read_text(encoding="utf-8")
    line = next(n for n, text in enumerate(original.split("\n"), 1) if WIDTHS in text)
    chapter.write_text(original.replace(WIDTHS, f"widths=[{width},"), encoding="utf-8")
    try:
        code, said = run_cli("validate", "--quick", "--data", str(kit))
    finally:
        chapter.write_text(original, encoding="utf-8")
    assert code == 1, said
    assert f"06-ships.md:{line}: " in said, said
    assert "Traceback" not in said and "availWidth" not in said and "set_int_max_str_digits" not in said


def test_a_column_thinner_than_its_padding_is_a_build_error_at_the_table():
    data = plain_table(["Name", "Cost"], [["Scout", "6"]], [1e9, 1])
    with pytest.raises(BuildError, match=r"^rules/x\.md:7: column 2 \('Cost'\) .* 0\.0 pt wide"):
        table_flowable(data, 300.0, table_look(), "rules/x.md:7")


def test_a_heading_of_thousands_of_digits_is_an_error_at_its_line():
    block = Block("heading", "Ships " + "9" * 5000, level=2, line=17)
    flow = heading(block, "c-1", "rules/06-ships.md")[-1]
    with pytest.raises(BuildError, match=r"^rules/06-ships\.md:17: a heading 5,006 characters long"):
        flow.split(300.0, 500.0)


def test_a_heading_that_fits_moves_to_the_next_page_whole():
    flow = heading(Block("heading", "Building ships", level=2, line=3), "c-1", "rules/06-ships.md")[-1]
    assert flow.split(300.0, 5.0) == []


def test_blocks_name_the_written_line_after_a_loop_wrote_more():
    """A loop that writes three lines from one moves every later line of the rendered chapter: a block still
    names the line the writer sees (here the heading of thousands of digits the fuzz run wrote)."""
    from pnpgen.booklet.markdown import parse
    written = "# Ships\n\n{% for s in slots %}\n- {{ s }}\n{% endfor %}\n\n## Deck 999\n\nText {{ n }}.\n"
    rendered = "# Ships\n\n\n- a\n- b\n- c\n\n\n## Deck 999\n\nText 4.\n"
    blocks = parse(rendered, written)
    assert [b.kind for b in blocks] == ["heading", "bullets", "heading", "para"]
    assert blocks[0].line == 1 and blocks[1].line in (3, 4) and (blocks[2].line, blocks[3].line) == (7, 9)
    assert [b.line for b in parse(rendered)] == [1, 4, 9, 11]   # the rendered lines, without the written text
