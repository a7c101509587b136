"""Drawing a composed board as one SVG (Jinja template `map`): reads the Board's numbers, decides none."""
from __future__ import annotations

from generator.fonts import CONDENSED, FAMILY
from generator.lengths import mm
from games.space_empires_4x.maps.board import Board
from games.space_empires_4x.maps.layout import DEEP_SPACE, home_system_hexes
from generator.render.templates import render_template

TINT = 0.3  # share of the player colour in a home hex's fill: light enough for coordinates to read


def map_svg(kit, board: Board, thumbnail: bool = False) -> str:
    """The whole board as SVG text, sized in mm, user units in points.

    A thumbnail (the booklet's set-up pictures) leaves out the hex coordinates: unreadable that small, and
    most of the drawing time."""
    layout = board.layout
    scenario = next(s for s in kit.game.scenarios if s.id == layout.scenario)
    grid = board.grid
    view = (grid.x, grid.y, grid.w, grid.h) if thumbnail else (0, 0, board.width, board.height)
    context = {
        "view": view, "w_mm": f"{mm(view[2]):.6f}", "h_mm": f"{mm(view[3]):.6f}",
        "font": FAMILY, "condensed": CONDENSED, "board": board, "scenario": scenario, "kit": kit,
        "flats": layout.hex_size, "hex_inches": f"{layout.hex_size / 72:g}",
        "home_hexes": home_system_hexes(kit), "regions": _regions(kit, board),
        "outline": _path(c.corners for c in board.hexes),
        "styles": {c.id: _style(c) for c in kit.colours} | {DEEP_SPACE: _neutral_style(kit)},
        "turns": kit.game.sequence["turns_per_round"],
        "thumbnail": thumbnail,
    }
    return render_template(kit.root, "map", context, needed_by=f"map {layout.id}")


def _regions(kit, board: Board) -> list[dict]:
    """One filled path per region (all its hexes), so a region costs two SVG elements, not two per hex."""
    out = []
    for region in [*board.layout.home_colours, DEEP_SPACE]:
        cells = [c for c in board.hexes if c.region == region]
        out.append({"id": region, "d": _path(c.corners for c in cells), "count": len(cells)})
    return out


def _path(polygons) -> str:
    return " ".join("M" + " L".join(f"{x:.3f},{y:.3f}" for x, y in corners) + " Z" for corners in polygons)


def _style(colour) -> dict:
    return {"name": colour.name, "print": colour.print, "tint": _mix(colour.print, "#ffffff", TINT),
            "ink": "#1a1a1a", "emblem": colour.emblem, "pattern": colour.pattern}


def _neutral_style(kit) -> dict:
    n = kit.neutral
    return {"name": "Deep space", "print": n.ink, "tint": n.print, "ink": n.ink, "emblem": None, "pattern": "none"}


def _mix(colour: str, other: str, share: float) -> str:
    """`share` of `colour` over `other`, both #rrggbb."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * share + y * (1 - share)):02x}" for x, y in zip(a, b))


def scenario_map_svg(kit, scenario_id: str) -> str | None:
    """A scenario's whole board as a thumbnail SVG (the booklet's set-up pictures), or None without a board."""
    from generator.lengths import parse_length
    from games.space_empires_4x.maps.board import compose_board

    layout = next((m for m in kit.maps if m.scenario == scenario_id), None)
    if layout is None:
        return None
    board = compose_board(layout, kit.game.sequence["turns_per_round"], parse_length(kit.counter_size))
    return map_svg(kit, board, thumbnail=True)
