"""The components part: every component table's pieces on imposed sheets, one PDF per print group.

Each distinct face (template + parameters) is rendered once per build and placed wherever it appears;
pieces of one group that differ in shape or size start a new batch of pages.
"""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from concurrent.futures.process import BrokenProcessPool
from importlib import metadata
from pathlib import Path

from generator.components.pieces import row_faces
from generator.layout.sheets import impose, settings_for
from generator.lengths import mm
from generator.parts import Part
from generator.problems import BuildError, display_path
from generator.preflight import check_face, preflight_rules
from generator.render.images import PLACED

SUFFIX = ".pdf"
SUFFIX_SVG = ".svg.j2"
MIN_DPI = 300
WORKERS = 2
PARALLEL_FROM = 48   # fewer new faces than this are drawn in this process: forking costs more than it saves
CHUNK = 64           # faces a worker renders per task
HREF = re.compile(r'href="([^"#][^"]*)"')
RENDERER = f"cairosvg {metadata.version('cairosvg')} cairocffi {metadata.version('cairocffi')}"


def face_origins(kit) -> dict:
    """face key -> 'file:line' of the first row that makes it, so a failing face names its row."""
    origins = {}
    for table in kit.tables.values():
        for row in table.rows:
            for colour in (kit.colours if table.per_colour else (kit.neutral,)):
                for face in row_faces(table, row, colour):
                    if face is not None:
                        origins.setdefault(face.key, f"{display_path(row.file)}:{row.line}: {table.id} row {row.label}")
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


class FaceArts:
    """Each distinct face rendered once per build (at the bleed its sheet asks for), and kept on disk as its
    recorded cairo calls: the next build replays it without cairosvg unless its SVG or an image it shows
    changed (the key hashes both)."""

    def __init__(self, kit, origins, store_file: Path):
        from generator.render.face_store import PackedFaceStore
        from generator.render.piece_faces import kit_env
        self.kit, self.origins, self.done, self.by_svg, self.svgs = kit, origins, {}, {}, {}
        self.keys, self.checked = {}, set()
        self.store, self.used, self.rendered, self.recorded = PackedFaceStore(store_file), set(), 0, set()
        self.env = kit_env(kit.root)
        self.warnings: list[str] = []
        self.findings: list[str] = []
        self.rules = preflight_rules(kit)

    def svg(self, face, shape, bleed_pt: float) -> str:
        """The face's SVG document: its template rendered with its row, wrapped and clipped to the shape."""
        from generator.render.piece_faces import face_context, piece_svg, render_content
        key = (face.key, round(bleed_pt, 3))
        if key not in self.svgs:
            bleed = round(mm(bleed_pt), 4)
            params = face.params | {"piece": face.params["piece"] | {"bleed": bleed}}
            where = self.origins.get(face.key, face.template)
            content = render_content(self.kit.root, face.template, face_context(params, self.kit), where, self.env)
            self.svgs[key] = piece_svg(content, shape, bleed)
        return self.svgs[key]

    def prepare(self, wanted: list) -> None:
        """Render and record, in two processes, every face of `wanted` [(face, shape, bleed)] that the store
        does not hold yet; art() then only replays. Small jobs are left to art(), in this process."""
        todo = list({(f.key, round(b, 3)): (f, s, b) for f, s, b in wanted if (f.key, round(b, 3)) not in self.svgs}.values())
        if len(todo) < PARALLEL_FROM or "fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2:
            return
        from generator.render.pdf import _cairo
        _cairo()  # cairo, cairosvg and our drawers loaded once, before forking
        _PREPARE.update(arts=self, todo=todo)
        chunks = [range(start, min(start + CHUNK, len(todo))) for start in range(0, len(todo), CHUNK)]
        try:
            with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("fork")) as pool:
                results = [item for part in pool.map(_prepare_chunk, chunks) for item in part]
        except BrokenProcessPool:  # a worker died: draw everything here instead, as on a one-core machine
            return
        finally:
            _PREPARE.clear()
        for (face, _, bleed), (svg, key, record) in zip(todo, results):
            self.svgs[(face.key, round(bleed, 3))] = svg
            if record is not None and self.store.get(key) is None:
                self.store.put(key, record)
                self.recorded.add(key)

    def key_of(self, face, shape, bleed_pt: float) -> str:
        """The store key of a face's drawing (its SVG and the images it shows)."""
        key = (face.key, round(bleed_pt, 3))
        if key not in self.keys:
            self.keys[key] = svg_key(self.svg(face, shape, bleed_pt), self.kit.root)
        return self.keys[key]

    def check(self, face, shape, bleed_pt: float) -> bool:
        """Preflight a face from its stored record, without drawing it; False when it is not stored."""
        key = self.key_of(face, shape, bleed_pt)
        record = self.store.get(key)
        if record is None:
            return False
        if key not in self.checked:
            self.checked.add(key)
            self.used.add(key)
            where = self.origins.get(face.key, face.template)
            self._preflight([tuple(p) for p in record.get("placed", [])], where, face.template)
            self._check_texts(record.get("texts", ()), shape, bleed_pt, where, face)
        return True

    def _check_texts(self, texts, shape, bleed_pt, where, face) -> None:
        for finding in check_face(texts, shape, bleed_pt, self.rules):
            self.findings.append(f"{where}: {face.template}{SUFFIX_SVG} ({face.params.get('side')}): {finding}")

    def art(self, face, shape, bleed_pt: float):
        key = (face.key, round(bleed_pt, 3))
        if key not in self.done:
            where = self.origins.get(face.key, face.template)
            self.done[key] = self._draw(self.svg(face, shape, bleed_pt), where, face.template)
            self._check_texts(self.done[key].texts, shape, bleed_pt, where, face)
        return self.done[key]

    def _draw(self, svg: str, where: str, template: str):
        from generator.render.face_store import replay
        key = svg_key(svg, self.kit.root)
        if key in self.by_svg:  # another row, the same drawing (a back that shows none of its row)
            return self.by_svg[key]
        self.used.add(key)
        record = self.store.get(key)
        if record is not None:
            placed = [tuple(p) for p in record.get("placed", [])]
            art = replay(record)
            if key in self.recorded:  # recorded by a worker this build: it counts as rendered
                self.rendered += 1
        else:
            art, record, placed = draw_face(svg, where, self.kit.root)
            self.rendered += 1
            if record is not None:
                self.store.put(key, record | {"placed": [list(p) for p in placed]})
            placed = [tuple(p) for p in placed]
        self._preflight(placed, where, template)
        self.by_svg[key] = art
        return art

    def _preflight(self, placed, where: str, template: str) -> None:
        """A raster printed below MIN_DPI looks soft: say which piece and which file."""
        for path, across, down in placed:
            dpi = min(across, down)
            if dpi < MIN_DPI:
                try:
                    rel = Path(path).resolve().relative_to(self.kit.root.resolve())
                except ValueError:
                    rel = path
                self.warnings.append(f"{where}: {template}{SUFFIX_SVG}: image {rel} prints at {dpi:.0f} dpi "
                                     f"(below {MIN_DPI}); use a larger image or print it smaller")


_PREPARE: dict = {}  # set just before the workers fork: {"arts": FaceArts, "todo": [(face, shape, bleed)]}


def _prepare_chunk(indexes: range) -> list:
    return [_prepare_one(index) for index in indexes]


def _prepare_one(index: int):
    """In a worker: (svg, store key, record or None) of one face; None leaves it to cairosvg in the parent."""
    from generator.render.svg_ops import Unsupported, record
    arts = _PREPARE["arts"]
    face, shape, bleed = _PREPARE["todo"][index]
    svg = arts.svg(face, shape, bleed)
    key = svg_key(svg, arts.kit.root)
    if arts.store.get(key) is not None:
        return svg, key, None
    try:
        made = record(svg, arts.kit.root)
    except Unsupported:
        return svg, key, None
    return svg, key, made


def draw_face(svg: str, where: str, root: Path):
    """(art, record or None, images placed): the fast subset drawer when the SVG stays inside it, else cairosvg."""
    from generator.render.face_store import record_svg, replay
    from generator.render.svg_ops import Unsupported, record
    try:
        made = record(svg, root)
    except Unsupported:
        mark = len(PLACED)
        art, stored = record_svg(svg, where, root)
        return art, stored, PLACED[mark:]
    return replay(made), made, made["placed"]


def svg_key(svg: str, root: Path) -> str:
    """The face's store key: its SVG text, the bytes of every image it references, the renderer versions."""
    digest = hashlib.sha1(svg.encode("utf-8"))
    for ref in sorted(set(HREF.findall(svg))):
        path = (root / ref).resolve()
        if path.is_file() and path.is_relative_to(root.resolve()):
            digest.update(hashlib.sha1(path.read_bytes()).digest())
    digest.update(_renderer().encode())
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _renderer() -> str:
    """The versions and code that turn an SVG into stored calls: a change to any of them redraws every face."""
    from generator.output_cache import source_fingerprint
    from generator.render import face_store, fast_text, images, svg_ops
    return RENDERER + source_fingerprint(face_store, fast_text, images, svg_ops)


def wanted_faces(ctx, kit) -> list:
    """(face, shape, bleed) of every face the sheets will print, in print order."""
    duplex = ctx.option("duplex", "long") or "long"
    wanted = []
    for group, runs in batches(kit).items():
        for table, pieces in runs:
            bleed = settings_for(table.shape, kit.sheets.get(table.group), ctx.paper, duplex).bleed
            for piece in pieces:
                wanted += [(f, table.shape, bleed) for f in (piece.front, piece.back) if f is not None]
    return wanted


def plan_group(ctx, runs: list) -> list:
    """[(table, pieces, sheet settings, pages)] of one print group: the layout, in numbers only."""
    duplex = ctx.option("duplex", "long") or "long"
    offset = _offset(ctx)
    plan = []
    for table, pieces in runs:
        settings = settings_for(table.shape, ctx.kit.sheets.get(table.group), ctx.paper, duplex, offset)
        two_sided = any(p.back is not None for p in pieces)
        try:
            pages = impose(table.shape, len(pieces), settings, two_sided)
        except ValueError as exc:
            raise BuildError(f"{display_path(table.file)}: size: {exc}") from None
        plan.append((table, pieces, settings, pages))
    return plan


def group_key(ctx, group: str, plan: list, arts: FaceArts) -> str:
    """Everything a group's PDF depends on: the drawing code, its layout and titles, every face's drawing."""
    from generator.layout import sheets as sheets_layout
    from generator.output_cache import content_key, source_fingerprint
    from generator.render import pdf, piece_sheets
    parts = [source_fingerprint(pdf, piece_sheets, sheets_layout), _renderer(), ctx.kit.title, group]
    for table, pieces, settings, pages in plan:
        parts += [table.name, repr(table.shape), repr(settings), repr([(p.side, p.header, p.header_side) for p in pages])]
        for piece in pieces:
            parts += [arts.key_of(face, table.shape, settings.bleed) if face else "-" for face in (piece.front, piece.back)]
    return content_key(*parts)


def write_group(ctx, group: str, runs: list, arts, cache=None) -> dict:
    """The group's PDF: from the output `cache` when nothing in it changed (its faces still preflighted from
    their stored records), else drawn. Without a cache (a reprint), always drawn."""
    plan = plan_group(ctx, runs)
    path = ctx.stage.path(f"{group}{SUFFIX}")
    if cache is None:
        draw_group(ctx, group, plan, arts, path)
    else:
        key = group_key(ctx, group, plan, arts)
        faces = [(face, table.shape, settings.bleed) for table, pieces, settings, _ in plan for piece in pieces
                 for face in (piece.front, piece.back) if face is not None]
        if not (all(arts.check(*face) for face in faces) and cache.fetch(key, [path])):
            draw_group(ctx, group, plan, arts, path)
            cache.store(key, [path])
    placements, number = [], 0
    for table, pieces, settings, pages in plan:
        for page in pages:
            number += 1
            placements += [_placement(group, number, page, slot, table, pieces[slot.index], settings.bleed)
                           for slot in page.slots]
    return {"path": f"{group}{SUFFIX}", "pages": number, "placements": placements}


def draw_group(ctx, group: str, plan: list, arts: FaceArts, path) -> None:
    from generator.render.pdf import PdfDocument
    from generator.render.piece_sheets import draw_sheet_page
    doc = None
    for table, pieces, settings, pages in plan:
        two_sided = any(p.back is not None for p in pieces)
        fronts = [arts.art(p.front, table.shape, settings.bleed) for p in pieces]
        backs = [arts.art(p.back, table.shape, settings.bleed) if p.back else None for p in pieces]
        per_sheet = 2 if two_sided else 1
        for number, page in enumerate(pages):
            if doc is None:
                doc = PdfDocument(path, f"{ctx.kit.title}: {group}", *page.size)
            doc.new_page(*page.size)
            title = f"{ctx.kit.title} \u00b7 {table.name} \u00b7 {page.side} {number // per_sheet + 1} of " \
                    f"{len(pages) // per_sheet}"
            draw_sheet_page(doc.context, page, fronts if page.side == "front" else backs, table.shape,
                            settings.bleed, title)
    doc.close()


def _placement(group, page_no, page, slot, table, piece, bleed) -> dict:
    return {"file": f"{group}{SUFFIX}", "page": page_no, "side": page.side, "ref": piece.ref,
            "colour": piece.colour, "x": round(slot.x, 3), "y": round(slot.y, 3), "w": round(table.shape.w, 3),
            "h": round(table.shape.h, 3), "shape": table.shape.kind, "turned": slot.turned, "bleed": round(bleed, 3),
            "face": (piece.front if page.side == "front" else piece.back).template}


def _offset(ctx) -> tuple[float, float]:
    from generator.parts.counters import parse_offset
    return parse_offset(ctx.option("back_offset", "0,0") or "0,0")


def build(ctx) -> dict:
    kit = ctx.kit
    arts = FaceArts(kit, face_origins(kit), ctx.cache_dir / "piece-faces.bin")
    arts.prepare(wanted_faces(ctx, kit))
    from generator.output_cache import OutputCache
    cache = OutputCache(ctx.cache_dir / "piece-sheets")
    files = [write_group(ctx, group, runs, arts, cache) for group, runs in batches(kit).items()]
    cache.prune()
    if arts.findings:
        raise BuildError("preflight: these pieces would print badly:\n" + "\n".join(sorted(set(arts.findings))))
    warnings = sorted(set(arts.warnings))
    arts.store.save(arts.used)
    ctx.log(f"components: {len(files)} files, {sum(f['pages'] for f in files)} pages, "
            f"{len(arts.used)} distinct faces, {arts.rendered} rendered, the rest replayed")
    return {"files": [{k: v for k, v in f.items() if k != "placements"} for f in files],
            "placements": [p for f in files for p in f["placements"]], "warnings": warnings,
            "faces": {"distinct": len(arts.used), "rendered": arts.rendered},
            "tables": {t.id: {"name": t.name, "shape": t.shape.kind, "w": round(t.shape.w, 3),
                              "h": round(t.shape.h, 3), "radius": round(t.shape.radius, 3), "group": t.group,
                              "pieces": sum(1 for p in kit.component_pieces if p.ref.split('.', 1)[0] == t.id)}
                       for t in kit.tables.values()}}


PART = Part(name="components", build=build, order=15, aliases=("pieces",),
            doc="every component table's pieces, double-sided, one PDF per print group",
            applies=lambda kit: bool(kit.tables), ignores=("rules", "boards"))
