"""Laying out a board's tracks: where each space goes, in mm, as numbers only (the board template draws them).

A `grid` track fills rows (or columns) of equal square spaces from its x, y. An `edge` track runs around the
board, clockwise from the top-left corner, `inset` mm inside the edge, like the score track of many games:
four square corners of the track's `cell` and, between them, spaces stretched evenly along each side so the
ring closes exactly. An odd count gives the left side one space fewer than the right.
"""
from __future__ import annotations

import math

MIN_SPACE_MM = 5.0        # a space shorter along the edge than this holds no marker: a located error instead
GRID_ONLY = ("x", "y", "columns", "direction", "start_box", "pitch")
EDGE_ONLY = ("inset",)


def track_cells(track: dict, board_w: float, board_h: float) -> list[dict]:
    """Every space of `track` (and its start box) as {x, y, w, h, text, size, baseline, start}.
    Raises ValueError saying what does not fit."""
    if track["layout"] == "edge":
        return _edge_cells(track, board_w, board_h)
    return _grid_cells(track)


def misplaced_keys(track: dict, given) -> list[str]:
    """Keys the track gives that its layout does not use (a grid's x on an edge track), or needs and lacks."""
    edge = track["layout"] == "edge"
    unused = [k for k in (GRID_ONLY if edge else EDGE_ONLY) if k in given]
    missing = [] if edge else [k for k in ("x", "y") if k not in given]
    return [f"{k}: only a {'grid' if edge else 'edge'} track has it" for k in unused] + \
        [f"{k}: a grid track needs it (where its first space goes)" for k in missing]


def _cell(x: float, y: float, w: float, h: float, text, start: bool = False) -> dict:
    size = min(w, h) / 5 if start else min(w, h) * 0.4
    baseline = y + h / 2 + (1 if start else min(w, h) * 0.12)
    return {"x": x, "y": y, "w": w, "h": h, "text": text, "size": size, "baseline": baseline, "start": start}


def _texts(track: dict) -> list:
    return list(track["values"]) if track["values"] else [track["first"] + i for i in range(track["spaces"])]


def _grid_cells(track: dict) -> list[dict]:
    per = track["columns"] or track["spaces"]
    offset = 1 if track["start_box"] else 0
    x, y, cell = track["x"], track["y"], track["cell"]
    step = track.get("pitch") or cell   # centre to centre: the cell, or more where spaces stand apart
    cells = [_cell(x, y, cell, cell, "Start", start=True)] if track["start_box"] else []
    for i, text in enumerate(_texts(track)):
        k = i + offset
        along, across = (k // per, k % per) if track["direction"] == "down" else (k % per, k // per)
        cells.append(_cell(x + along * step, y + across * step, cell, cell, text))
    return cells


def _edge_cells(track: dict, board_w: float, board_h: float) -> list[dict]:
    inset, t, n = track["inset"], track["cell"], track["spaces"]
    w, h = board_w - 2 * inset, board_h - 2 * inset
    if n < 8 or w < 2 * t + MIN_SPACE_MM or h < 2 * t + MIN_SPACE_MM:
        raise ValueError(f"an edge track needs at least 8 spaces and a board larger than two cells of "
                         f"{t:g} mm plus {MIN_SPACE_MM:g} mm each way inside its inset")
    top, right, left = _sides(n, w - 2 * t, h - 2 * t, t)
    lt, lr, ll = (w - 2 * t) / top, (h - 2 * t) / right, (h - 2 * t) / left
    if min(lt, lr, ll) < MIN_SPACE_MM:
        raise ValueError(f"{n} spaces make spaces {min(lt, lr, ll):.1f} mm long around this board: "
                         f"fewer spaces, a smaller inset or a larger board (at least {MIN_SPACE_MM:g} mm)")
    x0, y0, x1, y1 = inset, inset, inset + w - t, inset + h - t
    boxes = ([(x0, y0, t, t)] + [(x0 + t + i * lt, y0, lt, t) for i in range(top)]
             + [(x1, y0, t, t)] + [(x1, y0 + t + j * lr, t, lr) for j in range(right)]
             + [(x1, y1, t, t)] + [(x1 - (i + 1) * lt, y1, lt, t) for i in range(top)]
             + [(x0, y1, t, t)] + [(x0, y1 - (j + 1) * ll, t, ll) for j in range(left)])
    return [_cell(round(x, 4), round(y, 4), round(bw, 4), round(bh, 4), text)
            for (x, y, bw, bh), text in zip(boxes, _texts(track))]


def _sides(n: int, top_room: float, side_room: float, cell: float) -> tuple[int, int, int]:
    """(spaces along the top (and bottom), the right side, the left side) between the corners: the split
    whose spaces come closest to square (`cell` long), the left side one fewer when the count is odd."""
    rest = n - 4
    best = None
    for top in range(1, rest // 2):
        sides = rest - 2 * top
        right, left = (sides + 1) // 2, sides // 2
        if left < 1:
            continue
        error = max(abs(math.log(top_room / top / cell)), abs(math.log(side_room / right / cell)))
        if best is None or error < best[0]:
            best = (error, top, right, left)
    return best[1:]
