"""Texts a check found sound before, remembered by hash in this user's code folder (pnpgen.sandbox):
an unchanged kit is checked again without parsing again (a template's Jinja, an aid paragraph's markup)."""
from __future__ import annotations

import hashlib

from pnpgen.sandbox import code_folder


class KnownGood:
    """One file of digests per check (`name`, with a version that changes when the check does)."""

    def __init__(self, name: str, version: str):
        self.name, self.version, self.digests = name, version, None

    def digest(self, text: str) -> str:
        return hashlib.sha1(f"{self.version}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()

    def __contains__(self, digest: str) -> bool:
        return digest in self._load()

    def add(self, digest: str) -> None:
        self._load().add(digest)
        folder = code_folder()
        if folder is not None:
            try:
                with open(folder / self.name, "a", encoding="ascii") as handle:
                    handle.write(digest + "\n")
            except OSError:
                pass

    def _load(self) -> set:
        if self.digests is None:
            self.digests = set()
            folder = code_folder()
            if folder is not None:
                try:
                    self.digests = set((folder / self.name).read_text(encoding="ascii").split())
                except (OSError, ValueError):
                    pass
        return self.digests
