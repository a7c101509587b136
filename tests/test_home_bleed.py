"""Bleed on the home sheets (pnpgen.render.home_bleed): each piece's edge colour past its cut, into room no
other piece owns, front and back, with the layout and cut lines untouched."""
from __future__ import annotations

import collections
import itertools
import json
import re
import zlib

import pytest

from pnpgen.lengths import parse_length
from pnpgen.render.bleed_cuts import clip_to_box, clip_to_half_plane
from pnpgen.render.home_bleed import HOME_BLEED, slot_allowances
from tests.conftest import DEFAULT_KIT_DIR
from tests.counters_helpers import build_counters, counters_manifest, render_page

MM = parse_length("1mm")
FAR = (-1e4, -1e4, 1e4, 1e4)


def grown(rect, room):
    x, y, w, h = rect
    left, top, right, bottom = room[:4]
    return (x - left, y - top, x + w + right, y + h + bottom)


def region(rect, room) -> list[tuple]:
    """Where a piece's bleed may go, its cut box included: the grown box cut to the room's half-planes."""
    left, top, right, bottom = grown(rect, room)
    points = [(left, top), (right, top), (right, bottom), (left, bottom)]
    for plane in room.apart:
        points = clip_to_half_plane(points, plane)
    return points


def area(points) -> float:
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1]))) / 2


def overlap(a: list, b: list) -> float:
    """The area two convex polygons share (b is convex and counter-clockwise or clockwise: cut by its edges)."""
    sign = 1.0 if sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(b, b[1:] + b[:1])) > 0 else -1.0
    for p, q in zip(b, b[1:] + b[:1]):          # keep the side of each edge the polygon lies on
        nx, ny = sign * (q[1] - p[1]), -sign * (q[0] - p[0])
        a = clip_to_half_plane(a, (nx, ny, nx * p[0] + ny * p[1])) if a else a
    return area(a) if len(a) >= 3 else 0.0


def contains(points, x: float, y: float) -> bool:
    return overlap(points, [(x - 0.01, y - 0.01), (x + 0.01, y - 0.01), (x + 0.01, y + 0.01), (x - 0.01, y + 0.01)]) > 3e-4


def test_abutting_pieces_take_no_room_across_a_shared_line_and_full_bleed_outside():
    rects = [(0, 0, 36, 36), (36, 0, 36, 36), (0, 36, 36, 36)]   # a 2 x 2 grid with a hole at its bottom right
    rooms = slot_allowances(rects, FAR, HOME_BLEED)
    assert rooms[0][:4] == (HOME_BLEED, HOME_BLEED, 0.0, 0.0)
    assert rooms[1][:4] == (0.0, HOME_BLEED, HOME_BLEED, HOME_BLEED)  # below it is the hole: no one's
    assert rooms[2][:4] == (HOME_BLEED, 0.0, HOME_BLEED, HOME_BLEED)  # so is its right: both bleed into the hole
    assert overlap(region(rects[1], rooms[1]), region(rects[2], rooms[2])) < 1e-9     # and part at its corner
    assert contains(region(rects[2], rooms[2]), 36 + 0.5 * MM, 36 + 0.6 * MM)        # a cut 0.5 mm off: its own
    assert contains(region(rects[1], rooms[1]), 36 + 0.6 * MM, 36 + 0.5 * MM)        # colour, near the corner too
    assert not contains(region(rects[2], rooms[2]), 36 + 0.5 * MM, 36 - 0.5 * MM)    # the neighbour's face: not its


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
        shapes = [region(r, room) for r, room in zip(rects, slot_allowances(rects, FAR, HOME_BLEED))]
        for a, b in itertools.combinations(shapes, 2):
            assert overlap(a, b) < 1e-6


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


def test_a_gutter_leaves_no_edge_without_bleed(gutter_build):
    """With 1 mm gutters every side has room, the top row bleeds into the header band's bottom 0.5 mm, and
    the preflight has nothing to say."""
    _, manifest = gutter_build
    assert not [w for w in manifest["warnings"] if "bleed" in w]


def inside_any(rects, x: float, y: float) -> bool:
    return any(r["x"] - 0.01 <= x <= r["x"] + r["w"] + 0.01 and r["y"] - 0.01 <= y <= r["y"] + r["h"] + 0.01
               for r in rects)


@pytest.mark.parametrize("page", [1, 2])
def test_every_free_edge_of_the_default_kit_shows_its_own_colour_half_a_millimetre_past_the_cut(default_kit_build, page):
    """The default kit's abutting counters (no gutter), front and back: a cut 0.5 mm off on any side that no
    piece shares (the grid's outer edges, the header band, the holes in the last rows) shows the piece's
    own colour there, never paper; pieces beside a hole bleed into it as well as the ones above it."""
    path, scale = "counters-red.pdf", 4
    manifest = json.loads((default_kit_build / "manifest.json").read_text())["parts"]["components"]
    rows = [p for p in manifest["placements"] if p["file"] == path and p["page"] == page]
    image = render_page(default_kit_build / path, page, scale=scale)
    checked, bare = 0, []
    for p in rows:
        for along in (0.25, 0.5, 0.75):
            for dx, dy, edge in ((-1, 0, (p["x"], p["y"] + along * p["h"])), (1, 0, (p["x"] + p["w"], p["y"] + along * p["h"])),
                                 (0, -1, (p["x"] + along * p["w"], p["y"])), (0, 1, (p["x"] + along * p["w"], p["y"] + p["h"]))):
                out = (edge[0] + dx * 0.5 * MM, edge[1] + dy * 0.5 * MM)
                if inside_any(rows, *out):
                    continue                                    # a shared cut line: the neighbour's own face
                own = colour_at(image, edge[0] - dx * 0.4 * MM, edge[1] - dy * 0.4 * MM, scale)
                if min(own) > 240:
                    continue                                    # art that stops short of the cut
                checked += 1
                if not near(colour_at(image, *out, scale), own, 60):
                    bare.append((p["x"], p["y"], dx, dy, colour_at(image, *out, scale), own))
    assert checked > 40 and not bare, bare[:5]


def test_a_pale_tint_beside_paper_is_no_finding():
    """A card whose edge carries a tint within 0.2 of white (SE4's pale ruler ticks) beside a white edge:
    a cut 0.5 mm off shows no edge there."""
    from pnpgen.render.home_bleed import bare_edges
    rects = [(0, 0, 36, 36), (36, 0, 36, 36)]
    rooms = slot_allowances(rects, FAR, HOME_BLEED)
    pale = {(0, "right"): (0.84, 0.89, 0.95)}
    assert bare_edges(rects, rooms, lambda i, side: pale.get((i, side))) == []
    dark = {(0, "right"): (0.5, 0.6, 0.9)}
    assert bare_edges(rects, rooms, lambda i, side: dark.get((i, side))) == [(0, "right", "neighbour")]


def test_where_four_gutters_cross_there_is_no_paper(gutter_build):
    """The square where the gutters between four pieces cross is filled to its middle by each piece's
    corner: no white dot at the crossings."""
    kit_out, manifest = gutter_build
    scale = 4
    rows = [p for p in manifest["placements"] if p["file"] == "counters-blue.pdf" and p["page"] == 1]
    image = render_page(kit_out / "counters-blue.pdf", 1, scale=scale)
    crossings = 0
    for p in rows:
        right = [q for q in rows if q["y"] == p["y"] and 0 < q["x"] - p["x"] - p["w"] < 1.5 * MM]
        below = [q for q in rows if q["x"] == p["x"] and 0 < q["y"] - p["y"] - p["h"] < 1.5 * MM]
        if right and below:
            crossings += 1
            x, y = p["x"] + p["w"] + 0.5 * MM, p["y"] + p["h"] + 0.5 * MM
            for dx, dy in ((-0.3, -0.3), (0.3, -0.3), (-0.3, 0.3), (0.3, 0.3)):
                assert min(colour_at(image, x + dx * MM, y + dy * MM, scale)) < 230, (p["x"], p["y"], dx, dy)
    assert crossings > 20


class Art:
    """A stand-in for a rendered face: its size and recording (home_bleed keeps a weak reference to it)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def test_a_free_corner_is_filled_to_the_full_bleed():
    """Past a square's corner, with room on both sides, the bleed fills the whole corner square: where 2 mm
    gutters cross (4X Space Euro's tiles) no white dot is left between four pieces."""
    import cairocffi

    from pnpgen.render.home_bleed import Room, paint_bleed
    from pnpgen.shapes import Shape
    shape, colour = Shape("square", 36.0, 36.0), (0.2, 0.6, 0.3)
    recording = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None)
    context = cairocffi.Context(recording)
    context.set_source_rgb(*colour)
    context.paint()
    art = Art(width=36.0, height=36.0, recording=recording)
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, 60, 60)
    cr = cairocffi.Context(surface)
    cr.set_source_rgb(1, 1, 1)
    cr.paint()
    paint_bleed(cr, art, shape, 0.0, 10.0, 10.0, False, Room(*[HOME_BLEED] * 4))
    surface.flush()
    data, stride = bytes(surface.get_data()), surface.get_stride()
    for px, py in ((10 - 0.9 * HOME_BLEED, 10 - 0.9 * HOME_BLEED), (46 + 0.9 * HOME_BLEED, 46 + 0.9 * HOME_BLEED)):
        b, g, r = data[int(py) * stride + 4 * int(px): int(py) * stride + 4 * int(px) + 3]
        assert (r, g, b) == tuple(round(c * 255) for c in colour)


def _uniform_art(shape, colour):
    import cairocffi
    recording = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None)
    context = cairocffi.Context(recording)
    context.set_source_rgb(*colour)
    context.paint()
    return Art(width=shape.w, height=shape.h, recording=recording)


@pytest.mark.parametrize("kind", ["square", "hex"])
def test_a_run_of_like_bands_is_painted_as_one_polygon_and_covers_what_its_bands_cover(kind):
    """One colour along a side is one quad on a hex's slanted side (between the corner bands the box
    cuts), and on a box's side one rectangle between the run's own first and last band (a lone rectangle is filled pixel-snapped by PDF viewers:
    a run's end keeps the pixels its end band had, so no pale line shows at a grid's holes), not one
    polygon per 1 mm band: painting cost grows with the colours, not the millimetres. Every point the
    bands covered is still covered."""
    from pnpgen.render.home_bleed import Room, cut_bands, edge_bands
    from pnpgen.shapes import Shape
    shape = Shape(kind, 72.0, 72.0)
    art = _uniform_art(shape, (0.2, 0.6, 0.3))
    room = Room(*[HOME_BLEED] * 4)
    bands = edge_bands(art, shape, 0.0)
    painted = [points for _, points in cut_bands(art, shape, 0.0, False, room, 0.0, 0.0)]
    sides = len({edge for _, _, edge in bands})
    assert len(bands) > 10 * sides
    assert len(painted) <= 3 * sides
    box = (-room.left, -room.top, shape.w + room.right, shape.h + room.bottom)
    for _, quad, _ in bands[::3]:
        inside = clip_to_box(quad, box)
        x, y = (sum(p[0] for p in inside) / len(inside), sum(p[1] for p in inside) / len(inside))
        assert any(contains(points, x, y) for points in painted), (x, y)


def _split_art(shape, left, right):
    """A face painted `left` on its left half and `right` on its right: its bleed changes colour along the
    top and bottom, so bands of the two colours overlap where the runs meet."""
    import cairocffi
    recording = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None)
    context = cairocffi.Context(recording)
    context.set_source_rgb(*left)
    context.rectangle(0, 0, shape.w / 2, shape.h)
    context.fill()
    context.set_source_rgb(*right)
    context.rectangle(shape.w / 2, 0, shape.w / 2, shape.h)
    context.fill()
    return Art(width=shape.w, height=shape.h, recording=recording)


@pytest.mark.parametrize("kind", ["circle", "hex", "square"])
def test_painting_a_face_stage_by_stage_leaves_the_picture_painting_band_by_band_did(kind):
    """paint_bleed fills a run of one colour's slanted bands as one path, not one fill a band: each point
    still shows the colour its last band gave it (where a red run's bands overlap the blue run's, blue
    painted later wins) and only anti-aliased edge pixels differ (one shape's edge where overlapping bands
    were darkened twice, a pixel they covered between them now quite covered); a disc's ~100 bands are a
    few fills, a box's rectangles stay fills of their own; two slots of the face in like rooms share one bleed,
    written once (a form XObject) and placed twice."""
    import io

    import cairocffi

    from pnpgen.render.home_bleed import Room, cut_bands, paint_bleed
    from pnpgen.shapes import Shape
    shape = Shape(kind, 54.0, 54.0)
    art = _split_art(shape, (0.8, 0.1, 0.1), (0.1, 0.2, 0.8))
    room, scale = Room(*[HOME_BLEED] * 4), 4

    def render(paint):
        surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, 70 * scale, 70 * scale)
        cr = cairocffi.Context(surface)
        cr.set_source_rgb(1, 1, 1)
        cr.paint()
        cr.scale(scale, scale)
        paint(cr)
        surface.flush()
        return bytes(surface.get_data()), surface.get_stride()

    def band_by_band(cr):
        for colour, points in cut_bands(art, shape, 0.0, False, room, 8.0, 8.0):
            cr.set_source_rgb(*colour)
            points = list(points)
            cr.move_to(8.0 + points[0][0], 8.0 + points[0][1])
            for px, py in points[1:]:
                cr.line_to(8.0 + px, 8.0 + py)
            cr.close_path()
            cr.fill()
    (before, _), (after, _) = render(band_by_band), render(lambda cr: paint_bleed(cr, art, shape, 0.0, 8.0, 8.0,
                                                                              False, room))
    counts = collections.Counter(before[k:k + 3] for k in range(0, len(before), 4))
    solid = {pixel for pixel, _ in counts.most_common(3)} - {b"\xff\xff\xff"}     # paper, red and blue
    shown = [k for k in range(0, len(before), 4) if before[k:k + 3] in solid]
    assert len(shown) > 1000 and max(abs(after[k + c] - before[k + c]) for k in shown for c in range(3)) <= 24
    assert max(abs(p - q) for p, q in zip(before, after)) < 100   # each band's colour kept; edges anti-aliased
    pdf = io.BytesIO()
    surface = cairocffi.PDFSurface(pdf, 70, 70)
    for x in (8.0, 9.5):    # two slots of one face in like rooms: one bleed, written once and placed twice
        paint_bleed(cairocffi.Context(surface), art, shape, 0.0, x, 8.0, False, room)
    surface.finish()
    bands = len(cut_bands(art, shape, 0.0, False, room, 8.0, 8.0))
    streams = [zlib.decompress(stream) for stream in re.findall(rb"stream\r?\n(.*?)endstream", pdf.getvalue(), re.S)]
    fills = sum(len(re.findall(rb"\bf\b", stream)) for stream in streams)
    assert sum(len(re.findall(rb" Do\b", stream)) for stream in streams) == 2
    assert fills < 8 if kind == "circle" else fills < bands if kind == "hex" else fills == bands, (fills, bands)
