"""The maps part's files (pnpgen.parts.maps registers it): every hex map as a full-size poster PDF and as
tiles for a home printer.

Each board is drawn ONCE as one piece of art (and its alignment marks as a second); the poster places it
on one page at full size, and each tile page places the same art shifted and clipped to its share.

The assembly page comes first and shows both arts whole (scaled), then one page per tile. (A clipped first
use no longer crops the shared art for later pages: PdfDocument records unbounded; tests/test_maps_render.py
still checks that each tile shows its marks.)
"""
from __future__ import annotations

import json
from dataclasses import replace
import functools
from pathlib import Path
from typing import Callable

from pnpgen.i18n.translator import core_words
from pnpgen.maps.board import Board
from pnpgen.maps.draw import compose, map_svg, map_title
from pnpgen.maps.drawings import PageArts, StoredDrawings, entry_name, note_warnings, tiles_kept, tiling
from pnpgen.maps.hexmap import hex_too_small
from pnpgen.maps.pages import draw_tile_pages, place_scaled, svg_size
from pnpgen.maps.seams import crossings, text_blocks
from pnpgen.maps.text_widths import string_width
from pnpgen.maps.tiling import MARK_ARM, TilePlan, assembly_steps, plan_tiles
from pnpgen.paper import PRINTABLE_MARGIN
from pnpgen.preflight import art_checks, preflight_rules
from pnpgen.problems import BuildError, UsageError, display_path
from pnpgen.output_cache import OutputCache, content_key
from pnpgen.render.check_memo import drawing_key
from pnpgen.render.pdf import PdfDocument
from pnpgen.render.templates import render_template

FOLDER = "maps"


def build(ctx) -> dict:
    """Each map's poster and tiles; a map whose drawing and pages an earlier build made (same board, paper,
    titles, code and templates) comes back from the output cache with its manifest entries. The drawings
    themselves (the map, its assembly page, its tiles' furniture) come from the user's cache when an earlier
    build of the same kit drew them (pnpgen.maps.drawings): no template is rendered again."""
    hexmaps = chosen_maps(ctx.kit, ctx.option("map"))
    drawings, files, maps = StoredDrawings(ctx, FOLDER, None), [], []
    cache, drawn, warnings = OutputCache(ctx.cache_dir / "maps"), 0, []
    from pnpgen.render.check_memo import CheckMemo
    checked = CheckMemo("maps", ctx.kit.root)   # what earlier builds' overprint checks found
    for hexmap in hexmaps:
        _check_counter_fits(hexmap, ctx.counter_size)
        board = compose(ctx.kit, hexmap, ctx.counter_size)
        stored, svg = _map_entry(ctx, drawings, board)
        note_warnings(stored["warnings"], f"{display_path(hexmap.file)}: map {hexmap.id}: map.svg.j2", warnings)
        entry, drew = _cached_map(ctx, cache, board, (stored, svg), drawings, checked)
        files += entry["files"]
        drawn += drew
        maps.append(entry["map"])
        rows, cols = entry["map"]["tile_grid"]
        ctx.log(f"maps: {hexmap.id}: poster {board.width / 72:.2f} x {board.height / 72:.2f} in, "
                f"{rows * cols} {ctx.paper} tiles ({rows} x {cols})")
    if not ctx.option("map"):  # a --map build leaves the other maps' entries for the next whole build
        cache.prune()
    checked.save()
    drawings.save(keep_others=bool(ctx.option("map")))
    ctx.log(f"maps: drew {drawn} of {len(hexmaps)} maps, the rest from the cache")
    return {"files": files, "maps": maps} | ({"warnings": warnings} if warnings else {})


def _map_entry(ctx, drawings: StoredDrawings, board: Board) -> tuple[dict, Callable[[], str]]:
    """(the map's entry in the drawings' store: its art's key and font warnings, its pages' keys; the map's
    SVG, made when first asked): the template is rendered only when the store has no entry for it."""
    svg = functools.cache(lambda: map_svg(ctx.kit, board))
    stored = drawings.entries.get(entry_name(ctx, board.hexmap.id))
    if not stored:
        from pnpgen.kit_fonts import face_warnings
        stored = {"art": drawing_key(svg(), None), "warnings": face_warnings(svg())}
    return stored, svg


def _cached_map(ctx, cache: OutputCache, board: Board, drawing: tuple, drawings: StoredDrawings, checked) -> tuple:
    """({"files": [poster, tiles], "map": manifest entry}, drawn?): from the cache, else drawn and kept. The
    tiles are planned from the drawing (its text blocks), so the key holds what the plan follows from: the
    drawing (its SVG and the kit fonts it names), the paper and the code."""
    hexmap, (stored, svg) = board.hexmap, drawing
    key = content_key(ctx.code_key, stored["art"], repr(replace(hexmap, file=Path(hexmap.file.name))),
                      _title(ctx.kit, board), ctx.kit.title, ctx.paper, ctx.counter_size)
    rels = [f"{FOLDER}/{hexmap.id}-poster.pdf", f"{FOLDER}/{hexmap.id}-tiles-{ctx.paper}.pdf"]
    noted = ctx.cache_dir / f".map-{hexmap.id}.json"   # the manifest entries travel with the files
    name = entry_name(ctx, hexmap.id)
    if cache.fetch(key, [ctx.stage.path(rel) for rel in rels] + [noted]):
        for kept in (stored["art"], *stored.get("pages", ())):
            drawings.keep(kept)
        drawings.entries.put(name, stored)
        return json.loads(noted.read_text(encoding="utf-8")), False
    art, _ = drawings.art(stored["art"], svg, f"{display_path(hexmap.file)}: map {hexmap.id}: map.svg.j2")
    _check_print(hexmap, art, stored["art"], checked, preflight_rules(ctx.kit))
    plan, found = tiling(stored, (board.width, board.height), ctx.paper, lambda: map_tiles(board, art, ctx.paper))
    cut = [f"{_where(board, ctx.paper)}: {seam}" for seam in found]
    for found in cut:
        ctx.log(f"maps: a tile seam cuts text: {found}")
    if plan.extra_sheets:
        ctx.log(f"maps: {hexmap.id}: {plan.extra_sheets} {ctx.paper} sheet(s) more than the paper alone needs, "
                f"so that no seam cuts a text")
    poster = write_poster(ctx, board, art)
    pages = PageArts(drawings, stored.get("pages", []))
    tiles, entries = write_tiles(ctx, board, art, plan, pages)
    drawings.entries.put(name, stored | {"pages": pages.keys, "tiles": tiles_kept(plan, found)})
    entry = {"files": [poster, tiles],
             "map": {"map": hexmap.id, **_named_entries(hexmap), "file": str(hexmap.file.name),
                     "size_in": [round(board.width / 72, 3), round(board.height / 72, 3)],
                     "hexes": len(board.hexes), "poster": poster["path"], "tiles": tiles["path"],
                     "tile_grid": [plan.rows, plan.cols], "pages": entries, "seams_cut": cut}}
    noted.write_text(json.dumps(entry), encoding="utf-8")
    cache.store(key, [ctx.stage.path(rel) for rel in rels] + [noted])
    return entry, True


def plan_map_tiles(board: Board, art, paper: str) -> tuple[TilePlan, list[str]]:
    """The tiles, every seam clear of the map's text blocks and legend entries (as the art drew them), in the
    fewest sheets that allow it (pnpgen.maps.tiling: a straight grid in the sheets the paper alone needs where
    it can, else staggered rows, else more tiles, counted in the plan's extra_sheets), and each block a seam
    still cuts, located (a text wider than any tile): the manifest and the build log name them rather than
    failing a translation."""
    plan, found = map_tiles(board, art, paper)
    return plan, [f"{_where(board, paper)}: {seam}" for seam in found]


def map_tiles(board: Board, art, paper: str) -> tuple[TilePlan, list[str]]:
    """plan_map_tiles' plan and the blocks a seam cuts, not yet located."""
    blocks = text_blocks(art.texts, [(b.x, b.y, b.x + b.w, b.y + b.h) for b, _ in board.legend])
    plan = plan_tiles(board.width, board.height, paper, tuple(box for box, _ in blocks), spend_paper=False)
    return plan, crossings(plan, blocks)


def _where(board: Board, paper: str) -> str:
    return f"{display_path(board.hexmap.file)}: map {board.hexmap.id}: {paper} tiles"


def _check_print(hexmap, art, drawing: str, memo, rules) -> None:
    """The map as its template drew it (poster and tiles place this one art, `drawing` its content key): text
    too small, text over text, a visible line across text, or text too faint on its fill stops the build
    before a file is written, naming the map and the text (what an earlier build found on the same drawing,
    from `memo`, pnpgen.render.check_memo)."""
    found = memo.findings(f"{drawing}:{rules!r}", lambda: art_checks(art, rules))
    if found:
        where = f"{display_path(hexmap.file)}: map {hexmap.id}: map.svg.j2"
        raise BuildError("preflight: this hex map would print badly:\n" + "\n".join(f"{where}: {f}" for f in found))


def chosen_maps(kit, name: str | None) -> tuple:
    """All of the kit's boards, or the one --map names (an unknown name is a usage error)."""
    if not name:
        return kit.maps
    chosen = tuple(m for m in kit.maps if m.id == name)
    if not chosen:
        known = ", ".join(m.id for m in kit.maps) or "none"
        raise UsageError(f"unknown map {name!r} for --map (known: {known})")
    return chosen


def _check_counter_fits(hexmap, counter_size: str) -> None:
    """--counter-size can be larger than the kit's default the maps were validated against."""
    problem = hex_too_small(hexmap, counter_size)
    if problem:
        where = f"{display_path(hexmap.file)}:{hexmap.lines.get('hex_size', 1)}"
        raise BuildError(f"{where}: hex_size: {problem} (--counter-size {counter_size})")


def write_poster(ctx, board: Board, art) -> dict:
    """One page exactly the board's size, for a print shop or a large-format printer."""
    rel = f"{FOLDER}/{board.hexmap.id}-poster.pdf"
    doc = PdfDocument(ctx.stage.path(rel), f"{ctx.kit.title}: map {board.hexmap.id} (poster)",
                      board.width, board.height, final=True)
    doc.new_page()
    doc.place(art, 0, 0)
    doc.close()
    return {"path": rel, "pages": 1, "paper": "poster", "page_size": [board.width, board.height]}


def write_tiles(ctx, board: Board, art, plan: TilePlan, pages: PageArts) -> tuple[dict, list]:
    """The assembly page, then one page per tile: the map art clipped to the tile, marks, guides (each page's
    own drawing from `pages`, in page order)."""
    rel = f"{FOLDER}/{board.hexmap.id}-tiles-{plan.paper}.pdf"
    doc = PdfDocument(ctx.stage.path(rel), f"{ctx.kit.title}: map {board.hexmap.id} ({plan.paper} tiles)",
                      *plan.page, final=True)
    entries = [_assembly_page(ctx, doc, board, art, plan, pages)]
    title = _title(ctx.kit, board)
    draw_tile_pages(ctx, doc, plan, art, pages, title)
    entries += [_tile_entry(board, tile) for tile in plan.tiles]
    doc.close()
    entry = {"path": rel, "pages": doc.pages, "paper": plan.paper, "page_size": list(plan.page),
             "landscape": plan.landscape} | extra_entry(plan)
    return entry, entries


def extra_entry(plan: TilePlan) -> dict:
    """The tiles file's `extra_sheets` (said in the build's summary, pnpgen.paper_use) when keeping every text
    whole took tiles beyond what the paper alone needs; nothing otherwise."""
    return {"extra_sheets": plan.extra_sheets} if plan.extra_sheets else {}


def _title(kit, board: Board) -> str:
    return map_title(kit, board.hexmap)


def _named_entries(hexmap) -> dict:
    """What the map is for, as the manifest says it: each entry field's id (a scenario, say)."""
    return {f.name: hexmap.extra[f.name] for f in hexmap.rules.fields if f.kind == "entry"}


def _tile_entry(board: Board, tile) -> dict:
    """What the manifest says about a tile page: its label and the part of the map it shows."""
    s = tile.source
    inside = [c for c in board.hexes if s.x <= c.centre[0] <= s.x + s.w and s.y <= c.centre[1] <= s.y + s.h]
    entry = {"page": tile.page + 1, "kind": "tile", "label": tile.label,
             "region_pt": [round(v, 2) for v in (s.x, s.y, s.w, s.h)], "hexes": len(inside),
             "neighbours": tile.neighbours}
    if inside:
        cols, rows = [c.col + 1 for c in inside], [c.row + 1 for c in inside]
        entry |= {"columns": [min(cols), max(cols)], "rows": [min(rows), max(rows)]}
    return entry


def _assembly_page(ctx, doc: PdfDocument, board: Board, art, plan: TilePlan, pages: PageArts) -> dict:
    """Page 1: the whole map in small, each tile's outline and label, the steps (its drawing from `pages`,
    the template rendered only when the store has none)."""
    doc.new_page()
    width, height = plan.page
    margin = PRINTABLE_MARGIN + MARK_ARM / 2
    ruler = {"x": width - margin - board.hexmap.hex_size, "y": margin + 60, "length": board.hexmap.hex_size,
             "inches": f"{board.hexmap.hex_size / 72:g}", "caption": core_words("one hex across the flats")}
    steps = wrapped_steps(_steps(board, plan), width, margin, ruler)
    top = max(margin + 100, margin + STEP_TOP + len(steps) * STEP_LEADING + 14)
    scale = min((width - 2 * margin) / board.width, (height - top - margin) / board.height)
    x0 = (width - board.width * scale) / 2
    place_scaled(doc, art, x0, top, scale)

    def svg() -> str:
        context = svg_size(width, height) | {
            "title": _title(ctx.kit, board), "count": plan.count, "margin": margin,
            "title_size": _title_size(core_words("{title}: putting the {count} tiles together").format(
                                      title=_title(ctx.kit, board), count=plan.count),
                                      width - 2 * margin),
            "steps": steps, "numbered": True, "ruler": ruler,
            "tiles": [_outline(t, x0, top, scale, plan) for t in plan.tiles],
        }
        return render_template(ctx.kit.root, "map-assembly", context, needed_by=f"map {board.hexmap.id} assembly page")
    doc.place(pages.next(svg), 0, 0)
    return {"page": 1, "kind": "assembly", "scale": round(scale, 4)}


STEP_TOP, STEP_LEADING, STEP_SIZE, CAPTION_SIZE = 32, 11, 8.5, 7.5  # as map-assembly.svg.j2 prints them
TITLE_SIZE = 14.0


def _title_size(title: str, width: float) -> float:
    """The assembly title's size: 14 pt, or smaller where that would run past the margin (A4 is narrower)."""
    return round(min(TITLE_SIZE, TITLE_SIZE * width / string_width(title, "DejaVuSans-Bold", TITLE_SIZE)), 2)


def wrapped_steps(steps: list[str], width: float, margin: float, ruler: dict, band: tuple | None = None) -> list[str]:
    """The numbered steps as printed lines: a line that would run under the scale bar or its caption (right
    of the steps) is wrapped, the rest of the step going on an indented line of its own. Lines are strings
    the template prints one per row; a continuation starts with spaces instead of a number. `band`: the
    rows (y from, to) kept clear of the caption (default: the bar and its two caption lines). Widths are
    reportlab's, read from the font by pnpgen.maps.text_widths (no font registered for a few strings)."""
    caption = core_words("printed at actual size, this bar is {inches} in").format(inches=ruler["inches"]) + (
        ":" if ruler["caption"] else "")  # as the template prints it
    left_of_caption = ruler["x"] + ruler["length"] - string_width(caption, "DejaVuSans", CAPTION_SIZE) - 12
    band = band or (ruler["y"] - 8, ruler["y"] + 28)  # the bar and its two caption lines
    lines: list[str] = []
    for number, step in enumerate(steps, 1):
        words, line, prefix = step.split(), "", f"{number}. "
        for word in words:
            y = margin + STEP_TOP + len(lines) * STEP_LEADING
            limit = (left_of_caption if band[0] <= y <= band[1] else width - margin) - margin
            trial = f"{line} {word}" if line else word
            if line and string_width(prefix + trial, "DejaVuSans", STEP_SIZE) > limit:
                lines.append(prefix + line)
                line, prefix = word, "    "
            else:
                line = trial
        lines.append(prefix + line)
    return lines


def _steps(board: Board, plan: TilePlan) -> list[str]:
    inches = f"{board.hexmap.hex_size / 72:g}"
    first = core_words("Print pages 2 to {last} at actual size (100%, no fitting to the page): a hex measures "
                       "{inches} in across the flats.").format(last=plan.count + 1, inches=inches)
    return assembly_steps(plan, first, hex_lines=True)


def _outline(tile, x0: float, y0: float, scale: float, plan: TilePlan) -> dict:
    s = tile.source
    return {"label": tile.label, "x": x0 + s.x * scale, "y": y0 + s.y * scale, "w": s.w * scale,
            "h": s.h * scale, "cx": x0 + (s.x + s.w / 2) * scale, "cy": y0 + (s.y + s.h / 2) * scale}
