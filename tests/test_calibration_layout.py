"""The calibration layout as pure numbers, and the face compaction rules, without drawing (counter sheets' imposition:
tests/test_counter_sheet_layout.py)."""
import pytest
from pypdf import PdfReader

from duplex_printer import MM, clipped_drawings, misfits, where_paper_puts
from pnpgen.build import MAX_BACK_OFFSET_MM
from pnpgen.calibration import calibration_job
from pnpgen.layout.calibration import calibration_layout
from pnpgen.render.calibration import write_calibration
from pnpgen.lengths import pt_from_mm
from pnpgen.render.face_compact import compact

def test_calibration_marks_sit_one_millimetre_apart_around_the_centre():
    layout = calibration_layout((612.0, 792.0), 18.0)
    zero = next(t for t in layout.x_ticks if t.label == "0")
    plus5 = next(t for t in layout.x_ticks if t.label == "+5")
    assert zero.x1 == 306.0 and plus5.x1 == pytest.approx(306.0 + pt_from_mm(5))
    assert len(layout.x_ticks) == len(layout.y_ticks) == 2 * MAX_BACK_OFFSET_MM + 1   # every offset the option takes
    assert {t.label for t in layout.x_ticks} >= {"-20", "+20"}
    assert max(t.x2 for t in layout.x_ticks) < min(t.x1 for t in layout.y_ticks)      # the scales stay apart
    assert max(t.y2 for t in layout.x_ticks) < min(t.y1 for t in layout.y_ticks)
    vertical = next(line for line in layout.cross if line[0] == line[2])
    horizontal = next(line for line in layout.cross if line[1] == line[3])
    assert vertical[0] == 306.0 and vertical[1] < zero.y1 and vertical[3] > 396.0   # through the X scale
    assert horizontal[1] == 396.0 and horizontal[2] > layout.y_ticks[0].x2           # through the Y scale
    assert vertical[1] > 18.0 + 60.0                                                  # clear of the title


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_flip_check_meets_its_ring_for_the_right_flip_only(tmp_path, paper, duplex):
    """Printed (tests/duplex_printer.py) with the flip the sheet was made for, the back's disc lands in the
    front's ring, its arrow the front's way up; with the other flip it lands a hand's width away, upside
    down: on the portrait sheet and on the landscape one, which the kit's landscape files get."""
    path = tmp_path / "calibration.pdf"
    write_calibration(calibration_job("Kit", paper, duplex, str(path), (), landscape=True))
    reader = PdfReader(str(path))
    assert len(reader.pages) == 4
    sizes = [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages]
    assert sizes[0] == sizes[1] and sizes[2] == sizes[3] == sizes[0][::-1] and sizes[0][0] < sizes[0][1]
    wrong = "short" if duplex == "long" else "long"
    for front_page in (0, 2):
        front, back = clipped_drawings(reader.pages[front_page]), clipped_drawings(reader.pages[front_page + 1])
        assert len(front) == len(back) == 1
        assert misfits(front, back, *sizes[front_page], duplex) == []
        landed = where_paper_puts(back[0], *sizes[front_page], wrong)
        assert min(abs(landed.x - front[0].x), abs(landed.y - front[0].y)) > 80 * MM    # far out of its ring
        assert landed.upside_down != front[0].upside_down                                 # and its arrow points down
    words = " ".join(reader.pages[1].extract_text().split())
    assert "flip check" in words and f"flip on the {wrong} edge" in words and f"flip on the {duplex} edge" in words


def test_compaction_keeps_paths_that_are_drawn_and_drops_those_that_are_not():
    drawn = [["save"], ["move_to", 1, 1], ["line_to", 5, 5], ["restore"], ["fill"]]
    assert compact(drawn) == drawn
    traced = [["save"], ["move_to", 1, 1], ["text_path", "A"], ["restore"],
              ["save"], ["set_line_width", 1.0], ["set_source_rgba", 0, 0, 0, 0], ["stroke"], ["restore"]]
    assert compact(traced) == [["new_path"]]
    repeated = [["set_miter_limit", 4.0], ["save"], ["set_miter_limit", 4.0], ["restore"], ["set_miter_limit", 10.0]]
    assert compact(repeated) == [["set_miter_limit", 4.0], ["save"], ["restore"], ["set_miter_limit", 10.0]]
