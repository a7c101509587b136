"""The faces of a kit's pieces: each distinct face rendered from its template once per build, drawn through
the SVG subset drawer (cairosvg beyond it), kept on disk as its recorded cairo calls keyed by its SVG and the
images it shows, replayed on later builds, and preflighted (text size and margins, image resolution).
New faces are rendered and recorded in two processes when there are enough of them and the part is built
alone (beside other parts, the build already keeps both cores busy)."""
from __future__ import annotations

import hashlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from pnpgen.lengths import mm
from pnpgen.problems import BuildError
from pnpgen.preflight import check_face, contrasts, overprints, piece_kind, preflight_rules
from pnpgen.render import ink_lines
from pnpgen.render.drawing_keys import renderer_fingerprint, svg_key
from pnpgen.render.images import PLACED
from pnpgen.template_files import SUFFIX

MIN_DPI = 300
WORKERS = 2
PARALLEL_FROM = 48   # fewer new faces than this are drawn in this process: forking costs more than it saves
CHUNK = 64           # faces a worker renders per task


class FaceArts:
    """Each distinct face rendered once per build (at the bleed its sheet asks for), and kept on disk as its
    recorded cairo calls: the next build replays it without cairosvg unless its SVG or an image it shows
    changed (the key hashes both)."""

    def __init__(self, kit, find_origins, store_file: Path, known_keys=None):
        """`find_origins()` gives {face key: 'file:line: table row'}, asked only when a message needs it;
        `known_keys` (pnpgen.render.face_keys.FaceKeys): each face's drawing key as the last build found it,
        so a face whose drawing is stored is not rendered again to learn its key."""
        from pnpgen.render.face_store import PackedFaceStore
        from pnpgen.render.piece_faces import kit_env
        self.kit, self.find_origins, self.origins = kit, find_origins, None
        self.done, self.by_svg, self.svgs, self.replayed = {}, {}, {}, {}
        self.known_keys = known_keys
        self.keys, self.checked, self.checked_faces, self.images, self.relative = {}, set(), set(), {}, {}
        self.store, self.used, self.rendered, self.recorded = PackedFaceStore(store_file), set(), 0, set()
        self.env = kit_env(kit.root)
        self.warnings: list[str] = []
        self.faces_warned: set = set()
        self.findings: list[str] = []
        # A table printed at a size chosen on the command line: its findings are warnings (smaller pieces
        # have smaller text: the player asked for them; --strict still refuses)
        self.chosen_sizes = {table.id for table in kit.tables.values() if table.size_chosen}
        self.size_findings: list[str] = []
        self.rules = preflight_rules(kit)
        self.findings_of: dict = {}   # (drawing key, shape, bleed, recorded?) -> its findings, checked once
        self.key_by_face: dict = {}   # (face, bleed) -> key_of's answer
        self.art_by_face: dict = {}   # (face, bleed) -> art's answer
        self.declared_kinds: bool | None = None   # whether any table declares its pieces' `kind` (_kind)
        from pnpgen.render.check_memo import CheckMemo
        self.overprints_of = CheckMemo("faces", kit.root)   # what earlier builds' overprint checks found
        from pnpgen.render.bleed_memo import BleedMemo
        self.bleed_memo = BleedMemo(kit.root)   # each face's home bleed as earlier builds worked it out
        self.rules_key = hashlib.sha1(repr(self.rules).encode("utf-8")).hexdigest()[:12]  # the kit's limits

    def svg(self, face, shape, bleed_pt: float) -> str:
        """The face's SVG document: its template rendered with its row, wrapped and clipped to the shape (the
        one face road, piece_faces.face_document, that proofs, exports and figures take too)."""
        from pnpgen.render.piece_faces import face_document
        key = (face.key, round(bleed_pt, 3))
        if key not in self.svgs:
            where = Where(self, face)
            self.svgs[key] = face_document(self.kit, face, shape, round(mm(bleed_pt), 4), where, self.env)
            from pnpgen.kit_fonts import check_svg_text
            if problem := check_svg_text(self.svgs[key]):
                raise BuildError(f"{where}: {face.template}.svg.j2: {problem}")
            self._other_faces(face, self._face_warnings(face, shape, bleed_pt, self.svgs[key]))
        return self.svgs[key]

    def _face_warnings(self, face, shape, bleed_pt: float, svg: str) -> list[str]:
        """The font warnings of a face's SVG, and its drawing key, kept for the next build (known_keys)."""
        from pnpgen.kit_fonts import face_warnings
        warnings = face_warnings(svg)
        if self.known_keys is not None:
            key = (face.key, round(bleed_pt, 3))
            if key not in self.keys:
                self.keys[key] = svg_key(svg, self.kit.root, self.images)
            self.known_keys.put(face, shape, bleed_pt, self.keys[key], warnings)
        return warnings

    def _other_faces(self, face, warnings: list[str]) -> None:
        """A warning for text set in a face the kit's fonts do not have (bold asked, regular printed): once
        per template and font, at the first row that asks for it."""
        for warning in warnings:
            if (face.template, warning) not in self.faces_warned:
                self.faces_warned.add((face.template, warning))
                self.warnings.append(f"{Where(self, face)}: {face.template}{SUFFIX}: {warning}")

    def prepare(self, wanted: list) -> None:
        """Render and record, in two processes, every face of `wanted` [(face, shape, bleed)] that the store
        does not hold yet; art() then only replays. Small jobs are left to art(), in this process."""
        for face, shape, bleed in wanted:
            self._known_key(face, shape, bleed)
        todo = list({(f.key, round(b, 3)): (f, s, b) for f, s, b in wanted
                     if (f.key, round(b, 3)) not in self.svgs and (f.key, round(b, 3)) not in self.keys}.values())
        if len(todo) < PARALLEL_FROM or "fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2 \
                or multiprocessing.parent_process() is not None:
            return   # (in a worker the build's parts already keep both cores busy: SE4X with every face new, the
                     # pool there cost 10 % more CPU and saved no time)
        from pnpgen.render.cairo_lib import cairo, scratch_context
        cairo()  # cairo and the shipped fonts loaded once, before forking (cairosvg only where needed)
        scratch_context()
        renderer_fingerprint()
        _PREPARE.update(arts=self, todo=todo)
        chunks = [range(start, min(start + CHUNK, len(todo))) for start in range(0, len(todo), CHUNK)]
        try:
            with face_pool() as pool:
                results = (item for part in pool.map(_prepare_chunk, chunks) for item in part)
                for (face, shape, bleed), (svg, key, record) in zip(todo, results):  # as the workers hand them in
                    self._take(face, shape, bleed, svg, key, record)
        except BrokenProcessPool:  # a worker died: the rest is drawn here instead, as on a one-core machine
            return
        finally:
            _PREPARE.clear()

    def _take(self, face, shape, bleed: float, svg: str, key: str, record: dict | None) -> None:
        """A worker's face: kept, and a new drawing replayed now, while the workers go on with the others."""
        self.svgs[(face.key, round(bleed, 3))] = svg
        self.keys[(face.key, round(bleed, 3))] = key
        self._other_faces(face, self._face_warnings(face, shape, bleed, svg))
        if record is not None and self.store.get(key) is None:
            self.store.put(key, record)
            self.recorded.add(key)
            self.replayed[key] = replayed(record, Where(self, face))

    def key_of(self, face, shape, bleed_pt: float) -> str:
        """The store key of a face's drawing (its SVG and the images it shows), looked up by the face itself
        once known (a face's `key` is its parameters' JSON joined anew at each call: a build after an edit
        asks 5,696 times)."""
        found = self.key_by_face.get((face, bleed_pt))
        if found is not None:
            return found
        key = (face.key, round(bleed_pt, 3))
        if key not in self.keys and not self._known_key(face, shape, bleed_pt):
            self.keys[key] = svg_key(self.svg(face, shape, bleed_pt), self.kit.root, self.images)
        found = self.key_by_face[face, bleed_pt] = self.keys[key]
        return found

    def _known_key(self, face, shape, bleed_pt: float) -> bool:
        """The face's drawing key taken from the last build (known_keys), when its drawing is stored: its
        template is not rendered. Its font warnings are said as a render would say them."""
        key = (face.key, round(bleed_pt, 3))
        if key in self.keys:
            return True
        known = self.known_keys.get(face, shape, bleed_pt) if self.known_keys is not None else None
        if known is None or self.store.get(known[0]) is None:
            return False
        self.keys[key] = known[0]
        self._other_faces(face, known[1])
        return True

    def check(self, face, shape, bleed_pt: float) -> bool:
        """Preflight a face from its stored record, without drawing it; False when it is not stored."""
        key = self.key_of(face, shape, bleed_pt)
        record = self.store.get(key)
        if record is None:
            return False
        if key not in self.checked:
            self.checked.add(key)
            self.checked_faces.add((face.key, round(bleed_pt, 3)))
            self.used.add(key)
            where = Where(self, face)
            self._preflight([tuple(p) for p in record.get("placed", [])], where, face.template)
            self._check_texts(record, shape, bleed_pt, where, face, key)
        return True

    def _check_texts(self, record, shape, bleed_pt, where, face, key: str) -> None:
        """Text size and margins, text over text or under a line, and text on too faint a ground (a face
        cairosvg drew beyond what the store replays is checked from the calls it made, kept in memory).
        One drawing is checked once per shape and bleed: the rows that print the same drawing (a deck's
        repeated backs, a counter printed in six colours with one back) share its findings, each said at its
        own row."""
        kind = self._kind(face, shape)
        memo = (key, shape, round(bleed_pt, 3), "ops" in record, kind)
        found = self.findings_of.get(memo)
        if found is None:
            texts = record.get("texts", ())
            found = check_face(texts, shape, bleed_pt, self.rules, self._image_labels(record.get("svg_images", ())),
                               kind, record.get("fine", ()))
            if texts:  # a drawing without text has nothing a line could cross, nor a ground to be read on
                found += self.overprints_of.findings(
                    f"{key}:{round(bleed_pt, 3)}:{'ops' in record}:{self.rules_key}",
                    lambda: self._ink_findings(texts, record, bleed_pt))
            self.findings_of[memo] = found
        lenient = found and face.params.get("piece", {}).get("table") in self.chosen_sizes
        for finding in found:
            (self.size_findings if lenient else self.findings).append(
                f"{where}: {face.template}{SUFFIX} ({face.params.get('side')}): {finding}")

    def _ink_findings(self, texts, record, bleed_pt: float) -> list[str]:
        """What the face's drawing calls show: a line crossing its text, text on too faint a ground or on a
        picture with no backing."""
        ink = ink_lines.read_ink(record.get("ops", ()))
        return overprints(texts, ink, bleed_pt) + contrasts(texts, ink, self.rules, bleed_pt, self._kit_relative)

    def _kind(self, face, shape) -> str:
        """'card' or 'counter': the face's table's declared `kind`, else by its size (preflight.piece_kind).
        In a kit whose tables declare none, the face's parameters are not read for it (each face's are JSON)."""
        tables = getattr(self.kit, "tables", {})
        if self.declared_kinds is None:
            self.declared_kinds = any(getattr(table, "kind", None) is not None for table in tables.values())
        if not self.declared_kinds:
            return piece_kind(shape)
        table = tables.get(face.params.get("piece", {}).get("table"))
        return piece_kind(shape, getattr(table, "kind", None))

    def art(self, face, shape, bleed_pt: float):
        found = self.art_by_face.get((face, bleed_pt))
        if found is not None:
            return found
        key = (face.key, round(bleed_pt, 3))
        if key not in self.done:
            where = Where(self, face)
            self.done[key] = self._draw(lambda: self.svg(face, shape, bleed_pt), self.key_of(face, shape, bleed_pt),
                                        where, face.template)
            if key not in self.checked_faces:  # (check() has said what there is to say about this one)
                stored = self.store.get(self.key_of(face, shape, bleed_pt))
                drawn = self.done[key]
                unstored = {"texts": drawn.texts, "svg_images": drawn.svg_images}   # drawn by cairosvg only: its
                if drawn.ops is not None:                                          # calls, kept for the checks
                    unstored["ops"] = drawn.ops
                self._check_texts(stored or unstored, shape, bleed_pt, where, face, self.key_of(face, shape, bleed_pt))
        found = self.art_by_face[face, bleed_pt] = self.done[key]
        return found

    def _draw(self, svg, key: str, where: str, template: str):
        """`svg()` gives the face's SVG, rendered only when its drawing is not stored."""
        if key in self.by_svg:  # another row, the same drawing (a back that shows none of its row)
            return self.by_svg[key]
        self.used.add(key)
        record = self.store.get(key)
        if record is not None:
            placed = [tuple(p) for p in record.get("placed", [])]
            art = self.replayed.pop(key, None) or replayed(record, where)
            if key in self.recorded:  # recorded by a worker this build: it counts as rendered
                self.rendered += 1
        else:
            art, record, placed = draw_face(svg(), where, self.kit.root)
            self.rendered += 1
            if record is not None:
                self.store.put(key, record | {"placed": [list(p) for p in placed]})
            placed = [tuple(p) for p in placed]
        if key not in self.checked:
            self._preflight(placed, where, template)
        self.by_svg[key] = art
        self.bleed_memo.name(art, key)
        return art

    def _image_labels(self, svg_images) -> list:
        """(label, first, end) of the glyphs each SVG image drew: "the icon :credit: (art/credit.svg)" for a
        kit icon (`:name:` places it), "the image art/x.svg" for one a template shows itself."""
        labels = []
        for path, first, end in svg_images:
            rel = self._kit_relative(path)
            names = [f":{name}:" for name, ref in sorted(getattr(self.kit, "icons", {}).items())
                     if Path(ref).as_posix() == Path(rel).as_posix()]
            labels.append((f"the icon {' '.join(names)} ({rel})" if names else f"the image {rel}", first, end))
        return labels

    def _kit_relative(self, path: str) -> str:
        """An image's path as the kit names it (relative to the kit folder), worked out once per file."""
        return self.relative.get(path) or self.relative.setdefault(path, _relative(path, self.kit.root))

    def _preflight(self, placed, where: str, template: str) -> None:
        """A raster printed below MIN_DPI looks soft: say which piece and which file."""
        for path, across, down in placed:
            dpi = min(across, down)
            if dpi < MIN_DPI:
                rel = self._kit_relative(path)
                self.warnings.append(f"{where}: {template}{SUFFIX}: image {rel} prints at {dpi:.0f} dpi "
                                     f"(below {MIN_DPI}); use a larger image or print it smaller")


    def origin_of(self, face) -> str:
        if self.origins is None:
            self.origins = self.find_origins()
        return self.origins.get(face.key, face.template)


class Where:
    """Where a face comes from ('file:line: table row'), for messages: worked out when one is written, since
    finding the rows of every face of a kit costs more than most builds ever need it."""

    __slots__ = ("arts", "face")

    def __init__(self, arts: FaceArts, face):
        self.arts, self.face = arts, face

    def __str__(self) -> str:
        return self.arts.origin_of(self.face)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _relative(path: str, root: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except ValueError:
        return path


def face_pool() -> ProcessPoolExecutor:
    """The workers that render new faces, forked: SIGTERM kills them by the kernel's default even where the
    build's process has a Python handler for it (a build of this one part runs in the main process), so a
    SIGTERM that lands while a worker is still inside fork cannot be lost (workers.pool_worker)."""
    from pnpgen.workers import pool_worker
    return ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("fork"), initializer=pool_worker,
                               initargs=(os.getpid(),))


_PREPARE: dict = {}  # set just before the workers fork: {"arts": FaceArts, "todo": [(face, shape, bleed)]}


def _prepare_chunk(indexes: range) -> list:
    return [_prepare_one(index) for index in indexes]


def _prepare_one(index: int):
    """In a worker: (svg, store key, record or None) of one face; None leaves it to cairosvg in the parent."""
    from pnpgen.render.svg_ops import Unsupported, record
    arts = _PREPARE["arts"]
    face, shape, bleed = _PREPARE["todo"][index]
    svg = arts.svg(face, shape, bleed)
    key = arts.key_of(face, shape, bleed)
    if arts.store.get(key) is not None or key in arts.recorded:  # stored, or recorded by this worker already
        return svg, key, None
    arts.recorded.add(key)  # (this worker's copy: the parent keeps the first record it gets)
    try:
        made = record(svg, arts.kit.root)
    except Unsupported:
        return svg, key, None
    except Exception:  # noqa: BLE001 - cairo refused it: the parent draws it again and says where it failed
        return svg, key, None
    return svg, key, made


def draw_face(svg: str, where: str, root: Path):
    """(art for a PDF, record or None, images placed): the fast subset drawer when the SVG stays inside it,
    else cairosvg. A stored record is replayed, so this build draws what the next one will replay."""
    from pnpgen.render.cairo_lib import cairo
    from pnpgen.render.face_store import record_svg
    from pnpgen.render.pdf_images import ImageRefused
    from pnpgen.render.svg_ops import Unsupported, record
    from pnpgen.svg_depth import TooDeep
    try:
        made = record(svg, root)
        return replayed(made, where), made, made["placed"]
    except (ImageRefused, TooDeep) as exc:  # an image a template names by a computed href (bomb, damaged, cut
        # short), or SVG nested too deep to walk
        raise BuildError(f"{where}: {exc}") from None
    except cairo().CairoError as exc:  # text too large for FreeType, say: a number the template computed
        raise BuildError(f"{where}: cannot draw the SVG: {exc}") from None
    except Unsupported:
        mark = len(PLACED)
        art, stored = record_svg(svg, where, root)
        return (art if stored is None else replayed(stored, where)), stored, PLACED[mark:]


def replayed(record: dict, where) -> object:
    """A recorded face replayed for a PDF; a drawing cairo refuses (a NaN a template computed, say) is an
    error that names the face's row."""
    from pnpgen.render.face_store import replay
    try:
        return replay(record, for_pdf=True)
    except BuildError as exc:
        raise BuildError(f"{where}: {exc}") from None
