"""Figures of a kit's hex maps that any document may place without code: `{{ figure('map:duel-small') }}`
draws the map of maps/duel-small.yaml as a small picture of the whole board (the grid and its regions, no
coordinates: unreadable that small), captioned with the map's title."""
from __future__ import annotations

from pnpgen.booklet.figure import Art, Figure
from pnpgen.documents.context import map_figure_names
from pnpgen.maps.draw import compose, map_svg

MAP_WIDTH = 230.0  # points: across most of a half-letter page, and a board's regions still tell apart


def map_figures(kit) -> dict:
    """{'map:<id>': () -> Figure} for every hex map of the kit (none for a kit without maps)."""
    return {name: (lambda hexmap=hexmap: map_figure(kit, hexmap))
            for name, hexmap in zip(map_figure_names(kit), kit.maps)}


def map_figure(kit, hexmap) -> Figure:
    svg = map_svg(kit, compose(kit, hexmap, kit.counter_size), thumbnail=True)
    return Figure(f"map:{hexmap.id}", (Art(svg, f"map of {hexmap.title}", hexmap.title),), width=MAP_WIDTH)
