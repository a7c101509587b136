"""The hook for scenario map pictures, which come from the maps work (a `maps` data folder per kit).

`scenario_figure(kit, pieces, scenario)` returns a Figure whose one art is the SVG of that scenario's map,
or None. Until a kit has a `maps` folder and the map renderer offers `scenario_map_svg(kit, scenario_id)`,
the booklet shows the scenario's numbers instead (story-side, see parts/booklet.py).
"""
from __future__ import annotations

import importlib

from generator.booklet.figures import Art, Figure
from generator.model import Kit

MAPS_DIR = "maps"
RENDERER = "generator.maps"   # the module the maps work provides; it must define scenario_map_svg()
MAP_WIDTH = 230.0             # points: a small picture of the whole map, across most of the page


def scenario_figure(kit: Kit, scenario) -> Figure | None:
    if not (kit.root / MAPS_DIR).is_dir():
        return None
    try:
        renderer = importlib.import_module(RENDERER)
    except ModuleNotFoundError:
        return None
    draw = getattr(renderer, "scenario_map_svg", None)
    svg = draw(kit, scenario.id) if draw else None
    if not svg:
        return None
    return Figure(f"scenario-map:{scenario.id}", (Art(svg, f"map of {scenario.name}", scenario.name),), width=MAP_WIDTH)
