"""Where pnpgen's own files are: the built-in kits, templates, fonts and blank kit, and the user's cache.

Found through the import system (importlib.resources' answer), never by a path relative to the
repository: in a clone (an editable install) the kits and templates are the repository's data/ and
templates/, which setup.py maps to the packages pnpgen.data and pnpgen.templates; an installed wheel
carries copies of them inside pnpgen.
Each function returns a real folder (pnpgen is never run from a zip file: cairo and fontconfig need paths).
"""
from __future__ import annotations

import importlib.util
import os
import sys
from functools import cache
from pathlib import Path

APP = "pnpgen"
DAY = 24 * 3600
PRUNE_DAYS = 30   # a cached file unchanged this long is removed (pnpgen.resources.prune_now_and_then)


@cache
def package_folder(package: str = "pnpgen") -> Path:
    """The folder of one of pnpgen's packages (pnpgen, pnpgen.games, pnpgen.data, pnpgen.templates). For a
    package on the file system that is the folder its spec names, which is what importlib.resources.files
    answers too; asked first because importing importlib.resources (zipfile, tempfile, inspect) would add
    about 10 ms to every command, a twentieth of a build that finds nothing to do. Any other loader is
    asked through importlib.resources."""
    spec = importlib.util.find_spec(package)
    for location in (spec.submodule_search_locations or ()) if spec else ():
        if os.path.isfile(os.path.join(location, "__init__.py")):
            return Path(location)
    from importlib import resources
    found = resources.files(package)
    if not isinstance(found, Path):
        raise RuntimeError(f"{package} is not installed as plain files ({found}); reinstall pnpgen")
    return found


def code() -> Path:
    """The generator's own code (generator/ in a clone)."""
    return package_folder("pnpgen")


def games_code() -> Path:
    """The game modules' code (games/ in a clone)."""
    return package_folder("pnpgen.games")


def builtin_kits() -> Path:
    """The folder of the bundled kits, one subfolder each (data/ in a clone)."""
    return package_folder("pnpgen.data")


def builtin_templates() -> Path:
    """The built-in templates every kit falls back to (templates/ in a clone)."""
    return package_folder("pnpgen.templates")


def fonts() -> Path:
    """The shipped font files (generator/fonts/ in a clone)."""
    return code() / "fonts"


def blank_kit() -> Path:
    """What `pnpgen new --blank` copies: a new game's starting kit."""
    return code() / "blank_kit"


def studio_page() -> Path:
    """The page `pnpgen serve` sends to the browser (generator/studio/page.html in a clone)."""
    return code() / "studio" / "page.html"


def user_cache() -> Path:
    """This user's cache folder for pnpgen, as other command-line tools keep theirs: $XDG_CACHE_HOME/pnpgen
    (default ~/.cache/pnpgen) on Linux and other Unix systems, ~/Library/Caches/pnpgen on macOS,
    %LOCALAPPDATA%\\pnpgen\\Cache on Windows. Only a path: nothing is created here."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / APP / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / APP
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"  # the spec ignores a relative value
    return base / APP


def cache_file_name(*parts) -> str:
    """The name of one cache file among a folder's (a kit folder's document, say), from what tells it apart."""
    import hashlib
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:32]


def cache_folder(name: str) -> Path | None:
    """The folder `name` in this user's cache, made private (0700) if new; where that cannot be made (no
    home folder, a read-only one), a private folder in the system's temporary folder; None if neither."""
    import tempfile
    user = f"-{os.getuid()}" if hasattr(os, "getuid") else ""
    for folder in (user_cache() / name, Path(tempfile.gettempdir()) / f"{APP}{user}-{name}"):
        try:
            folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
        except OSError:
            continue
        prune_now_and_then(folder)
        return folder
    return None


def prune_now_and_then(folder: Path) -> None:
    """Remove the files of `folder` left unchanged for PRUNE_DAYS: compiled templates of kits long deleted,
    of every temporary kit a test run made. Unlike the temporary folder, the user's cache is never emptied
    by a reboot, so without this it would only grow. Done at most once a day (the age of a stamp file): a
    command pays one stat. A file removed while still in use is simply made again when next needed."""
    import time
    now = time.time()
    stamp = folder / ".pruned"
    try:
        if now - stamp.stat().st_mtime < DAY:
            return
    except FileNotFoundError:
        pass
    except OSError:
        return
    try:
        stamp.touch()
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if (not entry.name.startswith(".") and entry.is_file(follow_symlinks=False)
                    and now - entry.stat(follow_symlinks=False).st_mtime > PRUNE_DAYS * DAY):
                os.unlink(entry.path)
        except OSError:
            continue
