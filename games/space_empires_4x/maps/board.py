"""Board composition, pure numbers in points: where the title, the hex grid, the turn and round tracks
and the legend sit on the printed map. Drawing reads these numbers and never decides a position."""
from __future__ import annotations

from dataclasses import dataclass

from generator.lengths import parse_length
from generator.maps.geometry import hex_label
from generator.maps.tiling import Rect
from games.space_empires_4x.maps.layout import DEEP_SPACE, MapLayout

BORDER = parse_length("3/8in")        # blank paper round the board (trim line, printer margin)
TITLE_BAND = parse_length("5/8in")    # scenario name above the grid
GAP = parse_length("1/4in")           # between the grid and the tracks, and between track rows
BOX_PADDING = parse_length("1/8in")   # a track box is one counter plus this much room
LABEL_BAND = parse_length("3/16in")   # caption above each track
LEGEND_ROW = parse_length("3/8in")


@dataclass(frozen=True)
class HexCell:
    col: int
    row: int
    label: str                         # printed coordinate, "0704"
    region: str                        # "deep-space" or a colour id
    homeworld: bool
    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Board:
    """The whole printed map: its size and every positioned element, in points from the top-left."""

    layout: MapLayout
    width: float
    height: float
    title_at: tuple[float, float]
    grid: Rect
    hexes: tuple[HexCell, ...]
    turn_boxes: tuple[tuple[Rect, str], ...]     # (box, caption): each turn, then the Economic Phase
    round_boxes: tuple[tuple[Rect, int], ...]    # (box, round number)
    legend: tuple[tuple[Rect, str], ...]         # (swatch, region) per home colour, then deep space
    track_captions: tuple[tuple[float, float, str], ...]


def compose_board(layout: MapLayout, turns_per_round: int, counter: float) -> Board:
    """Lay out one board: grid under the title, tracks and legend under the grid, all inside BORDER."""
    grid_w, grid_h = layout.grid.size
    box = counter + BOX_PADDING
    inner_w = max(grid_w, (turns_per_round + 2) * box)
    grid = Rect(BORDER + (inner_w - grid_w) / 2, BORDER + TITLE_BAND, grid_w, grid_h)
    y = grid.y + grid.h + GAP
    turn_boxes, captions = _turn_boxes(turns_per_round, box, BORDER, y), [(BORDER, y, "turn")]
    y += LABEL_BAND + box + GAP
    round_boxes, rows = _round_boxes(layout.rounds, box, BORDER, y + LABEL_BAND, inner_w)
    captions.append((BORDER, y, "round"))
    y += LABEL_BAND + rows * box + GAP
    legend = _legend(layout, BORDER, y, inner_w)
    height = y + LEGEND_ROW + BORDER
    return Board(layout=layout, width=inner_w + 2 * BORDER, height=height, title_at=(BORDER, BORDER),
                 grid=grid, hexes=_cells(layout, grid), turn_boxes=turn_boxes, round_boxes=round_boxes,
                 legend=legend, track_captions=tuple(captions))


def _cells(layout: MapLayout, grid: Rect) -> tuple[HexCell, ...]:
    hexgrid, homeworlds = layout.grid, {h for hs in layout.homeworlds.values() for h in hs}
    cells = []
    for (col, row), region in sorted(layout.regions.items()):
        cx, cy = hexgrid.centre(col, row)
        corners = tuple((grid.x + x, grid.y + y) for x, y in hexgrid.corners(col, row))
        cells.append(HexCell(col, row, hex_label(col, row), region, (col, row) in homeworlds,
                             (grid.x + cx, grid.y + cy), corners))
    return tuple(cells)


def _turn_boxes(turns: int, box: float, x: float, y: float):
    """One box per turn of a round, then a double-width box for the Economic Phase."""
    top = y + LABEL_BAND
    boxes = [(Rect(x + i * box, top, box, box), f"{i + 1}") for i in range(turns)]
    boxes.append((Rect(x + turns * box, top, 2 * box, box), "economic"))
    return tuple(boxes)


def _round_boxes(rounds: int, box: float, x: float, y: float, width: float):
    per_row = max(1, int(width // box))
    boxes = tuple((Rect(x + (i % per_row) * box, y + (i // per_row) * box, box, box), i + 1)
                  for i in range(rounds))
    return boxes, -(-rounds // per_row)


def _legend(layout: MapLayout, x: float, y: float, width: float):
    regions = [*layout.home_colours, DEEP_SPACE]
    slot = width / len(regions)
    swatch = LEGEND_ROW * 0.8
    return tuple((Rect(x + i * slot, y, swatch, swatch), region) for i, region in enumerate(regions))
