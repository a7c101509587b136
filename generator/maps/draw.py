"""Drawing a composed hex map as one SVG (the kit's Jinja template `map`, else the built-in one): reads the
Board's numbers, decides none."""
from __future__ import annotations

from types import SimpleNamespace

from pnpgen.fonts import board_fonts
from pnpgen.i18n.translator import core_words
from pnpgen.lengths import mm, parse_length
from pnpgen.maps.board import Board, compose_board
from pnpgen.render.templates import render_template

TINT = 0.3  # share of a player colour in its region's fill: light enough for coordinates to read


def compose(kit, hexmap, counter_size: str) -> Board:
    """The map's board with its tracks and region order, boxes sized for `counter_size` counters."""
    return compose_board(hexmap, hexmap.tracks, hexmap.order, parse_length(counter_size))


def map_title(kit, hexmap) -> str:
    return core_words("{kit}: {name}").format(kit=kit.title, name=hexmap.title)


def map_svg(kit, board: Board, thumbnail: bool = False) -> str:
    """The whole board as SVG text, sized in mm, user units in points.

    A thumbnail (a booklet's set-up pictures) shows the grid only and leaves out the hex coordinates:
    unreadable that small, and most of the drawing time."""
    hexmap, grid = board.hexmap, board.grid
    view = (grid.x, grid.y, grid.w, grid.h) if thumbnail else (0, 0, board.width, board.height)
    family, condensed = board_fonts(kit)
    context = {
        "view": view, "w_mm": f"{mm(view[2]):.6f}", "h_mm": f"{mm(view[3]):.6f}",
        "font": family, "condensed": condensed, "board": board, "title": map_title(kit, hexmap),
        "kit": SimpleNamespace(id=kit.id, title=kit.title, subtitle=kit.subtitle),  # what the maps part is keyed by
        "flats": hexmap.hex_size, "hex_inches": f"{hexmap.hex_size / 72:g}", "regions": _regions(board),
        "outline": _path(c.corners for c in board.hexes), "styles": _styles(kit, board), "thumbnail": thumbnail,
    }
    own = hexmap.rules.context(hexmap.extra)   # the kit's declared numbers and map fields (kit.yaml map_rules)
    svg = render_template(kit.root, "map", context | own, needed_by=f"map {hexmap.id}")
    from pnpgen.kit_fonts import check_svg_text
    if problem := check_svg_text(svg):   # a family no font has, a character the kit's font lacks
        from pnpgen.problems import BuildError
        raise BuildError(f"map {hexmap.id}: {problem}")
    return svg


def _regions(board: Board) -> list[dict]:
    """One filled path per region (all its hexes), so a region costs two SVG elements, not two per hex."""
    out = []
    for region in board.regions:
        cells = [c for c in board.hexes if c.region == region]
        out.append({"id": region, "d": _path(c.corners for c in cells), "count": len(cells)})
    return out


def _path(polygons) -> str:
    return " ".join("M" + " L".join(f"{x:.3f},{y:.3f}" for x, y in corners) + " Z" for corners in polygons)


def _styles(kit, board: Board) -> dict:
    """A region named after a player colour takes its tint, emblem and pattern; any other its fill from the
    map file, else the neutral paper."""
    colours, n, fills = {c.id: _style(c) for c in kit.colours}, kit.neutral, board.hexmap.fills
    neutral = {"print": n.ink, "ink": n.ink, "emblem": None, "pattern": "none"}
    others = (r for r in board.regions if r not in colours)
    return colours | {r: neutral | {"name": r, "tint": fills.get(r, n.print)} for r in others}


def _style(colour) -> dict:
    return {"name": colour.name, "print": colour.print, "tint": _mix(colour.print, "#ffffff", TINT),
            "ink": "#1a1a1a", "emblem": colour.emblem, "pattern": colour.pattern}


def _mix(colour: str, other: str, share: float) -> str:
    """`share` of `colour` over `other`, both #rrggbb."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * share + y * (1 - share)):02x}" for x, y in zip(a, b))
