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
    ignored = []
    for folder in NEVER_READ:
        named = [r for r in rules.reads if r == folder or r.startswith(folder + "/")]
        if not named:
            ignored.append(folder)
        elif folder not in named:  # a table the rules read (home systems' size): the folder's other files not
            ignored += _other_files(kit.root, folder, named)
    return tuple(ignored) + rules.ignores


def _other_files(root, folder: str, named: list) -> list:
    path = root / folder
    files = sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else []
    return [rel for rel in (p.relative_to(root).as_posix() for p in files) if rel not in named]


PART = Part(
    name="maps", build=build, order=20, aliases=("map",),
    doc="hex maps: a full-size poster and tiles for Letter/A4 with an assembly page",
    options=(Option(("--map",), {"metavar": "NAME", "dest": "map", "default": None,
                                 "help": "build only this map (a file name in the kit's maps folder)"}),),
    applies=lambda kit: bool(kit.maps),
    ignores_of=_ignores,
    needs=("cairo",), weight=2.3,   # the assembly pages measure text from the font itself (maps.text_widths)
)
