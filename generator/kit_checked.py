"""Kits whose texts were checked and found clean, remembered in the user's cache: the texts' checks (every
chart built, every chapter rendered, every aid file read, every template parsed: pnpgen.kit's
check_kit_texts) take about half of a kit's load, serially, before any part starts. Their findings depend
only on the files a build reads (the kit's, the templates, pnpgen's code and fonts: pnpgen.inputs hashes
them all) and on how the kit is read (strictness, sizes, edition, budgets), which the key names; a build
that reads the same files the same way skips them. Only a load that found nothing at all is remembered, so a
warning is said on every build as before; an entry that cannot be read, or is not sealed by this user's
pnpgen, is worked out again. The aid parts' keys, which follow from the same load, are kept beside (AidKeys)."""
from __future__ import annotations

import hashlib
from pathlib import Path

from pnpgen.kit_memos import kit_memo
from pnpgen.render.check_memo import SealedMemo

VERSION = 1
KEEP = 64   # loads remembered per kit folder: a few editions, sizes and recent edits


class _KitFolderMemo(SealedMemo):
    """A memo of one kit folder (named by its path) in the user's cache folder FOLDER; none without one."""

    FOLDER = ""

    def __init__(self, kit_root: Path):
        from pnpgen.resources import cache_folder
        folder = cache_folder(self.FOLDER)
        name = hashlib.sha256(str(Path(kit_root).resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:32]
        super().__init__(folder / f"{name}.json" if folder is not None else None)


class CheckedKits(_KitFolderMemo):
    """{load key: True} of one kit folder, in the user's cache (none without one: every load checks)."""

    KEEP = KEEP
    FOLDER, FIELD = "checked-kits", "clean"

    def salt(self) -> str:
        return f"kit-texts-{VERSION}"   # pnpgen's code is in every key (the inputs' digest)

    def clean(self, key: str) -> bool:
        if self.known.get(key) is True:
            self.used[key] = True
            return True
        return False

    def remember(self, key: str) -> None:
        """A load of `key` found nothing: kept (the file written now, the build goes on after)."""
        self.used[key] = True
        self.dirty = True
        self.save()


_LOADED: dict = kit_memo()  # id of a kit -> (the kit, its load key): the kits load_quietly made, for AidKeys


def note_load(kit, key: str) -> None:
    """`kit` was loaded from the inputs and the way `key` names (load_key)."""
    if len(_LOADED) > 16:
        _LOADED.clear()
    _LOADED[id(kit)] = (kit, key)


def key_of(kit) -> str | None:
    """The load key `kit` was made under, None when not known (a kit loaded without its inputs hashed)."""
    entry = _LOADED.get(id(kit))
    return entry[1] if entry is not None and entry[0] is kit else None


class AidKeys(_KitFolderMemo):
    """{load key + aid file: what the aid part prints, as digests} of one kit folder: the aid cards' and
    record sheets' part keys (pnpgen.parts.sheets.aid_printed) build every chart those files show, in the
    main process before any part starts. They follow from the kit as loaded alone, so a load of the same
    inputs the same way (a build into a new output folder, an edit undone) takes them from here; the parts
    then build their charts in their own workers. An entry that is not three digests' shape is worked out
    again."""

    KEEP = KEEP * 2   # two aid files a load
    FOLDER, FIELD = "aid-keys", "printed"

    def salt(self) -> str:
        return f"aid-keys-{VERSION}"   # pnpgen's code is in every key (the inputs' digest)

    def printed(self, kit, rel, work) -> list:
        """[text, charts, type] digests of aid file `rel` for `kit`: remembered under its load key, else
        work() (kept for the next load)."""
        key = key_of(kit)
        if key is None:
            return work()
        entry = f"{key}:{Path(rel).as_posix()}"
        found = self.known.get(entry)
        if not (isinstance(found, list) and len(found) == 3 and all(_is_digest(d) for d in found)):
            found = work()
            self.dirty = True
        self.used[entry] = found
        self.save()
        return found


def _is_digest(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def load_key(fingerprint: str, how: tuple) -> str:
    """The key of one load: every input's digest (Inputs.fingerprint()) and how it is read; the budgets
    too (a lower one may stop a check a higher one let through)."""
    from pnpgen import budgets
    return hashlib.sha256(repr((fingerprint, how, budgets.active())).encode("utf-8", "surrogatepass")).hexdigest()
