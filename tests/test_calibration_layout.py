"""The calibration layout as pure numbers, and the face compaction rules, without drawing (counter sheets' imposition:
tests/test_counter_sheet_layout.py)."""
import pytest

from pnpgen.layout.calibration import calibration_layout
from pnpgen.lengths import pt_from_mm
from pnpgen.render.face_compact import compact

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
