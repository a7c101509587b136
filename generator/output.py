"""Atomic output: a build writes into a hidden staging folder and lands it, on success, in one rename.

The staging folder becomes the whole new output folder (the files of the previous build that this one did
not write are linked into it first, so `--only` keeps the other parts' files), and one renameat2
RENAME_EXCHANGE swaps it with `OUT/<kit>`: a reader of that folder sees the last complete build or the new
one, never a mix, even if the build is killed outright (kill -9) at any instant. The folder stays a plain
folder (no symlink) that a viewer can keep open. A failed build never touches the previous output; one build
at a time writes into a folder (`BuildLock`); and nothing under `--out` that a build did not make is followed
or deleted: a symbolic link or special file there is an error (pnpgen.out_folder).
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import tempfile
from pathlib import Path

from pnpgen.out_folder import STAGING_PREFIX, carry_over, land, refuse_links
from pnpgen.owned_folders import RECORD, check_replaceable, is_own_build, remove_tree, write_build_marker
from pnpgen.problems import BuildError, display_path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; builds there are not guarded against each other
    fcntl = None



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
        refuse_links(self.target)
        self.target.parent.mkdir(parents=True, exist_ok=True)
        try:  # never through a symlink planted in its place: it would create or lock a file elsewhere
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as exc:
            raise BuildError(f"{display_path(self.path)}: cannot lock the output folder: {exc.strerror or exc}") from None
        self.handle = os.fdopen(descriptor, "a+b")
        if fcntl is not None:
            try:
                fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self.handle.close()
                self.handle = None
                raise BuildBusy(f"another build is writing {display_path(self.target)} right now; this one stopped "
                                f"before writing anything (run it again when the other has finished)") from None
        try:
            refuse_links(self.target, whole=True)  # now that no other build changes it
        except BuildError:
            self.release()
            raise
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
        remove_tree(folder)  # never through a link, never across a mount point


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
    """A stage that lands as `target`, which must be absent or pnpgen's build of `kit_id` (`record`: the file
    a build from before markers is recognised by): refused before the stage is made."""

    def __init__(self, target: Path, kit_id: str, record: str = RECORD):
        self.target, self.kit_id, self.record = Path(target), kit_id, record
        check_replaceable(self.target, kit_id, record)
        self.dir: Path | None = None
        self.written: list[str] = []
        self.committed = False
        try:  # a Ctrl-C between making the folder and owning it would leave it behind: held, then cleaned up
            with signals_held():
                self.target.parent.mkdir(parents=True, exist_ok=True)
                self.dir = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{self.target.name}-", dir=self.target.parent))
                os.chmod(self.dir, _folder_mode(self.target))  # it becomes the output folder: not mkdtemp's 0700
        except BaseException:
            self.abort()
            raise

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
        """Land the stage as the new output folder in one rename (see the module), with Ctrl-C and SIGTERM held
        until it has landed; the previous build's folder, swapped out, is removed afterwards."""
        try:
            with signals_held():
                check_replaceable(self.target, self.kit_id, self.record)  # again, as the folder is now
                write_build_marker(self.dir, self.kit_id)
                if is_own_build(self.target, self.kit_id):  # never what a copied folder (a kit's output/) holds
                    carry_over(self.target, self.dir, set(self.written))
                land(self.dir, self.target)
                self.committed = True
        finally:
            self.abort()  # the stage's name now holds the previous build (or nothing), or the refused stage
        return [self.target / rel for rel in self.written]

    def abort(self) -> None:
        if self.dir is not None:
            remove_tree(self.dir)

    def __enter__(self) -> "OutputStage":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.abort()


def _folder_mode(target: Path) -> int:
    """The mode the output folder has now, or the one a plain mkdir would give it."""
    try:
        return stat.S_IMODE(os.lstat(target).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o777 & ~mask
