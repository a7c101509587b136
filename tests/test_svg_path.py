"""Path data drawn by the SVG subset drawer (pnpgen.render.svg_path): the shortcut for a map's polygons gives
the calls the general reader gives, every command draws what cairosvg draws, and data SVG refuses is left to
cairosvg instead of failing the build."""
import pytest

from pnpgen.render import svg_ops
from pnpgen.render.cairo_lib import cairo
from pnpgen.render.face_store import record_svg, replay
from pnpgen.render.svg_path import command_calls, path_calls, polygon_calls

POLYGONS = ["M412.33,284.85 L413.57,288.56 L417.28,289.80 Z M372.73,279.45 L373.52,281.81 Z",
            "M-22.5 16.0L-6.5 -0.0M-20.0 16.0L-4.0 -0.0", "M8 4.4L11.6 8L8 11.6L4.4 8Z", "", "  M 1e1 , 2E-1 L .5 -.5 z  "]
EVERY_COMMAND = ("M 10 10 L 30 12 H 50 V 30 h -10 v 8 l -12 4 Z m 60 -20 c 10 -10 20 10 30 0 s 10 10 20 0 "
                 "S 110 30 100 40 C 90 50 80 40 70 50 M 10 60 Q 30 40 50 60 T 90 60 t 20 0 q 10 -10 20 0 "
                 "M 20 90 A 15 10 30 0 1 50 90 a 10 10 0 1 0 20 0 M130 90 l5-5 5 5-5 5z M 10 75 60 78 110 75")


@pytest.mark.parametrize("d", POLYGONS)
def test_the_polygon_shortcut_draws_what_the_general_reader_draws(d):
    fast, general = [], []
    assert polygon_calls(d, fast)
    command_calls(d, general)
    assert repr(fast) == repr(general)   # repr tells -0.0 from 0.0 and a list from a tuple


def test_other_data_is_left_to_the_general_reader():
    ops = []
    assert not polygon_calls("M 1 2 L 3 4 5 6", ops) and not polygon_calls("M1 2H3", ops) and ops == []
    path_calls("M 1 2 L 3 4 5 6", ops)
    assert ops == [["move_to", 1.0, 2.0], ["line_to", 3.0, 4.0], ["line_to", 5.0, 6.0]]


def pixels(art, scale=2):
    cairocffi = cairo()
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, int(art.width * scale), int(art.height * scale))
    context = cairocffi.Context(surface)
    context.scale(scale, scale)
    context.set_source_surface(art.recording)
    context.paint()
    surface.flush()
    return bytes(surface.get_data())


def svg_of(d: str) -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="150pt" height="100pt" viewBox="0 0 150 100">'
            f'<path d="{d}" fill="#2a6" fill-rule="evenodd" stroke="#123" stroke-width="1.5"/></svg>')


def test_every_path_command_draws_what_cairosvg_draws():
    svg = svg_of(EVERY_COMMAND)
    ours = replay(svg_ops.record(svg, None))
    theirs = record_svg(svg)[0]
    a, b = pixels(ours), pixels(theirs)
    differ = sum(1 for i in range(0, len(a), 4) if max(abs(a[i + k] - b[i + k]) for k in range(4)) > 32)
    assert any(a) and differ < len(a) // 4 * 0.002


@pytest.mark.parametrize("d", ["1 2 L 3 4", "M 1 2 L 3", "M 1 2 Z 3 4", "M 1 2 A 1 1 0 0 1"])
def test_path_data_svg_refuses_goes_to_cairosvg_not_a_traceback(d):
    with pytest.raises(svg_ops.Unsupported):
        svg_ops.record(svg_of(d), None)
