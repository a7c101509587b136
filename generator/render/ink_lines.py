"""The lines a recorded face strokes, as straight segments in the face's points, and the opaque fills drawn
over them: read back from its cairo calls (pnpgen.render.face_store records them) so the preflight can tell
text that a visible line crosses, and the colour each text is set in over the grounds drawn under it (the
fills, whatever their opacity, and the images, for the contrast preflight). Curves and arcs are cut into
short chords; clips and patterns are left out."""
from __future__ import annotations

import math
from functools import lru_cache

from pnpgen.contrast import over_paper
from pnpgen.render.svg_ops import apply as _apply, multiply

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
CURVE_STEPS = 8           # chords per Bézier curve
ARC_STEP = math.pi / 18   # at most 10 degrees of arc per chord
FAINT = 0.5               # a stroke less opaque than this is a tint or texture behind text, not a line
OPAQUE = 0.99             # a fill at least this opaque hides what lies under it
CELL = 24.0               # points: the side of the grid squares runs of strokes are filed under for near()
GRID_FROM = 2000          # runs times texts asked about: below it, scanning them all costs less than filing
RUN = 16                  # segments of one stroke or fill held under one box (an arc's chords, a path's sides)


_CURVE_STEPS = [(step / CURVE_STEPS, 1 - step / CURVE_STEPS) for step in range(1, CURVE_STEPS + 1)]


class StrokeReader:
    """Follows the matrix, the path and the source alpha through a list of ops; keeps what is stroked."""

    def __init__(self):
        self.matrix, self.stack = IDENTITY, []
        self.point = self.start = None
        self.width, self.alpha, self.light = 2.0, 1.0, 0.0   # light: the source colour's lightness, 0-1
        self.subpath: list = []       # the segments (x0, y0, x1, y1), device points, of the subpath being drawn
        self.ended: list = []         # (segments, end point, start point) of the path's earlier subpaths:
                                      # joined, and closed into areas, only when the path is stroked or filled
        self.rgb = (0.0, 0.0, 0.0)    # the source colour, 0-1 each
        self.clip_box = None          # the bounds of the last clip path (an <image>'s own rectangle)
        self.grounds: list = []       # [order, bounds, segments or None (an image), rgb, alpha] of every fill
        self.text_colours: list = []  # (rgb, alpha) of each show_text, in the order of text_orders
        self.strokes: list = []       # runs [half width, segments, order, lightness, alpha]: lines, fills' edges
        self.covers: list = []        # (order, bounding box, segments) of every opaque fill
        self.text_orders: list = []   # the order of each show_text, the k-th one drawing the face's k-th text
        self.order = 0
        self.groups: list = []        # where each open group's strokes and covers begin

    def read(self, ops) -> "StrokeReader":
        handlers, stack = _handlers(), self.stack
        for order, op in enumerate(ops):
            name = op[0]
            if name == "save":   # a third of a face's calls: kept out of the method calls below
                stack.append((self.matrix, self.width, self.alpha, self.light))
            elif name == "restore":
                if stack:
                    self.matrix, self.width, self.alpha, self.light = stack.pop()
            else:
                handler = handlers.get(name)
                if handler is not None:
                    self.order = order
                    handler(self, *op[1:])
        self.strokes = [run[:4] for run in self.strokes if run[4] >= FAINT]
        self.covers = [cover[:4] for cover in self.covers if cover[4] >= OPAQUE]
        self.grid, self.reach, self.queries = None, None, 0
        return self

    def _add_run(self, half, segments):
        """The segments stroked (or a fill's edges) in runs of at most RUN: near() holds a text against a run's
        box first, so the ten-degree chords of an arc far from it cost one test, not one each."""
        for start in range(0, len(segments), RUN):
            self.strokes.append([half, segments[start:start + RUN], self.order, self.light, self.alpha])

    def near(self, box) -> list:
        """The strokes (half width, x0, y0, x1, y1, order, lightness) whose ink reaches the box, in drawing
        order: the runs' boxes held against it (all of them while few texts have asked, those filed under the
        box's grid squares once many have: the thousands of strokes of a board filed once), then the
        segments of the runs that meet it. A stroke far from the text costs part of one comparison."""
        self.queries += 1
        if self.reach is None:
            self.reach = [_run_box(half, segments) for half, segments, _, _ in self.strokes]
        left, top, right, bottom = box[:4]
        if len(self.strokes) * self.queries < GRID_FROM:
            runs = [run for run, (x0, y0, x1, y1) in zip(self.strokes, self.reach)
                    if x0 <= right and x1 >= left and y0 <= bottom and y1 >= top]
        else:
            if self.grid is None:
                self.grid = _file_by_square(self.reach)
            found = set()
            for column in range(math.floor(left / CELL), math.floor(right / CELL) + 1):
                for row in range(math.floor(top / CELL), math.floor(bottom / CELL) + 1):
                    found.update(self.grid.get((column, row), ()))
            reach = self.reach
            runs = [self.strokes[index] for index in sorted(found) if reach[index][0] <= right and
                    reach[index][2] >= left and reach[index][1] <= bottom and reach[index][3] >= top]
        return [(half, x0, y0, x1, y1, order, light) for half, segments, order, light in runs
                for x0, y0, x1, y1 in segments
                if min(x0, x1) - half <= right and max(x0, x1) + half >= left
                and min(y0, y1) - half <= bottom and max(y0, y1) + half >= top]

    # State
    def op_save(self):
        self.stack.append((self.matrix, self.width, self.alpha, self.light, self.rgb))

    def op_restore(self):
        if self.stack:
            self.matrix, self.width, self.alpha, self.light, self.rgb = self.stack.pop()

    def op_push_group(self):
        self.op_save()
        self.groups.append((len(self.strokes), len(self.covers), len(self.grounds)))

    op_pop_group_to_source = op_restore

    def op_paint_with_alpha(self, alpha):
        """A group painted at `alpha` (an SVG group's opacity): what it drew is that much fainter."""
        if self.groups:
            strokes, covers, grounds = self.groups.pop()
            self.strokes[strokes:] = [[*run[:4], run[4] * alpha] for run in self.strokes[strokes:]]
            self.covers[covers:] = [(*cover[:4], cover[4] * alpha) for cover in self.covers[covers:]]
            self.grounds[grounds:] = [[*ground[:4], ground[4] * alpha] for ground in self.grounds[grounds:]]

    def op_translate(self, x, y):
        self.matrix = multiply(self.matrix, (1, 0, 0, 1, x, y))

    def op_scale(self, sx, sy):
        self.matrix = multiply(self.matrix, (sx, 0, 0, sy, 0, 0))

    def op_rotate(self, angle):
        cos, sin = math.cos(angle), math.sin(angle)
        self.matrix = multiply(self.matrix, (cos, sin, -sin, cos, 0, 0))

    def op_transform(self, *values):
        self.matrix = multiply(self.matrix, tuple(values))

    def op_set_matrix(self, *values):
        self.matrix = tuple(values)

    def op_identity_matrix(self):
        self.matrix = IDENTITY

    def op_set_line_width(self, width):
        self.width = width

    def op_set_source_rgba(self, r, g, b, a):
        self.alpha, self.light, self.rgb = a, lightness(r, g, b), (r, g, b)

    def op_set_source_rgb(self, r, g, b):
        self.alpha, self.light, self.rgb = 1.0, lightness(r, g, b), (r, g, b)

    # Path
    def _to(self, x, y):
        a, b, c, d, e, f = self.matrix
        point = (a * x + c * y + e, b * x + d * y + f)
        if self.point is not None:
            self.subpath.append((*self.point, *point))
        else:
            self.start = point
        self.point = point

    def _segment(self, end):
        self.subpath.append((*self.point, *end))
        self.point = end

    def _path(self) -> list:
        """The segments of the whole current path, in drawing order."""
        if not self.ended:
            return self.subpath
        return [segment for segments, _, _ in self.ended for segment in segments] + self.subpath

    def _end_subpath(self):
        """Kept as it is: most paths are stroked or filled once, and a subpath's area is needed only by a
        fill (working it out at every move cost more than the rest of the reading)."""
        if self.subpath:
            self.ended.append((self.subpath, self.point, self.start))
        self.subpath = []

    def op_move_to(self, x, y):
        self._end_subpath()
        self.point = self.start = _apply(self.matrix, x, y)

    op_line_to = _to

    def op_rel_move_to(self, dx, dy):
        self._end_subpath()
        self.point = self.start = self._moved(dx, dy)

    def op_rel_line_to(self, dx, dy):
        self._segment(self._moved(dx, dy))

    def _moved(self, dx, dy):
        a, b, c, d, _, _ = self.matrix
        x, y = self.point or (0.0, 0.0)
        return x + a * dx + c * dy, y + b * dx + d * dy

    def op_curve_to(self, x1, y1, x2, y2, x3, y3):
        if self.point is None:   # no current point: cairo starts the curve at its first control point
            p0 = self._user_point()
            for step in range(1, CURVE_STEPS + 1):
                t = step / CURVE_STEPS
                u = 1 - t
                self._to(u ** 3 * p0[0] + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                         u ** 3 * p0[1] + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3)
            return
        (x0, y0), (a, b, c, d, e, f) = self._user_point(), self.matrix
        points = [self.point]
        for t, u in _CURVE_STEPS:
            x = u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3
            y = u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3
            points.append((a * x + c * y + e, b * x + d * y + f))
        self.subpath.extend([(*points[index], *points[index + 1]) for index in range(CURVE_STEPS)])
        self.point = points[-1]

    def op_rel_curve_to(self, dx1, dy1, dx2, dy2, dx3, dy3):
        """cairosvg draws a rounded rect's corners with it: relative to the current point (left out, every
        side after the first corner was read a corner's radius off)."""
        x, y = self._user_point()
        self.op_curve_to(x + dx1, y + dy1, x + dx2, y + dy2, x + dx3, y + dy3)

    def _user_point(self):
        """The current point in user space (the inverse of the matrix applied to the device point)."""
        a, b, c, d, e, f = self.matrix
        x, y = self.point or (0.0, 0.0)
        det = a * d - b * c or 1e-12
        x, y = x - e, y - f
        return (d * x - c * y) / det, (-b * x + a * y) / det

    def op_arc(self, cx, cy, r, start, end):
        while end < start:
            end += 2 * math.pi
        self._arc(cx, cy, r, start, end)

    def op_arc_negative(self, cx, cy, r, start, end):
        while end > start:
            end -= 2 * math.pi
        self._arc(cx, cy, r, start, end)

    def _arc(self, cx, cy, r, start, end):
        """The arc's chords, at most ARC_STEP of angle each, added in one go (thousands of arcs on a deck:
        the points are worked out here, not a call each)."""
        a, b, c, d, e, f = self.matrix
        points = []
        for cos, sin in _turns(start, end):
            x, y = cx + r * cos, cy + r * sin
            points.append((a * x + c * y + e, b * x + d * y + f))
        steps = len(points) - 1
        if self.point is None:
            self.point = self.start = points[0]
        else:
            self._segment(points[0])
        self.subpath.extend([(*points[index], *points[index + 1]) for index in range(steps)])
        self.point = points[-1]

    def op_rectangle(self, x, y, w, h):
        self.op_move_to(x, y)
        for px, py in ((x + w, y), (x + w, y + h), (x, y + h)):
            self._to(px, py)
        self.op_close_path()

    def op_close_path(self):
        if self.point is not None and self.start is not None and self.point != self.start:
            self._segment(self.start)
        self._end_subpath()
        self.point = self.start

    def op_new_sub_path(self):
        self._end_subpath()
        self.point = self.start = None

    def op_new_path(self):
        self.subpath, self.ended, self.point, self.start = [], [], None, None

    # Use of the path
    def op_stroke_preserve(self):
        if self.alpha > 0 and self.width > 0:
            a, b, c, d, _, _ = self.matrix
            half = self.width * math.sqrt(abs(a * d - b * c)) / 2
            self._add_run(half, self._path())

    def op_stroke(self):
        self.op_stroke_preserve()
        self.op_new_path()

    def _areas(self) -> list:
        """The current path's subpaths, each closed into the area it encloses (for a fill or a clip)."""
        segments = [segment for ended in self.ended for segment in _closed(*ended)]
        return segments + _closed(self.subpath, self.point, self.start)

    def op_fill_preserve(self):
        if self.alpha <= 0:
            return
        segments = self._areas()
        if segments:
            xs = [x for s in segments for x in (s[0], s[2])]
            ys = [y for s in segments for y in (s[1], s[3])]
            self.covers.append((self.order, (min(xs), min(ys), max(xs), max(ys)), segments, self.light, self.alpha))
            self.grounds.append([self.order, self.covers[-1][1], segments, self.rgb, self.alpha])
            self._add_run(0.0, segments)

    def op_fill(self):
        self.op_fill_preserve()
        self.op_new_path()

    def op_clip(self):
        segments = self._areas()
        if segments:
            xs = [x for s in segments for x in (s[0], s[2])]
            ys = [y for s in segments for y in (s[1], s[3])]
            self.clip_box = (min(xs), min(ys), max(xs), max(ys))
        self.op_new_path()

    def op_paint_image(self, path, digest, opacity=1.0):
        """A picture (svg_ops clips it to its own rectangle first): a ground no colour can be read from."""
        if self.clip_box is not None and opacity > 0:
            self.grounds.append([self.order, self.clip_box, None, path, opacity])

    def op_show_text(self, text):
        self.text_orders.append(self.order)
        self.text_colours.append((self.rgb, self.alpha))

    def hidden(self, box, after: int, before: int) -> bool:
        """Whether an opaque fill drawn between the orders `after` and `before` covers the whole box."""
        return any(after < order < before and _covers(bounds, segments, box)
                   for order, bounds, segments, _ in self.covers)

    def backing(self, box, before: int) -> tuple:
        """(colour, image) under the whole box before the order `before`: the fills that cover all of it
        composited over the white paper (each at its opacity), and the path of a picture drawn over the box
        with no opaque fill between it and the text (None when there is none)."""
        layers = []
        for order, bounds, segments, paint, alpha in reversed(self.grounds):
            if order >= before:
                continue
            if segments is None:
                if _meets(bounds, box):
                    return over_paper(layers), paint
            elif _covers(bounds, segments, box):
                layers.append((paint, alpha))
                if alpha >= OPAQUE:
                    break
        return over_paper(layers), None

    def ground(self, box, before: int) -> float:
        """The lightness of what lies under the whole box before the order `before`: the last opaque fill
        that covers it, or the white paper."""
        for order, bounds, segments, light in reversed(self.covers):
            if order < before and _covers(bounds, segments, box):
                return light
        return 1.0


@lru_cache(maxsize=256)
def _turns(start: float, end: float) -> tuple:
    """(cos, sin) of the angles an arc from `start` to `end` is cut at (at most ARC_STEP apart): a deck's
    thousands of circles and rounded corners share a few arcs, worked out once."""
    steps = max(1, math.ceil(abs(end - start) / ARC_STEP))
    span = end - start
    angles = [start + span * step / steps if step else start for step in range(steps + 1)]
    return tuple((math.cos(angle), math.sin(angle)) for angle in angles)


@lru_cache(maxsize=1)
def _handlers() -> dict:
    """{call name: StrokeReader method} of the calls that matter here (the rest are skipped unread)."""
    return {name[3:]: function for name, function in vars(StrokeReader).items() if name.startswith("op_")}


def _closed(segments: list, point, start) -> list:
    """A subpath as a fill closes it (back to its start); empty when it encloses no area (a lone line)."""
    if point is not None and start is not None and point != start:
        segments = segments + [(*point, *start)]
    area = sum(x0 * y1 - x1 * y0 for x0, y0, x1, y1 in segments) / 2
    return segments if abs(area) > 0.01 else []


def _run_box(half, segments) -> tuple:
    """The box (left, top, right, bottom) a run of segments' ink reaches, their half width included."""
    x0s, y0s, x1s, y1s = zip(*segments)
    return (min(min(x0s), min(x1s)) - half, min(min(y0s), min(y1s)) - half,
            max(max(x0s), max(x1s)) + half, max(max(y0s), max(y1s)) + half)


def _file_by_square(reach) -> dict:
    """{(column, row): [run index]} of every grid square each run's box (its width included) meets."""
    grid: dict = {}
    for index, (x0, y0, x1, y1) in enumerate(reach):
        for column in range(math.floor(x0 / CELL), math.floor(x1 / CELL) + 1):
            for row in range(math.floor(y0 / CELL), math.floor(y1 / CELL) + 1):
                grid.setdefault((column, row), []).append(index)
    return grid


def _meets(bounds, box) -> bool:
    """Whether two boxes overlap by more than a hair (a picture that only touches a text's edge does not)."""
    return min(bounds[2], box[2]) - max(bounds[0], box[0]) > 0.5 and min(bounds[3], box[3]) - max(bounds[1], box[1]) > 0.5


def lightness(r, g, b) -> float:
    """The colour's luma (0 black, 1 white): how far it stands out from a ground of another lightness."""
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _covers(bounds, segments, box) -> bool:
    x0, y0, x1, y1 = bounds
    return x0 <= box[0] and y0 <= box[1] and box[2] <= x1 and box[3] <= y1 \
        and all(_inside(point, segments) for point in _corners(box))


def _corners(box):
    return ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3]))


def _inside(point, segments) -> bool:
    """Even-odd: a ray to the right of the point crosses the outline an odd number of times."""
    px, py = point
    inside = False
    for x0, y0, x1, y1 in segments:
        if (y0 > py) != (y1 > py) and px < x0 + (py - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def read_ink(ops) -> StrokeReader:
    """The visible strokes and the edges of opaque fills in `ops` (.near(box): half line width, x0, y0, x1,
    y1, order, lightness; text that an edge runs through straddles two grounds), the opaque fills that
    may hide them (.hidden) and the order each text was drawn in (.text_orders), in the face's points."""
    return StrokeReader().read(ops)
