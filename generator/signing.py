"""Cache files this user's pnpgen wrote, told from any other: each is signed with a key only this user holds.

A cache under `--out` may come from anywhere: a kit folder shipped with its author's `output/.cache/`, a
folder copied from another machine, another program's files. A cached entry is handed out as a build's
output (a cached sheet PDF lands as `cards.pdf`), so an entry is used only when it carries an HMAC made with
this user's key, kept in the user's own cache folder (pnpgen.resources.cache_folder, the file made 0600 on
first use). Anything else is ignored and rebuilt; a key that cannot be kept (no cache folder) lives for this
process only, so nothing on disk is trusted.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
from functools import cache

KEY_FOLDER = "trust"
KEY_FILE = ".cache-key"   # a dot name: resources.prune_now_and_then leaves it alone
KEY_BYTES = 32
MAGIC = b"pnpgen-signed-1 "
DIGEST_CHARS = 64


@cache
def user_key() -> bytes:
    """This user's signing key: read from the user's cache folder, made there on first use."""
    from pnpgen import resources
    folder = resources.cache_folder(KEY_FOLDER)
    if folder is None or not hasattr(os, "getuid"):
        return os.urandom(KEY_BYTES)
    path = folder / KEY_FILE
    key = _read_key(path)
    if key is None and not os.path.lexists(path):
        _make_key(path)
        key = _read_key(path)   # ours, or the one another pnpgen made at the same instant
    return key if key is not None else os.urandom(KEY_BYTES)


def _make_key(path) -> None:
    """A new key, written whole under a temporary name, then linked into place only if none is there: a
    reader never finds half a key, and two pnpgens starting at once end with the same one."""
    temporary = path.with_name(f"{KEY_FILE}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(os.urandom(KEY_BYTES))
        os.link(temporary, path)
    except OSError:
        pass
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _read_key(path) -> bytes | None:
    """The key, if the file is a regular file of this user's that nobody else may read or write."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
            return None
        key = handle.read(KEY_BYTES + 1)
    return key if len(key) == KEY_BYTES else None


def signature(data: bytes) -> str:
    return hmac.new(user_key(), data, hashlib.sha256).hexdigest()


def seal(data: bytes) -> bytes:
    """`data` with this user's signature in front (what `unseal` takes back)."""
    return MAGIC + signature(data).encode("ascii") + b"\n" + data


def unseal(blob: bytes) -> bytes | None:
    """The data `seal` signed, or None when `blob` was not sealed with this user's key."""
    head = len(MAGIC) + DIGEST_CHARS + 1
    if not blob.startswith(MAGIC) or len(blob) < head or blob[head - 1:head] != b"\n":
        return None
    data = blob[head:]
    if not hmac.compare_digest(blob[len(MAGIC):head - 1], signature(data).encode("ascii")):
        return None
    return data


def read_sealed(path) -> bytes | None:
    """The signed data of the file at `path` (never through a link), or None: missing, unreadable or not ours."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        with os.fdopen(descriptor, "rb") as handle:
            return unseal(handle.read())
    except OSError:
        return None


def may_replace(path) -> bool:
    """A cache file pnpgen keeps at a fixed name beside other programs' files (`--out ~` puts OUT/.cache in
    ~/.cache) is replaced only when absent or pnpgen's: signed (with any key) or, from before signing, JSON."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return False
        head = handle.read(len(MAGIC))
    return head == MAGIC or head[:1] == b"{"


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
