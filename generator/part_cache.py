"""Skip a part whose inputs have not changed: its files and manifest entry come back from the cache.

A part's output depends only on the kit folder, the templates, the generator's own code (game modules
included) and the build options, so a hash of those is its key. A rebuild with nothing changed then copies
files instead of drawing them; a changed rules chapter rebuilds the booklet and nothing else that did not change.
The cache lives under the build's cache folder (never in the output) and keeps one entry per part.
The inputs are hashed by pnpgen.inputs.
"""
from __future__ import annotations
from pnpgen.whole_files import write_whole

import hashlib
import json
import shutil
from pathlib import Path

ENTRY = "entry.json"


def part_key(fingerprint: str, part_name: str, options: dict) -> str:
    text = json.dumps({"inputs": fingerprint, "part": part_name, "options": options}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _copy(source: Path, target: Path) -> None:
    """A copy, never a hard link: a player who annotates an output PDF and saves it in place would otherwise
    change the cached original too, and every later build would hand out the annotated file. (An unchanged
    kit copies nothing at all: pnpgen.up_to_date skips the build.) The target is unlinked first, so a
    link left by an older build is not written through."""
    if target.exists() or target.is_symlink():
        target.unlink()
    shutil.copyfile(source, target)


SECONDS = "seconds.json"


class PartCache:
    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def seconds(self) -> dict:
        """{part name: seconds its last build took}: the order to start parts in (longest first)."""
        try:
            return dict(json.loads((self.folder / SECONDS).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return {}

    def keep_seconds(self, seconds: dict) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_whole(self.folder / SECONDS, json.dumps({k: round(v, 3) for k, v in sorted(seconds.items())}))

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
            _copy(source, stage.path(rel))
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
        # the entry lands last and whole: without it there is no hit
        write_whole(entry_dir / ENTRY, json.dumps({"files": written, "entry": entry}))
