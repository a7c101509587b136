"""Gutters that cost no pieces: a print group of square or rectangular pieces keeps the gaps kit.yaml sets
(`gutter`, `row_gutter`) where the pages hold as many pieces with them as with the narrowest gap that
still gives every side bleed; where the set gaps would push pieces to another page, each is narrowed,
the gap between columns first, then the one between rows, to the widest that holds that count and keeps
the grid that far from the printable edge.

A gap is there for the home bleed (pnpgen.render.home_bleed: each piece takes half of it), so FLOOR is
twice the least bleed the bleed preflight accepts: narrower, a side would be bare; wider costs pieces on a
page the kit means to fill. Circles, hexes and pieces cut round their own outlines keep their gaps (there
they are cutting room, not only bleed).
Numbers only, like all layout: each try is a packing of the group's runs, without drawing."""
from __future__ import annotations

import dataclasses

from pnpgen.layout.sheets import area, mark_room
from pnpgen.lengths import parse_length

FLOOR = parse_length("0.5mm")   # the narrowest gap: 0.25 mm of bleed a side, what the bleed preflight asks
STEP = parse_length("0.05mm")   # how finely a narrower gap is sought
BOXES = ("square", "rect")


def fitted(runs: list, pack) -> list:
    """`runs` (pnpgen.layout.packing.Run) with the box runs' gaps narrowed where the set ones cost pieces
    (`pack(runs)` -> Packing); the runs themselves where they cost none, or no run is a box with a gap."""
    widest = max((max(r.settings.gutter, r.settings.row_gap) for r in runs if _bleed_gap(r)), default=0.0)
    if widest <= FLOOR:
        return runs
    want = _counts(pack(capped(runs, FLOOR, FLOOR)))
    if _counts(pack(runs)) == want:
        return runs

    def holds(columns: float, rows: float) -> bool:
        packing = pack(capped(runs, columns, rows))
        return _counts(packing) == want and _clearance(packing, runs) >= FLOOR
    columns = _widest(lambda c: holds(c, FLOOR), widest)
    rows = _widest(lambda c: holds(columns, c), widest)
    return capped(runs, columns, rows)


def capped(runs: list, columns: float, rows: float) -> list:
    """The runs, each box run's gap between columns at most `columns` and between rows at most `rows` (never
    below its own print-shop bleed's two widths)."""
    out = []
    for run in runs:
        s = run.settings
        if _bleed_gap(run):
            gutter = max(min(s.gutter, columns), 2 * s.bleed)
            row_gutter = max(min(s.row_gap, rows), 2 * s.bleed)
            s = dataclasses.replace(s, gutter=gutter, row_gutter=None if row_gutter == gutter else row_gutter)
        out.append(dataclasses.replace(run, settings=s))
    return out


def _bleed_gap(run) -> bool:
    """Whether the run's gaps are only room for bleed: boxes cut along shared lines or crop marks (a piece cut
    round its own outline needs its gap to cut in)."""
    return run.shape.kind in BOXES and run.settings.marks in ("lines", "crop")


def _widest(holds, top: float) -> float:
    """The widest gap from `top` down to FLOOR, in STEPs, for which `holds(gap)`; FLOOR if none does."""
    steps = int((top - FLOOR) / STEP + 1e-9)
    return next((top - k * STEP for k in range(steps) if holds(top - k * STEP)), FLOOR)


def _counts(packing) -> tuple[int, ...]:
    return tuple(len(page) for page in packing.pages)


def _clearance(packing, runs: list) -> float:
    """The least room between any piece and the edge of the area pieces may take (the printable area less
    the title band): where the outer bleed goes."""
    left, top, width, height = area(packing.page, packing.header_side, max(mark_room(r.settings) for r in runs))
    least = float("inf")
    for page in packing.pages:
        for placed in page:
            shape = runs[placed.run].shape
            least = min(least, placed.x - left, placed.y - top, left + width - placed.x - shape.w,
                        top + height - placed.y - shape.h)
    return least
