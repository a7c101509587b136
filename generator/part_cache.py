"""Skip a part whose inputs have not changed: its files and manifest entry come back from the cache.

A part's output depends only on the kit folder, the templates, the generator's own code (game modules
included) and the build options, so a hash of those is its key. A rebuild with nothing changed then copies files instead of
drawing them; a changed rules chapter rebuilds the booklet and nothing else that did not change.
The cache lives under the build's cache folder (never in the output) and keeps one entry per part.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from generator.render.templates import template_dirs

GENERATOR = Path(__file__).resolve().parent
GAMES = GENERATOR.parent / "games"   # the game modules' code: a change there rebuilds their kits too
ENTRY = "entry.json"


def _tree_digests(folder: Path, skip: tuple[Path, ...]) -> list[tuple[str, str]]:
    """(relative path, content hash) of every file below `folder`, in name order."""
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or "__pycache__" in rel.parts or any(p.startswith(".") for p in rel.parts):
            continue
        if any(path.resolve().is_relative_to(s) for s in skip):
            continue
        out.append((rel.as_posix(), hashlib.sha256(path.read_bytes()).hexdigest()))
    return out


class Inputs:
    """Every file any part may read (kit files, templates, the generator's code and fonts), hashed once per
    build; each part's fingerprint leaves out the kit files it never reads (Part.ignores), so editing a
    rules chapter rebuilds the booklet and nothing else. The kit's own output folder is left out."""

    def __init__(self, kit_root: Path, kit_out: Path):
        skip = (Path(kit_out).resolve(),)
        self.kit = _tree_digests(Path(kit_root), skip)
        shared = hashlib.sha256()
        for folder in (*template_dirs(kit_root), GENERATOR, GAMES):
            shared.update(str(folder.name).encode() + b"\1")
            for rel, digest in _tree_digests(folder, skip):
                shared.update(f"{rel}\0{digest}\0".encode())
        self.shared = shared.hexdigest()

    def fingerprint(self, ignores: tuple = ()) -> str:
        digest = hashlib.sha256(self.shared.encode())
        for rel, content in self.kit:
            if not any(rel == i or rel.startswith(i.rstrip("/") + "/") for i in ignores):
                digest.update(f"{rel}\0{content}\0".encode())
        return digest.hexdigest()


def part_key(fingerprint: str, part_name: str, options: dict) -> str:
    text = json.dumps({"inputs": fingerprint, "part": part_name, "options": options}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _link_or_copy(source: Path, target: Path) -> None:
    """A hard link where the file system allows one (no bytes move: an unchanged kit rebuilds in a blink),
    else a copy. Nothing writes into an output file in place (pdf_update replaces files whole), so the
    cached original cannot change through the link."""
    try:
        if target.exists():
            target.unlink()
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


class PartCache:
    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def fetch(self, part_name: str, key: str, stage) -> dict | None:
        """Copy the cached files of `part_name` into the stage and return its manifest entry, or None."""
        entry_dir = self.folder / part_name / key
        try:
            stored = json.loads((entry_dir / ENTRY).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        sources = [entry_dir / "files" / rel for rel in stored["files"]]
        if not all(s.is_file() for s in sources):
            return None
        for rel, source in zip(stored["files"], sources):
            _link_or_copy(source, stage.path(rel))
        return stored["entry"]

    def store(self, part_name: str, key: str, stage, written: list[str], entry: dict) -> None:
        """Keep the files a part wrote and its entry; older entries of the same part are dropped."""
        part_dir = self.folder / part_name
        shutil.rmtree(part_dir, ignore_errors=True)
        entry_dir = part_dir / key
        entry_dir.mkdir(parents=True)
        for rel in written:
            target = entry_dir / "files" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(stage.dir / rel, target)
        temporary = entry_dir / f".{ENTRY}.tmp"  # the entry lands last and whole: without it there is no hit
        temporary.write_text(json.dumps({"files": written, "entry": entry}), encoding="utf-8")
        os.replace(temporary, entry_dir / ENTRY)
