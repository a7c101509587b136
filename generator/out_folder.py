"""The output folder as the build finds it and leaves it: checked before use, landed in one rename.

`--out` may lie inside the kit (designers build into `mygame/output/`), and a kit is input from anyone: it
may ship symlinks where the build writes (`output/mygame -> ~/Documents`), caches (`output/.cache/...`) or
locks. So nothing under `--out` that the build did not make is followed or deleted: a symbolic link or a
special file in the places a build uses is a located error, and the folders between the kit and `--out`
must be real folders. The output is never read back as kit input (pnpgen.kit_files.keep_out).
"""
from __future__ import annotations

import ctypes
import errno
import os
import shutil
import stat
from pathlib import Path

from pnpgen import kit_files
from pnpgen.owned_folders import check_cache_folder, check_replaceable
from pnpgen.problems import BuildError, display_path

CACHE = ".cache"
STAGING_PREFIX = ".staging-"
AT_FDCWD, RENAME_EXCHANGE = -100, 2   # <fcntl.h>, <linux/fs.h>


class OutFolderError(BuildError):
    """Something in the output folder that the build did not make and will not follow."""


def check_out(out: Path, kit_root: Path, kit_id: str) -> None:
    """Before a build reads or writes anything under `out`: the output may not cover the kit, folders between
    the kit and `out` are real folders, and the build's own places under `out` are no links. The output
    (OUT/<kit> and OUT/.cache) is kept out of what the kit reader reads."""
    target = Path(out) / kit_id
    real_kit, real_target = os.path.realpath(kit_root), os.path.realpath(target)
    if kit_files.within(real_kit, real_target):
        raise OutFolderError(f"--out {display_path(out)}: the kit would land in {display_path(target)}, which holds "
                             f"the kit folder itself; choose another --out (the default is ./output)")
    _refuse_links_between(Path(kit_root), Path(out))
    refuse_links(target)
    check_replaceable(target, kit_id)   # OUT/<kit> is absent or a pnpgen build: never a user's own folder
    check_cache_folder(Path(out) / CACHE / kit_id, kit_id)
    keep_out_of_input(out, kit_id)


def keep_out_of_input(out: Path, kit_id: str) -> None:
    """OUT/<kit> and OUT/.cache are never read as the kit's input (by a build, `validate` or `list`)."""
    kit_files.keep_out(Path(out) / kit_id)
    kit_files.keep_out(Path(out) / CACHE)


def _refuse_links_between(kit_root: Path, out: Path) -> None:
    """Each folder from the kit down to an `out` inside it is a real folder (a kit may ship `output` as a link)."""
    kit, here = os.path.abspath(kit_root), os.path.abspath(out)
    if not kit_files.within(here, kit):
        return
    while here != kit:
        if os.path.islink(here):
            raise OutFolderError(f"{display_path(here)}: a symbolic link where the output goes (inside the kit); "
                                 f"pnpgen writes only into real folders: remove it or build with another --out")
        here = os.path.dirname(here)


def refuse_links(target: Path, whole: bool = False) -> None:
    """The places a build of OUT/<kit> uses are no symbolic links; `whole`: nor is anything inside the kit's
    output and cache folders (a link there would be read as a cached file or written through)."""
    out, name = Path(target).parent, Path(target).name
    places = [Path(target), out / f".{name}.lock", out / CACHE, out / CACHE / name, out / CACHE / "last-build",
              out / CACHE / "input-digests.json", *out.glob(f"{STAGING_PREFIX}{name}-*")]
    for place in places:
        if place.is_symlink():
            raise _link_error(place)
    if whole:
        for folder in (Path(target), out / CACHE / name, out / CACHE / "last-build"):
            _refuse_links_in(folder)


def _refuse_links_in(folder: Path) -> None:
    for here, folders, files in os.walk(folder):
        for entry in folders + files:
            path = os.path.join(here, entry)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode) or not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                raise _link_error(Path(path))


def _link_error(path: Path) -> OutFolderError:
    what = "a symbolic link" if path.is_symlink() else "a special file (not a file or folder)"
    return OutFolderError(f"{display_path(path)}: {what} in the output folder, which pnpgen did not make and "
                          f"will not follow or delete: remove it, or build with another --out")


def carry_over(target: Path, stage: Path, written: set[str]) -> None:
    """Link into the stage every file of the previous build (OUT/<kit>) that this build did not write, so the
    stage is the whole new folder (`--only cards` keeps the boards). A hard link costs nothing and moves the
    file's inode along unchanged; a copy where links are not possible."""
    if not Path(target).is_dir():
        return
    for here, folders, files in os.walk(target):
        rel_dir = os.path.relpath(here, target)
        for name in folders:
            os.makedirs(stage / rel_dir / name, exist_ok=True)
        for name in files:
            rel = os.path.normpath(os.path.join(rel_dir, name))
            source, copy = Path(here) / name, stage / rel
            if Path(rel).as_posix() in written or os.path.lexists(copy):
                continue
            if not stat.S_ISREG(os.lstat(source).st_mode):
                raise _link_error(source)
            try:
                os.link(source, copy, follow_symlinks=False)
            except OSError:
                shutil.copy2(source, copy, follow_symlinks=False)


def land(stage: Path, target: Path) -> None:
    """Make the stage the output folder in one step: exchanged with the old folder (which then sits under the
    stage's name), or renamed into place when there is none. Where the kernel or file system cannot exchange,
    the old folder is renamed away first: a reader may then find no folder for an instant, never a mix."""
    if not os.path.lexists(target):
        os.rename(stage, target)
        return
    if exchange(stage, target):
        return
    aside = stage.with_name(stage.name + "-old")
    os.rename(target, aside)
    os.rename(stage, target)
    os.rename(aside, stage)  # removed with the stage, as after an exchange


def exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False when this system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second), RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(second))
