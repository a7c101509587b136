"""Bleed on the home sheets (pnpgen.render.home_bleed): each piece's edge colour past its cut, into room no
other piece owns, front and back, with the layout and cut lines untouched."""
from __future__ import annotations

import itertools

import pytest

from pnpgen.lengths import parse_length
from pnpgen.render.home_bleed import HOME_BLEED, clip_to_box, slot_allowances
from tests.conftest import DEFAULT_KIT_DIR
from tests.counters_helpers import build_counters, counters_manifest, render_page

MM = parse_length("1mm")
FAR = (-1e4, -1e4, 1e4, 1e4)


def grown(rect, room):
    x, y, w, h = rect
    left, top, right, bottom = room
    return (x - left, y - top, x + w + right, y + h + bottom)


def disjoint(a, b) -> bool:
    return a[2] <= b[0] + 1e-6 or b[2] <= a[0] + 1e-6 or a[3] <= b[1] + 1e-6 or b[3] <= a[1] + 1e-6


def test_abutting_pieces_take_no_room_across_a_shared_line_and_full_bleed_outside():
    rects = [(0, 0, 36, 36), (36, 0, 36, 36), (0, 36, 36, 36)]
    rooms = slot_allowances(rects, FAR, HOME_BLEED)
    assert rooms[0] == (HOME_BLEED, HOME_BLEED, 0.0, 0.0)
    assert rooms[1] == (0.0, HOME_BLEED, HOME_BLEED, HOME_BLEED)  # below it is an empty cell: no one's
    assert rooms[2] == (HOME_BLEED, 0.0, 0.0, HOME_BLEED)  # the corner of the empty cell: the first one's


def test_a_gutter_is_shared_half_and_half_and_crop_marks_and_bounds_cap_the_outside():
    gap = 2 * MM
    rects = [(0, 0, 30, 30), (30 + gap, 0, 30, 30)]
    rooms = slot_allowances(rects, (-0.5 * MM, -9, 99, 99), 0.5 * MM)
    assert rooms[0][2] == pytest.approx(MM) and rooms[1][0] == pytest.approx(MM)
    assert rooms[0][0] == pytest.approx(0.5 * MM) and rooms[0][1] == pytest.approx(0.5 * MM)
    assert not any(itertools.chain(slot_allowances([(0, 0, 30, 30), (20, 10, 30, 30)], FAR, HOME_BLEED)[0]))


def test_bands_are_cut_to_their_box():
    assert clip_to_box([(0, 0), (10, 0), (10, 10), (0, 10)], (5, -1, 20, 20)) == [(5, 0), (10, 0), (10, 10), (5, 10)]


@pytest.fixture(scope="module")
def gutter_build(tmp_path_factory):
    """Counters with 1 mm gutters: every piece has room on every side."""
    kit_out = build_counters(DEFAULT_KIT_DIR, tmp_path_factory.mktemp("bleed"), gutter=1.0)
    return kit_out, counters_manifest(kit_out)


def test_no_piece_bleeds_into_another_on_real_pages(gutter_build):
    _, manifest = gutter_build
    pages: dict = {}
    for p in manifest["placements"]:
        pages.setdefault((p["file"], p["page"]), []).append((p["x"], p["y"], p["w"], p["h"]))
    for rects in pages.values():
        boxes = [grown(r, room) for r, room in zip(rects, slot_allowances(rects, FAR, HOME_BLEED))]
        for a, b in itertools.combinations(boxes, 2):
            assert disjoint(a, b)


def colour_at(image, x: float, y: float, scale: float):
    return image.getpixel((round(x * scale), round(y * scale)))


def near(a, b, tolerance=40) -> bool:
    return max(abs(p - q) for p, q in zip(a, b)) <= tolerance


@pytest.mark.parametrize("page, side", [(1, "front"), (2, "back")])
def test_a_cut_half_a_millimetre_off_shows_the_pieces_colour_front_and_back(gutter_build, page, side):
    kit_out, manifest = gutter_build
    path, scale = "counters-blue.pdf", 4
    rows = [p for p in manifest["placements"] if p["file"] == path and p["page"] == page]
    assert rows and {p["side"] for p in rows} == {side}
    image = render_page(kit_out / path, page, scale=scale)
    left = min(rows, key=lambda p: (p["x"], p["y"]))    # on the grid's outer edge
    right = max(rows, key=lambda p: (p["x"], -p["y"]))
    for piece, out, inside in ((left, -1, 1), (right, 1, -1)):
        edge = piece["x"] if out < 0 else piece["x"] + piece["w"]
        y = piece["y"] + piece["h"] * 0.5 + 0.3 * MM
        own = colour_at(image, edge + inside * 0.6 * MM, y, scale)
        assert min(own) < 200                                          # the counter is coloured there
        assert near(colour_at(image, edge + out * 0.5 * MM, y, scale), own)   # 0.5 mm past the cut: its colour
        assert min(colour_at(image, edge + out * 2.5 * MM, y, scale)) > 245   # past the bleed: paper
    gap_piece = next(p for p in rows if any(q["x"] > p["x"] + p["w"] and q["y"] == p["y"] for q in rows))
    neighbour = min((q for q in rows if q["x"] > gap_piece["x"] + gap_piece["w"] and q["y"] == gap_piece["y"]),
                    key=lambda q: q["x"])
    middle = (gap_piece["x"] + gap_piece["w"] + neighbour["x"]) / 2
    y = gap_piece["y"] + gap_piece["h"] * 0.5 + 0.3 * MM
    own = colour_at(image, gap_piece["x"] + gap_piece["w"] - 0.6 * MM, y, scale)
    assert near(colour_at(image, middle - 0.3 * MM, y, scale), own)  # half the gutter is its own bleed


def test_preflight_finds_coloured_edges_left_without_bleed():
    from pnpgen.render.home_bleed import bare_edges
    rects = [(0, 0, 36, 36), (36, 0, 36, 36), (72, 0, 36, 36)]
    colours = {0: (0.8, 0.1, 0.1), 1: (0.8, 0.1, 0.1), 2: (0.1, 0.1, 0.8)}
    rooms = slot_allowances(rects, FAR, HOME_BLEED)
    found = bare_edges(rects, rooms, lambda i, side: colours[i])
    assert found == [(1, "right", "neighbour"), (2, "left", "neighbour")]  # red beside red is no finding; red beside blue is, both ways
    edge_of_page = slot_allowances(rects, (0, -99, 999, 999), HOME_BLEED)
    assert (0, "left", "edge") in bare_edges(rects, edge_of_page, lambda i, side: colours[i])
    assert bare_edges(rects, rooms, lambda i, side: None) == []  # art that stops short of the cut: nothing to say


def test_a_build_says_where_art_has_no_bleed(gutter_build):
    """Counter sheets stand right under their header band: the top row's art meets it with no bleed, and
    the preflight names the tables and templates; the 1 mm gutter leaves no shared edge without bleed."""
    _, manifest = gutter_build
    assert not [w for w in manifest["warnings"] if "another colour" in w]
    found = [w for w in manifest["warnings"] if "header band" in w]
    assert any(w.startswith("preflight: counters-red.pdf: ") and "table units (unit-front.svg, page 1)" in w
               for w in found)
