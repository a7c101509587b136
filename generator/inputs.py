"""What a build reads, hashed: the kit's files, the templates, the generator's own code and fonts.

Every part's cache key and the whole build's up-to-date check start from these digests, so they are taken
on every build, also when nothing changed. Reading and hashing ~300 files (9 MB, most of it the shipped
fonts) each time costs more than the rest of such a build; a memo of each file's (size, mtime, inode) ->
digest re-hashes only the files whose stat changed (as git's index does). It lives in the user's cache, one
per kit folder (pnpgen.up_to_date.digest_memo), so a build into a new output folder reads it too (a cold
SE4X build hashed everything again: 0.04 s of its serial start). A file modified within the last
RACY_SECONDS is never memoised: an edit landing in the same clock tick as the memo cannot be missed.

Files are hashed as a stream, and a file larger than the kit reader would ever read (pnpgen.kit_files: a
table or text past `text_file_kb`, anything past 256 MB) is known by its stat alone, never read: its content
cannot reach a build (reading it is a located error), and a 3 GB file left in the kit folder, named by
nothing, made every build read it whole and fail on the memory budget.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat as _stat
import time
from pathlib import Path

from pnpgen import kit_files, resources
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT
from pnpgen.signing import may_replace, read_sealed, seal
from pnpgen.template_files import BUILTIN_TEMPLATES
from pnpgen.whole_files import write_whole

GENERATOR = resources.code()
GAMES = resources.games_code()   # the game modules' code: a change there rebuilds their kits too
# The built-in default kit: a kit without aid texts of its own (or charts) falls back to its files
# (generator/aids/sources.py, generator/kit.py for charts), as templates fall back to the built-in folder, so they are every other kit's input.
FALLBACK_KIT = BUILTIN_DATA / DEFAULT_KIT
# pnpgen's folders that an installed wheel holds inside GENERATOR (a clone keeps them beside it)
RESOURCE_FOLDERS = tuple(p.resolve() for p in (BUILTIN_DATA, BUILTIN_TEMPLATES, GAMES))
RACY_SECONDS = 2.0
MEMO_VERSION = 2   # 2: the inode change time too


class DigestMemo:
    """{absolute path: (size, mtime_ns, inode, ctime_ns, sha256)} of files hashed before (the change time too,
    as git's index keeps it: an edit in place whose mtime is set back, by `touch -r`, `cp -p` or an editor that
    keeps it, changes nothing else; the memo lives in the user's cache, so a new --out would not hash it), kept as a JSON file (signed:
    this user's pnpgen's only). Saved with the entries this process asked for: a file deleted since is dropped.
    `shared`: a second file for every path not starting with `kit_prefix` (pnpgen's code, fonts and templates,
    the same for every kit), so each kit folder's own memo holds only its files."""

    def __init__(self, path: Path | None, shared: Path | None = None, kit_prefix: str = ""):
        self.path = Path(path) if path else None
        self.shared, self.kit_prefix = (Path(shared) if shared else None), kit_prefix
        self.known: dict[str, list] = {}
        self.seen: set[str] = set()
        self.changed = False
        for memo in (self.shared, self.path):
            if memo is not None:
                self.known.update(_read_memo(memo))
        self.now_ns = time.time_ns()

    def digest(self, path: Path, stat: os.stat_result) -> str:
        key, seen = str(path), (stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns)
        self.seen.add(key)
        entry = self.known.get(key)
        if entry is not None and tuple(entry[:4]) == seen:
            return entry[4]
        if stat.st_size > kit_files.size_limit(path)[0]:
            return hashlib.sha256(b"unread\0" + repr(seen).encode()).hexdigest()
        with open(path, "rb") as stream:
            digest = hashlib.file_digest(stream, "sha256").hexdigest()
        if self.now_ns - stat.st_mtime_ns > RACY_SECONDS * 1e9:
            self.known[key] = [*seen, digest]
            self.changed = True
        return digest

    def save(self) -> None:
        """Keep the memo for the next build (written whole, then renamed: never half a file)."""
        if self.path is None or not self.changed:
            return
        kept = {key: entry for key, entry in self.known.items() if key in self.seen}
        own = {key: entry for key, entry in kept.items() if self.shared is None or key.startswith(self.kit_prefix)}
        _write_memo(self.path, own)
        if self.shared is not None:
            _write_memo(self.shared, {key: entry for key, entry in kept.items() if key not in own})
        self.changed = False


def _write_memo(path: Path, files: dict) -> None:
    if not may_replace(path):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, seal(json.dumps({"version": MEMO_VERSION, "files": files}).encode("utf-8")))
    except OSError:  # a memo that cannot be kept only costs the next build its hashing
        pass


def _read_memo(path: Path) -> dict:
    """The entries of a memo this user's pnpgen wrote, each of the shape it writes; {} for anything else (a
    damaged or foreign file costs the hashing, never a wrong digest)."""
    try:
        stored = json.loads(read_sealed(path) or b"null")
        files = stored["files"] if stored.get("version") == MEMO_VERSION else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {key: entry for key, entry in files.items() if _entry_shaped(entry)}


def _entry_shaped(entry) -> bool:
    return (isinstance(entry, list) and len(entry) == 5 and all(type(n) is int for n in entry[:4])
            and isinstance(entry[4], str) and len(entry[4]) == 64)


def tree_digests(folder: Path, skip: tuple[Path, ...], memo: DigestMemo) -> list[tuple[str, str]]:
    """(relative path, content hash) of every file below `folder`, in name order; hidden files, __pycache__
    and the folders in `skip` (the build's own output, when it lies inside the kit) left out. Walked with
    os.scandir, whose entries know their type and keep their stat: each file costs one stat, not four
    (os.walk, then stat, isfile and is_symlink on a Path: ~300 files on every build, nothing changed too)."""
    if not folder.is_dir():
        return []
    out: list = []
    _scan(str(folder), "", str(folder), skip, memo, out)
    return sorted(out)


def _scan(here: str, prefix: str, top: str, skip: tuple[Path, ...], memo: DigestMemo, out: list) -> None:
    """Files below `here` (relative names `prefix` + name), as os.walk without following links lists them:
    a link to a folder neither listed nor entered, a link to a file (or a broken one) listed as a file."""
    try:
        entries = list(os.scandir(here))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if not (name.startswith(".") or name == "__pycache__" or entry.is_symlink()) \
                    and Path(entry.path).resolve() not in skip:
                _scan(entry.path, f"{prefix}{name}/", top, skip, memo, out)
            continue
        if name.startswith("."):
            continue
        try:
            stat = entry.stat()
        except OSError:
            continue
        if not _stat.S_ISREG(stat.st_mode):
            continue
        out.append((prefix + name, _digest(Path(entry.path), Path(top), stat, memo, entry.is_symlink())))


def _digest(path: Path, folder: Path, stat: os.stat_result, memo: DigestMemo, link: bool | None = None) -> str:
    """The file's content hash; a link that leads out of `folder` is hashed by where it points, never read
    (a build refuses it when it comes to read it: pnpgen.kit_files)."""
    if (path.is_symlink() if link is None else link) \
            and not os.path.realpath(path).startswith(os.path.realpath(folder) + os.sep):
        return hashlib.sha256(b"outside\0" + os.fsencode(os.readlink(path))).hexdigest()
    return memo.digest(path, stat)


class FolderDigest:
    """One digest of every file below some folders (a left-out folder skipped, and any files named), cheap to
    take again and again in a long-lived process: a file's hash is kept while its size, mtime and inode stay."""

    def __init__(self, folders: list[Path], skip: tuple[Path, ...] = ()):
        self.folders, self.skip = [Path(f) for f in folders], tuple(Path(p).resolve() for p in skip)
        self.known: dict = {}

    def digest(self, leave_out: frozenset = frozenset()) -> str | None:
        """`leave_out`: resolved paths of files not counted. None when a file cannot be read now (gone
        between listing and reading)."""
        memo = DigestMemo(None)  # a fresh clock for its racy-file rule; the hashes known so far carried over
        memo.known = self.known
        total = hashlib.sha256()
        try:
            for folder in self.folders:
                total.update(str(folder).encode() + b"\1")
                for rel, digest in tree_digests(folder, self.skip, memo):
                    if not leave_out or (folder / rel).resolve() not in leave_out:
                        total.update(f"{rel}\0{digest}\0".encode())
        except OSError:
            return None
        return total.hexdigest()


class Inputs:
    """Every file any part may read (kit files, templates, the generator's and game modules' code, fonts), hashed once per
    build; each part's fingerprint leaves out the kit files it never reads (Part.ignores), so editing a
    rules chapter rebuilds the booklet and nothing else, and a template the parts that draw no piece. The
    kit's own output folder is left out."""

    def __init__(self, kit_root: Path, kit_out: Path, memo: DigestMemo | None = None):
        memo = memo or DigestMemo(None)
        self.kit_out = Path(kit_out)
        skip = (Path(kit_out).resolve(),)
        self.kit = tree_digests(Path(kit_root), skip, memo)
        skip += RESOURCE_FOLDERS  # in a wheel they lie inside GENERATOR: each is hashed once, on its own
        shared = hashlib.sha256()
        fallback = () if Path(kit_root).resolve() == FALLBACK_KIT.resolve() else (FALLBACK_KIT,)
        # the kit's own templates/ are kit files (self.kit): a part that never reads them (the aid cards, the
        # record sheets, the calibration sheet) keeps its cache when one is edited; the built-in ones are pnpgen's
        for folder in (BUILTIN_TEMPLATES, GENERATOR, GAMES, *fallback):
            shared.update(str(folder.name).encode() + b"\1")
            for rel, digest in tree_digests(folder, skip, memo):
                shared.update(f"{rel}\0{digest}\0".encode())
        self.shared = shared.hexdigest()
        self._memo = memo

    def keep_memo(self) -> None:
        """Save the digests learned, once a build has landed or been reused: a kit that fails to load writes
        nothing under --out (not even OUT/.cache)."""
        self._memo.save()

    def fingerprint(self, ignores: tuple = (), reads: tuple | None = None) -> str:
        """The shared inputs and the kit files a part may read: all of them but `ignores`, or, for a part
        keyed by the content it prints (Part.reads), only `reads`."""
        digest = hashlib.sha256(self.shared.encode())
        for rel, content in self.kit:
            if (reads is None or _under(rel, reads)) and not _under(rel, ignores):
                digest.update(f"{rel}\0{content}\0".encode())
        return digest.hexdigest()


def _under(rel: str, paths: tuple) -> bool:
    return any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in paths)
