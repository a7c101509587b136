"""Hex maths and tiling numbers: exact centres and corners, and how many pages a board takes."""
from __future__ import annotations

import math

import pytest

from pnpgen.maps.geometry import HexGrid, hex_label
from pnpgen.maps.tiling import OVERLAP, content_box, plan_tiles, tiles_needed
from pnpgen.paper import paper_size

FLATS = 90.0  # 1.25 in


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_neighbour_centres_are_one_hex_size_apart(orientation):
    grid = HexGrid(orientation, FLATS, 7, 6)
    for col in range(7):
        for row in range(6):
            x, y = grid.centre(col, row)
            neighbours = grid.neighbours(col, row)
            assert 2 <= len(neighbours) <= 6
            for n in neighbours:
                nx, ny = grid.centre(*n)
                assert math.hypot(nx - x, ny - y) == pytest.approx(FLATS, abs=1e-9)
                assert grid.distance((col, row), n) == 1


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_corners_are_exact_and_shared_with_neighbours(orientation):
    grid = HexGrid(orientation, FLATS, 5, 5)
    radius = FLATS / math.sqrt(3)
    corners = grid.corners(2, 2)
    cx, cy = grid.centre(2, 2)
    for i, (x, y) in enumerate(corners):
        assert math.hypot(x - cx, y - cy) == pytest.approx(radius, abs=1e-9)
        nx, ny = corners[(i + 1) % 6]
        assert math.hypot(nx - x, ny - y) == pytest.approx(radius, abs=1e-9)  # side == radius
    for n in grid.neighbours(2, 2):
        shared = [c for c in grid.corners(*n) if any(math.dist(c, d) < 1e-9 for d in corners)]
        assert len(shared) == 2  # neighbours share one whole edge


def test_interior_hex_has_six_neighbours_and_grid_size_is_exact():
    grid = HexGrid("flat", FLATS, 4, 3)
    assert len(grid.neighbours(1, 1)) == 6
    radius = FLATS / math.sqrt(3)
    assert grid.size == pytest.approx((radius * 6.5, FLATS * 3.5))
    assert grid.centre(0, 0) == pytest.approx((radius, FLATS / 2))
    assert grid.centre(1, 0) == pytest.approx((2.5 * radius, FLATS))  # odd columns sit half a hex lower


def test_printed_coordinates_are_column_then_row():
    assert hex_label(6, 3) == "0704"
    assert hex_label(0, 0) == "0101"


def test_tiles_needed_counts_the_overlap():
    window = 500.0
    assert tiles_needed(window, window) == 1
    assert tiles_needed(window + 1, window) == 2
    assert tiles_needed(2 * window - OVERLAP, window) == 2
    assert tiles_needed(2 * window - OVERLAP + 1, window) == 3


def test_tile_plan_on_letter_covers_the_map_with_overlaps():
    width, height = 17.35 * 72, 23.75 * 72
    plan = plan_tiles(width, height, "letter")
    box = content_box(paper_size("letter", plan.landscape))
    assert plan.count == plan.rows * plan.cols == 8  # the four-player board: eight Letter sheets
    assert [t.label for t in plan.tiles[:3]] == ["A1", "A2", "B1"]
    for tile in plan.tiles:
        assert tile.source.w <= box.w + 1e-9 and tile.source.h <= box.h + 1e-9
        if "right" in tile.neighbours:
            right = next(t for t in plan.tiles if t.label == tile.neighbours["right"])
            assert right.source.x == pytest.approx(tile.source.x + tile.source.w - OVERLAP)
    last = plan.tiles[-1].source
    assert last.x + last.w == pytest.approx(width) and last.y + last.h == pytest.approx(height)


def test_a4_and_letter_plans_differ_and_a_small_board_fits_one_page():
    assert plan_tiles(500, 700, "letter").count == 1
    assert plan_tiles(500, 700, "a4").page == paper_size("a4")


def test_a_seam_moves_back_off_a_kept_box_and_a_box_too_wide_for_any_seam_is_named():
    """A box astride where the first seam would fall pushes the seam to 1 mm before the box (on a whole
    point), the tiles still cover the map with their overlap; a box wider than a tile stays cut, and
    crossings() names it with its place and seam."""
    from pnpgen.maps.seams import crossings
    from pnpgen.maps.tiling import SEAM_CLEAR
    width, height = 17.35 * 72, 23.75 * 72
    free = plan_tiles(width, height, "letter")
    seam = free.seams[0][0]
    legend = (seam - 40, 500, seam + 60, 520)
    plan = plan_tiles(width, height, "letter", (legend,))
    moved = plan.seams[0][0]
    assert moved == math.floor(legend[0] - SEAM_CLEAR) and moved == int(moved)
    assert plan.count == free.count and not crossings(plan, [(legend, "Red home system")])
    a1, a2 = plan.tiles[0].source, plan.tiles[1].source
    assert a2.x == moved and a1.x + a1.w == pytest.approx(moved + OVERLAP)
    title = (10, 30, width - 10, 50)
    wide = plan_tiles(width, height, "letter", (title,))
    found = crossings(wide, [(title, "A title as wide as the board")])
    assert found and found[0].startswith("text 'A title as wide as the board' at (10, 30)-(")
    assert "crosses the seam between tile columns 1 and 2" in found[0]
