"""Gutters that cost no pieces (pnpgen.layout.gutter_fit), in numbers only: 96 technology tiles of 26 mm
with a 2 mm gutter hold 63 to a Letter page, 70 abutting; the fitted gaps hold 70 again on Letter and A4
with every gap at least 0.5 mm (0.25 mm of bleed a side) and the grid that far from the printable edge;
where the set gutter costs nothing, and for pieces cut round their own outline, the layout is unchanged."""
from __future__ import annotations

import pytest

from pnpgen.layout.gutter_fit import FLOOR, fitted
from pnpgen.layout.packing import Run, impose, pack
from pnpgen.layout.sheets import area
from pnpgen.paper import paper_points
from pnpgen.shapes import Shape

MM = 72 / 25.4
TILE = Shape("square", 26 * MM, 26 * MM)


def run_of(count: int, gutter_mm: float, marks: str = "lines", paper: str = "letter", shape: Shape = TILE) -> Run:
    from pnpgen.layout.sheets import settings_for
    settings = settings_for(shape, {"gutter": f"{gutter_mm}mm", "marks": marks}, paper)
    return Run(shape, count, settings, False)


def fronts(runs) -> list[int]:
    return [len(page.slots) for page in impose(runs) if page.side == "front"]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_gutter_that_costs_tiles_is_narrowed_to_the_abutting_count(paper):
    assert fronts([run_of(96, 0, paper=paper)]) == [70, 26]
    assert fronts([run_of(96, 2, paper=paper)]) == [70, 26]
    runs = fitted([run_of(96, 2, paper=paper)], pack)
    settings = runs[0].settings
    assert FLOOR <= settings.row_gap <= settings.gutter <= 2 * MM
    packing = pack(runs)
    left, top, width, height = area(packing.page, packing.header_side)
    for placed in packing.pages[0]:
        assert placed.x - left >= FLOOR and placed.y - top >= FLOOR
        assert left + width - placed.x - TILE.w >= FLOOR and top + height - placed.y - TILE.h >= FLOOR


def test_the_unfitted_gutter_did_cost_tiles():
    """What the fit mends: packed with the set 2 mm, a Letter page holds 63 tiles."""
    assert [len(page) for page in pack([run_of(96, 2)]).pages] == [63, 33]


def test_a_gutter_that_costs_nothing_and_an_outlined_piece_keep_their_gaps():
    few = [run_of(20, 2)]
    assert fitted(few, pack) == few
    outlined = [run_of(96, 2, marks="outline")]
    assert fitted(outlined, pack) == outlined
    discs = [run_of(96, 2, shape=Shape("circle", 26 * MM, 26 * MM))]
    assert fitted(discs, pack) == discs
