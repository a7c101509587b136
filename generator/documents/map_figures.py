"""Figures of a kit's hex maps that any document may place without code: `{{ figure('map:duel-small') }}`
draws the map of maps/duel-small.yaml as a small picture of the whole board (the grid and its regions, no
coordinates: unreadable that small), captioned with the map's title.

A map's picture is kept in the user's cache (MapSvgs) under what the maps read (documents.make.map_salt: the
kit files the maps part reads, the code, the language), so a build after an edit that leaves the maps alone
(a unit's attack) does not compose the board and render the map template again (SE4X: six maps, ~0.03 s)."""
from __future__ import annotations

from pathlib import Path

from pnpgen.booklet.figure import Art, Figure
from pnpgen.documents.context import map_figure_names
from pnpgen.maps.draw import compose, map_svg
from pnpgen.render.check_memo import SealedMemo

MAP_WIDTH = 230.0  # points: across most of a half-letter page, and a board's regions still tell apart


class MapSvgs(SealedMemo):
    """{map id and counter size: the map figure's SVG} of one kit folder, valid under `salt` (sealed: this
    user's pnpgen's only; an entry that is not text is drawn again)."""

    KEEP, FIELD = 64, "maps"

    def __init__(self, path: Path | None, salt: str):
        super().__init__(path if salt else None)
        self._salt = salt

    def salt(self) -> str:
        return self._salt

    def svg(self, name: str, draw) -> str:
        """The SVG kept under `name`, else draw() (kept)."""
        found = self.known.get(name)
        if not isinstance(found, str):
            found = draw()
            self.dirty = self.dirty or self.path is not None
        if self.path is not None:
            self.used[name] = found
        return found


def map_figures(kit, svgs: MapSvgs | None = None) -> dict:
    """{'map:<id>': () -> Figure} for every hex map of the kit (none for a kit without maps); their SVG from
    `svgs` where it has them."""
    return {name: (lambda hexmap=hexmap: map_figure(kit, hexmap, svgs))
            for name, hexmap in zip(map_figure_names(kit), kit.maps)}


def map_figure(kit, hexmap, svgs: MapSvgs | None = None) -> Figure:
    def draw() -> str:
        return map_svg(kit, compose(kit, hexmap, kit.counter_size), thumbnail=True)
    svg = draw() if svgs is None else svgs.svg(f"{hexmap.id}\0{kit.counter_size}", draw)
    return Figure(f"map:{hexmap.id}", (Art(svg, f"map of {hexmap.title}", hexmap.title),), width=MAP_WIDTH)
