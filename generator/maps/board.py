"""Board composition, pure numbers in points: where the title, the hex grid, the tracks and the legend sit on
a printed hex map. Drawing reads these numbers and never decides a position."""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.lengths import parse_length
from pnpgen.maps.geometry import hex_label
from pnpgen.maps.hexmap import HexMap
from pnpgen.maps.tiling import Rect

BORDER = parse_length("3/8in")        # blank paper round the board (trim line, printer margin)
TITLE_BAND = parse_length("5/8in")    # the map's title above the grid
GAP = parse_length("1/4in")           # between the grid and the tracks, and between track rows
BOX_PADDING = parse_length("1/8in")   # a track box is one counter plus this much room
LABEL_BAND = parse_length("3/16in")   # caption above each track
LEGEND_ROW = parse_length("3/8in")


@dataclass(frozen=True)
class HexCell:
    col: int
    row: int
    label: str                         # printed coordinate, "0704"
    region: str
    mark: str | None                   # what the legend says besides the region (a capital, say)
    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class PlacedTrack:
    id: str
    caption: str
    caption_at: tuple[float, float]
    boxes: tuple[tuple[Rect, str], ...]   # (box, label)


@dataclass(frozen=True)
class Board:
    """The whole printed map: its size and every positioned element, in points from the top-left."""

    hexmap: HexMap
    width: float
    height: float
    title_at: tuple[float, float]
    grid: Rect
    regions: tuple[str, ...]                     # drawing and legend order
    hexes: tuple[HexCell, ...]
    tracks: tuple[PlacedTrack, ...]
    legend: tuple[tuple[Rect, str], ...]         # (swatch, region)


def compose_board(hexmap: HexMap, tracks: tuple, regions: list[str], counter: float) -> Board:
    """Lay out one board: grid under the title, tracks (boxes a counter fits in) and legend under the grid,
    all inside BORDER. A track that does not wrap may widen the board; the grid is centred across it."""
    grid_w, grid_h = hexmap.grid.size
    box = counter + BOX_PADDING
    inner_w = max([grid_w] + [sum(w for _, w in t.boxes) * box for t in tracks if not t.wrap])
    grid = Rect(BORDER + (inner_w - grid_w) / 2, BORDER + TITLE_BAND, grid_w, grid_h)
    y, placed = grid.y + grid.h + GAP, []
    for track in tracks:
        boxes, rows = _boxes(track, box, BORDER, y + LABEL_BAND, inner_w)
        placed.append(PlacedTrack(track.id, track.caption, (BORDER, y), boxes))
        y += LABEL_BAND + rows * box + GAP
    legend = _legend(regions, BORDER, y, inner_w)
    height = y + LEGEND_ROW + BORDER
    return Board(hexmap=hexmap, width=inner_w + 2 * BORDER, height=height, title_at=(BORDER, BORDER), grid=grid,
                 regions=tuple(regions), hexes=_cells(hexmap, grid), tracks=tuple(placed), legend=legend)


def _cells(hexmap: HexMap, grid: Rect) -> tuple[HexCell, ...]:
    hexgrid, cells = hexmap.grid, []
    for (col, row), region in sorted(hexmap.regions.items()):
        cx, cy = hexgrid.centre(col, row)
        corners = tuple((grid.x + x, grid.y + y) for x, y in hexgrid.corners(col, row))
        cells.append(HexCell(col, row, hex_label(col, row), region, hexmap.marks.get((col, row)),
                             (grid.x + cx, grid.y + cy), corners))
    return tuple(cells)


def _boxes(track, box: float, x: float, top: float, width: float):
    """Each box at a whole number of boxes from the left; a wrapping track starts a row where the next box
    would run past `width`. Returns the boxes and the rows they take."""
    per_row = max(1, int(width // box))
    out, col, row = [], 0, 0
    for label, wide in track.boxes:
        if track.wrap and col and col + wide > per_row:
            col, row = 0, row + 1
        out.append((Rect(x + col * box, top + row * box, wide * box, box), label))
        col += wide
    return tuple(out), row + 1


def _legend(regions: list[str], x: float, y: float, width: float):
    slot = width / len(regions) if regions else width
    swatch = LEGEND_ROW * 0.8
    return tuple((Rect(x + i * slot, y, swatch, swatch), region) for i, region in enumerate(regions))
