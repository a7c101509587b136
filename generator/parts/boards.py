"""Part "boards": every board of boards/*.yaml as a poster and as Letter/A4 tiles.

The work is in pnpgen.boards.files, imported when the part is built."""
from __future__ import annotations

from pnpgen.parts import Part


def build(ctx) -> dict:
    from pnpgen.boards.files import build as build_boards
    return build_boards(ctx)


PART = Part(name="boards", build=build, order=25, aliases=("board",),
            doc="boards of places, links and tracks: a poster and Letter/A4 tiles each",
            applies=lambda kit: bool(kit.boards), ignores=("rules",), needs=("cairo",))
