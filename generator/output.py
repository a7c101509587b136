"""Atomic output: a build writes into a hidden staging folder and moves files into place only on success.

A failed build therefore never leaves a half-written file and never touches the previous good output.
Ctrl-C or SIGTERM while the files move in is held until the last one has landed, so the folder is always one
whole build; and one build at a time writes into a folder (`BuildLock`), so two at once never mix.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
from pathlib import Path

from pnpgen.problems import BuildError, display_path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; builds there are not guarded against each other
    fcntl = None

STAGING_PREFIX = ".staging-"


class BuildBusy(BuildError):
    """Another build holds the output folder."""


class BuildLock:
    """An exclusive lock on `OUT/.<kit>.lock` (beside the kit's output folder) for the whole build.

    flock is released by the kernel when the holder exits, however it exits: a killed build never leaves a
    stale lock. The file stays (empty); deleting it while locked would let a third build lock a new file."""

    def __init__(self, target: Path):
        self.target = Path(target)
        self.path = self.target.parent / f".{self.target.name}.lock"
        self.handle = None

    def acquire(self) -> "BuildLock":
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.handle = open(self.path, "a+b")  # noqa: SIM115 - held until release
        if fcntl is not None:
            try:
                fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self.handle.close()
                self.handle = None
                raise BuildBusy(f"another build is writing {display_path(self.target)} right now; this one stopped "
                                f"before writing anything (run it again when the other has finished)") from None
        remove_stale_staging(self.target)  # folders of builds that were killed outright: nobody else owns them now
        return self

    def release(self) -> None:
        if self.handle is not None:
            self.handle.close()  # closing drops the flock
            self.handle = None

    def __enter__(self) -> "BuildLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def remove_stale_staging(target: Path) -> None:
    for folder in Path(target).parent.glob(f"{STAGING_PREFIX}{Path(target).name}-*"):
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def signals_held():
    """Hold SIGINT and SIGTERM (delivered as soon as the block ends) where stopping halfway would tear files."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class OutputStage:
    def __init__(self, target: Path):
        self.target = Path(target)
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.dir = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{self.target.name}-", dir=self.target.parent))
        self.written: list[str] = []
        self.committed = False

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
        # one line: the C encoder writes a thousand-piece manifest in a fifth of the time an indented one takes
        self.write_text(rel, json.dumps(data, sort_keys=False, ensure_ascii=False) + "\n")

    def commit(self) -> list[Path]:
        """Move every staged file over its target with os.replace (atomic on one file system), with Ctrl-C and
        SIGTERM held until the last file has landed: the folder holds the old build or the new one, never both."""
        landed = []
        with signals_held():
            for rel in self.written:
                source, dest = self.dir / rel, self.target / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                os.replace(source, dest)
                landed.append(dest)
            self.committed = True
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
