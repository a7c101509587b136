"""The counter-sheet layout of the components road (kit.yaml `sheets: GROUP: {layout: counter-sheet}`) lays
out Space Empires 4X's counters exactly as the counters road's impose_counters does: the same slots on
fronts and backs, the same merged cut lines, the same title boxes. (Temporary: it goes with the counters
road, once SE4X's counters print from component tables.)"""
import itertools

import pytest

from pnpgen.games.space_empires_4x.inventory import kit_pieces
from pnpgen.layout.counters import SheetSpec, impose_counters
from pnpgen.layout.packing import Run, impose
from pnpgen.layout.sheets import settings_for
from pnpgen.lengths import parse_length
from pnpgen.shapes import Shape

LETTER = (612.0, 792.0)


def runs_of(pieces, size: float, sheet: dict, duplex: str, offset) -> list[Run]:
    """One run per stretch of one kind of piece, as the counters' tables will hold them."""
    shape = Shape("square", size, size)
    settings = settings_for(shape, {"layout": "counter-sheet", **sheet}, "letter", duplex, offset)
    return [Run(shape, len(list(group)), settings, True) for _, group in itertools.groupby(pieces, lambda p: p.kind)]


def rounded(values) -> list:
    return [tuple(round(v, 3) for v in value) for value in values]


@pytest.mark.parametrize("size, duplex, offset, gutter", [
    ("5/8in", "long", (0.0, 0.0), 0.0), ("1/2in", "short", (2.0, -1.5), 0.0), ("3/4in", "long", (0.0, 0.0), 3.0)])
def test_counter_sheets_match_the_counters_road(default_kit, size, duplex, offset, gutter):
    points = parse_length(size)
    spec = SheetSpec(page=LETTER, margin=18.0, size=points, gutter=gutter, duplex=duplex, back_offset=offset)
    pieces = kit_pieces(default_kit)
    for group in dict.fromkeys(p.group for p in pieces):
        members = [p for p in pieces if p.group == group]
        old = impose_counters([p.kind for p in members], spec)
        new = impose(runs_of(members, points, {"gutter": f"{gutter}pt"}, duplex, offset))
        assert [p.side for p in new] == [p.side for p in old], group
        for before, after in zip(old, new):
            assert [s.index for s in after.slots] == [s.index for s in before.slots]
            assert rounded((s.x, s.y) for s in after.slots) == rounded((s.x, s.y) for s in before.slots)
            assert [s.turned for s in after.slots] == [s.turned for s in before.slots]
            assert rounded([after.header]) == rounded([before.header])
            if not gutter:  # with a gutter the components road joins a line across it; the counters' stopped
                assert sorted(rounded(after.cuts)) == sorted(rounded(before.cuts)), (group, before.side, before.sheet)


def test_a_counter_sheet_starts_each_table_on_a_new_row_and_stays_portrait():
    shape = Shape("square", 45.0, 45.0)
    settings = settings_for(shape, {"layout": "counter-sheet"}, "11x8.5in")
    pages = impose([Run(shape, 13, settings, False), Run(shape, 2, settings, False)])
    assert [p.side for p in pages] == ["front"] and pages[0].size == LETTER
    ys = sorted({s.y for s in pages[0].slots})
    assert ys == [68.0, 113.0, 158.0]  # 12 a row under the 50 pt header; the second table opens row 3
    assert [s.x for s in pages[0].slots[12:]] == [36.0, 36.0, 81.0]


@pytest.fixture(scope="module")
def counter_sheet_kit(tmp_path_factory):
    """The mini kit with its cards (two-sided) and chits (one-sided) in the counter-sheet layout, built
    with a short-edge flip: (output folder, manifest)."""
    import json
    import shutil
    from pathlib import Path

    from pnpgen.cli import main
    base = tmp_path_factory.mktemp("counter-sheet")
    kit = shutil.copytree(Path(__file__).parent / "kits" / "mini", base / "mini")
    text = (kit / "kit.yaml").read_text().replace("  cards: {marks: crop}", "  cards: {layout: counter-sheet}")
    text = text.replace("  chits: {gutter: 3mm}", "  chits: {gutter: 3mm, layout: counter-sheet, title: damage chits}")
    (kit / "kit.yaml").write_text(text)
    assert main(["build", "--data", str(kit), "--out", str(base / "out"), "-q", "--only", "components",
                 "--duplex", "short"]) == 0
    out = base / "out" / "mini"
    return out, json.loads((out / "manifest.json").read_text())["parts"]["components"]


def test_a_kit_prints_a_group_as_counter_sheets(counter_sheet_kit):
    from pypdf import PdfReader

    from tests.duplex_printer import pdf_misfits
    out, manifest = counter_sheet_kit
    cards = PdfReader(str(out / "cards.pdf"))
    assert {tuple(float(v) for v in page.mediabox[2:]) for page in cards.pages} == {LETTER}
    first, later = (" ".join(cards.pages[n].extract_text().split()) for n in (0, 2))
    assert "Mini Test Kit · Action cards · sheet 1 of 2 · front" in first
    assert "two-sided, flip on the short edge" in first and "Cut along the grey lines." in first
    assert later.endswith("Mini Test Kit · Action cards · sheet 2 of 2 · front")  # one title line, no instructions
    assert "Print at 100%" not in later
    rows = [r for r in manifest["placements"] if r["file"] == "cards.pdf" and r["page"] == 1]
    assert min(r["y"] for r in rows) == pytest.approx(18 + 50)  # top-aligned under the first page's header
    checked, bad = pdf_misfits(out / "cards.pdf", "short", [2, 4])
    assert checked == 12 and not bad, bad
    chits = " ".join(PdfReader(str(out / "chits.pdf")).pages[0].extract_text().split())
    assert "Mini Test Kit · damage chits · sheet 1 of 1 · front" in chits and "two-sided" not in chits
