"""The studio's pictures: each distinct piece face and each page of each PDF a build wrote, as PNG bytes named
by a hash of those bytes.

The name is the picture's URL, so a browser fetches a picture once and never again (it is immutable), and
after an edit only the pictures whose bytes changed get new names. Drawing is skipped as well as sending: a
face is drawn again only when its SVG (or an image it shows) changed, a file's pages only when its bytes did.
Even its SVG is not made again when nothing it may read changed: its row (the face's own parameters) and
every kit file that is not a table's rows (templates, data, art, fonts, kit.yaml), with pnpgen's own
templates. A save of one row renders that row's faces, not the kit's hundreds.
"""
from __future__ import annotations

import hashlib
import io
import json
import threading
from collections import Counter
from pathlib import Path

FACE_DPI = 144.0   # faces are shown at about their printed size on a 2x screen
PAGE_DPI = 50.0    # page thumbnails: whole sheets at a glance; the PDF itself is a click away


class PictureStore:
    """PNG bytes by name, shared by the build thread (adds) and the server's threads (reads)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pictures: dict[str, bytes] = {}

    def add(self, png: bytes) -> str:
        name = hashlib.sha256(png).hexdigest()[:24] + ".png"
        with self._lock:
            self._pictures[name] = png
        return name

    def get(self, name: str) -> bytes | None:
        with self._lock:
            return self._pictures.get(name)

    def keep_only(self, names: set[str]) -> None:
        """Forget every picture no view names any more: memory stays bounded by what one build shows."""
        with self._lock:
            self._pictures = {n: png for n, png in self._pictures.items() if n in names}


def png_bytes(image, dpi: float) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=1)
    return buffer.getvalue()


class FacePictures:
    """Each distinct face's picture, kept by its drawing's key (SVG text and image bytes) between builds, and
    that key by what the face reads (`rendered`), so an unchanged face is neither rendered nor drawn."""

    def __init__(self, store: PictureStore, skip: tuple = ()):
        """`skip`: folders that are no input (the build's output, when it lies inside the kit)."""
        self.store, self.skip = store, skip
        self.by_key: dict[str, str] = {}
        self.rendered: dict[tuple, str] = {}   # (face key, shape, what else it reads) -> drawing key
        self.sources = self.templates = None
        self.references: dict[str, list] = {}   # a template source's hash -> the templates it names

    def _besides_rows(self, kit) -> str | None:
        """The digest of all but the templates a face may read besides its own row: every kit file but the
        tables' rows and the templates, and its context as loaded (None: it could not be taken)."""
        from pnpgen.inputs import FolderDigest
        from pnpgen.template_files import template_dirs
        if self.sources is None or self.sources.folders[0] != kit.root:
            self.sources = FolderDigest([kit.root], (*self.skip, *template_dirs(kit.root)))
            self.templates = FolderDigest(template_dirs(kit.root), self.skip)
        rows = frozenset(Path(path).resolve() for table in kit.tables.values()
                         for path in (table.file, *(row.file for row in table.rows)))
        files = self.sources.digest(rows)
        if files is None:
            return None
        # the face's context besides its row, as loaded (a game module may fill `data` from tables)
        from pnpgen.render.piece_faces import face_context
        context = face_context({"piece": {}}, kit)
        loaded = json.dumps({k: context[k] for k in ("kit", "data", "colours", "icons")}, sort_keys=True, default=repr)
        return hashlib.sha256(f"{files}\0{loaded}".encode()).hexdigest()

    def _template_reads(self, env, name: str) -> str | None:
        """The digest of a face template and every template it imports or includes, by their text; when one
        is named by a variable (it may read any), of every template. None: one cannot be read (the render
        says why)."""
        from jinja2 import meta
        from pnpgen.template_files import SUFFIX
        total, seen, todo = hashlib.sha256(), set(), [f"{name}{SUFFIX}"]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            try:
                source, filename, _ = env.loader.get_source(env, current)
                digest = hashlib.sha256(source.encode()).hexdigest()
                if digest not in self.references:
                    self.references[digest] = list(meta.find_referenced_templates(env.parse(source)))
            except Exception:  # noqa: BLE001 - unreadable or not valid Jinja: rendered, and said, as it is
                return None
            total.update(f"{current}\0{filename}\0{digest}\0".encode())
            if None in self.references[digest]:
                return self.templates.digest()
            todo.extend(self.references[digest])
        return total.hexdigest()

    def pieces(self, kit) -> list[dict]:
        """One entry per distinct piece of the kit, in print order, with its count and its faces' pictures."""
        from pnpgen.export.decks import ExportArts
        from pnpgen.lengths import mm
        from pnpgen.proof import shape_of, variant_of
        pieces = kit.component_pieces
        arts, images, drawn = ExportArts(kit), {}, {}
        reads = _Reads(self, arts.env, self._besides_rows(kit))
        entries, seen = [], Counter()
        for piece, count in Counter(pieces).items():
            shape = shape_of(kit, piece)
            key = f"{piece.ref}|{piece.colour}|{piece.label}"
            seen[key] += 1
            entries.append({
                "key": f"{key}|{seen[key]}", "ref": piece.ref, "variant": variant_of(piece), "name": piece.name,
                "label": piece.label, "colour": piece.colour, "group": piece.group, "count": count,
                "source": arts.origins.get(piece.front.key, ""),  # the row to edit: 'file:line: table row label'
                "w_mm": round(mm(shape.w), 2), "h_mm": round(mm(shape.h), 2),
                "front": self._picture(arts, piece.front, shape, images, drawn, reads),
                "back": self._picture(arts, piece.back, shape, images, drawn, reads) if piece.back else None})
        used = set(drawn.values())
        self.by_key = {key: name for key, name in self.by_key.items() if key in used}
        self.rendered = reads.rendered
        return entries

    def _picture(self, arts, face, shape, images: dict, drawn: dict, reads: "_Reads") -> str:
        """`drawn`: (face, shape) -> drawing key for this build (a face on 26 pieces is hashed once);
        `images`: each image file's hash for this build; `reads`: what each face template reads."""
        from pnpgen.export.decks import pixels, rasterise
        from pnpgen.render.drawing_keys import svg_key
        if (face.key, shape) in drawn:
            return self.by_key[drawn[face.key, shape]]
        what = reads.of(face.template)
        known = self.rendered.get((face.key, shape, what)) if what else None
        if known in self.by_key:  # nothing it reads changed: its picture stands
            key = drawn[face.key, shape] = known
        else:
            svg, where = arts.svg(face, shape, 0.0)
            key = drawn[face.key, shape] = svg_key(svg, arts.kit.root, images)
            if key not in self.by_key:
                art = arts.cache.get(svg, where)
                image = rasterise(art, pixels(art.width, FACE_DPI), pixels(art.height, FACE_DPI))
                self.by_key[key] = self.store.add(png_bytes(image, FACE_DPI))
        if what:
            reads.rendered[face.key, shape, what] = key
        return self.by_key[key]


class _Reads:
    """For one build: each face template's digest of all it reads (its templates, then the rest of the kit),
    taken once; and the drawing key of each face by what it read, for the next build."""

    def __init__(self, faces: FacePictures, env, rest: str | None):
        self.faces, self.env, self.rest = faces, env, rest
        self.by_template: dict[str, str | None] = {}
        self.rendered: dict[tuple, str] = {}

    def of(self, template: str) -> str | None:
        if template not in self.by_template:
            own = self.faces._template_reads(self.env, template) if self.rest else None
            self.by_template[template] = f"{self.rest}|{own}" if own else None
        return self.by_template[template]


class PagePictures:
    """Each PDF's pages as thumbnails, kept by the file's digest: an unchanged file is not drawn again."""

    def __init__(self, store: PictureStore):
        self.store = store
        self.by_digest: dict[str, list[dict]] = {}

    def files(self, kit_out: Path, paths: list[Path]) -> list[dict]:
        """One entry per PDF of the build (path relative to the kit's output folder, its pages' pictures)."""
        entries, used = [], set()
        for path in paths:
            if path.suffix.lower() != ".pdf":
                continue
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            used.add(digest)
            if digest not in self.by_digest:
                self.by_digest[digest] = self._draw(data)
            entries.append({"path": path.relative_to(kit_out).as_posix(), "version": digest[:16],
                            "pages": self.by_digest[digest]})
        self.by_digest = {d: pages for d, pages in self.by_digest.items() if d in used}
        return entries

    def _draw(self, data: bytes) -> list[dict]:
        import pypdfium2
        document = pypdfium2.PdfDocument(data)
        try:
            pages = []
            for page in document:
                width, height = page.get_size()
                image = page.render(scale=PAGE_DPI / 72).to_pil()
                pages.append({"picture": self.store.add(png_bytes(image, PAGE_DPI)),
                              "w_pt": round(width, 1), "h_pt": round(height, 1)})
                page.close()
            return pages
        finally:
            document.close()


def pictures_named(pieces: list[dict], files: list[dict], extra=()) -> set[str]:
    """Every picture a view shows (what the store must keep)."""
    names = {p[side] for p in pieces for side in ("front", "back") if p.get(side)}
    names |= {page["picture"] for f in files for page in f["pages"]}
    return names | set(extra)
