"""Part "maps": every hex map as a full-size poster PDF and as tiles for a home printer, with an assembly page.

The work is in games.space_empires_4x.maps.files, imported when the part is built."""
from __future__ import annotations

from generator.parts import Option, Part


def build(ctx) -> dict:
    from games.space_empires_4x.maps.files import build as build_maps
    return build_maps(ctx)


PART = Part(
    name="maps", build=build, order=20, aliases=("map",),
    doc="hex-map boards: a full-size poster and tiles for Letter/A4 with an assembly page",
    options=(Option(("--map",), {"metavar": "NAME", "dest": "map", "default": None,
                                 "help": "build only this map (a file name in the kit's maps folder)"}),),
    ignores=("rules", "aids", "units.yaml", "technologies.yaml", "counters.yaml"),  # boards read none of these
    needs=("cairo", "reportlab"), weight=2.3,
)
