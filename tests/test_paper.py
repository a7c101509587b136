"""Paper economy: tables sharing sheets in bands, no cut lines on empty cells, and the sheets of paper the
build summary reports, read back from the layout's numbers and the PDFs."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.layout.packing import BAND_GAP, Run, impose
from pnpgen.layout.sheets import CROP_GAP, CROP_LEN, cells_on, settings_for
from pnpgen.lengths import parse_length
from pnpgen.shapes import Shape
from tests.test_components import MINI

MM = parse_length("1mm")


def square(side_mm: float) -> Shape:
    return Shape("square", side_mm * MM, side_mm * MM)


def run(shape: Shape, count: int, marks: str = "lines", two_sided: bool = True, gutter: str = "0mm") -> Run:
    return Run(shape, count, settings_for(shape, {"gutter": gutter, "marks": marks}, "letter"), two_sided)


def boxes(page, runs) -> list[tuple]:
    """(x0, y0, x1, y1, run) of every slot of a page, the run found from the slot's index."""
    starts = [sum(r.count for r in runs[:i]) for i in range(len(runs))]
    out = []
    for slot in page.slots:
        number = max(i for i, s in enumerate(starts) if s <= slot.index)
        shape = runs[number].shape
        out.append((slot.x, slot.y, slot.x + shape.w, slot.y + shape.h, number))
    return out


def test_one_table_alone_prints_as_its_grid_alone_would():
    only = run(square(24), 70)
    pages = impose([only])
    assert len(pages) == 2 and [p.side for p in pages] == ["front", "back"]
    assert [(s.x, s.y) for s in pages[0].slots] == cells_on(only.shape, only.settings, pages[0].size)[:70]


def test_small_tables_share_a_page_in_bands_apart():
    runs = [run(square(24), 17), run(square(10), 30), run(Shape("circle", 16 * MM, 16 * MM), 9, marks="outline")]
    pages = impose(runs)
    assert len(pages) == 2  # one sheet: a front and its back
    placed = boxes(pages[0], runs)
    assert sorted({b[4] for b in placed}) == [0, 1, 2] and len(placed) == 56
    for upper, lower in ((0, 1), (1, 2)):  # each table's rows below the one before it, a band gap between
        bottom = max(b[3] for b in placed if b[4] == upper)
        top = min(b[1] for b in placed if b[4] == lower)
        assert top - bottom >= BAND_GAP - 0.01
    assert len(pages[1].slots) == 56  # every back behind a front


def test_crop_marks_of_one_band_stay_clear_of_the_next():
    runs = [run(Shape("rect", 63 * MM, 88 * MM), 3, marks="crop"), run(square(20), 8, marks="crop")]
    page = impose(runs)[0]
    placed = boxes(page, runs)
    bottom = max(b[3] for b in placed if b[4] == 0)
    top = min(b[1] for b in placed if b[4] == 1)
    assert top - bottom >= 2 * (CROP_GAP + CROP_LEN) + BAND_GAP - 0.01
    for x1, y1, x2, y2 in page.cuts:  # no mark runs over a piece
        for x0, y0, xe, ye, _ in placed:
            inside_x = x0 + 0.01 < max(x1, x2) and min(x1, x2) < xe - 0.01
            inside_y = y0 + 0.01 < max(y1, y2) and min(y1, y2) < ye - 0.01
            assert not (inside_x and inside_y), ((x1, y1, x2, y2), (x0, y0))


def test_a_short_last_row_gets_no_cut_lines_over_its_empty_cells():
    only = run(square(24), 13)  # one full row (11 on landscape Letter) and a short one below it
    page = impose([only])[0]
    cells = cells_on(only.shape, only.settings, page.size, page.header_side)
    columns = len({x for x, _ in cells})
    empty = cells[13:columns * 2]
    assert len(page.slots) == 13 and len({s.y for s in page.slots}) == 2 and len(empty) == columns * 2 - 13 > 0
    for x, y in empty:  # the empty cell's inside: no line enters it, not even its own edges alone
        for x1, y1, x2, y2 in page.cuts:
            crosses = min(x1, x2) < x + only.shape.w - 0.01 and max(x1, x2) > x + 0.01 and \
                min(y1, y2) < y + only.shape.h - 0.01 and max(y1, y2) > y + 0.01
            below = abs(y1 - y2) < 0.01 and abs(y1 - (y + only.shape.h)) < 0.01 and min(x1, x2) < x + only.shape.w - 0.01 and max(x1, x2) > x + 0.01
            assert not crosses and not below, (x, y, (x1, y1, x2, y2))
    for slot in page.slots:  # and every piece keeps its four edges
        for edge in ((slot.x, slot.y, slot.x, slot.y + only.shape.h), (slot.x, slot.y, slot.x + only.shape.w, slot.y)):
            assert any(_covers(cut, edge) for cut in page.cuts), edge


def _covers(cut, edge) -> bool:
    (a1, b1, a2, b2), (c1, d1, c2, d2) = cut, edge
    same_x = abs(a1 - a2) < 0.01 and abs(c1 - c2) < 0.01 and abs(a1 - c1) < 0.01
    same_y = abs(b1 - b2) < 0.01 and abs(d1 - d2) < 0.01 and abs(b1 - d1) < 0.01
    if same_x:
        return min(b1, b2) <= min(d1, d2) + 0.01 and max(b1, b2) >= max(d1, d2) - 0.01
    return same_y and min(a1, a2) <= min(c1, c2) + 0.01 and max(a1, a2) >= max(c1, c2) - 0.01


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    """The build summary of the mini kit's pieces, board and booklet: what a designer reads after `pnpgen build`."""
    import contextlib
    import io
    from pnpgen.cli import main
    out, stdout = tmp_path_factory.mktemp("paper"), io.StringIO()
    with contextlib.redirect_stdout(stdout):
        assert main(["build", "--data", str(MINI), "--out", str(out), "--only", "components,boards,documents"]) == 0
    return out / "mini", stdout.getvalue()


def test_the_summary_says_the_sheets_of_paper_each_file_takes(summary):
    kit_out, text = summary
    said = dict(re.findall(r"/([\w.-]+\.pdf)  \((.+)\)", text))
    for name in ("cards.pdf", "tokens-red.pdf", "chits.pdf", "booklet-imposed.pdf"):
        pages = len(PdfReader(kit_out / name).pages)
        sheets = pages if name == "chits.pdf" else pages // 2  # chits are one-sided
        plural = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"  # noqa: E731
        assert said[name].split(";")[0] == f"{plural(pages, 'page')}, {plural(sheets, 'sheet')} of Letter", name


def test_the_summary_says_which_file_to_print_and_on_what_paper(summary):
    """The booklet's reading copy is half-Letter pages nobody prints as they are: the summary sends the player
    to the imposed copy, Letter sheets two-sided. A Letter-landscape board poster is one sheet of Letter,
    printed to its edges, not "279 x 216 mm poster paper". Sizes read from the PDFs."""
    kit_out, text = summary
    said = {Path(path).relative_to(kit_out).as_posix(): what
            for path, what in re.findall(r"^  (\S+\.pdf)  \((.+)\)$", text, re.M)}
    reading = PdfReader(kit_out / "booklet.pdf")
    assert [round(float(v)) for v in reading.pages[0].mediabox[2:]] == [396, 612]  # half-Letter
    assert said["booklet.pdf"] == f"{len(reading.pages)} pages of half-Letter to read on screen; to print: booklet-imposed.pdf"
    imposed = PdfReader(kit_out / "booklet-imposed.pdf")
    assert {tuple(round(float(v)) for v in page.mediabox[2:]) for page in imposed.pages} == {(792, 612)}
    sheets = len(imposed.pages) // 2
    assert said["booklet-imposed.pdf"] == (f"{len(imposed.pages)} pages, {sheets} sheet{'s' * (sheets > 1)} of Letter; "
                                           "print double-sided, flip on the long edge; fold the stack in half and "
                                           "staple on the fold")
    poster = PdfReader(kit_out / "boards" / "board-poster.pdf")
    assert [round(float(v)) for v in poster.pages[0].mediabox[2:]] == [792, 612]
    assert said["boards/board-poster.pdf"] == "1 page, 1 sheet of Letter, borderless; print one-sided"


def test_the_summary_and_the_manifest_say_which_files_print_on_both_sides(summary):
    """Every file says "print double-sided" with the build's flip, or "print one-sided": the chits have no
    backs (duplexing them would print the next sheet's chits on their backs), the cards and tokens do, as
    the PDFs show (a front page, then its back page, per sheet)."""
    kit_out, text = summary
    said = {Path(path).relative_to(kit_out).as_posix(): what
            for path, what in re.findall(r"^  (\S+\.pdf)  \((.+)\)$", text, re.M)}
    manifest = json.loads((kit_out / "manifest.json").read_text())
    two = "print double-sided, flip on the long edge"
    for name in ("cards.pdf", "tokens-red.pdf", "booklet-imposed.pdf"):
        assert said[name].split("; ")[1] == two and manifest["printing"][name].startswith(two), name
    for name in ("chits.pdf", "boards/board-poster.pdf"):
        assert said[name].endswith("; print one-sided") and manifest["printing"][name] == "print one-sided", name
    assert manifest["printing"]["booklet.pdf"].endswith("to print: booklet-imposed.pdf")
    assert set(manifest["printing"]) == set(said)
    backs = {row["file"] for row in manifest["parts"]["components"]["placements"] if row["side"] == "back"}
    assert "chits.pdf" not in backs and "cards.pdf" in backs


def test_a_kits_own_paper_is_said_first_when_it_is_not_the_usual_one(summary, monkeypatch):
    """The mini kit is Letter: on a machine whose usual paper is A4 the summary's first line says so (the
    rebuild is the up-to-date one, which says what the last build said)."""
    import contextlib
    import io
    from pnpgen.cli import main
    kit_out, _ = summary
    for usual, words in (("a4", ", on Letter, the kit's own paper (you usually print on A4: --paper a4 prints on it):"),
                         ("letter", " s:")):
        monkeypatch.setenv("PAPERSIZE", usual)
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            assert main(["build", "--data", str(MINI), "--out", str(kit_out.parent),
                         "--only", "components,boards,documents"]) == 0
        first = stdout.getvalue().splitlines()[0]
        assert first.startswith("Built ") and first.endswith(words) and ("usually" in first) == (usual == "a4"), first


def test_the_usual_paper_comes_from_papersize_then_the_locale(tmp_path):
    from pnpgen.usual_paper import paper_said, usual_paper
    none = tmp_path / "none"
    assert usual_paper({"PAPERSIZE": "A4", "LANG": "en_US.UTF-8"}, none) == "a4"
    assert usual_paper({"LANG": "en_US.UTF-8"}, none) == "letter"
    assert usual_paper({"LANG": "fr_CA.UTF-8"}, none) == "letter"
    assert usual_paper({"LC_PAPER": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}, none) == "a4"
    assert usual_paper({"LANG": "C.UTF-8"}, none) is None
    (tmp_path / "papersize").write_text("# libpaper\nletter\n")
    assert usual_paper({"LANG": "de_DE.UTF-8"}, tmp_path / "papersize") == "letter"
    used = {"options": {"paper": "a4"}, "given": {}}
    assert paper_said(used, "letter").startswith(", on A4, the kit's own paper")
    assert paper_said(used, "a4") == paper_said(used, None) == ""
    assert paper_said({"options": {"paper": "a4"}, "given": {"paper": "a4"}}, "letter") == ""


def test_a_poster_names_its_paper_either_way_round_or_its_size(tmp_path):
    import json
    from pnpgen.paper_use import paper_of_files
    posters = {"a3.pdf": [1190.551, 841.89], "a3-portrait.pdf": [841.89, 1190.551], "odd.pdf": [1560.884, 1080.0]}
    files = [{"path": path, "pages": 1, "paper": "poster", "page_size": size} for path, size in posters.items()]
    (tmp_path / "manifest.json").write_text(json.dumps({"parts": {"boards": {"files": files}}}))
    assert paper_of_files(tmp_path) == {"a3.pdf": "1 page, 1 sheet of A3, borderless; print one-sided",
                                        "a3-portrait.pdf": "1 page, 1 sheet of A3, borderless; print one-sided",
                                        "odd.pdf": "1 page, 1 sheet of 551 x 381 mm poster paper; print one-sided"}


def test_tables_of_one_card_size_go_on_in_one_grid():
    """A deck made of several tables (SE4's cards, Eclipse's summary cards and traitor) fills every cell:
    the second table starts in the next cell, not on a new row or page."""
    poker = Shape("rect", 63.5 * MM, 88.9 * MM)
    runs = [run(poker, 5, marks="crop"), run(poker, 7, marks="crop")]
    pages = impose(runs)
    fronts = [p for p in pages if p.side == "front"]
    alone = cells_on(poker, runs[0].settings, fronts[0].size, fronts[0].header_side)
    # 8 a Letter page: a ninth would leave the crop marks no room inside the printable area
    assert len(alone) == 8 and [len(p.slots) for p in fronts] == [8, 4]
    assert [(s.x, s.y) for s in fronts[0].slots] == alone and [s.index for s in fronts[0].slots] == list(range(8))


def test_sheets_of_a_file_follow_how_its_part_prints_it():
    from pnpgen.paper_use import sheets_of
    assert sheets_of({"pages": 6, "sheets": 3}, {}, False) == 3                       # the part counted them
    assert sheets_of({"pages": 5}, {}, True) == 3                                     # backs: two pages a sheet
    assert sheets_of({"pages": 2}, {"sheet": {"duplex": "long"}}, False) == 1         # a duplex part's file
    assert sheets_of({"pages": 16, "binding": "saddle-stitch"}, {}, False) == 8      # an imposed booklet
    assert sheets_of({"pages": 5}, {}, False) == 5                                    # one-sided
