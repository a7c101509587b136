"""The boards part's files (pnpgen.parts.boards registers it): every board of boards/*.yaml drawn once from its
template, then printed whole as a poster and tiled onto home paper (glue strips, trim lines, alignment marks and
an assembly page), with the same tiling as the hex maps (pnpgen.maps.tiling)."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from pnpgen.i18n.translator import core_words
from pnpgen.lengths import pt_from_mm
from pnpgen.maps.drawings import PageArts, StoredDrawings, entry_name, note_warnings, tiles_kept, tiling
from pnpgen.maps.files import STEP_LEADING, extra_entry, wrapped_steps
from pnpgen.maps.seams import crossings, text_blocks
from pnpgen.maps.tiling import MARK_ARM, assembly_steps, plan_tiles
from pnpgen.paper import PRINTABLE_MARGIN
from pnpgen.pieces import colour_params
from pnpgen.maps.pages import draw_tile_pages, place_scaled, svg_size
from pnpgen.preflight import art_checks, preflight_rules
from pnpgen.problems import BuildError, display_path
from pnpgen.render.check_memo import drawing_key
from pnpgen.render.templates import render_template

FOLDER = "boards"


def board_document(ctx, board, colour) -> str:
    """The board's SVG: its template rendered with the board's data (cheap; drawing it is what costs)."""
    from pnpgen.documents.context import tables_context
    from pnpgen.render.piece_faces import board_svg, render_content
    from pnpgen.fonts import board_fonts
    params = board.params(colour_params(colour)) | {"font": board_fonts(ctx.kit)[0]}
    context = {"board": params, "colour": params["colour"], "kit": {"id": ctx.kit.id, "title": ctx.kit.title},
               "data": ctx.kit.data, "fields": board.doc["fields"], "tables": tables_context(ctx.kit),
               "icons": dict(ctx.kit.icons)}
    content = render_content(ctx.kit.root, board.template, context, f"{display_path(board.file)}: board {board.id}")
    from pnpgen.kit_fonts import check_svg_text
    if problem := check_svg_text(content):
        raise BuildError(f"{display_path(board.file)}: board {board.id}: {problem}")
    return board_svg(content, board.w, board.h)


def board_art(ctx, board, colour, arts):
    """The board drawn (once per ArtCache): for the poster, the tiles and the exports."""
    return arts.get(board_document(ctx, board, colour), f"board {board.id}")


def write_poster(ctx, name: str, title: str, art) -> dict:
    from pnpgen.render.pdf import PdfDocument
    rel = f"{FOLDER}/{name}-poster.pdf"
    doc = PdfDocument(ctx.stage.path(rel), f"{title} (poster)", art.width, art.height, final=True)
    doc.new_page()
    doc.place(art, 0, 0)
    doc.close()
    return {"path": rel, "pages": 1, "paper": "poster", "page_size": [round(art.width, 3), round(art.height, 3)]}


def write_tiles(ctx, name: str, title: str, art, pages, planned: tuple) -> tuple[dict, list[str]]:
    """The assembly page and the tiles, every seam clear of the board's text (as its art drew it) in the fewest
    sheets that allow it (pnpgen.maps.tiling; `extra_sheets` in the entry when that is more than the paper
    alone needs); returns the file's entry (with `seams_cut`, the texts a seam still cuts, located: a text
    wider than any tile) and what the build log says of them. A board is a designer's free page, better
    printed as its poster when a text is that wide, so this is a note, not a warning that --strict would
    fail."""
    from pnpgen.render.pdf import PdfDocument
    plan, found = planned   # plan_board_tiles'
    notes = [f"{title}: {ctx.paper} tiles: {len(found)} text(s) cross a tile seam (print the poster, or leave "
             f"the board a clear band for the seam), first: {found[0]}"] if found else []
    notes += [f"{title}: {ctx.paper} tiles: {plan.extra_sheets} sheet(s) more than the paper alone needs, so "
              f"that no seam cuts a text"] if plan.extra_sheets else []
    rel = f"{FOLDER}/{name}-tiles-{plan.paper}.pdf"
    doc = PdfDocument(ctx.stage.path(rel), f"{title} ({plan.paper} tiles)", *plan.page, final=True)
    _assembly(ctx, doc, title, art, plan, pages)
    draw_tile_pages(ctx, doc, plan, art, pages, title)
    doc.close()
    return _tiles_entry(rel, plan) | {"seams_cut": found}, notes


def plan_board_tiles(art, paper: str) -> tuple:
    """(the tiles of a board's art on `paper`, each text block a seam still cuts), as write_tiles prints them."""
    blocks = text_blocks(art.texts)
    plan = plan_tiles(art.width, art.height, paper, tuple(b for b, _ in blocks), spend_paper=False)
    return plan, crossings(plan, blocks)


def _assembly(ctx, doc, title: str, art, plan, pages) -> None:
    doc.new_page()
    width, height = plan.page
    margin = PRINTABLE_MARGIN + MARK_ARM / 2
    inch = 72.0
    ruler = {"x": width - margin - inch, "y": margin + 60, "length": inch, "inches": "1", "caption": ""}
    # a longer language's steps wrap clear of the caption's row (the bar's row: the preflight finds a step under it)
    steps = wrapped_steps(_steps(plan), width, margin, ruler, band=(ruler["y"] + 8, ruler["y"] + 24))
    top = margin + 100 + max(0, len(steps) - len(_steps(plan))) * STEP_LEADING  # a wrapped line pushes the map down
    scale = min((width - 2 * margin) / art.width, (height - top - margin) / art.height)
    x0 = (width - art.width * scale) / 2
    place_scaled(doc, art, x0, top, scale)

    def svg() -> str:
        context = svg_size(width, height) | {
            "title": title, "count": plan.count, "margin": margin, "steps": steps, "numbered": True,
            "tiles": [{"label": t.label, "x": x0 + t.source.x * scale, "y": top + t.source.y * scale,
                       "w": t.source.w * scale, "h": t.source.h * scale,
                       "cx": x0 + (t.source.x + t.source.w / 2) * scale,
                       "cy": top + (t.source.y + t.source.h / 2) * scale} for t in plan.tiles],
            "ruler": ruler,
        }
        return render_template(ctx.kit.root, "map-assembly", context, needed_by=f"{title} assembly page")
    doc.place(pages.next(svg), 0, 0)


def _steps(plan) -> list[str]:
    first = core_words("Print pages 2 to {last} at actual size (100%, no fitting to the page): the bar at the right "
                       "must measure 1 in.").format(last=plan.count + 1)
    return assembly_steps(plan, first, hex_lines=False)


def build(ctx) -> dict:
    """Each board's poster and tiles; a board whose drawing (and the code drawing it) an earlier build printed
    comes back from the output cache, with its tiles' manifest entry (planned from the drawing) kept beside it.
    The drawings themselves (the board, its assembly page, its tiles' furniture) come from the user's cache when
    an earlier build of the same kit drew them (pnpgen.maps.drawings): no template is rendered again."""
    from pnpgen.output_cache import OutputCache
    from pnpgen.render.check_memo import CheckMemo
    drawings, files, boards, findings, warnings = StoredDrawings(ctx, FOLDER, ctx.kit.root), [], [], [], []
    cache, checked = OutputCache(ctx.cache_dir / "boards"), CheckMemo("boards", ctx.kit.root)
    rules = preflight_rules(ctx.kit)
    for board in ctx.kit.boards:
        for colour in (ctx.kit.colours if board.per_colour else (None,)):
            name = f"{board.id}-{colour.id}" if colour else board.id
            where = f"{display_path(board.file)}: board {board.id}"
            svg = functools.cache(lambda board=board, colour=colour: board_document(ctx, board, colour))
            stored = drawings.entries.get(entry_name(ctx, name))
            if not stored:
                from pnpgen.kit_fonts import face_warnings
                stored = {"art": drawing_key(svg(), ctx.kit.root), "warnings": face_warnings(svg())}
            note_warnings(stored["warnings"], f"{where}: {board.template}.svg.j2", warnings)
            found = _board_files(ctx, (cache, drawings), board, (name, colour), (stored, svg),
                                 lambda art: checked.findings(f"{stored['art']}:{rules!r}", lambda: art_checks(art, rules)))
            findings += [f"{where}{f' ({colour.id})' if colour else ''}: {board.template}.svg.j2: {finding}"
                         for finding in found]
            if found:
                continue
            tiles, notes = json.loads((ctx.cache_dir / f".board-{name}.json").read_text(encoding="utf-8"))
            files += [_poster_entry(f"{FOLDER}/{name}-poster.pdf", pt_from_mm(board.w), pt_from_mm(board.h)), tiles]
            for note in notes:
                ctx.log(f"boards: {note}")
            boards.append({"board": board.id, "colour": colour.id if colour else None, "name": board.name,
                           "size_mm": [board.w, board.h], "places": len(board.doc["places"]),
                           "links": len(board.doc["links"]), "tracks": len(board.doc["tracks"])})
    checked.save()
    drawings.save()
    if findings:
        raise BuildError("preflight: these boards would print badly:\n" + "\n".join(findings))
    cache.prune()
    ctx.log(f"boards: {len(boards)} boards, {len(files)} files")
    return {"files": files, "boards": boards} | ({"warnings": warnings} if warnings else {})


def _board_files(ctx, caches: tuple, board, named: tuple, drawing: tuple, check) -> list[str]:
    """One board's poster and tiles (and beside them, in the build's cache, its tiles' manifest entry and the
    build log's notes): from the output cache, else drawn from its stored drawings (`drawing`: its entry in
    the store and its SVG, made when needed) and kept. Returns what `check` found on the drawing, and then
    writes nothing."""
    (cache, drawings), (name, colour), (stored, svg) = caches, named, drawing
    title = core_words("{kit}: {name}").format(kit=ctx.kit.title, name=board.name) + (
        f" ({colour.name})" if colour else "")
    rels = [f"{FOLDER}/{name}-poster.pdf", f"{FOLDER}/{name}-tiles-{ctx.paper}.pdf"]
    noted = ctx.cache_dir / f".board-{name}.json"   # the tiles' entry (planned from the drawing)
    key = _key(ctx, stored["art"], title, ctx.paper)
    targets = [ctx.stage.path(rel) for rel in rels] + [noted]
    if cache.fetch(key, targets):
        for kept in (stored["art"], *stored.get("pages", ())):
            drawings.keep(kept)
    else:
        art, _ = drawings.art(stored["art"], svg, f"board {board.id}")
        found = check(art)
        if found:
            return found
        write_poster(ctx, name, title, art)
        pages = PageArts(drawings, stored.get("pages", []))
        plan, cut = tiling(stored, (art.width, art.height), ctx.paper, lambda: plan_board_tiles(art, ctx.paper))
        noted.write_text(json.dumps(write_tiles(ctx, name, title, art, pages, (plan, cut))), encoding="utf-8")
        stored = stored | {"pages": pages.keys, "tiles": tiles_kept(plan, cut)}
        cache.store(key, targets)
    drawings.entries.put(entry_name(ctx, name), stored)
    return []


def _key(ctx, drawing: str, title: str, paper: str) -> str:
    """The board's files' key in the output cache: `drawing` (its content key: its SVG, the images and kit
    fonts it shows, the renderer), its title and paper, the code that prints, tiles and checks it (all of
    pnpgen's, its fonts and templates: ctx.code_key), the tile and assembly templates."""
    from pnpgen.output_cache import content_key, source_fingerprint
    from pnpgen.maps import pages, seams, tiling
    from pnpgen import overlaps, preflight
    from pnpgen.render import ink_lines, pdf, svg_ops, svg_path
    from pnpgen.render.templates import template_source
    furniture = [template_source(ctx.kit.root, t) for t in ("map-tile", "map-assembly")]
    return content_key(source_fingerprint(pdf, svg_ops, svg_path, tiling, seams, pages, preflight, overlaps, ink_lines), Path(__file__).read_text(encoding="utf-8"),
                       ctx.code_key, *furniture, drawing, title, paper)


def _poster_entry(rel: str, width: float, height: float) -> dict:
    return {"path": rel, "pages": 1, "paper": "poster", "page_size": [round(width, 3), round(height, 3)]}


def _tiles_entry(rel: str, plan) -> dict:
    tiles = [{"page": t.page + 1, "label": t.label, "region_pt": [round(v, 2) for v in (t.source.x, t.source.y, t.source.w, t.source.h)],
              "neighbours": t.neighbours} for t in plan.tiles]
    return {"path": rel, "pages": plan.count + 1, "paper": plan.paper, "page_size": list(plan.page),
            "landscape": plan.landscape, "tiles": tiles} | extra_entry(plan)
