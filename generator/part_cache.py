"""Skip a part whose inputs have not changed: its files and manifest entry come back from the cache.

A part's output depends only on the kit folder, the templates, the generator's own code (game modules
included) and the build options, so a hash of those is its key. A rebuild with nothing changed then copies
files instead of drawing them; a changed rules chapter rebuilds the booklet and nothing else that did not change.
The cache lives under the build's cache folder (never in the output) and keeps one entry per part.
The inputs are hashed by pnpgen.inputs. An entry counts only when this user's pnpgen wrote it: its record is
signed (pnpgen.signing) and names each file's digest, so a cache shipped inside a kit folder, or edited, is
ignored and the part is built again.
"""
from __future__ import annotations
from pnpgen.owned_folders import remove_tree
from pnpgen.signing import file_digest, read_sealed, seal
from pnpgen.whole_files import write_whole

import hashlib
import json
import os
from pathlib import Path

ENTRY = "entry.json"


def part_key(fingerprint: str, part_name: str, options: dict) -> str:
    text = json.dumps({"inputs": fingerprint, "part": part_name, "options": options}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _copy(data: bytes, target: Path) -> None:
    """A copy, never a hard link: a player who annotates an output PDF and saves it in place would otherwise
    change the cached original too, and every later build would hand out the annotated file. (An unchanged
    kit copies nothing at all: pnpgen.up_to_date skips the build.) The target is unlinked first, so a
    link left by an older build is not written through."""
    if target.exists() or target.is_symlink():
        target.unlink()
    target.write_bytes(data)


def read_verified(paths: list[Path], digests: list) -> list[bytes] | None:
    """The bytes of each file, when each has the digest the signed record gives it; else None."""
    if not isinstance(digests, list) or len(digests) != len(paths):
        return None
    found = []
    for path, digest in zip(paths, digests):
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(descriptor, "rb") as handle:
                data = handle.read()
        except OSError:
            return None
        if file_digest(data) != digest:
            return None
        found.append(data)
    return found


SECONDS = "seconds.json"
LONGEST = 3600.0  # seconds: a timing past this (or not a number) is not one


class PartCache:
    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def seconds(self, kit_root: Path | None = None) -> dict:
        """{part name (or `part/member` of a shard): seconds its last build took}: the order to start parts in
        (longest first) and how to cut them. Kept in the user's cache per kit folder (seconds_file), so a
        build into a new output folder starts its parts as well as the last; sealed (this user's pnpgen's
        only: a kit folder cannot ship timings that would make a build slower), each value checked."""
        try:
            stored = json.loads(read_sealed(seconds_file(kit_root, self.folder)) or b"{}")
        except (OSError, ValueError):
            return {}
        if not isinstance(stored, dict):
            return {}
        return {name: value for name, value in stored.items() if isinstance(name, str)
                and isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= LONGEST}

    def keep_seconds(self, seconds: dict, kit_root: Path | None = None) -> None:
        path = seconds_file(kit_root, self.folder)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_whole(path, seal(json.dumps({k: round(v, 3) for k, v in sorted(seconds.items())}).encode("utf-8")))
        except OSError:  # the user's cache full or read-only: the next build starts its parts by their weights
            pass

    def fetch(self, part_name: str, key: str, stage) -> dict | None:
        """Copy the cached files of `part_name` into the stage and return its manifest entry, or None."""
        entry_dir = self.folder / part_name / key
        try:
            stored = json.loads(read_sealed(entry_dir / ENTRY) or b"null")
            files, digests, entry = stored["files"], stored["digests"], stored["entry"]
        except (ValueError, TypeError, KeyError):
            return None
        found = read_verified([entry_dir / "files" / rel for rel in files], digests)
        if found is None:
            return None
        for rel, data in zip(files, found):
            _copy(data, stage.path(rel))
        return entry

    def store(self, part_name: str, key: str, stage, written: list[str], entry: dict) -> None:
        """Keep the files a part wrote and its entry; older entries of the same part are dropped."""
        part_dir = self.folder / part_name
        remove_tree(part_dir)
        entry_dir = part_dir / key
        entry_dir.mkdir(parents=True)
        digests = []
        for rel in written:
            target = entry_dir / "files" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            data = (stage.dir / rel).read_bytes()
            target.write_bytes(data)
            digests.append(file_digest(data))
        # the entry lands last and whole, signed: without it there is no hit
        record = json.dumps({"files": written, "digests": digests, "entry": entry})
        write_whole(entry_dir / ENTRY, seal(record.encode("utf-8")))


def seconds_file(kit_root: Path | None, fallback: Path) -> Path:
    """Where a kit folder's part timings are kept: the user's cache (one file per kit folder), else `fallback`
    (the build's own part cache)."""
    from pnpgen.resources import cache_folder
    folder = cache_folder("part-seconds") if kit_root is not None else None
    if folder is None:
        return Path(fallback) / SECONDS
    name = hashlib.sha256(str(Path(kit_root).resolve()).encode("utf-8")).hexdigest()[:32]
    return folder / f"{name}.json"
