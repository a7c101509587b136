"""The counter-sheet layout (kit.yaml `sheets: GROUP: {layout: counter-sheet}`, and Space Empires 4X's counters):
a portrait grid under a 50 pt header on the file's first page and 16 pt after, each table on a new row, cut
lines merged as one grid's and mirrored on the backs; and a kit printing a group in it. (That SE4X's counters keep
their pages is tests/test_golden.py's: same text, same pixels.)"""
import pytest

from pnpgen.layout.packing import Run, impose
from pnpgen.layout.sheets import settings_for
from pnpgen.lengths import parse_length, pt_from_mm
from pnpgen.shapes import Shape

LETTER = (612.0, 792.0)
SQUARE = Shape("square", 45.0, 45.0)


def counter_sheets(*counts: int, sheet: dict | None = None, duplex: str = "long", two_sided: bool = True) -> list:
    settings = settings_for(SQUARE, {"layout": "counter-sheet", **(sheet or {})}, "letter", duplex)
    return impose([Run(SQUARE, count, settings, two_sided) for count in counts])


def test_the_grid_fills_the_printable_width_and_height():
    many = counter_sheets(12 * 15 + 12 * 16 + 1)
    assert [(p.side, len(p.slots)) for p in many] == [("front", 180), ("back", 180), ("front", 192), ("back", 192),
                                                      ("front", 1), ("back", 1)]  # page 1 holds the instructions
    assert min(s.y for s in many[0].slots) == 18.0 + 50.0 and many[2].slots[0].y == 18.0 + 16.0
    assert [s.x for s in many[0].slots[:2]] == [36.0, 81.0]     # 12 x 45 = 540 of 576 points, centred
    assert [p.header[3] for p in many[:4]] == [50.0, 16.0, 16.0, 16.0]


def test_backs_carry_the_fronts_cut_lines_mirrored():
    for duplex in ("long", "short"):
        front, back = counter_sheets(13, duplex=duplex)
        if duplex == "long":
            mirrored = {(612 - x1, y1, 612 - x2, y2) for x1, y1, x2, y2 in front.cuts}
        else:
            mirrored = {(x1, 792 - y1, x2, 792 - y2) for x1, y1, x2, y2 in front.cuts}
        assert set(back.cuts) == mirrored and len(front.cuts) == 13 + 3  # 13 verticals (short 2nd row) + 3 rows
    assert counter_sheets(3, two_sided=False)[0].side == "front" and len(counter_sheets(3, two_sided=False)) == 1


def test_gutters_leave_gaps_between_counters():
    front = counter_sheets(2, sheet={"gutter": "1mm"})[0]
    a, b = front.slots
    assert b.x - (a.x + 45) == pytest.approx(pt_from_mm(1))
    verticals = sorted(round(c[0], 3) for c in front.cuts if c[0] == c[2])
    assert verticals == sorted(round(v, 3) for v in (a.x, a.x + 45, b.x, b.x + 45))


def edges(slot, w: float, h: float) -> set:
    x0, y0, x1, y1 = (round(v, 3) for v in (slot.x, slot.y, slot.x + w, slot.y + h))
    return {(x0, y0, x0, y1), (x1, y0, x1, y1), (x0, y0, x1, y0), (x0, y1, x1, y1)}


def lines(cuts) -> set:
    """Cut segments as sets compare: ends rounded to 0.001 pt, the smaller end first (a back's mirrored cut
    runs the other way)."""
    out = set()
    for x1, y1, x2, y2 in cuts:
        ends = sorted(((round(x1, 3), round(y1, 3)), (round(x2, 3), round(y2, 3))))
        out.add((*ends[0], *ends[1]))
    return out


def test_a_gutter_stops_every_cut_line_at_its_piece_s_corner():
    """With a gap between the pieces, each cut line is one piece's edge: none runs on across the gap."""
    front, back = counter_sheets(14, sheet={"gutter": "2mm"})
    assert lines(front.cuts) == set().union(*(edges(slot, 45, 45) for slot in front.slots))
    assert lines(back.cuts) == set().union(*(edges(slot, 45, 45) for slot in back.slots))
    abutting = counter_sheets(14)[0]  # no gutter: rows of touching pieces share one long line
    assert len(abutting.cuts) == 13 + 3 and len(front.cuts) == 4 * 14


def test_crop_marks_keep_inside_the_printable_area_and_off_the_header():
    front = counter_sheets(30, sheet={"marks": "crop"})[0]
    ends = [v for cut in front.cuts for v in cut]
    assert front.cuts and min(ends) >= 18.0 - 1e-3 and max(ends) <= 792 - 18.0 + 1e-3
    assert min(min(y1, y2) for _, y1, _, y2 in front.cuts) >= 18.0 + 50.0 - 1e-3  # cut ends rounded to 0.001 pt


def test_counters_wider_than_the_printable_area_are_refused():
    big = Shape("square", parse_length("9in"), parse_length("9in"))
    with pytest.raises(ValueError, match="does not fit"):
        impose([Run(big, 1, settings_for(big, {"layout": "counter-sheet"}, "letter"), True)])


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
    """The mini kit with its cards (two-sided) and chits (one-sided, their own 3 mm gutter) in the
    counter-sheet layout, built with a short-edge flip and --gutter 2: (output folder, manifest)."""
    import json
    import shutil
    from pathlib import Path

    from pnpgen.cli import main
    base = tmp_path_factory.mktemp("counter-sheet")
    kit = shutil.copytree(Path(__file__).parent / "kits" / "mini", base / "mini")
    text = (kit / "kit.yaml").read_text().replace("  cards: {marks: crop}", "  cards: {layout: counter-sheet}")
    text = text.replace("  chits: {gutter: 3mm}", "  chits: {gutter: 3mm, layout: counter-sheet, title: damage chits}\n"
                        "  tiles: {title: terrain}")  # a packed group named by its title setting
    (kit / "kit.yaml").write_text(text)
    assert main(["build", "--data", str(kit), "--out", str(base / "out"), "-q", "--only", "components",
                 "--duplex", "short", "--gutter", "2"]) == 0
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
    tiles = PdfReader(str(out / "tiles.pdf"))
    assert "Mini Test Kit · terrain · front 1 of 1" in " ".join(tiles.pages[0].extract_text().split())


def test_gutter_parts_the_pieces_of_a_counter_sheet_group_that_sets_none(counter_sheet_kit):
    """--gutter is the gap of every counter-sheet group without a gutter of its own (the cards: 2 mm); a
    group's own gutter wins, as a group's own paper wins over --paper (the chits: 3 mm). Read back from the
    manifest's placements and cut lines: each cut is one piece's edge, none runs across a gap."""
    _, manifest = counter_sheet_kit
    for path, gap in (("cards.pdf", 2), ("chits.pdf", 3)):
        pages = {(r["page"], r["side"]) for r in manifest["placements"] if r["file"] == path}
        assert pages and len(pages) == len({page for page, _ in pages})
        for page, _ in pages:
            rows = [r for r in manifest["placements"] if (r["file"], r["page"]) == (path, page)]
            xs = sorted({round(r["x"], 3) for r in rows})
            assert len(xs) > 1 and all(b - a == pytest.approx(rows[0]["w"] + pt_from_mm(gap), abs=0.002)
                                       for a, b in zip(xs, xs[1:])), (path, page, xs)
            cuts = next(c["segments"] for c in manifest["cuts"] if (c["file"], c["page"]) == (path, page))
            sides = [edges(SlotAt(r["x"], r["y"]), r["w"], r["h"]) for r in rows]
            assert lines(cuts) == set().union(*sides), (path, page)


class SlotAt:
    def __init__(self, x: float, y: float):
        self.x, self.y = x, y


def test_the_components_part_owns_gutter():
    """An option has one owner: the components part declares --gutter, and no other part declares it again."""
    from pnpgen.parts import all_parts
    owners = [part.name for part in all_parts() for option in part.options if "--gutter" in option.flags]
    assert owners == ["components"]


def test_gutter_parts_the_pieces_of_a_packed_group_too(tmp_path):
    """Eclipse's or any kit's packed groups take --gutter as well (it parted counter-sheet groups only, and
    `pnpgen build eclipse --gutter 3` printed as without it): the mini kit's tokens, circles 2 mm apart by
    default and named in no `sheets:` entry, stand 4 mm apart; the chits keep their own 3 mm."""
    import json
    from pathlib import Path

    from pnpgen.cli import main
    mini = Path(__file__).parent / "kits" / "mini"
    assert main(["build", "--data", str(mini), "--out", str(tmp_path), "-q", "--only", "components",
                 "--gutter", "4"]) == 0
    placements = json.loads((tmp_path / "mini" / "manifest.json").read_text())["parts"]["components"]["placements"]
    for path, gap in (("tokens-red.pdf", 4), ("chits.pdf", 3)):
        rows = [r for r in placements if (r["file"], r["page"]) == (path, 1)]
        xs = sorted({round(r["x"], 3) for r in rows})
        assert len(xs) > 1 and all(b - a == pytest.approx(rows[0]["w"] + pt_from_mm(gap), abs=0.002)
                                   for a, b in zip(xs, xs[1:])), (path, xs)
