"""Which folders under `--out` pnpgen made, and may therefore replace or empty: told by a marker it wrote.

The folder a build lands in is OUT/<kit id>, and the kit chooses its id: `--out ~` with a kit whose id is
`projects` must not replace the user's ~/projects. So, as a package manager replaces only what it installed,
OUT/<kit id> is replaced only when it is absent or holds a build pnpgen wrote, recognised by the marker file
MARKER in it (checked before anything moves); the kit's cache folder OUT/.cache/<kit id> likewise by
CACHE_MARKER. Anything else there (a user's folder, a file, a link, a mount point, a folder with another
kit's marker) is a refusal that names the folder. Nothing is removed across a mount point.

Builds made before the marker existed carry none: a folder is taken as one (and gets a marker when next
replaced) when its manifest.json is a pnpgen manifest of this kit id and every file in it is one the
manifest lists, or one of pnpgen's own sub-folders (proofs/, reprint/). A cache folder without a marker is
taken as pnpgen's when it holds only the names pnpgen keeps there.

A marker says "pnpgen made this", not "this user's pnpgen made these bytes": it also names, signed with the
user's key (pnpgen.signing), the folder it was written in, so a build folder copied from elsewhere (shipped
inside a kit) may be replaced but is never carried over into a new build (`is_own_build`).
"""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

from pnpgen.problems import BuildError, display_path

MARKER = ".pnpgen-build"
CACHE_MARKER = ".pnpgen-cache"
MARKER_BYTES = 4096
RECORD = "manifest.json"
OWN_SUBFOLDERS = ("proofs", "reprint")      # written by `pnpgen proof` and `pnpgen diff --write`, not listed
MANIFEST_BYTES = 64 * 1024 * 1024
CACHE_NAMES = re.compile(r"parts|piece-faces\.bin|piece-face-keys\.json|piece-sheets|piece-sheets-bare\.json|boards|maps"
                         r"|documents|\.(map|board|document)-.+\.json|.+-figures(\.pdf)?\.bin"
                         r"|.+-contents\.json|.+-layout\.(pdf|json)|\..+\.tmp|" + re.escape(CACHE_MARKER))


class NotOurs(BuildError):
    """A place under --out that pnpgen did not make: it is left exactly as it is."""


def refusal(path: Path, what: str) -> NotOurs:
    return NotOurs(f"{display_path(path)}: {what}. pnpgen replaces only a folder it built, so it changed "
                   f"nothing: build with another --out (a new or empty folder, e.g. --out output), or move "
                   f"that folder away yourself")


def check_replaceable(target: Path, kit_id: str, record: str = RECORD) -> None:
    """OUT/<kit> (or a sub-folder pnpgen writes, with its own `record` file) is absent or pnpgen's build of
    `kit_id`, holding no link, special file or mount point; else NotOurs, before anything is touched."""
    info = _lstat(target)
    if info is None:
        return
    _check_place(target, info, "the folder the build would replace")
    marker = read_marker(target / MARKER)
    if marker is None and not _old_build(target, kit_id, record):
        raise refusal(target, "this folder was not made by pnpgen (it holds no pnpgen build of "
                              f"kit {kit_id!r})")
    if marker is not None and (marker.get("pnpgen") != "build" or marker.get("kit") != kit_id):
        raise refusal(target, f"this folder holds a marker that is not a pnpgen build of kit {kit_id!r}")
    check_within(target, info.st_dev)


def check_cache_folder(folder: Path, kit_id: str) -> None:
    """OUT/.cache/<kit> is absent or pnpgen's cache of `kit_id` (a marker, or only pnpgen's names in it)."""
    info = _lstat(folder)
    if info is None:
        return
    _check_place(folder, info, "the kit's cache folder")
    marker = read_marker(folder / CACHE_MARKER)
    if marker is None:
        foreign = sorted(name for name in os.listdir(folder) if not CACHE_NAMES.fullmatch(name))
        if foreign:
            raise refusal(folder, f"this folder holds files pnpgen did not write there ({foreign[0]})")
    elif marker.get("pnpgen") != "cache" or marker.get("kit") != kit_id:
        raise refusal(folder, f"this folder holds a marker that is not pnpgen's cache of kit {kit_id!r}")
    check_within(folder, info.st_dev)


def mark_cache_folder(folder: Path, kit_id: str) -> None:
    """Make OUT/.cache/<kit> (checked first) and mark it as this user's pnpgen's (see is_own)."""
    check_cache_folder(folder, kit_id)
    folder.mkdir(parents=True, exist_ok=True)
    if not is_own(folder, CACHE_MARKER, kit_id):
        _write_marker(folder / CACHE_MARKER, {"pnpgen": "cache", "kit": kit_id,
                                              "own": _folder_signature("cache", kit_id, os.stat(folder))})


def _check_place(path: Path, info: os.stat_result, what: str) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise refusal(path, f"{what} is a symbolic link, which pnpgen never follows or replaces")
    if not stat.S_ISDIR(info.st_mode):
        raise refusal(path, f"{what} is a file, not a folder pnpgen built")
    if is_mount(path):
        raise refusal(path, f"{what} is a mount point")


def check_within(folder: Path, device: int) -> None:
    """No mount point, link or special file anywhere inside `folder`: removing it must stay on its device.
    The system's mount points are read once, not once a folder (SE4X's output and cache: ~140 folders, each
    reading /proc/self/mountinfo again was 0.01-0.02 s of every build's start); a folder inside is reached
    through no link (each is refused as met), so its real path is the folder's real path and its own names."""
    real = os.path.realpath(folder)
    inside = {point for point in mount_points() if point.startswith(real.rstrip(os.sep) + os.sep)}
    for here, folders, files in os.walk(folder):
        for name in folders + files:
            path = os.path.join(here, name)
            info = os.lstat(path)
            if info.st_dev != device or (stat.S_ISDIR(info.st_mode) and _mounted(path, real, folder, inside)):
                raise refusal(Path(path), "a mount point inside a folder pnpgen would replace")
            if stat.S_ISLNK(info.st_mode):
                raise refusal(Path(path), "a symbolic link inside a folder pnpgen would replace (never followed)")
            if not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)):
                raise refusal(Path(path), "a special file (not a file or folder) inside a folder pnpgen would replace")


def write_build_marker(folder: Path, kit_id: str) -> None:
    """The marker of a build about to land in `folder` (the stage), naming the folder itself (its inode,
    which the landing rename keeps), signed: see is_own_build."""
    info = os.stat(folder)
    _write_marker(folder / MARKER, {"pnpgen": "build", "kit": kit_id,
                                    "own": _folder_signature("build", kit_id, info)})


def is_own_build(folder: Path, kit_id: str) -> bool:
    """True when `folder` is the very folder this user's pnpgen landed a build of `kit_id` in: its files
    may be carried into the next build and its manifest read. A copy (a kit shipping its output/) is not."""
    return is_own(folder, MARKER, kit_id)


def is_own(folder: Path, marker_name: str, kit_id: str) -> bool:
    """`folder`'s marker names this very folder, signed with this user's key."""
    marker = read_marker(Path(folder) / marker_name)
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    if not marker or marker.get("kit") != kit_id or not stat.S_ISDIR(info.st_mode):
        return False
    import hmac
    kind = "build" if marker_name == MARKER else "cache"
    return hmac.compare_digest(str(marker.get("own", "")), _folder_signature(kind, kit_id, info))


def copied_here(folder: Path, marker_name: str, kit_id: str) -> bool:
    """`folder` exists but this user's pnpgen did not make it there (shipped in a kit, copied, or older)."""
    return os.path.lexists(folder) and not is_own(folder, marker_name, kit_id)


def _folder_signature(kind: str, kit_id: str, info: os.stat_result) -> str:
    from pnpgen.signing import signature
    return signature(f"{kind}\0{kit_id}\0{info.st_dev}\0{info.st_ino}".encode())


def read_marker(path: Path) -> dict | None:
    """A marker's fields, or None when there is no marker file (a link or a folder is no marker either)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        text = handle.read(MARKER_BYTES)
    try:
        fields = json.loads(text)
    except ValueError:
        return {}   # a marker file pnpgen did not write: refused as foreign
    return fields if isinstance(fields, dict) else {}


def _write_marker(path: Path, fields: dict) -> None:
    Path(path).write_text(json.dumps(fields, sort_keys=True) + "\n", encoding="utf-8")


def _old_build(folder: Path, kit_id: str, record: str) -> bool:
    """A build from before markers: its record is a pnpgen manifest of this kit that lists every file."""
    path = folder / record
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MANIFEST_BYTES:
            return False
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(manifest, dict) or manifest.get("kit") != kit_id:
        return False
    if record == RECORD and not str(manifest.get("generator", "")).startswith("pnpgen"):
        return False
    listed = set(_strings(manifest)) | {record}
    for here, folders, files in os.walk(folder):
        rel_dir = os.path.relpath(here, folder)
        if rel_dir.split(os.sep)[0] in OWN_SUBFOLDERS:
            continue
        for name in files:
            if Path(os.path.normpath(os.path.join(rel_dir, name))).as_posix() not in listed:
                return False
    return True


def _strings(value):
    """Every string in a manifest (the paths it lists are among them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


MOUNTINFO = Path("/proc/self/mountinfo")


def is_mount(path) -> bool:
    """Whether `path` is a mount point: os.path.ismount sees a new device or a root, but a bind mount of a
    folder from the same file system keeps both, so Linux's own list of mount points is asked too."""
    return os.path.ismount(path) or os.path.realpath(path) in mount_points()


def _mounted(path: str, real: str, folder, inside: set) -> bool:
    """is_mount for a folder found walking `folder` (real path `real`), with the mount points below it known."""
    return os.path.ismount(path) or bool(inside) and os.path.join(real, os.path.relpath(path, folder)) in inside


def mount_points() -> frozenset:
    """Every mount point of this process (Linux: /proc/self/mountinfo, field 5, octal escapes undone);
    none where that file is not there."""
    try:
        lines = MOUNTINFO.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    except OSError:
        return frozenset()
    unescape = re.compile(r"\\([0-7]{3})")
    return frozenset(unescape.sub(lambda m: chr(int(m.group(1), 8)), line.split(" ")[4])
                     for line in lines if len(line.split(" ")) > 4)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def remove_tree(folder: Path) -> None:
    """Remove a folder pnpgen made (a stage, a cache entry), never following a link and never crossing a
    mount point: whatever another file system holds there stays (and so does the folder holding it)."""
    try:
        device = os.lstat(folder).st_dev
    except OSError:
        return
    _remove_on(Path(folder), device)


def _remove_on(path: Path, device: int) -> bool:
    """Remove `path` if it is on `device`; True when it is gone."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if info.st_dev != device:
        return False
    try:
        if not stat.S_ISDIR(info.st_mode):
            os.unlink(path)
            return True
        if is_mount(path):
            return False
        gone = all([_remove_on(path / name, device) for name in os.listdir(path)])
        if gone:
            os.rmdir(path)
        return gone
    except OSError:
        return False
