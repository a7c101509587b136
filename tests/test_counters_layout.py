"""Imposition and calibration layout as pure numbers, and the face compaction rules, without drawing."""
import pytest

from pnpgen.layout.calibration import calibration_layout
from pnpgen.layout.counters import SheetSpec, columns, impose_counters, rows
from pnpgen.lengths import parse_length, pt_from_mm
from pnpgen.render.face_compact import compact

LETTER = SheetSpec(page=(612.0, 792.0), margin=18.0, size=45.0)


def test_grid_fills_the_printable_width_and_height():
    assert columns(LETTER) == 12                               # 12 x 45 = 540 of the 576 printable points
    assert rows(LETTER, first=True) == 15 and rows(LETTER, first=False) == 16  # page 1 holds the instructions


def test_a_new_kind_opens_a_new_row_and_overflow_opens_a_new_sheet():
    pages = impose_counters(["unit"] * 13 + ["marker"] * 2, LETTER)
    fronts = pages[0].slots
    assert [(s.x, s.y) for s in fronts[:2]] == [(36.0, 68.0), (81.0, 68.0)]
    assert (fronts[12].x, fronts[12].y) == (36.0, 113.0)       # the 13th unit wraps
    assert (fronts[13].x, fronts[13].y) == (36.0, 158.0)       # markers start their own row
    many = impose_counters(["unit"] * (12 * 15 + 1), LETTER)
    assert [(p.side, p.sheet, len(p.slots)) for p in many] == [("front", 1, 180), ("back", 1, 180),
                                                               ("front", 2, 1), ("back", 2, 1)]
    assert many[2].slots[0].y == 18.0 + 16.0                   # later sheets only keep a one-line title


def test_gutters_leave_gaps_and_each_piece_gets_its_own_cut_lines():
    spec = SheetSpec(page=(612.0, 792.0), margin=18.0, size=45.0, gutter=pt_from_mm(1))
    front = impose_counters(["unit"] * 2, spec)[0]
    a, b = front.slots
    assert b.x - (a.x + a.size) == pytest.approx(pt_from_mm(1))
    verticals = sorted(round(c[0], 3) for c in front.cuts if c[0] == c[2])
    assert verticals == sorted(round(v, 3) for v in (a.x, a.x + 45, b.x, b.x + 45))


def test_calibration_marks_sit_one_millimetre_apart_around_the_centre():
    layout = calibration_layout((612.0, 792.0), 18.0)
    zero = next(t for t in layout.x_ticks if t.label == "0")
    plus5 = next(t for t in layout.x_ticks if t.label == "+5")
    assert zero.x1 == 306.0 and plus5.x1 == pytest.approx(306.0 + pt_from_mm(5))
    assert len(layout.x_ticks) == len(layout.y_ticks) == 21
    vertical = next(line for line in layout.cross if line[0] == line[2])
    horizontal = next(line for line in layout.cross if line[1] == line[3])
    assert vertical[0] == 306.0 and vertical[1] < zero.y1 and vertical[3] > 396.0   # through the X scale
    assert horizontal[1] == 396.0 and horizontal[2] > layout.y_ticks[0].x2           # through the Y scale
    assert vertical[1] > 18.0 + 60.0                                                  # clear of the title


def test_compaction_keeps_paths_that_are_drawn_and_drops_those_that_are_not():
    drawn = [["save"], ["move_to", 1, 1], ["line_to", 5, 5], ["restore"], ["fill"]]
    assert compact(drawn) == drawn
    traced = [["save"], ["move_to", 1, 1], ["text_path", "A"], ["restore"],
              ["save"], ["set_line_width", 1.0], ["set_source_rgba", 0, 0, 0, 0], ["stroke"], ["restore"]]
    assert compact(traced) == [["new_path"]]
    repeated = [["set_miter_limit", 4.0], ["save"], ["set_miter_limit", 4.0], ["restore"], ["set_miter_limit", 10.0]]
    assert compact(repeated) == [["set_miter_limit", 4.0], ["save"], ["restore"], ["set_miter_limit", 10.0]]


def test_counters_wider_than_the_printable_area_are_refused():
    with pytest.raises(ValueError, match="do not fit"):
        impose_counters(["unit"], SheetSpec(page=(612.0, 792.0), margin=18.0, size=parse_length("9in")))
