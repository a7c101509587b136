"""Scenario map pictures for the set-up chapter, drawn from the kit's own boards (generator.maps).

`scenario_figure(kit, scenario)` returns a Figure holding that scenario's whole board, or None when the kit
has no board for it; the booklet then shows the scenario's numbers instead (story side, parts/booklet.py).
"""
from __future__ import annotations

from games.space_empires_4x.booklet.figures import Art, Figure
from games.space_empires_4x.maps.draw import scenario_map_svg
from generator.model import Kit

MAP_WIDTH = 230.0  # points: a small picture of the whole map, across most of the page


def scenario_figure(kit: Kit, scenario) -> Figure | None:
    svg = scenario_map_svg(kit, scenario.id)
    if not svg:
        return None
    return Figure(f"scenario-map:{scenario.id}", (Art(svg, f"map of {scenario.name}", scenario.name),), width=MAP_WIDTH)
