"""Each face's drawing key remembered from the last build, so a data edit renders only the faces whose row
changed. A face's SVG is its template rendered with its row: the same row, templates, kit context and code
give the same SVG, hence the same drawing key (its SVG, the images and fonts it shows, the renderer). The
memo maps a face (its template and row, shape and bleed) to that key and the font warnings its SVG gave,
under a salt naming everything else a render reads: the generator's code and templates, every kit file but
the component tables (whose rows are in the face itself), the kit's free data as loaded, the edition and
the budgets. An edit to a unit's attack then renders that unit's faces, not the kit's 900 faces; an edit to
a template, an image, kit.yaml or the code changes the salt and forgets the memo (every face rendered, as
before). A memo that cannot be read or written only costs the renders.

The memo and the faces' drawings (pnpgen.render.face_store.PackedFaceStore) live in the user's cache, one
pair per kit folder and language (kit_cache_files): a build into a new output folder then replays the faces
an earlier build drew instead of rendering all 900 templates and drawing 300 faces again (Space Empires 4X's
components part: about half its time). Both files are sealed (this user's pnpgen's only, never a file a kit
ships), and a drawing is found by its content key, so a file another build of the kit wrote is as good as
this folder's own; another language keeps its own pair, so editions built in turn do not evict each other."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pnpgen.render.check_memo import SealedMemo

VERSION = 1


def render_salt(ctx) -> str:
    """Everything a face's template render reads besides the face (its template name and row): '' when the
    build does not say what its inputs are (a reprint), and then nothing is remembered."""
    if not ctx.code_key or ctx.kit_files is None:
        return ""
    import jinja2

    from pnpgen import budgets
    from pnpgen.i18n.translator import language
    from pnpgen.render.drawing_keys import renderer_fingerprint
    kit = ctx.kit
    rows = {_kit_relative(path, kit.root) for path in table_files(kit)}
    digest = hashlib.sha256(f"{VERSION}\0{ctx.code_key}\0{renderer_fingerprint()}\0{jinja2.__version__}\0"
                            f"{language()}\0{budgets.active()!r}\0".encode())
    for rel, content in ctx.kit_files:
        if rel not in rows:
            digest.update(f"{rel}\0{content}\0".encode())
    digest.update(json.dumps(kit.data, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def kit_cache_files(kit_root: Path, fallback: Path) -> tuple[Path, Path]:
    """(the faces' drawings, their drawing keys) of this kit folder and language in the user's cache; in
    `fallback` (the build's own cache folder) where the user's cache cannot be made."""
    from pnpgen.i18n.translator import language
    from pnpgen.resources import cache_folder
    folder = cache_folder("piece-faces")
    if folder is None:
        return Path(fallback) / "piece-faces.bin", Path(fallback) / "piece-face-keys.json"
    name = hashlib.sha256(repr((str(Path(kit_root).resolve()), language())).encode("utf-8")).hexdigest()[:32]
    return folder / f"{name}.bin", folder / f"{name}-keys.json"


def table_files(kit) -> set:
    """The files the component tables' rows come from (a table's YAML, its CSV or spreadsheet)."""
    found = set()
    for table in kit.tables.values():
        found.add(table.file)
        found.update(row.file for row in table.rows)
    return {f for f in found if f}


def _kit_relative(path, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


class FaceKeys(SealedMemo):
    """{face: (drawing key, font warnings)} of one kit's faces, in `path` in the build's cache, valid under
    `salt` ('' remembers nothing). Only this build's faces are written (KEEP 0): what a later build may find."""

    KEEP, FIELD = 0, "faces"

    def __init__(self, path: Path, salt: str):
        super().__init__(Path(path) if salt else None)
        self._salt = salt

    def salt(self) -> str:
        return self._salt

    @staticmethod
    def name(face, shape, bleed_pt: float) -> str:
        return hashlib.sha1(f"{face.key}\0{shape!r}\0{round(bleed_pt, 3)}".encode("utf-8")).hexdigest()

    def get(self, face, shape, bleed_pt: float) -> tuple[str, list] | None:
        name = self.name(face, shape, bleed_pt)
        found = self.known.get(name)
        if not (isinstance(found, list) and len(found) == 2 and isinstance(found[0], str)
                and isinstance(found[1], list)):
            return None
        self.used[name] = found
        return found[0], list(found[1])

    def put(self, face, shape, bleed_pt: float, key: str, warnings: list) -> None:
        if self.path is not None:
            self.used[self.name(face, shape, bleed_pt)] = [key, list(warnings)]
            self.dirty = True
