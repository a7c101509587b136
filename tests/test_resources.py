"""pnpgen.resources: pnpgen's own folders, found as importlib.resources finds them, and the user's cache."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("pnpgen", "pnpgen.games", "pnpgen.data", "pnpgen.templates")


def test_in_the_clone_the_packages_are_its_folders():
    import importlib.resources

    from pnpgen.resources import package_folder
    folders = {n: package_folder(n) for n in PACKAGES}
    assert folders == {n: importlib.resources.files(n) for n in PACKAGES}
    assert folders == {"pnpgen": ROOT / "generator", "pnpgen.games": ROOT / "games", "pnpgen.data": ROOT / "data",
                       "pnpgen.templates": ROOT / "templates"}


def test_the_user_cache_forgets_files_unchanged_for_a_month(tmp_path, monkeypatch):
    """The user's cache is never emptied by a reboot: compiled templates of deleted kits must not pile up."""
    import pnpgen.resources as resources
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    folder = resources.cache_folder("code")
    assert folder == tmp_path / "pnpgen" / "code" and folder.stat().st_mode & 0o777 == 0o700
    old, fresh = folder / "old.cache", folder / "fresh.cache"
    for path, days in ((old, resources.PRUNE_DAYS + 1), (fresh, resources.PRUNE_DAYS - 1)):
        path.write_text("compiled")
        when = time.time() - days * resources.DAY
        os.utime(path, (when, when))
    assert resources.cache_folder("code") == folder and old.exists()        # pruned less than a day ago
    stamp = folder / ".pruned"
    os.utime(stamp, (time.time() - 2 * resources.DAY,) * 2)
    assert resources.cache_folder("code") == folder
    assert not old.exists() and fresh.exists() and time.time() - stamp.stat().st_mtime < 60


def test_the_user_cache_is_where_each_system_keeps_them(monkeypatch, tmp_path):
    from pnpgen.resources import user_cache
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert user_cache() == tmp_path / ".cache" / "pnpgen"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")   # the XDG spec: only an absolute path counts
    assert user_cache() == tmp_path / ".cache" / "pnpgen"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_cache() == tmp_path / "xdg" / "pnpgen"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert user_cache() == tmp_path / "Library" / "Caches" / "pnpgen"
    monkeypatch.setattr(sys, "platform", "win32")
    assert user_cache() == tmp_path / "Local" / "pnpgen" / "Cache"
