"""The components part's files (pnpgen.parts.components registers it): every component table's pieces on
imposed sheets, one PDF per print group.

Each distinct face is drawn once per build (pnpgen.render.piece_arts) and placed wherever it appears;
pieces of one group that differ in shape or size start a new batch of pages; a group whose faces and layout
did not change is copied from the output cache.
"""
from __future__ import annotations

import gc
import os
from collections import OrderedDict
from contextlib import contextmanager

from pnpgen.components.entry import SUFFIX, part_entry
from pnpgen.components.pieces import copy_faces
from pnpgen.duplex import build_setting, flip_words
from pnpgen.i18n.translator import core_words
from pnpgen.layout.packing import Run, impose
from pnpgen.layout.sheets import COUNTER_SHEET, settings_for
from pnpgen.output_cache import content_key
from pnpgen.problems import BuildError, display_path
from pnpgen.render.drawing_keys import renderer_fingerprint
from pnpgen.render.piece_arts import FaceArts



def face_origins(kit) -> dict:
    """face key -> 'file:line' of the first row that makes it, so a failing face names its row."""
    origins, shown = {}, {}
    for table in kit.tables.values():
        for row in table.rows:
            file = shown.get(row.file) or shown.setdefault(row.file, display_path(row.file))
            for colour in (kit.colours if table.per_colour else (kit.neutral,)):
                for _, faces in dict(copy_faces(table, row, colour)).items():
                    for face in faces:
                        if face is not None:
                            origins.setdefault(face.key, f"{file}:{row.line}: {table.id} row {row.label}")
    return origins


def batches(kit) -> "OrderedDict[str, list]":
    """group -> [(table, pieces)] in print order; a table's pieces per colour stay together."""
    groups = OrderedDict()
    for piece in kit.component_pieces:
        table = kit.tables[piece.ref.split(".", 1)[0]]
        runs = groups.setdefault(piece.group, [])
        if runs and runs[-1][0].id == table.id:
            runs[-1][1].append(piece)
        else:
            runs.append((table, [piece]))
    return groups


def printed_files(ctx, groups=None, facts=None) -> tuple["OrderedDict[str, list]", dict]:
    """(file -> runs, {source file: (target file, pieces)}): the print groups' batches (those of `groups`, a
    shard's: whole units of split()), with the remainders kit.yaml asks to share moved to the file that holds
    them (pnpgen.components.remainders), the layouts it tries remembered in `facts` (a shard's, which its
    parent keeps: pnpgen.components.sheet_facts), else in the user's cache here."""
    from pnpgen.components.remainders import share_remainders
    from pnpgen.components.sheet_facts import SheetFacts
    files = batches(ctx.kit)
    if groups is not None:
        files = OrderedDict((group, runs) for group, runs in files.items() if group in groups)
    memo = SheetFacts(ctx.kit.root) if facts is None else facts
    shared = share_remainders(ctx, files, lambda ctx, runs: memo.of(group_runs(ctx, runs), lambda: plan_group(ctx, runs)))
    if facts is None:
        memo.save()
    return shared


def group_sheet(ctx, table) -> dict | None:
    """The kit's sheet settings of the table's group (kit.yaml `sheets:`), with --gutter as the gap of a
    group that sets no gutter of its own, packed or counter sheet: as --paper is the paper of a group that
    names none, the command line gives what the kit leaves open and a group's own setting wins."""
    sheet = ctx.kit.sheets.get(table.group)
    gutter = ctx.option("gutter")
    if gutter is None or (sheet or {}).get("gutter"):
        return sheet
    return {**(sheet or {}), "gutter": f"{gutter}mm"}


def wanted_faces(ctx, kit) -> list:
    """(face, shape, bleed) of every face the sheets will print, in print order."""
    duplex, _ = build_setting(ctx)
    wanted = []
    for group, runs in batches(kit).items():
        for table, pieces in runs:
            bleed = settings_for(table.shape, group_sheet(ctx, table), ctx.paper, duplex).bleed
            for piece in pieces:
                wanted += [(f, table.shape, bleed) for f in (piece.front, piece.back) if f is not None]
    return wanted


def group_settings(ctx, runs: list) -> list:
    """[(table, pieces, sheet settings)] of one print group: what its layout is worked out from."""
    duplex, offset = build_setting(ctx)
    return [(table, pieces, settings_for(table.shape, group_sheet(ctx, table), ctx.paper, duplex, offset))
            for table, pieces in runs]


def group_runs(ctx, runs: list, tables: list | None = None) -> list:
    """[Run] of one print group: all its layout is worked out from (pnpgen.layout.packing.impose)."""
    tables = group_settings(ctx, runs) if tables is None else tables
    return [Run(table.shape, len(pieces), settings, any(p.back is not None for p in pieces))
            for table, pieces, settings in tables]


def plan_group(ctx, runs: list, tables: list | None = None) -> tuple[list, list]:
    """([(table, pieces, sheet settings)], pages) of one print group: the layout, in numbers only. Its
    tables share pages (pnpgen.layout.packing); a slot's index counts through all their pieces."""
    tables = group_settings(ctx, runs) if tables is None else tables
    try:
        return tables, impose(group_runs(ctx, runs, tables))
    except ValueError as exc:
        raise BuildError(f"{display_path(runs[0][0].file)}: size: {exc}") from None


def slot_owners(tables: list) -> list:
    """(table, piece, settings) of every slot index of the group's pages."""
    return [(table, piece, settings) for table, pieces, settings in tables for piece in pieces]


def group_key(ctx, group: str, plan: tuple, arts: FaceArts) -> str:
    """Everything a group's PDF depends on: the drawing code (ctx.code_key: all of pnpgen's, its fonts and
    templates), its layout and titles, every face's drawing."""
    from pnpgen import duplex
    from pnpgen.layout import gutter_fit, packing, sheets as sheets_layout
    from pnpgen.output_cache import content_key, source_fingerprint
    from pnpgen.components import titles
    from pnpgen.render import home_bleed, pdf, piece_sheets, png
    tables, pages = plan
    parts = [source_fingerprint(pdf, piece_sheets, home_bleed, png, sheets_layout, packing, gutter_fit, duplex,
                                titles),
             ctx.code_key, renderer_fingerprint(), ctx.kit.title,
             group, repr([(p.side, p.header, p.header_side, p.slots) for p in pages]),
             repr(page_headers(ctx, group, plan))]
    for table, pieces, settings in tables:
        parts += [table.name, repr(table.shape), repr(settings)]
        for piece in pieces:
            parts += [arts.key_of(face, table.shape, settings.bleed) if face else "-" for face in (piece.front, piece.back)]
    return content_key(*parts)


def write_group(ctx, group: str, runs: list, arts, cache=None, bare_memo=None) -> dict:
    """The group's PDF: from the output `cache` when nothing in it changed (its faces still preflighted from
    their stored records), else drawn. Without a cache (a reprint), always drawn. `bare_memo`
    (pnpgen.render.check_memo.CheckMemo): the bare-edge findings of each group as drawn before, by its key."""
    path, tables = ctx.stage.path(f"{group}{SUFFIX}"), group_settings(ctx, runs)
    printed = None if cache is None else file_key(ctx, group, tables, arts)
    if printed is not None:
        kept = cached_file(ctx, cache, printed, group, tables, arts)
        if kept is not None:
            return kept
    plan = plan_group(ctx, runs, tables)
    previews = preview_names(ctx, group, plan)
    outputs = [path, *(ctx.stage.path(p) for p in previews)]
    if cache is None:
        draw_group(ctx, group, plan, arts, path, outputs[1:])
        bare = bare_edge_findings(group, plan, arts)
    else:
        drawn, named = group_key(ctx, group, plan, arts), _findings_key(plan)
        key = content_key(drawn, repr(previews), named)
        faces = [(face, table.shape, settings.bleed) for table, piece, settings in slot_owners(plan[0])
                 for face in (piece.front, piece.back) if face is not None]
        # the group's bare-edge findings, kept with its files (a file of this process's own: shards run side by side)
        said = _findings_file(ctx)
        bare = (_read_findings(said) if all(arts.check(*face) for face in faces) and cache.fetch(key, [*outputs, said])
                else None)
        if bare is None:
            draw_group(ctx, group, plan, arts, path, outputs[1:])
            bare = remembered_findings(bare_memo, content_key(drawn, named), lambda: bare_edge_findings(group, plan, arts))
            _write_findings(said, bare)
            cache.store(key, [*outputs, said])
        said.unlink(missing_ok=True)
    owners = slot_owners(plan[0])
    placements = [_placement(group, number, page, slot, *owners[slot.index])
                  for number, page in enumerate(plan[1], 1) for slot in page.slots]
    paper = (ctx.kit.sheets.get(runs[0][0].group) or {}).get("paper") or ctx.paper
    entry = {"path": f"{group}{SUFFIX}", "pages": len(plan[1]), "sheets": sheets_of(plan[1]), "paper": paper,
             "page_size": [round(v, 3) for v in plan[1][0].size],
             "previews": previews, "placements": placements, "cuts": page_cuts(f"{group}{SUFFIX}", plan[1]),
             "bare": bare}
    if printed is not None:
        keep_file(ctx, cache, printed, key, entry)
    return entry


def file_key(ctx, group: str, tables: list, arts: FaceArts) -> str:
    """Everything a print file shows, known before it is laid out: the code that lays it out and draws it
    (all of pnpgen's, its fonts and templates: ctx.code_key, not only the drawing modules named), the kit's
    title and sheet settings, the options, the active language's catalogue, and each piece's
    table, row (ref, label, colour) and face drawings (by their keys). An edit to one table's row changes
    the key of the files that print that row only; the others are fetched with their entries
    (cached_file), not laid out again."""
    import sys
    from pnpgen import duplex, lengths, manifest, paper, shapes
    from pnpgen.components import entry, titles
    from pnpgen.layout import gutter_fit, packing, sheets as sheets_layout
    from pnpgen.output_cache import source_fingerprint
    from pnpgen.render import art, home_bleed, pdf, piece_sheets, png
    parts = [source_fingerprint(sys.modules[__name__], entry, titles, pdf, piece_sheets, home_bleed, png, art,
                                sheets_layout, packing, gutter_fit, duplex, lengths, paper, shapes, manifest),
             ctx.code_key, renderer_fingerprint(), language_key(), ctx.kit.title, group, repr(ctx.paper),
             repr((ctx.option("gutter"), bool(ctx.option("previews")), build_setting(ctx))),
             repr(titles.group_words(ctx.kit, group, tables))]
    for table, pieces, settings in tables:
        parts += [table.id, table.name, table.group, repr(table.shape), repr(settings),
                  repr(ctx.kit.sheets.get(table.group)), repr(getattr(table, "kind", None))]
        for piece in pieces:
            parts.append(repr((piece.ref, piece.label, piece.colour, piece.group)))
            parts += [f"{face.template}:{arts.key_of(face, table.shape, settings.bleed)}" if face else "-"
                      for face in (piece.front, piece.back)]
    return content_key(*parts)


def language_key() -> str:
    """The active translation's catalogue (pnpgen's words a sheet prints, the kit's), or '' for the source."""
    from pnpgen.i18n.translator import active
    translator = active()
    if translator is None:
        return ""
    if getattr(translator, "_catalogue_key", None) is None:
        translator._catalogue_key = content_key(translator.language, repr(sorted(translator.kit.items())),
                                                repr(sorted(translator.core.items())))
    return translator._catalogue_key


FILE_ENTRY = ".piece-sheets-entry-{pid}.tmp"  # a file's entry staged for the cache (shards run side by side)


def cached_file(ctx, cache, printed: str, group: str, tables: list, arts: FaceArts) -> dict | None:
    """The file's entry as an earlier build of this output folder made it, with its PDF (and previews) copied
    from the cache, when a file of the same key was made and kept whole (the cache is sealed: a kit's own
    .cache or a changed byte is no hit); None: lay it out and draw it (or fetch it by its drawing key). Its
    faces are still preflighted from their stored records, so what they say is said as a drawn build says it."""
    import json
    faces = [(face, table.shape, settings.bleed) for table, pieces, settings in tables for piece in pieces
             for face in (piece.front, piece.back) if face is not None]
    if not all(arts.check(*face) for face in faces):
        return None
    found = cache.read(printed)
    try:
        kept = json.loads(found[0]) if found and len(found) == 1 else None
    except ValueError:
        return None
    entry = kept.get("entry") if isinstance(kept, dict) else None
    if not (isinstance(entry, dict) and entry.get("path") == f"{group}{SUFFIX}" and isinstance(kept.get("key"), str)
            and isinstance(entry.get("previews"), list) and isinstance(entry.get("bare"), list)):
        return None
    targets = [ctx.stage.path(entry["path"]), *(ctx.stage.path(p) for p in entry["previews"] if isinstance(p, str))]
    if len(targets) != 1 + len(entry["previews"]) or not cache.fetch(kept["key"], [*targets, _findings_file(ctx)]):
        return None
    _findings_file(ctx).unlink(missing_ok=True)
    cache.used.add(printed)
    return entry


def keep_file(ctx, cache, printed: str, key: str, entry: dict) -> None:
    """The file's entry kept under its printed key, naming the drawing key its PDF is kept under."""
    import json
    staged = ctx.cache_dir / FILE_ENTRY.format(pid=os.getpid())
    staged.parent.mkdir(parents=True, exist_ok=True)
    staged.write_text(json.dumps({"key": key, "entry": entry}), encoding="utf-8")
    cache.store(printed, [staged])
    staged.unlink(missing_ok=True)


def _findings_file(ctx):
    """Where a group's bare-edge findings are fetched to and stored from (a file of this process's own)."""
    return ctx.cache_dir / f".piece-sheets-bare-{os.getpid()}.tmp"


def remembered_findings(memo, key: str, work) -> list[str]:
    """work()'s findings, or those `memo` kept under `key` (the group's drawing and naming: the same pages of
    the same drawings give the same findings) when they are a list of strings; a new output folder then
    samples no side of any piece (SE4X: 9,400 side colours on 12 pages)."""
    if memo is None:
        return work()
    found = memo.findings(key, work)
    if not all(isinstance(finding, str) for finding in found):
        memo.used[key] = found = work()
        memo.dirty = True
    return found


def _findings_key(plan: tuple) -> str:
    """What the bare-edge findings say beyond what the group's key holds: each slot's table and templates,
    and the code that words them."""
    import sys
    from pnpgen.output_cache import source_fingerprint
    names = [(table.id, piece.front.template if piece.front else "", piece.back.template if piece.back else "")
             for table, piece, _ in slot_owners(plan[0])]
    return content_key("bare", source_fingerprint(sys.modules[__name__]), repr(names))


def _read_findings(path) -> list[str] | None:
    """The findings kept with a group's cached files (None: unreadable, so the group is drawn again)."""
    import json
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, list) and all(isinstance(f, str) for f in found) else None


def _write_findings(path, found: list[str]) -> None:
    import json
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(found), encoding="utf-8")


def bare_edge_findings(group: str, plan: tuple, arts) -> list[str]:
    """Preflight of the home bleed: per table and template, the pieces whose art runs to a cut line that
    gets no bleed (a neighbour of another colour shares it, or the page's edge): a cut 0.5 mm off shows
    that colour or paper there. Box-shaped pieces only (circles and hexes always have a gutter, or nest)."""
    from pnpgen.render.home_bleed import page_bare_edges, side_colours
    from pnpgen.render.piece_sheets import bleed_rooms
    tables, pages = plan
    owners = slot_owners(tables)
    shapes = [table.shape for table, _, _ in owners]
    memo, found = arts.bleed_memo, {}

    def face_of(page, slot):
        piece = owners[slot.index][1]
        return piece.front if page.side == "front" else piece.back

    def colours_of(page, slot):
        """The slot's side colours as it lies on the page (None: no box, or no face on this side)."""
        table, _, settings = owners[slot.index]
        face = face_of(page, slot)
        if face is None or table.shape.kind not in ("square", "rect"):
            return None
        return side_colours(arts.art(face, table.shape, settings.bleed), table.shape, settings.bleed, slot.turned,
                            memo)

    for number, page in enumerate(pages, 1):
        rooms = bleed_rooms(page, shapes, memo)
        rects = [(slot.x, slot.y, shapes[slot.index].w, shapes[slot.index].h) for slot in page.slots]
        colours = [colours_of(page, slot) for slot in page.slots]
        for i, _, reason in page_bare_edges(rects, [rooms[slot.index] for slot in page.slots], colours, memo):
            slot = page.slots[i]
            found.setdefault((reason, owners[slot.index][0].id, face_of(page, slot).template), set()).add(number)
    said = {"neighbour": "a cut line it shares with a piece of another colour (a cut 0.5 mm off shows that "
                         f"colour; a gutter, kit.yaml sheets: {tables[0][0].group}: {{gutter: 2mm}}, gives it bleed)",
            "edge": "the header band or the printable edge, with no room for bleed (a cut 0.5 mm off shows paper)"}
    return [f"preflight: {group}{SUFFIX}: art runs to {said[reason]}: " + "; ".join(
                f"table {table} ({template}.svg, page {', '.join(str(n) for n in sorted(numbers))})"
                for (why, table, template), numbers in sorted(found.items()) if why == reason)
            for reason in ("neighbour", "edge") if any(key[0] == reason for key in found)]


def page_cuts(path: str, pages: list) -> list[dict]:
    """Every page's straight cut lines and crop marks (x1, y1, x2, y2 in points from its top-left corner),
    for the manifest: where a cutter (or a test) finds them without reading the PDF."""
    return [{"file": path, "page": number, "segments": [[round(v, 3) for v in cut] for cut in page.cuts]}
            for number, page in enumerate(pages, 1)]


def preview_names(ctx, group: str, plan: tuple) -> list[str]:
    """previews/<group>-pN.png for every page, with --previews only (drawing them costs a third again)."""
    if not ctx.option("previews"):
        return []
    return [f"previews/{group}-p{n}.png" for n in range(1, len(plan[1]) + 1)]


def sheets_of(pages: list) -> int:
    """Sheets of paper a file takes: one per front page (its back, if any, is the other side)."""
    return sum(1 for page in pages if page.side == "front")


def draw_group(ctx, group: str, plan: tuple, arts: FaceArts, path, previews=()) -> None:
    """The group's PDF, and each page's PNG preview where asked, drawn by the same code."""
    from pnpgen.render.pdf import PdfDocument
    from pnpgen.render.piece_sheets import draw_sheet_page
    tables, pages = plan
    owners = slot_owners(tables)
    fronts = [arts.art(piece.front, table.shape, settings.bleed) for table, piece, settings in owners]
    backs = [arts.art(piece.back, table.shape, settings.bleed) if piece.back else None
             for table, piece, settings in owners]
    bleed, doc = tables[0][2].bleed, None
    shapes = [table.shape for table, _, _ in owners]
    for number, (page, words) in enumerate(zip(pages, page_headers(ctx, group, plan))):
        if doc is None:
            doc = PdfDocument(path, f"{ctx.kit.title}: {group}", *page.size, final=True)
        doc.new_page(*page.size)
        draw_sheet_page(doc.context, page, fronts if page.side == "front" else backs, shapes, bleed, *words,
                        bleed_memo=arts.bleed_memo)
        if previews:
            draw_preview(previews[number], page, owners, arts, (bleed, *words))
    doc.close()


def page_headers(ctx, group: str, plan: tuple) -> list[tuple]:
    """What each page's header says, (title, flip, hint, lines): a title naming the page's tables (or the
    group's `title` setting) with the sheet and side; on a two-sided file's fronts the edge to flip on, and
    on its first page where to check the backs. A counter sheet says it in `lines` (pnpgen.components.titles)."""
    from pnpgen.components.titles import alignment_hint, counter_sheet_lines, group_words, page_name
    tables, pages = plan
    owners, settings = slot_owners(tables), tables[0][2]
    words, sheets = group_words(ctx.kit, group, tables), sheets_of(pages)
    if settings.layout == COUNTER_SHEET and not words:
        words = page_name(group, {table.name: None for table, _, _ in tables})
    two_sided = any(page.side == "back" for page in pages)
    flip = flip_words(settings.duplex) if two_sided else ""
    headers = []
    for number, page in enumerate(pages):
        sheet = sum(1 for p in pages[:number + 1] if p.side == "front")
        if settings.layout == COUNTER_SHEET:
            lines = counter_sheet_lines(ctx.kit.title, words, page.side, sheet, sheets, number == 0, two_sided,
                                        settings)
            headers.append(("", "", "", lines))
            continue
        names = words or page_name(group, {owners[slot.index][0].name: None for slot in page.slots})
        hint = alignment_hint(settings.back_offset) if two_sided and number == 0 else ""
        headers.append((core_words("{title} \u00b7 {names} \u00b7 {side} {sheet} of {sheets}").format(
            title=ctx.kit.title, names=names, side=core_words(page.side), sheet=sheet, sheets=sheets), flip, hint, ()))
    return headers


def draw_preview(path, page, owners: list, arts: FaceArts, words: tuple) -> None:
    """A page as a 60 dpi PNG, drawn as its PDF page is (`words`: bleed, title, flip, hint). Faces are replayed
    anew with their images' pixels (a PDF's faces carry stand-ins that only a PDF can show)."""
    from pnpgen.render.png import save_png
    from pnpgen.render.face_store import replay
    from pnpgen.render.piece_sheets import draw_sheet_page
    shown: dict = {}
    pictures: list = [None] * len(owners)
    for slot in page.slots:
        table, piece, settings = owners[slot.index]
        face = piece.front if page.side == "front" else piece.back
        if face is not None and face not in shown:
            record = arts.store.get(arts.key_of(face, table.shape, settings.bleed))
            shown[face] = replay(record) if record is not None else arts.art(face, table.shape, settings.bleed)
        pictures[slot.index] = shown.get(face)
    shapes = [table.shape for table, _, _ in owners]
    save_png(str(path), page.size, lambda cr: draw_sheet_page(cr, page, pictures, shapes, *words))


def _placement(group, page_no, page, slot, table, piece, settings) -> dict:
    from pnpgen.manifest import placement
    return placement(f"{group}{SUFFIX}", page_no, page.side, slot, table.shape.w, table.shape.h, table.shape.kind,
                     settings.bleed, piece)


@contextmanager
def collector_paused():
    """Python's cycle collector paused while faces are drawn. Each face's drawing calls are hundreds of small
    lists and numbers; made by the hundred thousand, they set the collector off again and again over every
    object the build holds (a third of the time spent taking the workers' results). Nothing drawn here
    makes reference cycles that must go before the part ends; the collector runs again afterwards."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def build(ctx) -> dict:
    from pnpgen.render.home_bleed import forget
    try:
        with collector_paused():  # the workers that prepare faces are forked with it paused too
            return _build(ctx)
    finally:
        forget()


def start_drawing(ctx):
    """(faces, the output cache of drawn files, the bare-edge memo): what drawing the groups takes. Every face
    of the kit is looked up (its drawing key known from the last build), in a shard too: a template's font
    warning is then said at the same first row whichever files a process draws."""
    from pnpgen.output_cache import OutputCache
    from pnpgen.render.check_memo import CheckMemo
    from pnpgen.render.face_keys import FaceKeys, kit_cache_files, render_salt
    kit = ctx.kit
    store_file, keys_file = kit_cache_files(kit.root, ctx.cache_dir)   # the user's: a new output folder replays what was drawn
    arts = FaceArts(kit, lambda: face_origins(kit), store_file, FaceKeys(keys_file, render_salt(ctx)))
    arts.prepare(wanted_faces(ctx, kit))
    return arts, OutputCache(ctx.cache_dir / "piece-sheets"), CheckMemo("piece-sheets-bare", kit.root)


def _build(ctx) -> dict:
    arts, cache, bare_memo = start_drawing(ctx)
    printed, moved = printed_files(ctx)
    files = [write_group(ctx, group, runs, arts, cache, bare_memo) for group, runs in printed.items()]
    cache.prune()
    arts.overprints_of.save()
    arts.bleed_memo.save()
    bare_memo.save()
    if arts.findings:  # the kit as designed must print well
        raise BuildError("preflight: these pieces would print badly:\n" + "\n".join(sorted(set(arts.findings))))
    warnings = sorted(set(arts.warnings)) + [f"preflight: {finding}" for finding in sorted(set(arts.size_findings))]
    try:
        arts.store.save(arts.used)
    except OSError:   # the user's cache full or read-only: the next build draws these faces again, no more
        pass
    arts.known_keys.save()
    return part_entry(ctx, files, moved, warnings, len(arts.used), arts.rendered)
