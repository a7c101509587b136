"""Scenario map pictures for the set-up chapter, drawn from the kit's own hex maps (pnpgen.maps).

A scenario with a board gets a figure holding that whole board, drawn only when the booklet places it (a
chapter rendered at load to be checked draws nothing); without one, the booklet shows the scenario's
numbers instead (booklet/chapters.py).
"""
from __future__ import annotations

from pnpgen.booklet.figure import Art, Figure
from pnpgen.model import Kit

MAP_WIDTH = 230.0  # points: a small picture of the whole map, across most of the page


def scenario_hexmap(kit: Kit, scenario_id: str):
    """The kit's board for a scenario, or None."""
    return next((m for m in kit.maps if m.extra["scenario"] == scenario_id), None)


def scenario_figure(kit: Kit, scenario, hexmap) -> Figure:
    """The board as a thumbnail: the grid only, no coordinates (unreadable that small)."""
    from pnpgen.maps.draw import compose, map_svg
    svg = map_svg(kit, compose(kit, hexmap, kit.counter_size), thumbnail=True)
    return Figure(f"scenario-map:{scenario.id}", (Art(svg, f"map of {scenario.name}", scenario.name),),
                  width=MAP_WIDTH)
