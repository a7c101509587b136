"""The counters part's files (pnpgen.parts.counters registers it): every counter of the kit at its rule count,
double-sided, one PDF per print group (each colour, deep space, neutral), PNG previews, and every placement
in the manifest. The duplex calibration sheet is the core's (pnpgen.calibration).

The stages stay apart: faces (Jinja SVG per distinct face) -> layout (pnpgen.layout.packing in the
counter-sheet layout, as a kit's `sheets: GROUP: {layout: counter-sheet}`, numbers) -> drawing (pnpgen.render.counter_sheets, in worker processes). Two caches under ctx.cache_dir keep
rebuilds fast: a file whose inputs hash the same as last time is copied instead of drawn
(pnpgen.output_cache), and a face drawn before is replayed from its recorded cairo calls instead of
rendered from SVG again (pnpgen.render.face_store).
"""
from __future__ import annotations

import hashlib
import multiprocessing
from importlib import metadata
import os
from dataclasses import replace
from pathlib import Path

from pnpgen import game_modules
from itertools import groupby

from pnpgen.components import titles as titles_module
from pnpgen.components.titles import counter_sheet_lines
from pnpgen.duplex import build_setting
from pnpgen.pieces import Face, Piece
from pnpgen.layout import packing as packing_module, sheets as layout_module
from pnpgen.layout.packing import Run, impose
from pnpgen.layout.sheets import COUNTER_SHEET, SheetSettings
from pnpgen.lengths import mm, parse_length, pt_from_mm
from pnpgen.output_cache import OutputCache, content_key, source_fingerprint
from pnpgen.paper import PRINTABLE_MARGIN, paper_size
from pnpgen.problems import BuildError, UsageError
from pnpgen.shapes import Shape
from pnpgen.render import counter_sheets as sheets_module
from pnpgen.render import face_compact as face_compact_module
from pnpgen.render import face_store as face_store_module
from pnpgen.render import pdf as pdf_module
from pnpgen.render import piece_sheets as piece_sheets_module
from pnpgen.render import png as png_module
from pnpgen.render import svg_ops as svg_ops_module
from pnpgen.render.face_store import FaceStore
from pnpgen.render.counter_sheets import FaceRef, KitView, SheetFile, SheetPage, write_sheet_file
from pnpgen.render.templates import SUFFIX, template_dirs

WORKERS = 2


# Options -----------------------------------------------------------------------------------------------

def sheet_spec(ctx) -> tuple[Shape, SheetSettings]:
    """The counters' square and their sheets: the counter-sheet layout, cut lines, the build's flip."""
    gutter = float(ctx.option("gutter", 0.0) or 0.0)
    if gutter < 0:
        raise UsageError("--gutter must be 0 or more (mm)")
    duplex, offset = build_setting(ctx)
    size = parse_length(ctx.counter_size)
    return Shape("square", size, size), SheetSettings(
        paper=paper_size(ctx.paper), gutter=pt_from_mm(gutter), marks="lines", bleed=0.0, duplex=duplex, nest=False,
        back_offset=offset, layout=COUNTER_SHEET)


# Faces --------------------------------------------------------------------------------------------------

def templates_fingerprint(kit_root: Path) -> str:
    """A hash of every face template a build can use (kit templates first, then built-ins)."""
    parts = []
    for folder in template_dirs(kit_root):
        for path in sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else ():
            parts += [str(path), path.read_text(encoding="utf-8")]
    return content_key(*parts)


def images_fingerprint(kit_root: Path, out: Path | None = None) -> str:
    """A hash of every image file in the kit folder (hidden folders and the build's output folder `out` left
    out, so its previews never count): a face may show any of them (`<image href="art/red.png">`), and a
    redrawn image must redraw the faces that show it. Kits hold few images; this reads them once per build."""
    from pnpgen.images import IMAGE_SUFFIXES
    skip = {Path(out).resolve()} if out else set()
    parts = []
    for folder, names, files in os.walk(kit_root):
        here = Path(folder)
        names[:] = sorted(n for n in names if not n.startswith(".") and (here / n).resolve() not in skip)
        for name in sorted(files):
            path = here / name
            if path.suffix.lower() in IMAGE_SUFFIXES and not name.startswith(".") and path.is_file():
                parts += [path.relative_to(kit_root).as_posix(), hashlib.sha256(path.read_bytes()).hexdigest()]
    return content_key(*parts)


def kit_view(kit) -> KitView:
    return KitView(Path(kit.root), kit.id, kit.title, kit.data, tuple(kit.colours))


class FaceRefs:
    """The store key of each distinct face: same templates, parameters, images and size -> same drawing."""

    def __init__(self, kit: KitView, size_mm: float, out: Path | None = None):
        from pnpgen.render import piece_faces
        renderer = [metadata.version(name) for name in ("cairosvg", "cairocffi")]
        self.base = content_key(templates_fingerprint(kit.root), images_fingerprint(kit.root, out), repr(size_mm),
                                repr((kit.id, kit.title, kit.data, kit.colours)), source_fingerprint(piece_faces),
                                *renderer,
                                source_fingerprint(face_store_module, face_compact_module, svg_ops_module))
        self.kit, self.refs = kit, {}

    def ref(self, face: Face, needed_by: str) -> FaceRef:
        if face not in self.refs:
            key = content_key(self.base, face.template, face.params_json)
            self.refs[face] = FaceRef(key, face.template, face.params_json, needed_by)
        return self.refs[face]


# Print groups ---------------------------------------------------------------------------------------------

def print_groups(ctx) -> list[tuple[str, str, list[Piece]]]:
    """(group id, printed name, pieces) of the game module's counters, in the order and with the names the
    module gives (each colour first by default); empty groups dropped. A kit's tables print elsewhere."""
    tables = set(ctx.kit.component_pieces)  # printed by the components part
    pieces = [p for p in ctx.pieces if p not in tables]  # the module's, expanded once by the build
    groups = []
    for group, name in game_modules.of(ctx.kit).print_groups(ctx.kit):
        members = [p for p in pieces if p.group == group]
        if members:
            groups.append((group, name, members))
    return groups


def impose_group(pieces: list[Piece], spec: tuple[Shape, SheetSettings]) -> list:
    """The group's pages: each kind of piece (units, markers, other counters) a run starting a new row."""
    shape, settings = spec
    runs = [Run(shape, len(list(run)), settings, True) for _, run in groupby(pieces, key=lambda p: p.kind)]
    try:
        return impose(runs)
    except ValueError as exc:
        raise BuildError(f"{exc}: choose a smaller --counter-size or --gutter") from None


def piece_origin(kit, piece: Piece) -> str:
    """'file:line: ' of the data a module's piece comes from (the first part of its ref names the data file,
    as kit.yaml's `files:` does; the line is its entry's, or the file's top), so a face that fails to draw
    says where to look; '' where the kit does not know."""
    file, line = kit.locate(piece.ref.split(".", 1)[0], piece.ref)
    return f"{file}:{line}: " if file != "?" else ""


def group_sheet(ctx, spec, faces: FaceRefs, group: tuple) -> SheetFile:
    group_id, group_name, pieces = group
    pages = impose_group(pieces, spec)
    sheets = sum(1 for page in pages if page.side == "front")
    distinct: dict[FaceRef, int] = {}
    sheet_pages = []
    for number, page in enumerate(pages):
        indices = []
        for slot in page.slots:
            piece = pieces[slot.index]
            face = piece.front if page.side == "front" else piece.back
            ref = faces.ref(face, f"{piece_origin(ctx.kit, piece)}{piece.ref} ({piece.label}, {page.side})")
            indices.append(distinct.setdefault(ref, len(distinct)))
        sheet = sum(1 for p in pages[:number + 1] if p.side == "front")
        lines = counter_sheet_lines(ctx.kit.title, f"counters \u00b7 {group_name}", page.side, sheet, sheets,
                                    number == 0, True, spec[1])
        sheet_pages.append(SheetPage(page, tuple(indices), lines))
    rel = f"counters-{group_id}.pdf"
    previews = tuple(f"previews/counters-{group_id}-p{n}.png" for n in range(1, len(pages) + 1)
                     if ctx.option("previews"))
    return SheetFile(rel, f"{ctx.kit.title}: counters, {group_name}", pages[0].size, faces.kit,
                     mm(spec[0].w), tuple(distinct), tuple(sheet_pages), previews)


# Producing the files -------------------------------------------------------------------------------------

CODE = (layout_module, packing_module, titles_module, sheets_module, piece_sheets_module, png_module, pdf_module,
        face_store_module, face_compact_module)


def job_outputs(job) -> list[str]:
    return [job.path, *job.previews]


def job_key(job) -> str:
    """Everything that decides a file's bytes: the drawing code, the faces' keys, the layout and titles."""
    faces = [f.key for f in getattr(job, "faces", ())]
    return content_key(source_fingerprint(*CODE), repr(faces), f"previews: {bool(job.previews)}",
                       repr(replace(job, path="", previews=(), kit=None, faces=()) if faces else
                            replace(job, path="", previews=())))


def run_job(job, store: FaceStore) -> int:
    return write_sheet_file(job, store)


def staged(ctx, job):
    """The job with its output paths pointing into the build's staging folder."""
    return replace(job, path=str(ctx.stage.path(job.path)),
                   previews=tuple(str(ctx.stage.path(p)) for p in job.previews))


def render_jobs(jobs: list, store: FaceStore) -> list[int]:
    """Draw the files, split over worker processes (forked after cairo is loaded) when more than one."""
    if len(jobs) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [run_job(job, store) for job in jobs]
    pdf_module._cairo()  # load cairo and cairosvg once, before forking
    jobs = sorted(jobs, key=lambda j: -len(getattr(j, "faces", ())))
    from pnpgen.run_parts import pool_worker
    pool = multiprocessing.get_context("fork").Pool(min(WORKERS, os.cpu_count() or 1, len(jobs)),
                                                    initializer=pool_worker, initargs=(os.getpid(),))
    try:
        drawn = pool.starmap(run_job, [(job, store) for job in jobs], chunksize=1)
    except BaseException:
        pool.terminate()
        raise
    # Done: the workers leave on the pool's own end-of-work message. Not terminate() (Pool's __exit__): its
    # SIGTERM can reach a worker still inside fork, where Python drops a signal its handler has not yet
    # seen, and the join then waits for ever (seen once in a full test run).
    pool.close()
    pool.join()
    return drawn


def produce(ctx, jobs: list) -> dict:
    """Copy unchanged files from the cache, draw the rest (replaying stored faces), remember both."""
    cache = OutputCache(ctx.cache_dir / "counters")
    missing, keys = [], {}
    for job in jobs:
        keys[job.path] = key = job_key(job)
        if not cache.fetch(key, [ctx.stage.path(rel) for rel in job_outputs(job)]):
            missing.append(job)
    store, rendered = FaceStore(ctx.cache_dir / "counter-faces"), 0
    if missing:
        rendered = sum(render_jobs([staged(ctx, job) for job in missing], store))
        store.prune({f.key for job in jobs for f in getattr(job, "faces", ())})
    for job in missing:
        cache.store(keys[job.path], [ctx.stage.path(rel) for rel in job_outputs(job)])
    cache.prune()
    return {"drawn": [j.path for j in missing], "faces_rendered": rendered}


def preflight(ctx, faces: FaceRefs, spec: SheetSpec) -> list[str]:
    """Every counter face's glyphs, as measured when it was drawn, against the kit's preflight rules. At the
    kit's own counter size a finding stops the build; at a size chosen with --counter-size it is a warning
    (smaller counters have smaller text: the player asked for them; --strict still refuses)."""
    from pnpgen.preflight import check_face, overprints, preflight_rules
    from pnpgen.render.ink_lines import read_ink
    from pnpgen.shapes import Shape
    store, rules = FaceStore(ctx.cache_dir / "counter-faces"), preflight_rules(ctx.kit)
    shape, findings = spec[0], []
    for ref in faces.refs.values():
        record = store.get(ref.key) or {}
        texts = record.get("texts", ())
        found = check_face(texts, shape, 0.0, rules) + overprints(texts, read_ink(record.get("ops", ())))
        for finding in found:
            findings.append(f"{ref.source}: {ref.template}{SUFFIX}: {finding}")  # where first, as a table piece's
    return sorted(set(findings))


# Manifest --------------------------------------------------------------------------------------------------

def placements(sheet: SheetFile, pieces: list[Piece], size: float) -> list[dict]:
    """Every counter on every page, in the manifest's one placement shape (pnpgen.manifest.placement)."""
    from pnpgen.manifest import placement
    rows = []
    for number, page in enumerate(sheet.pages, start=1):
        side = page.layout.side
        for slot in page.layout.slots:
            piece = pieces[slot.index]
            rows.append(placement(sheet.path, number, side, slot, size, size, "square", 0.0, piece))
    return rows


def file_entry(ctx, sheet: SheetFile, group: str) -> dict:
    return {"path": sheet.path, "pages": len(sheet.pages), "paper": ctx.paper, "page_size": list(sheet.page_size),
            "group": group, "previews": list(sheet.previews)}


def build_counters(ctx) -> dict:
    spec = sheet_spec(ctx)
    (shape, settings), size = spec, spec[0].w
    faces = FaceRefs(kit_view(ctx.kit), mm(size), ctx.options.out)
    groups = print_groups(ctx)
    sheets = [group_sheet(ctx, spec, faces, group) for group in groups]
    done = produce(ctx, sheets)
    findings = preflight(ctx, faces, spec)
    if findings and ctx.counter_size == ctx.kit.counter_size:  # the kit as designed must print well
        raise BuildError("preflight: these counters would print badly:\n" + "\n".join(findings))
    pages = sum(len(s.pages) for s in sheets)
    ctx.log(f"counters: {len(sheets)} sheet files, {pages} pages, {len(faces.refs)} distinct faces; "
            f"drew {len(done['drawn'])} file(s) ({done['faces_rendered']} faces rendered), the rest from cache")
    return {
        "files": [file_entry(ctx, s, g[0]) for s, g in zip(sheets, groups)],
        "counter_size": {"text": ctx.counter_size, "points": size},
        "sheet": {"margin": PRINTABLE_MARGIN, "gutter": settings.gutter, "duplex": settings.duplex,
                  "back_offset": list(settings.back_offset), "origin": "top-left, points"},
        "placements": [row for s, g in zip(sheets, groups) for row in placements(s, g[2], size)],
        "cuts": [{"file": s.path, "page": n, "segments": [list(map(lambda v: round(v, 3), c)) for c in p.layout.cuts]}
                 for s in sheets for n, p in enumerate(s.pages, start=1)],
        "warnings": [f"preflight: {finding}" for finding in findings],
    }
