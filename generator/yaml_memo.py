"""Parsed kit files kept in the user's cache: a YAML text is parsed once, not once per process.

A build's main process parses some twenty YAML files before its first part starts (Space Empires 4X: 83 kB,
0.03-0.05 s with libyaml, most of it PyYAML building the located tree in Python); unpickling the same tree
takes a tenth of that. The tree depends only on the text and the parsing code, so it is kept under the
text's SHA-256, salted with that code (pnpgen.yamlio, PyYAML's version), one sealed file per text
(pnpgen.signing: this user's pnpgen's only). What is read back is checked: an entry another user wrote, or
a damaged one, is parsed again; unpickling builds nothing but the tree's own types (ALLOWED), so not even a
sealed entry can name any other class. A text that fails to parse is never stored: its error is said again
by parsing it. Old entries go with the cache's monthly pruning (pnpgen.resources.prune_now_and_then).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pnpgen import allowed_pickle

FOLDER = "yaml-trees"
VERSION = 1
MISSING = object()
# every class a located YAML tree holds: its mappings and lists, and the timestamps YAML reads (with zones)
ALLOWED = {("pnpgen.yamlio", "LocatedDict"), ("pnpgen.yamlio", "LocatedList"), ("datetime", "date"),
           ("datetime", "datetime"), ("datetime", "timezone"), ("datetime", "timedelta")}


@lru_cache(maxsize=1)
def salt() -> bytes:
    """The code that makes the trees: a change to it forgets every entry."""
    import sys

    import yaml

    from pnpgen.output_cache import source_fingerprint
    modules = (sys.modules["pnpgen.yamlio"], sys.modules[__name__])
    return f"{VERSION}:{yaml.__version__}:{source_fingerprint(*modules)}\n".encode()


def _path(key: bytes) -> Path | None:
    from pnpgen.resources import cache_folder
    folder = cache_folder(FOLDER)
    return folder / f"{key.hex()}.tree" if folder is not None else None


def stored(key: bytes):
    """(tree, its pickle) remembered for the text whose SHA-256 is `key`; MISSING when none is, or the entry
    is not one this code wrote."""
    from pnpgen.signing import read_sealed
    path = _path(key)
    data = read_sealed(path) if path is not None else None
    if not data or not data.startswith(salt()):
        return MISSING
    pickled = data[len(salt()):]
    try:
        return allowed_pickle.loads(pickled, ALLOWED, "a YAML tree"), pickled
    except Exception:  # noqa: BLE001 - a damaged entry only costs the parse
        return MISSING


def store(key: bytes, pickled: bytes) -> None:
    """Keep a tree just parsed (its pickle) for later processes; a cache that cannot be written costs nothing."""
    from pnpgen.signing import seal
    from pnpgen.whole_files import write_whole
    path = _path(key)
    if path is None:
        return
    try:
        write_whole(path, seal(salt() + pickled))
    except OSError:
        pass
