"""Pages of a board too big for the printer: the board's art clipped to each tile, with the tile's own
furniture (label, glue strips, trim lines, scale check) from the built-in map-tile template. Every board
kind uses it: a game's hex maps and the boards of places and links alike."""
from __future__ import annotations

from pnpgen.fonts import FAMILY
from pnpgen.i18n.translator import core_words
from pnpgen.lengths import mm, pt_from_mm
from pnpgen.maps.tiling import TilePlan
from pnpgen.paper import PRINTABLE_MARGIN
from pnpgen.maps.drawings import PageArts
from pnpgen.render.pdf import PdfDocument
from pnpgen.render.templates import render_template


def svg_size(width: float, height: float) -> dict:
    return {"w": width, "h": height, "w_mm": f"{mm(width):.6f}", "h_mm": f"{mm(height):.6f}", "font": FAMILY}


SCALE_WIDTH = 72 + 22 + pt_from_mm(25) + 30   # the 1 in bar and its label, the 25 mm bar and its label


def tile_svg(kit, plan: TilePlan, tile, title: str) -> str:
    sides = tile.neighbours
    context = svg_size(*plan.page) | {
        "tile": tile, "title": title, "count": plan.count, "rows": plan.rows,
        "cols": sum(t.row == tile.row for t in plan.tiles),   # its own row's (staggered rows may differ)
        "label_at": (tile.clip.x, PRINTABLE_MARGIN + 18),
        # the scale check, centred in the band under the map (the corner ticks and GLUE labels keep to the sides)
        "scale_at": ((plan.page[0] - SCALE_WIDTH) / 2, plan.page[1] - PRINTABLE_MARGIN - 5),
        "trimmed": " and ".join(s for s in ("left", "top") if s in sides),
        "glued_over": core_words(" and ").join(_labels(sides, ("left", "top"))),
        "covered_by": core_words(" and ").join(_labels(sides, ("right", "bottom"))),
    }
    return render_template(kit.root, "map-tile", context, needed_by=f"tile {tile.label}")


def _labels(sides: dict, which: tuple) -> list[str]:
    """The neighbours' labels on those sides, in order (a side of a staggered row may meet two tiles)."""
    return [label for side in which if side in sides
            for label in ([sides[side]] if isinstance(sides[side], str) else sides[side])]


def draw_tile_pages(ctx, doc, plan: TilePlan, art, pages: PageArts, title: str) -> None:
    """One page per tile: the board art clipped to the tile, and the tile's furniture (its alignment ticks
    among it, in the GLUE strips and the margins a cut takes off, never on the map that stays in view), drawn
    from `pages` (the template rendered only when the store has no drawing for it)."""
    for tile in plan.tiles:
        doc.new_page()
        clip = (tile.clip.x, tile.clip.y, tile.clip.w, tile.clip.h)
        doc.place(art, *tile.at, clip=clip)
        doc.place(pages.next(lambda: tile_svg(ctx.kit, plan, tile, title)), 0, 0)


def place_scaled(doc: PdfDocument, art, x: float, y: float, scale: float) -> None:
    ctx = doc.context
    ctx.save()
    ctx.translate(x, y)
    ctx.scale(scale, scale)
    ctx.set_source_surface(art.recording, 0, 0)
    ctx.rectangle(0, 0, art.width, art.height)
    ctx.fill()
    ctx.restore()
