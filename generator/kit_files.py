"""The one way a build reads a file of a kit: a regular file whose real path lies inside an allowed folder.

A kit comes from anyone (a zip, a git repository), so every file it names is input to be checked before a
byte is read: a symlink may point anywhere (`data/units.csv -> /etc/passwd`), a FIFO or device in place of a
chapter would block the build for ever, and the build's own output may lie inside the kit (`mygame/output/`)
and must never be read back as input. Every reader of kit files (YAML, CSV, texts, Jinja's loaders, images)
comes through here, with the folder(s) it may read from: the kit's root for kit files, pnpgen's own folders
for its built-in templates and fonts. Symlinks that stay inside are fine. Kept free of Jinja and YAML so any
module may use it.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from pnpgen import budgets
from pnpgen.problems import BuildError, display_path

MAX_FILE_BYTES = 256 * 2**20   # far beyond any kit's file (the largest art is a few MB); more is a bomb
TEXT_KINDS = (".csv", ".yaml", ".yml", ".md", ".po", ".pot")  # tables, texts, catalogues: a few KB in every kit, so held to `text_file_kb`
_KEPT_OUT: set[str] = set()    # real paths of output folders: never read as a kit's input
KINDS = {stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
         stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder", stat.S_IFLNK: "a symbolic link"}


class KitFileError(BuildError):
    """A kit file that may not be read: its path, the line that named it (0 if none) and why."""

    def __init__(self, path, message: str, line: int = 0):
        self.file, self.line, self.message = display_path(path), line, message
        super().__init__(f"{self.file}:{line}: {message}" if line else f"{self.file}: {message}")

    def __reduce__(self):  # raised in a build worker, it must cross back to the parent whole
        return (_rebuild, (self.file, self.message, self.line))


def _rebuild(file: str, message: str, line: int) -> KitFileError:
    return KitFileError(file, message, line)


def keep_out(folder) -> None:
    """Never read anything under `folder` (a build's output, when it lies inside the kit) as kit input."""
    _KEPT_OUT.add(os.path.realpath(folder))


def kept_out(path) -> bool:
    real = os.path.realpath(path)
    return any(within(real, folder) for folder in _KEPT_OUT)


def within(real: str, folder: str) -> bool:
    """Whether the path `real` is `folder` or lies under it (both already real, absolute paths)."""
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


def real_path(path, roots) -> str:
    """The real path of `path` (every symlink followed), checked to lie inside one of `roots` and outside
    the build's output; a KitFileError says which rule it breaks. The file need not exist."""
    if "\0" in str(path):
        raise KitFileError(str(path).replace("\0", "\\0"), "a path with a NUL byte")
    real = os.path.realpath(path)
    bases = [os.path.realpath(root) for root in _as_tuple(roots)]  # each root's real path taken once a read
    if not any(within(real, base) for base in bases):
        linked = real != os.path.abspath(path)
        raise KitFileError(path, ("links to a file" if linked else "lies") + " outside the kit folder: a kit reads only its own files")
    if any(within(real, folder) for folder in _KEPT_OUT):  # `real` is real already: kept_out without realpath
        raise KitFileError(path, "lies in the build's output folder, which a kit never reads as input")
    if _hidden(real, bases):
        raise KitFileError(path, "is hidden (its name or a folder's starts with a dot): a kit's hidden files are no "
                                 "part of it (its digests and caches leave them out), so none is read")
    return real


def _hidden(real: str, bases: list) -> bool:
    """A file the input digests leave out (pnpgen.inputs.tree_digests: a dot name or __pycache__ below its
    root, `bases` the roots' real paths): read, an edit to it would change the output but no cache key."""
    for base in bases:
        if within(real, base):
            parts = Path(os.path.relpath(real, base)).parts
            return any(part.startswith(".") and part not in (".", "..") or part == "__pycache__" for part in parts)
    return False


def _as_tuple(roots) -> tuple:
    return (roots,) if isinstance(roots, (str, os.PathLike)) else tuple(roots)


def is_kit_file(path, roots) -> bool:
    """True when `path` can be read as a kit file (inside, regular); never blocks, never raises."""
    try:
        real = real_path(path, roots)
        return stat.S_ISREG(os.stat(real).st_mode)
    except (OSError, ValueError, KitFileError):
        return False


def size_limit(path) -> tuple[int, str]:
    """(the most bytes a kit file of this kind may have, what to do past it): a table or text (CSV, YAML,
    Markdown) is held to the `text_file_kb` budget, since parsing a 100 MB cell costs seconds and a GB of
    memory before anything could refuse it; any other file (art, fonts, templates) to MAX_FILE_BYTES."""
    if str(path).lower().endswith(TEXT_KINDS):
        kb = budgets.active().text_file_kb
        return kb * 1024, (f"the most a CSV, YAML or Markdown file may have (the text_file_kb budget); "
                           f"{budgets.how_to_raise('text_file_kb')}")
    return MAX_FILE_BYTES, "not a kit's file"


def read_bytes(path, roots, limit: int | None = None) -> bytes:
    """The bytes of a kit file: a regular file, its real path inside `roots`, at most `limit` bytes (by
    default its kind's size_limit). Checked with stat before it is opened, and opened without blocking, so a
    FIFO or device is refused, never waited on, and a file too large is refused unread."""
    limit, hint = (limit, "not a kit's file") if limit is not None else size_limit(path)
    real = real_path(path, roots)
    try:
        before = os.stat(real)
    except FileNotFoundError:
        raise KitFileError(path, "no such file") from None
    except OSError as exc:
        raise KitFileError(path, f"cannot read: {exc.strerror or exc}") from None
    _check_regular(path, before, limit, hint)
    try:
        descriptor = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise KitFileError(path, f"cannot read: {exc.strerror or exc}") from None
    with os.fdopen(descriptor, "rb") as handle:
        now = os.fstat(handle.fileno())
        if (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino):
            raise KitFileError(path, "changed while it was being read; build again")
        _check_regular(path, now, limit, hint)
        data = handle.read(min(limit, now.st_size) + 1)  # not limit + 1: Python reserves what read() asks
    if len(data) > now.st_size:
        raise KitFileError(path, "changed while it was being read; build again")
    if len(data) > limit:
        raise _too_large(path, limit, hint)
    return data


def _check_regular(path, info: os.stat_result, limit: int, hint: str) -> None:
    kind = stat.S_IFMT(info.st_mode)
    if kind != stat.S_IFREG:
        what = KINDS.get(kind, "not a regular file")
        raise KitFileError(path, f"is {what}, not a regular file: a kit holds only plain files")
    if info.st_size > limit:
        raise _too_large(path, limit, hint)


def _too_large(path, limit: int, hint: str) -> KitFileError:
    size = f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit // 1024} KB"
    return KitFileError(path, f"is larger than {size}: {hint}")


def read_text(path, roots, encoding: str = "utf-8") -> str:
    """A kit text file decoded (utf-8-sig drops a spreadsheet's byte order mark); a byte that is not text is
    located by its line."""
    data = read_bytes(path, roots)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise KitFileError(path, f"not UTF-8 text (byte {data[exc.start]:#04x}): save the file as UTF-8",
                           data[: exc.start].count(b"\n") + 1) from None

