"""Bleed on the home sheets: each piece's edge colour carried past its cut, so a cut a little off shows the
piece's own colour and not a white sliver. The sheets keep their layout (no piece moves, no page holds fewer):
the bleed takes only the room around a piece that is no one's, half the gutter to a neighbour and at most
HOME_BLEED, and where pieces share a cut line it takes none there (each piece's art already runs to the
shared line, and painting past it would overprint the neighbour). Past the grid's outer edges it stays short
of the crop marks and inside the printable area.

The colour is sampled from the piece's own art just inside its cut, a segment of about a millimetre at a
time, and painted as flat bands under the face: no text or picture is drawn twice, so the page's text and
the overprint preflight read the same as without it. Backs get the same treatment on their own page, whose
slots are already mirrored for the duplex flip, so each back's bleed lies behind its front's."""
from __future__ import annotations

import math
import struct
import weakref
from array import array
from typing import NamedTuple

from pnpgen.lengths import parse_length
from pnpgen.render.bleed_cuts import clip_to_box, clip_to_half_plane, counter_clockwise, join_runs, rectangle_of

HOME_BLEED = parse_length("1.5mm")   # the most art is carried past a cut (publishers ask 1-3 mm)
INSET = parse_length("0.35mm")       # where the edge colour is read: inside the cut, past its soft edge
SEGMENT = parse_length("1mm")        # one band of colour along an edge
PX_PER_PT = 3.0                      # the sampling raster (about 8.5 px/mm)
PAPER_WHITE = 0.94                   # a sample lighter than this in every channel is paper: no bleed needed

_edges: dict = {}                    # id(art) -> (weak reference to the art, bands): each distinct face sampled
                                     # once, without keeping its recording (and the fonts in it) alive: a
                                     # failed build's fonts must go with it (pnpgen.render.font_reset)


class Room(NamedTuple):
    """How far a piece's bleed may reach past each side of its cut box, and the half-planes (nx, ny, c) it
    keeps to (nx * x + ny * y <= c) where a diagonal neighbour's corner is near: the corner square and the
    far half of a grid hole's corner are that neighbour's, the side is still the piece's own."""
    left: float
    top: float
    right: float
    bottom: float
    apart: tuple = ()


def slot_allowances(rects: list[tuple], bounds: tuple, outer_cap: float, memo=None) -> list[Room]:
    """As _allowances, once for each layout: a file's pages share a few grids (each pair of pieces is
    weighed, so a page of 100 pieces costs 10,000 comparisons), and taken from `memo`
    (pnpgen.render.bleed_memo) for a layout an earlier build weighed."""
    key = (tuple(tuple(rect) for rect in rects), tuple(bounds), outer_cap)
    if key not in _rooms:
        if len(_rooms) > 256:
            _rooms.clear()

        def work() -> list:
            return _allowances(rects, bounds, outer_cap)
        _rooms[key] = [Room(*room) for room in memo.rooms(key, len(rects), work)] if memo is not None else work()
    return list(_rooms[key])


_rooms: dict = {}


def _allowances(rects: list[tuple], bounds: tuple, outer_cap: float) -> list[Room]:
    """The Room of each rect (x, y, w, h) of a page: half the gap to the nearest neighbour on that side (none
    across a shared cut line), none at all where boxes overlap (nested hexes), toward the page's free edge at
    most `outer_cap` and never past `bounds` (left, top, right, bottom). A diagonal neighbour near a corner
    takes no side away: the two part along the 45-degree line between their corners (_mitre), so a piece
    next to a hole in the grid still bleeds into the hole and the two grown shapes never meet.

    Only neighbours within 2 x HOME_BLEED can take room (half the gap): those are looked up on a grid
    (_near), and of the rest it only matters whether a side has one at all (then that side is not the
    page's free edge, _beside), so a page costs about its pieces, not their pairs."""
    out = []
    near, beside = _near(rects), None
    for i, (x, y, w, h) in enumerate(rects):
        free = [x - bounds[0], y - bounds[1], bounds[2] - x - w, bounds[3] - y - h]
        shared: list = [None] * 4               # half the gap to the nearest piece on that side
        apart = []
        for j in near[i]:
            ox, oy, ow, oh = other = rects[j]
            gap_x = max(ox - (x + w), x - (ox + ow))
            gap_y = max(oy - (y + h), y - (oy + oh))
            if gap_x < -0.01 and gap_y < -0.01:    # boxes overlap (nested hexes): no bleed anywhere
                shared, apart = [0.0] * 4, []
                break
            if gap_x >= -0.01 and gap_y >= -0.01:     # diagonal: only the corner is contested
                if max(gap_x, gap_y) < 2 * HOME_BLEED:
                    apart.append(_mitre(rects[i], other))
                continue
            side, gap = (2 if ox >= x + w - 0.01 else 0, gap_x) if gap_y < -0.01 else \
                (3 if oy >= y + h - 0.01 else 1, gap_y)
            shared[side] = min(max(0.0, gap) / 2, shared[side] if shared[side] is not None else HOME_BLEED)
        if None in shared:                      # a neighbour further off still makes the side no free edge
            beside = beside or _beside(rects)
            shared = [HOME_BLEED if s is None and beside(i, k) else s for k, s in enumerate(shared)]
        sides = (max(0.0, min(HOME_BLEED, f, outer_cap if s is None else s)) for f, s in zip(free, shared))
        out.append(Room(*sides, tuple(apart)))
    return out


NEAR_CELL = 36.0   # points: the grid square neighbours are looked up in


def _near(rects: list[tuple]) -> list[list[int]]:
    """For each rect, in order, the other rects within 2 x HOME_BLEED of it (and maybe a few more)."""
    reach = 2 * HOME_BLEED + 0.02
    grid: dict = {}

    def squares(x, y, w, h):
        return [(c, r) for c in range(math.floor((x - reach) / NEAR_CELL), math.floor((x + w + reach) / NEAR_CELL) + 1)
                for r in range(math.floor((y - reach) / NEAR_CELL), math.floor((y + h + reach) / NEAR_CELL) + 1)]
    for j, rect in enumerate(rects):
        for square in squares(*rect):
            grid.setdefault(square, []).append(j)
    return [sorted({j for square in squares(*rect) for j in grid.get(square, ()) if j != i})
            for i, rect in enumerate(rects)]


def _beside(rects: list[tuple]):
    """A function (i, side index) -> whether any rect lies across that side of rect i at any distance
    (sharing more than 0.01 pt of its extent the other way): asked only for the sides no near rect faces,
    the grid's outer pieces. Only the rects sharing a NEAR_CELL band of its extent can share more than a
    point of it, so those are the ones weighed (a page's row or column, not the page)."""
    rows: dict = {}
    columns: dict = {}
    for j, (x, y, w, h) in enumerate(rects):
        for cell in _span(y, h):
            rows.setdefault(cell, []).append(j)
        for cell in _span(x, w):
            columns.setdefault(cell, []).append(j)

    def across(i: int, k: int) -> bool:
        x, y, w, h = rects[i]
        if k in (0, 2):
            for j in {j for cell in _span(y, h) for j in rows.get(cell, ())}:
                ox, oy, ow, oh = rects[j]
                if max(oy - (y + h), y - (oy + oh)) < -0.01 and (ox >= x + w - 0.01) == (k == 2) \
                        and max(ox - (x + w), x - (ox + ow)) >= -0.01:
                    return True
        else:
            for j in {j for cell in _span(x, w) for j in columns.get(cell, ())}:
                ox, oy, ow, oh = rects[j]
                if max(ox - (x + w), x - (ox + ow)) < -0.01 and (oy >= y + h - 0.01) == (k == 3) \
                        and max(oy - (y + h), y - (oy + oh)) >= -0.01:
                    return True
        return False
    return across


def _span(low: float, length: float) -> range:
    """The NEAR_CELLs an extent from `low`, `length` long, covers: two extents sharing a point share one."""
    return range(math.floor(low / NEAR_CELL), math.floor((low + length) / NEAR_CELL) + 1)


def _mitre(mine: tuple, other: tuple) -> tuple:
    """The half-plane (nx, ny, c) on `mine`'s side of the 45-degree line through the middle of the gap
    between the two boxes' facing corners: the line two touching squares' bleeds would meet on, and near
    enough the corner that it trims a side's bleed only within HOME_BLEED of it."""
    x, y, w, h = mine
    ox, oy, ow, oh = other
    sx = 1.0 if ox >= x + w - 0.01 else -1.0
    sy = 1.0 if oy >= y + h - 0.01 else -1.0
    corner = (x + w if sx > 0 else x, y + h if sy > 0 else y)
    theirs = (ox if sx > 0 else ox + ow, oy if sy > 0 else oy + oh)
    middle = ((corner[0] + theirs[0]) / 2, (corner[1] + theirs[1]) / 2)
    return sx, sy, sx * middle[0] + sy * middle[1]


def outline_polygon(shape, x: float = 0.0, y: float = 0.0) -> list[tuple]:
    """The piece's cut path as a polygon (a circle as 96 sides; rounded corners as the box)."""
    kind, *numbers = shape.outline(x, y)[0]
    if kind == "circle":
        cx, cy, r = numbers
        return [(cx + r * math.cos(-math.pi + 2 * math.pi * k / 96), cy + r * math.sin(-math.pi + 2 * math.pi * k / 96))
                for k in range(96)]
    if kind == "poly":
        return list(numbers[0])
    bx, by, w, h = numbers[:4]
    return [(bx, by), (bx + w, by), (bx + w, by + h), (bx, by + h)]


def edge_bands(art, shape, bleed: float) -> list[tuple]:
    """[(colour, quad, edge)] of the face's bleed in art points: for each edge segment whose colour just inside the
    cut is not paper, a band from the cut outward HOME_BLEED deep (the clip decides how much shows)."""
    return [(colour, quad, edge) for colour, (edge, quad, _) in zip(band_colours(art, shape, bleed),
                                                                     band_geometry(shape, bleed)) if colour is not None]


def band_colours(art, shape, bleed: float, memo=None) -> list:
    """The colour of each of the shape's bands (band_geometry) read from the face's art, None where it is
    paper: each distinct face sampled once, and once at all where `memo` (pnpgen.render.bleed_memo) knows
    its drawing from an earlier build."""
    key = id(art)
    if key in _edges and _edges[key][0]() is art:
        return _edges[key][1]
    if len(_edges) > 4096:
        _edges.clear()

    def sample() -> list:
        at = _sampler(art)
        return [at(*point) for _, _, point in band_geometry(shape, bleed)]
    colours = memo.colours(art, shape, bleed, sample) if memo is not None else sample()
    _edges[key] = (weakref.ref(art), colours)
    return colours


_geometry: dict = {}   # (shape, bleed) -> its bands: the same for every face of that shape


def band_geometry(shape, bleed: float) -> list[tuple]:
    """[(edge, quad, sample point)] of every 1 mm segment of the shape's cut (art points, bleed included):
    the band from the cut outward HOME_BLEED deep (0.1 pt under the face's edge, so no hairline shows at
    the cut), and the point INSET inside the cut where its colour is read. An edge's first and last band
    run HOME_BLEED past its ends (the corner square past a box's corner), the others 0.05 pt (they overlap)."""
    key = (shape, bleed)
    if key in _geometry:
        return _geometry[key]
    polygon = outline_polygon(shape, bleed, bleed)
    cx, cy = sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon)
    bands = []
    for edge, (a, b) in enumerate(zip(polygon, polygon[1:] + polygon[:1])):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length < 1e-6:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        nx, ny = -uy, ux                                            # the normal pointing away from the centre
        if nx * (cx - a[0]) + ny * (cy - a[1]) > 0:
            nx, ny = -nx, -ny
        pieces = max(1, round(length / SEGMENT))
        for k in range(pieces):
            t0, t1 = k / pieces * length, (k + 1) / pieces * length
            mid = (t0 + t1) / 2
            at = (a[0] + ux * mid - nx * INSET, a[1] + uy * mid - ny * INSET)
            over = HOME_BLEED
            lo, hi = t0 - (over if k == 0 else 0.05), t1 + (over if k == pieces - 1 else 0.05)
            inner = 0.1
            quad = [(a[0] + ux * lo - nx * inner, a[1] + uy * lo - ny * inner),
                    (a[0] + ux * hi - nx * inner, a[1] + uy * hi - ny * inner),
                    (a[0] + ux * hi + nx * HOME_BLEED, a[1] + uy * hi + ny * HOME_BLEED),
                    (a[0] + ux * lo + nx * HOME_BLEED, a[1] + uy * lo + ny * HOME_BLEED)]
            bands.append((edge, quad, at))
    if len(_geometry) > 256:
        _geometry.clear()
    _geometry[key] = bands
    return bands


def _sampler(art):
    """A function (x, y in art points) -> the opaque, non-paper colour there as (r, g, b) 0-1, or None."""
    import cairocffi
    width, height = max(1, math.ceil(art.width * PX_PER_PT)), max(1, math.ceil(art.height * PX_PER_PT))
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, width, height)
    cr = cairocffi.Context(surface)
    cr.scale(PX_PER_PT, PX_PER_PT)
    cr.set_source_surface(art.recording, 0, 0)
    cr.paint()
    surface.flush()
    data, stride = bytes(surface.get_data()), surface.get_stride()

    def colour(x: float, y: float):
        px, py = int(x * PX_PER_PT), int(y * PX_PER_PT)
        if not (0 <= px < width and 0 <= py < height):
            return None
        b, g, r, a = data[py * stride + 4 * px: py * stride + 4 * px + 4]
        if a < 230:
            return None
        rgb = tuple(round(c / a, 3) for c in (r, g, b))
        return None if min(rgb) > PAPER_WHITE else rgb
    return colour


def paint_bleed(cr, art, shape, bleed: float, x: float, y: float, turned: bool, room: Room, memo=None) -> None:
    """The face's edge bands at (x, y) (art origin, bleed included), turned as the face is, cut to the
    piece's cut box grown by `room` on the page and to the room's half-planes: each distinct bleed (its
    bands cut to its room, in the slot's own frame) drawn once into a recording surface (bleed_form) and
    painted here as a source at (x, y), which cairo's PDF surface writes once a file as a form XObject and
    places with `cm ... Do` for each copy: Eclipse's counter sheets repeat a few faces in a few rooms, and
    writing and compressing each copy's ~thousand band points was most of its components part. It is
    painted, not filled through a rectangle: no clip is made, so the page's clips stay one per face, as
    the duplex checks read them (a face is a clipped form, a bleed an unclipped one). The sheets paint each
    face's bleed just before the face (piece_sheets.draw_sheet_page), as before: a rectangle filled out to
    whole pixels reaches a pixel into its neighbour's room, and which one shows there is the order they
    were painted in. `memo`: cut_bands'."""
    if not any(room[:4]):
        return
    form = bleed_form(cut_bands(art, shape, bleed, turned, room, x, y, memo))
    if form is None:
        return
    lib, pointer = _cairo().cairo, cr._pointer
    lib.cairo_save(pointer)
    lib.cairo_set_source_surface(pointer, form._pointer, x, y)
    lib.cairo_paint(pointer)
    lib.cairo_restore(pointer)
    cr._check_status()


_forms: dict = {}   # id(cut) -> (the cut, its recording surface or None); content -> recording surface


def bleed_form(cut: list):
    """A recording surface of the cut bands [(colour, polygon)] in the slot's frame, painted stage by stage
    (paint_plan), or None for no bands: one for each distinct cut, told by its colours and points, so two
    faces whose bleeds are alike (and a face the memo gave an equal cut) share one form whatever the order
    their cuts were worked out or remembered in, and a file's bytes do not hang on the user cache."""
    found = _forms.get(id(cut))
    if found is not None and found[0] is cut:
        return found[1]
    if len(_forms) > 16384:
        _forms.clear()
    flats = [(colour, _flat(points)) for colour, points in cut]
    form = None
    if flats:
        content = tuple((colour, flat.tobytes()) for colour, flat in flats)
        form = _forms.get(content)
        if form is None:
            form = _forms[content] = _record(flats)
    _forms[id(cut)] = (cut, form)
    return form


def _flat(points) -> array:
    """A polygon's flat x, y numbers as doubles."""
    flat = getattr(points, "flat", None)
    return flat if isinstance(flat, array) else array("d", (v for point in points for v in point))


def _record(flats: list):
    """The cut's bands (colour, flat numbers) painted into a recording surface bounded by their points' box
    rounded out to whole points: rectangles one fill each, a stage's other polygons one path (paint_plan),
    cairo's status checked once at the end (it is sticky)."""
    cairocffi = _cairo()
    xs = [v for _, flat in flats for v in flat[0::2]]
    ys = [v for _, flat in flats for v in flat[1::2]]
    left, top = math.floor(min(xs)), math.floor(min(ys))
    extents = (left, top, max(1, math.ceil(max(xs)) - left), max(1, math.ceil(max(ys)) - top))
    surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, extents)
    context = cairocffi.Context(surface)
    lib, pointer = cairocffi.cairo, context._pointer
    append, fill = lib.cairo_append_path, lib.cairo_fill
    plan, _buffers = paint_plan(flats)    # held until cairo has copied the paths
    for colour, rectangles, together in plan:
        lib.cairo_set_source_rgb(pointer, *colour)
        for path in rectangles:
            append(pointer, path)
            fill(pointer)
        if together is not None:
            append(pointer, together)
            fill(pointer)
    context._check_status()
    return surface


def _cairo():
    """cairocffi as pnpgen loads it (its C library and ffi), looked up once (a sheet asks for every face)."""
    if not _loaded:
        from pnpgen.render.cairo_lib import cairo
        _loaded.append(cairo())
    return _loaded[0]


_loaded: list = []


def paint_plan(flats: list) -> tuple[list, list]:
    """([(colour, [a rectangle's cairo path], cairo path of the other polygons or None)], the buffers the
    latter point into) of a face's cut bands [(colour, flat x, y numbers)], one entry a stage, in painting
    order. A stage is a run of bands of one colour in the cut's order: two bands of different colours that
    overlap (a box's corner square, where the next side's band is painted over the last; a disc's
    neighbouring segments) lie in different stages, the later band in the later one, so painting stage by
    stage leaves each point the colour its last band gave it, as painting band by band did. A stage's
    rectangles are painted one by one, as before, each from a path built once for each distinct rectangle
    (_rectangles); its other polygons are one path."""
    if len(_rectangles) > 65536:
        _rectangles.clear()
    ffi, kept, runs = _cairo().ffi, [], []
    for colour, flat in flats:
        if not runs or runs[-1][0] != colour:
            runs.append((colour, [], []))
        key = flat.tobytes()
        found = _rectangles.get(key)
        if found is None:
            found = _rectangles[key] = _rectangle(ffi, flat) if _axis_aligned(flat) else ()
        if found:
            runs[-1][1].append(found[0])
        else:
            runs[-1][2].append(flat)
    return [(colour, rectangles, _path(ffi, polygons, kept) if polygons else None)
            for colour, rectangles, polygons in runs], kept


_rectangles: dict = {}   # a polygon's flat numbers (bytes) -> (its cairo path, its buffers) if it is a
                         # rectangle (_axis_aligned), else (): Eclipse's forms hold 12,445 polygons, 1,639 distinct


def _rectangle(ffi, flat) -> tuple:
    """(cairo path of the one polygon, the buffers it points into, which live as long as it)."""
    buffers: list = []
    return _path(ffi, [flat], buffers), buffers


def _axis_aligned(flat) -> bool:
    """Whether cairo may write the polygon (flat x, y numbers) as a rectangle, `re`, which viewers fill
    pixel-snapped: its corners, once points closer than NEAR and points in line with their neighbours are
    dropped (cairo merges both), are four, in order, about an axis-aligned box. Such a band stays a fill of
    its own, as every band was; only a polygon surely not one joins its stage's path."""
    if len(flat) == 8:     # most bands: a box's, whole or cut by its room's sides (the quick answer first)
        x0, y0, x1, y1, x2, y2, x3, y3 = flat
        if x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0 or y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0:
            return True
    points = [(flat[k], flat[k + 1]) for k in range(0, len(flat), 2)]
    kept = []
    for point in points:
        if not kept or abs(point[0] - kept[-1][0]) > NEAR or abs(point[1] - kept[-1][1]) > NEAR:
            kept.append(point)
    if len(kept) > 1 and abs(kept[0][0] - kept[-1][0]) <= NEAR and abs(kept[0][1] - kept[-1][1]) <= NEAR:
        kept.pop()
    corners = [b for a, b, c in zip(kept[-1:] + kept[:-1], kept, kept[1:] + kept[:1])
               if abs((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])) > NEAR]
    if len(corners) != 4:
        return len(corners) < 3
    return all(abs(a[0] - b[0]) <= NEAR or abs(a[1] - b[1]) <= NEAR
               for a, b in zip(corners, corners[1:] + corners[:1]))


NEAR = 0.01   # points: more than cairo's 1/256 pt grid, where it tells points and lines apart



MOVE, LINE, CLOSE = (struct.unpack("<d", struct.pack("<ii", kind, length))[0]
                     for kind, length in ((0, 2), (1, 2), (3, 1)))   # cairo_path_data_t headers, as doubles
CLOSED = array("d", (CLOSE, 0.0))


def _path(ffi, polygons: list, kept: list):
    """A cairo_path_t of closed polygons (each its flat x, y numbers): the path data cairo_append_path
    reads, 16 bytes an element (a header, its other 8 bytes unused, or a point), laid out as doubles in
    one array. The buffer it points into is added to `kept`, which must live as long as the path."""
    numbers = array("d")
    for flat in polygons:
        flat = flat if isinstance(flat, array) else array("d", flat)
        elements = array("d", (LINE, 0.0, 0.0, 0.0)) * (len(flat) // 2)   # a header and a point each
        elements[0] = MOVE
        elements[2::4], elements[3::4] = flat[0::2], flat[1::2]
        numbers += elements
        numbers += CLOSED
    data = ffi.new("cairo_path_data_t[]", len(numbers) // 2)
    ffi.memmove(data, numbers.tobytes(), len(numbers) * 8)
    kept.append(data)
    return ffi.new("cairo_path_t *", {"status": 0, "data": data, "num_data": len(numbers) // 2})


_cuts: dict = {}    # (id(art), turned, room in the slot's frame) -> the bands cut: a sheet's like slots share one


def cut_bands(art, shape, bleed: float, turned: bool, room: Room, x: float, y: float, memo=None) -> list[tuple]:
    """[(colour, polygon)] of the face's bands cut to its room, in the slot's own frame (x, y at the origin),
    a run of like bands as one polygon (join_runs), every polygon turning the same way (paint_bleed fills
    a stage's polygons as one path): worked out once for each face and room (a sheet of hex
    tiles repeats a few faces in a few rooms), and taken from `memo` (pnpgen.render.bleed_memo) for a
    drawing and room an earlier build cut."""
    planes = tuple((nx, ny, round(c - nx * x - ny * y, 4)) for nx, ny, c in room.apart)
    key = (id(art), turned, tuple(round(v, 4) for v in room[:4]), planes)
    found = _cuts.get(key)
    if found is not None and found[0]() is art:
        return found[1]
    if len(_cuts) > 16384:
        _cuts.clear()

    def work() -> list:
        colours = band_colours(art, shape, bleed, memo)
        shapes = _clipped(shape, bleed, (art.width, art.height), *key[1:])
        return [(colour, counter_clockwise(points)) for colour, points in join_runs(
            [(colour, *clipped) for colour, clipped in zip(colours, shapes) if colour is not None and clipped])]
    cut = memo.cut(art, shape, bleed, key[1:], work) if memo is not None else work()
    _cuts[key] = (weakref.ref(art), cut)
    return cut


_clips: dict = {}   # (shape, bleed, art size, turned, room, planes) -> every band cut: faces of one shape share it


def _clipped(shape, bleed: float, size: tuple, turned: bool, sides: tuple, planes: tuple) -> list:
    """For each of the shape's bands, (polygon, edge, whole, rectangle) cut to the room (its sides and
    half-planes in the slot's frame, rounded to 0.0001 pt, so the float noise of a grid's arithmetic does
    not decide the cut), or None where nothing is left: the cutting does not depend on the face, only on its
    shape and room, so a sheet of like-shaped pieces cuts each room's bands once."""
    key = (shape, bleed, size, turned, sides, planes)
    if key in _clips:
        return _clips[key]
    if len(_clips) > 4096:
        _clips.clear()
    left, top, right, bottom = sides
    box = (bleed - left, bleed - top, bleed + shape.w + right, bleed + shape.h + bottom)
    out = []
    for edge, quad, _ in band_geometry(shape, bleed):
        points = [(size[0] - px, size[1] - py) for px, py in quad] if turned else quad
        clipped = clip_to_box(points, box)
        if planes:
            xs, ys = [p[0] for p in clipped], [p[1] for p in clipped]
            low, high = (min(xs), min(ys)), (max(xs), max(ys))
            for nx, ny, c in planes:     # a band whose box lies inside the half-plane is not cut by it
                if nx * (high[0] if nx > 0 else low[0]) + ny * (high[1] if ny > 0 else low[1]) > c:
                    clipped = clip_to_half_plane(clipped, (nx, ny, c))
                    if not clipped:
                        break
        out.append((clipped, edge, clipped is points, rectangle_of(clipped)) if len(clipped) >= 3 else None)
    _clips[key] = out
    return out


SIDES = ("left", "top", "right", "bottom")     # the order of a room; a box's polygon edges run top, right,
EDGE_OF_SIDE = {"top": 0, "right": 1, "bottom": 2, "left": 3}   # bottom, left


def side_colour(art, shape, bleed: float, side: str, turned: bool, memo=None):
    """The mean colour just inside one side of a box-shaped face as it lies on the page, or None (paper).
    `memo`: band_colours'."""
    if turned:
        side = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}[side]
    return _side_means(art, shape, bleed, memo).get(EDGE_OF_SIDE[side])


def side_colours(art, shape, bleed: float, turned: bool, memo=None) -> tuple:
    """(left, top, right, bottom): side_colour of each side of a box-shaped face as it lies on the page,
    looked up once for a slot (the bare-edge preflight asks each side of it, and its neighbours')."""
    means = _side_means(art, shape, bleed, memo)
    return tuple(means.get(EDGE_OF_SIDE[side]) for side in (TURNED_SIDES if turned else SIDES))


TURNED_SIDES = ("right", "bottom", "left", "top")   # what lies at each of SIDES of a face turned half round


_means: dict = {}    # id(art) -> (weak reference to the art, {edge: mean colour})


def _side_means(art, shape, bleed: float, memo=None) -> dict:
    """{edge: the mean of its non-paper band colours} of a face, worked out once (the bare-edge preflight
    asks for each side of each slot, and a sheet repeats its faces), and taken from `memo`
    (pnpgen.render.bleed_memo) for a drawing an earlier build worked them out for: they depend on its
    drawing alone, so after a data edit only the changed faces' are worked out again."""
    key = id(art)
    if key in _means and _means[key][0]() is art:
        return _means[key][1]
    if len(_means) > 4096:
        _means.clear()

    def work() -> dict:
        by_edge: dict = {}
        for colour, (edge, _, _) in zip(band_colours(art, shape, bleed, memo), band_geometry(shape, bleed)):
            if colour is not None:
                by_edge.setdefault(edge, []).append(colour)
        return {edge: tuple(sum(c[k] for c in colours) / len(colours) for k in range(3))
                for edge, colours in by_edge.items()}
    means = memo.means(art, shape, bleed, work) if memo is not None else work()
    _means[key] = (weakref.ref(art), means)
    return means


def page_bare_edges(rects: list[tuple], rooms: list[tuple], colours: list[tuple], memo=None) -> list[tuple]:
    """bare_edges of a page whose slots' side colours are `colours` [(left, top, right, bottom) or None, as
    side_colours gives them], taken from `memo` (pnpgen.render.bleed_memo) for a page an earlier build
    weighed: what it finds depends on the rects, which sides have no room for bleed and those colours
    only, so a page whose faces changed in their middle (a number on a counter) is not weighed again."""
    least = parse_length("0.25mm")
    index = {side: k for k, side in enumerate(SIDES)}

    def work() -> list:
        return bare_edges(rects, rooms, lambda i, side: colours[i][index[side]] if colours[i] else None)
    if memo is None:
        return work()
    key = (tuple(tuple(rect) for rect in rects), tuple(tuple(room[k] < least for k in range(4)) for room in rooms),
           tuple(colours))
    return memo.bare(key, len(rects), work)


def bare_edges(rects: list[tuple], rooms: list[tuple], colour_of) -> list[tuple[int, str, str]]:
    """(rect index, side, "neighbour" or "edge") of every coloured edge of a box-shaped piece that gets no
    bleed (room under 0.25 mm) and whose cut a neighbour of another colour shares, or that meets the page's
    printable edge: where a cut 0.5 mm off shows another colour or paper. `colour_of(index, side)` ->
    side_colour or None (paper). A tint as pale as SAME_COLOUR counts as paper: beside paper, it shows no edge."""
    out, facing, least = [], _facing_edges(rects), parse_length("0.25mm")
    for i, room in enumerate(rooms):
        for k, side in enumerate(SIDES):
            if room[k] >= least:
                continue
            mine = colour_of(i, side) or PAPER
            if _alike(mine, PAPER):
                continue
            line, cells = round(_line(rects[i], side) * 10), _cells(rects[i], side)
            near = [j for step in (-1, 0, 1) for cell in cells for j in facing[side].get((line + step, cell), ())]
            across = [j for j in sorted(set(near)) if j != i and _shares(rects[i], rects[j], side)]
            if not across:
                out.append((i, side, "edge"))
            elif not all(_alike(mine, colour_of(j, SIDES[(k + 2) % 4]) or PAPER) for j in across):
                out.append((i, side, "neighbour"))
    return out


def _line(rect: tuple, side: str) -> float:
    x, y, w, h = rect
    return {"left": x, "right": x + w, "top": y, "bottom": y + h}[side]


def _facing_edges(rects: list[tuple]) -> dict:
    """{side: {(cut line in tenths of a point, cell along it): [rects whose opposite edge lies on it there]}}:
    the neighbours across a side are looked up, not searched for among every piece of the page, nor among
    every piece of its column (a piece shares a cut with the one or two across it, and only those share a
    FACING_CELL of the line with it)."""
    opposite = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}
    facing: dict = {side: {} for side in SIDES}
    for j, rect in enumerate(rects):
        for side in SIDES:
            line = round(_line(rect, opposite[side]) * 10)
            for cell in _cells(rect, side):
                facing[side].setdefault((line, cell), []).append(j)
    return facing


FACING_CELL = 36.0   # points: the stretch of a cut line neighbours are looked up in


def _cells(rect: tuple, side: str) -> range:
    """The FACING_CELLs a rect's extent along `side`'s line covers: two rects sharing more than a point of
    that line share a cell."""
    x, y, w, h = rect
    low, high = (y, y + h) if side in ("left", "right") else (x, x + w)
    return range(math.floor(low / FACING_CELL), math.floor(high / FACING_CELL) + 1)


PAPER = (1.0, 1.0, 1.0)
SAME_COLOUR = 0.2                  # two edge colours this close in every channel read as one at a cut's edge


def _alike(a: tuple, b: tuple) -> bool:
    return max(abs(p - q) for p, q in zip(a, b)) <= SAME_COLOUR


def _shares(mine: tuple, other: tuple, side: str) -> bool:
    """Whether `other` lies right across `side` of `mine`, sharing part of that cut line."""
    x, y, w, h = mine
    ox, oy, ow, oh = other
    if side in ("left", "right"):
        line = x if side == "left" else x + w
        edge = ox + ow if side == "left" else ox
        return abs(line - edge) < 0.05 and min(y + h, oy + oh) - max(y, oy) > 0.5
    line = y if side == "top" else y + h
    edge = oy + oh if side == "top" else oy
    return abs(line - edge) < 0.05 and min(x + w, ox + ow) - max(x, ox) > 0.5


def forget() -> None:
    """Let go of the faces' bands, cuts and colours worked out for a part: its build is over, and the worker
    that drew it may go on to build another part (SE4X's cuts held some megabytes the next part's peak
    stood on)."""
    for memo in (_edges, _rooms, _geometry, _cuts, _clips, _means, _forms, _rectangles):
        memo.clear()
