"""The geometry of the home bleed's bands (pnpgen.render.home_bleed): convex polygons cut to a piece's room
(its box and the half-planes at its corners), and a run of like bands joined into as few polygons as a PDF
viewer fills the same way. Points only: no drawing, no kit."""
from __future__ import annotations


def counter_clockwise(points: list) -> list:
    """The polygon going round the way of increasing angle in its own coordinates (positive area): cairo's
    non-zero rule then fills the union of any polygons of one path that turn the same way, where one turning
    the other way would cut a hole where they overlap."""
    area = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(points, points[1:] + points[:1]))
    return points if area >= 0 else points[::-1]


def join_runs(cut: list[tuple]) -> list[tuple]:
    """The cut bands [(colour, points, edge, whole, rectangle)] with each run of one colour along one edge
    painted as few polygons, in the bands' order. Bands the cut left whole (a hex's or disc's quads) join
    into the quad from the run's first end to its last (no seam shows between them). Axis-aligned
    rectangles across the same width (a box's sides) keep their first and last band and join those between:
    a PDF viewer fills a lone rectangle pixel-snapped, not anti-aliased (pdfium: its outer pixels, less one
    where that would widen it by a pixel), so a long rectangle's end may fall a pixel short of its band's,
    and where the run meets a band the cut made into anything else (the corner a diagonal neighbour shares,
    anti-aliased) that pixel showed as a pale line along the grid's holes. With its own end bands a run
    ends on the same pixels as its bands did."""
    runs: list = []
    for colour, points, edge, whole, rect in cut:     # (colour, *_clipped's band)
        last = runs[-1] if runs else None
        if last and last[0] == colour and last[1] == edge and _joins(last[2][-1], whole, rect):
            last[2].append((points, whole, rect))
        else:
            runs.append((colour, edge, [(points, whole, rect)]))
    out = []
    for colour, _, members in runs:
        if len(members) > 1 and members[0][2] is None:            # whole quads along a slanted side
            first, last = members[0][0], members[-1][0]
            out.append((colour, [first[0], last[1], last[2], first[3]]))
            continue
        if len(members) > 3:
            members = [members[0], (_union(members[1:-1]), False, None), members[-1]]
        out.extend((colour, points) for points, _, _ in members)
    return out


def _joins(last: tuple, whole: bool, rect) -> bool:
    """Whether a band joins the run whose last band is `last` (points, whole, rectangle): both whole quads,
    or both axis-aligned rectangles across the same width that meet or overlap."""
    a, b = last[2], rect
    if a is None or b is None:
        return a is None and b is None and whole and last[1]
    if abs(a[1] - b[1]) < 1e-9 and abs(a[3] - b[3]) < 1e-9:
        return b[0] <= a[2] and a[0] <= b[2]
    if abs(a[0] - b[0]) < 1e-9 and abs(a[2] - b[2]) < 1e-9:
        return b[1] <= a[3] and a[1] <= b[3]
    return False


def _union(members: list) -> list[tuple]:
    """One rectangle covering the rectangles of a run's bands [(points, whole, rectangle)], going round the
    same way as its first band."""
    if len(members) == 1:
        return members[0][0]
    boxes = [rect for _, _, rect in members]
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
    like = members[0][0]
    area = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(like, like[1:] + like[:1]))
    return corners if area > 0 else corners[::-1]


def rectangle_of(points: list):
    """(left, top, right, bottom) of an axis-aligned rectangle given as its 4 corners in order, else None."""
    if len(points) != 4:
        return None
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points
    if abs(x0 - x1) < 1e-9 and abs(y1 - y2) < 1e-9 and abs(x2 - x3) < 1e-9 and abs(y3 - y0) < 1e-9 or \
            abs(y0 - y1) < 1e-9 and abs(x1 - x2) < 1e-9 and abs(y2 - y3) < 1e-9 and abs(x3 - x0) < 1e-9:
        if abs(x0 - x2) > 1e-9 and abs(y0 - y2) > 1e-9:
            return min(x0, x2), min(y0, y2), max(x0, x2), max(y0, y2)
    return None


def clip_to_box(points: list[tuple], box: tuple) -> list[tuple]:
    """A convex polygon cut to the box (left, top, right, bottom); the same list where it lies inside. Only
    the sides it crosses cut it (a band of a side is cut by one side of its room, at most three)."""
    left, top, right, bottom = box
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    for plane, outside in (((-1.0, 0.0, -left), min(xs) < left), ((0.0, -1.0, -top), min(ys) < top),
                           ((1.0, 0.0, right), max(xs) > right), ((0.0, 1.0, bottom), max(ys) > bottom)):
        if outside:
            points = clip_to_half_plane(points, plane)
    return points


def clip_to_half_plane(points: list[tuple], plane: tuple) -> list[tuple]:
    """The part of a convex polygon where nx * x + ny * y <= c, plane = (nx, ny, c) (Sutherland-Hodgman);
    the same list where it lies wholly inside (most bands: only the corners are cut)."""
    nx, ny, c = plane
    sides = [nx * p[0] + ny * p[1] - c for p in points]
    sides = [0.0 if abs(d) < 1e-9 else d for d in sides]    # on the line: no sliver from rounding noise
    if not sides or max(sides) <= 0:
        return points
    if min(sides) > 0:
        return []
    out = []
    for k, a in enumerate(points):
        b, da, db = points[k - len(points) + 1], sides[k], sides[k - len(points) + 1]
        if da <= 0:
            out.append(a)
        if (da <= 0) != (db <= 0):
            t = da / (da - db)
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out
