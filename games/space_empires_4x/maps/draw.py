"""A scenario's map as the booklet's set-up picture (games/space_empires_4x/booklet calls it): the core draws it."""
from __future__ import annotations


def scenario_map_svg(kit, scenario_id: str) -> str | None:
    """A scenario's whole board as a thumbnail SVG (the booklet's set-up pictures), or None without a board."""
    from generator.maps.draw import compose, map_svg

    hexmap = next((m for m in kit.maps if m.extra["scenario"] == scenario_id), None)
    return None if hexmap is None else map_svg(kit, compose(kit, hexmap, kit.counter_size), thumbnail=True)
