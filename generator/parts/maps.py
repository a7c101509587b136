"""Part "maps": every hex map of maps/*.yaml as a full-size poster PDF and as tiles for a home printer, with an
assembly page.

The work is in pnpgen.maps.files, imported when the part is built."""
from __future__ import annotations

from pnpgen.parts import Option, Part


def build(ctx) -> dict:
    from pnpgen.maps.files import build as build_maps
    return build_maps(ctx)


NEVER_READ = ("rules", "aids", "components", "boards", "charts.yaml")  # by the maps, unless map_rules names one


def _ignores(kit) -> tuple:
    """The kit files the maps never read: the usual ones less any the kit's map rules name by path, and the
    game module's data files the rules never name (kit.yaml map_rules)."""
    from pnpgen.maps.rules import rules_of
    rules = rules_of(kit)
    read = lambda folder: any(r == folder or r.startswith(folder + "/") for r in rules.reads)  # noqa: E731
    return tuple(f for f in NEVER_READ if not read(f)) + rules.ignores


PART = Part(
    name="maps", build=build, order=20, aliases=("map",),
    doc="hex maps: a full-size poster and tiles for Letter/A4 with an assembly page",
    options=(Option(("--map",), {"metavar": "NAME", "dest": "map", "default": None,
                                 "help": "build only this map (a file name in the kit's maps folder)"}),),
    applies=lambda kit: bool(kit.maps),
    ignores_of=_ignores,
    needs=("cairo", "reportlab"), weight=2.3,
)
