"""The drawings of a kit's hex maps and boards (each board's art, its assembly page, its tiles' furniture) kept in
the user's cache, so a build into a new output folder replays them instead of rendering their templates and
reading their SVG again (Space Empires 4X's maps: 50 templates and 58,000 recorded calls, most of the part).

Two files per kit folder, language and part, both sealed (this user's pnpgen's only, never a file a kit ships),
as the pieces' faces are kept (pnpgen.render.face_keys, pnpgen.render.face_store):
- the drawings, each under its content key (pnpgen.render.check_memo.drawing_key: its SVG, the images and kit
  fonts it shows, the renderer): the calls pnpgen.render.svg_ops recorded, replayed as a fresh recording is,
  so the same PDF bytes. A drawing only cairosvg can draw is not kept (drawn each build, as before);
- each board's entry (its art's key and font warnings, its pages' keys, its tiles' plan) under a salt naming
  everything its templates read: the code (templates and fonts among it), the renderer, every file of the
  kit, the language and budgets; the entry's name holds the board and the build's options. Any edit to the
  kit or the code changes the salt: the templates are rendered again (a template edit shows), and the
  drawings whose SVG did not change still come from the store by their content key.
A record or entry that is not what this code writes is worked out again, never replayed. A store that cannot
be read or written only costs the renders.
"""
from __future__ import annotations

import gc
import hashlib
import json
import os
from pathlib import Path
from typing import Callable

from pnpgen.maps.tiling import laid_out
from pnpgen.render.check_memo import SealedMemo, drawing_key

VERSION = 1
FOLDER = "board-drawings"
KEEP = 400   # entries kept per kit and part: this build's, then the newest others (another paper, --map)


def drawings_salt(ctx) -> str:
    """Everything a board's templates read besides the board and the options: '' when the build does not say
    what its inputs are (a reprint), and then nothing is remembered. The renderer is named by its versions
    (its code is in the code's key): a build whose drawings all come from the output cache imports none of it."""
    if not ctx.code_key or ctx.kit_files is None:
        return ""
    import jinja2

    from pnpgen import budgets
    from pnpgen.i18n.translator import language
    from pnpgen.render.cairo_lib import installed_version
    renderer = " ".join(f"{name} {installed_version(name)}" for name in ("cairosvg", "cairocffi"))
    digest = hashlib.sha256(f"{VERSION}\0{ctx.code_key}\0{renderer}\0{jinja2.__version__}\0"
                            f"{language()}\0{budgets.active()!r}\0".encode())
    for rel, content in ctx.kit_files:
        digest.update(f"{rel}\0{content}\0".encode())
    return digest.hexdigest()


def entry_name(ctx, board: str) -> str:
    """A board's entry among the kit's: the board (a map's id, a board's name and colour) and every option the
    build was given (paper, counter size, piece sizes...)."""
    options = {"paper": ctx.paper, "counter_size": ctx.counter_size, **ctx.options.extra}
    return hashlib.sha256(json.dumps([board, options], sort_keys=True, default=str).encode()).hexdigest()


class Entries(SealedMemo):
    """{entry name: {"art": key, "warnings": [...], "pages": [keys]}} of one kit's part, valid under `salt`."""

    KEEP, FIELD = KEEP, "boards"

    def __init__(self, path: Path | None, salt: str):
        super().__init__(path if salt else None)
        self._salt = salt

    def salt(self) -> str:
        return self._salt

    def get(self, name: str) -> dict:
        found = self.known.get(name)
        return dict(found) if _entry(found) else {}

    def put(self, name: str, entry: dict) -> None:
        if self.path is not None:
            self.used[name] = entry
            self.dirty = self.dirty or self.known.get(name) != entry


def _entry(found) -> bool:
    return (isinstance(found, dict) and isinstance(found.get("art"), str)
            and isinstance(found.get("warnings"), list) and all(isinstance(w, str) for w in found["warnings"])
            and isinstance(found.get("pages", []), list) and all(isinstance(k, str) for k in found.get("pages", [])))


class StoredDrawings:
    """A part's drawings for one build: each from the store by its key when it holds it (replayed), else its SVG
    made (`svg()`, the template rendered) and drawn, and kept. Each distinct drawing is drawn once a build."""

    def __init__(self, ctx, part: str, base: Path | None):
        from pnpgen.i18n.translator import language
        from pnpgen.resources import cache_folder
        self.base = base
        folder = cache_folder(FOLDER)
        name = hashlib.sha256(repr((str(Path(ctx.kit.root).resolve()), language(), part)).encode()).hexdigest()[:32]
        self._path = folder / f"{name}.bin" if folder is not None else None
        self.entries = Entries(folder / f"{name}-entries.json" if folder is not None else None, drawings_salt(ctx))
        self._store = None
        self.arts: dict = {}    # key -> Art, drawn this build
        self.kept: set = set()  # keys of the drawings this build used or still names

    @property
    def store(self):
        """The stored records, read when first needed (a build whose files all come from the output cache
        replays nothing); none without a user's cache. Read with the collector paused: the records are tens of
        thousands of small lists, and collecting while they are made cost more than reading them."""
        if self._store is None:
            from pnpgen.render.face_store import PackedFaceStore
            paused = gc.isenabled()
            gc.disable()
            try:
                self._store = PackedFaceStore(self._path or Path(os.devnull))
            finally:
                if paused:
                    gc.enable()
        return self._store

    def art(self, key: str | None, svg: Callable[[], str], source: str) -> tuple:
        """(Art, its key): the drawing `key` names when the store holds it, else `svg()` drawn (and kept)."""
        art = self.arts.get(key) or (self._replayed(key) if key else None)
        if art is None:
            text = svg()
            key = drawing_key(text, self.base)
            art = self.arts.get(key) or self._replayed(key) or self._drawn(text, key, source)
        self.kept.add(key)
        self.arts[key] = art
        return art, key

    def keep(self, key: str | None) -> None:
        """A drawing this build did not need (its files came from the output cache) but a later one may."""
        if key:
            self.kept.add(key)

    def _replayed(self, key: str):
        """The stored drawing `key` replayed as render_svg draws it (unbounded: tiles place it clipped); None
        when the store has none, or one this code cannot replay (then drawn again)."""
        from pnpgen.render.face_store import replay
        record = self.store.records.get(key)
        if not _record_shape(record):
            return None
        try:
            return replay(record, unbounded=True)
        except Exception:  # noqa: BLE001 - not what this code stores: drawn from its SVG, which says what is wrong
            return None

    def _drawn(self, svg: str, key: str, source: str):
        from pnpgen.render.pdf import recorded_svg
        art, record = recorded_svg(svg, source, self.base)
        if record is not None and self._path is not None:
            self.store.put(key, record)
        return art

    def save(self, keep_others: bool = False) -> None:
        """Keep this build's entries and drawings (and the others' too when `keep_others`: a build of one map),
        with the drawings the kept entries name."""
        self.entries.save()
        if self._store is None or self._path is None:
            return
        kept = self.kept | {k for e in self.entries.known.values() if _entry(e) for k in [e["art"], *e.get("pages", [])]}
        if keep_others:
            kept |= set(self.store.records)
        try:
            self.store.save(kept)
        except (OSError, ValueError):   # not written: the next build renders again
            pass


class PageArts:
    """A board's page drawings (its assembly page, then each tile's furniture) in page order: each from the
    store by the key an earlier build noted at its place (`known`), else its SVG made and drawn. `keys`: this
    build's, for the board's entry."""

    def __init__(self, drawings: StoredDrawings, known: list):
        self.drawings, self.known, self.keys = drawings, known, []

    def next(self, svg: Callable[[], str], source: str = ""):
        """The next page's drawing (`svg()` makes its SVG when the store cannot give it)."""
        at = len(self.keys)
        art, key = self.drawings.art(self.known[at] if at < len(self.known) else None, svg, source)
        self.keys.append(key)
        return art


def _record_shape(found) -> bool:
    """A record as pnpgen.render.svg_ops writes it (a call it cannot replay makes the replay fail: drawn again)."""
    return (isinstance(found, dict) and isinstance(found.get("width"), (int, float))
            and isinstance(found.get("height"), (int, float)) and isinstance(found.get("ops"), list)
            and isinstance(found.get("texts", []), list))


def tiling(stored: dict, size: tuple, paper: str, plan: Callable[[], tuple]) -> tuple:
    """(the tiles' plan, each text block a seam still cuts) of a board drawn as its entry's art: as the entry
    kept them (its "tiles": the plan's choice and the cuts), else `plan()` worked out."""
    kept = stored.get("tiles")
    try:
        landscape, cols, rows, found = kept
        if isinstance(landscape, bool) and all(isinstance(f, str) for f in found):
            return laid_out(*size, paper, landscape, cols, rows), list(found)
    except Exception:  # noqa: BLE001 - none kept, or not what this code keeps: planned again
        pass
    return plan()


def tiles_kept(plan, found: list) -> list:
    """What `tiling` takes back: the plan's choice (pnpgen.maps.tiling.TilePlan.choice) and the cuts."""
    return [*plan.choice, list(found)]


def note_warnings(found: list, where: str, warnings: list) -> None:
    """Add each of a drawing's font warnings (pnpgen.kit_fonts.face_warnings) not there yet, located at `where`."""
    for warning in found:
        if f"{where}: {warning}" not in warnings:
            warnings.append(f"{where}: {warning}")
