"""Scenario map pictures for the set-up chapter, drawn from the kit's own boards (generator.maps).

`scenario_figure(kit, scenario)` returns a Figure holding that scenario's whole board, or None when the kit
has no board for it; the booklet then shows the scenario's numbers instead (booklet/chapters.py).
"""
from __future__ import annotations

from games.space_empires_4x.maps.draw import scenario_map_svg
from generator.booklet.figure import Art, Figure
from generator.model import Kit

MAP_WIDTH = 230.0  # points: a small picture of the whole map, across most of the page
_DRAWN: dict = {}  # (id of kit, scenario id) -> (kit, Figure | None): the load's check draws for the build


def scenario_figure(kit: Kit, scenario) -> Figure | None:
    drawn = _DRAWN.get((id(kit), scenario.id))
    if drawn is not None and drawn[0] is kit:
        return drawn[1]
    svg = scenario_map_svg(kit, scenario.id)
    figure = Figure(f"scenario-map:{scenario.id}", (Art(svg, f"map of {scenario.name}", scenario.name),),
                    width=MAP_WIDTH) if svg else None
    if len(_DRAWN) > 64:
        _DRAWN.clear()
    _DRAWN[(id(kit), scenario.id)] = (kit, figure)
    return figure
