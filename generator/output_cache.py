"""A disk cache of finished output files, keyed by a hash of everything that went into them.

When the key of a file is unchanged (same SVG faces, same layout numbers, same drawing code) and the cache
holds it, the build copies the cached bytes instead of drawing again: a rebuild with nothing changed costs
a few file copies. Lives under the build's cache_dir, never in the output.
"""
from __future__ import annotations
from pnpgen.whole_files import write_whole

import hashlib
from functools import lru_cache
import shutil
from pathlib import Path


def content_key(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


@lru_cache(maxsize=8)
def source_fingerprint(*modules) -> str:
    """A hash of the drawing code itself, so a change to it invalidates every cached file."""
    return content_key(*(Path(m.__file__).read_text(encoding="utf-8") for m in modules))


class OutputCache:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.used: set[str] = set()

    def _entry(self, key: str, number: int) -> Path:
        return self.folder / key / str(number)

    def fetch(self, key: str, targets: list[Path]) -> bool:
        """Copy the cached files for `key` onto `targets`; False (nothing copied) if any is missing."""
        sources = [self._entry(key, n) for n in range(len(targets))]
        if not all(s.is_file() for s in sources):
            return False
        for source, target in zip(sources, targets):
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        self.used.add(key)
        return True

    def store(self, key: str, sources: list[Path]) -> None:
        entry = self.folder / key
        entry.mkdir(parents=True, exist_ok=True)
        for number, source in enumerate(sources):  # each copy lands whole: an interrupted build leaves no stub
            write_whole(self._entry(key, number), b"", copy_of=source)
        self.used.add(key)

    def prune(self) -> None:
        """Forget entries this build did not use, so the cache holds one kit state, not every edit ever."""
        if not self.folder.is_dir():
            return
        for entry in self.folder.iterdir():
            if entry.name not in self.used:
                shutil.rmtree(entry, ignore_errors=True)
