"""Atomic output: a build writes into a hidden staging folder and moves files into place only on success.

A failed build therefore never leaves a half-written file and never touches the previous good output.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path


class OutputStage:
    def __init__(self, target: Path):
        self.target = Path(target)
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.dir = Path(tempfile.mkdtemp(prefix=f".staging-{self.target.name}-", dir=self.target.parent))
        self.written: list[str] = []

    def path(self, rel: str) -> Path:
        """A staged file path to write to (parents created); it lands at target/rel on commit."""
        staged = (self.dir / rel).resolve()
        if not staged.is_relative_to(self.dir.resolve()):
            raise ValueError(f"output path {rel!r} leaves the output folder")
        staged.parent.mkdir(parents=True, exist_ok=True)
        if rel not in self.written:
            self.written.append(rel)
        return staged

    def write_bytes(self, rel: str, data: bytes) -> None:
        self.path(rel).write_bytes(data)

    def write_text(self, rel: str, text: str) -> None:
        self.path(rel).write_text(text, encoding="utf-8")

    def write_json(self, rel: str, data) -> None:
        self.write_text(rel, json.dumps(data, indent=1, sort_keys=False, ensure_ascii=False) + "\n")

    def commit(self) -> list[Path]:
        """Move every staged file over its target with os.replace (atomic on one file system)."""
        landed = []
        for rel in self.written:
            source, dest = self.dir / rel, self.target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, dest)
            landed.append(dest)
        self.abort()
        return landed

    def abort(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "OutputStage":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.abort()
