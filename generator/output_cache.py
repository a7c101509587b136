"""A disk cache of finished output files, keyed by a hash of everything that went into them.

When the key of a file is unchanged (same SVG faces, same layout numbers, same drawing code) and the cache
holds it, the build copies the cached bytes instead of drawing again: a rebuild with nothing changed costs
a few file copies. Lives under the build's cache_dir, never in the output. An entry is used only when its
signed list of digests (pnpgen.signing: written by this user's pnpgen) matches its files.
"""
from __future__ import annotations
from pnpgen.owned_folders import remove_tree
from pnpgen.part_cache import read_verified
from pnpgen.signing import file_digest, read_sealed, seal
from pnpgen.whole_files import write_whole

import hashlib
import json
from functools import lru_cache
from pathlib import Path

SIGNED = "signed"


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

    def read(self, key: str, count: int | None = None) -> list[bytes] | None:
        """The bytes of the files kept for `key` (`count` of them, or as many as its signed record lists),
        each matching the digest this user's pnpgen signed; None if any is missing, changed or unsigned."""
        try:
            digests = json.loads(read_sealed(self.folder / key / SIGNED) or b"null")
        except ValueError:
            return None
        if count is None:
            count = len(digests) if isinstance(digests, list) else 0
        return read_verified([self._entry(key, n) for n in range(count)], digests)

    def fetch(self, key: str, targets: list[Path]) -> bool:
        """Copy the cached files for `key` onto `targets`; False (nothing copied) if any is missing."""
        found = self.read(key, len(targets))
        if found is None:
            return False
        for data, target in zip(found, targets):
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            if Path(target).is_symlink():
                Path(target).unlink()
            Path(target).write_bytes(data)
        self.used.add(key)
        return True

    def store(self, key: str, sources: list[Path]) -> None:
        entry = self.folder / key
        entry.mkdir(parents=True, exist_ok=True)
        digests = []
        for number, source in enumerate(sources):  # each copy lands whole: an interrupted build leaves no stub
            data = Path(source).read_bytes()
            write_whole(self._entry(key, number), data)
            digests.append(file_digest(data))
        write_whole(entry / SIGNED, seal(json.dumps(digests).encode("utf-8")))  # last: without it, no hit
        self.used.add(key)

    def prune(self) -> None:
        """Forget entries this build did not use, so the cache holds one kit state, not every edit ever."""
        if not self.folder.is_dir():
            return
        for entry in self.folder.iterdir():
            if entry.name not in self.used:
                remove_tree(entry)
