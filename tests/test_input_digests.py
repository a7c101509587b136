"""The input files' digest memo lives in the user's cache, one per kit folder: a build into a new output
folder hashes no file an earlier build hashed, and whatever the memo holds, the digests are the files' own."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time

import pytest

from pnpgen import inputs, resources, signing, up_to_date
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT


@pytest.fixture
def kit(tmp_path, monkeypatch):
    """A copy of the default kit, its files older than the racy window; the user's cache a folder of its own."""
    root = tmp_path / "kit"
    shutil.copytree(BUILTIN_DATA / DEFAULT_KIT, root)
    old = time.time() - 60
    for path in root.rglob("*"):
        os.utime(path, (old, old))
    cache = tmp_path / "user-cache"
    monkeypatch.setattr(resources, "cache_folder", lambda name: (cache / name).mkdir(parents=True, exist_ok=True)
                        or cache / name)
    return root


def _hashed(monkeypatch) -> list:
    """The files read and hashed from now on."""
    read = []
    real = hashlib.file_digest

    def counting(stream, name):
        read.append(stream.name)
        return real(stream, name)
    monkeypatch.setattr(hashlib, "file_digest", counting)
    return read


def _fresh(root, out):
    """The fingerprint with no memo at all: every file read."""
    return inputs.Inputs(root, out).fingerprint()


def test_a_new_output_folder_hashes_no_file_an_earlier_build_hashed(kit, tmp_path, monkeypatch):
    first = inputs.Inputs(kit, tmp_path / "out-1" / "k", up_to_date.digest_memo(kit))
    first.keep_memo()
    read = _hashed(monkeypatch)
    again = inputs.Inputs(kit, tmp_path / "out-2" / "k", up_to_date.digest_memo(kit))
    assert read == []
    assert again.fingerprint() == first.fingerprint() == _fresh(kit, tmp_path / "out-3" / "k")
    own = json.loads(signing.read_sealed(up_to_date.digest_memo(kit).path))["files"]
    assert own and all(name.startswith(f"{kit}/") for name in own)  # pnpgen's files in the memo all kits share


def test_a_file_changed_since_is_hashed_again(kit, tmp_path, monkeypatch):
    inputs.Inputs(kit, tmp_path / "out" / "k", up_to_date.digest_memo(kit)).keep_memo()
    edited = kit / "kit.yaml"
    edited.write_text(edited.read_text().replace("Space Empires", "Space Empire5", 1))
    old = time.time() - 30
    os.utime(edited, (old, old))
    read = _hashed(monkeypatch)
    again = inputs.Inputs(kit, tmp_path / "new" / "k", up_to_date.digest_memo(kit))
    assert read == [str(edited)]
    assert again.fingerprint() == _fresh(kit, tmp_path / "other" / "k")


def test_an_edit_that_keeps_the_size_inode_and_mtime_is_hashed_again(kit, tmp_path, monkeypatch):
    """`cp -p`, `touch -r` or an editor that keeps the mtime: only the change time says the file changed. The
    memo lives in the user's cache, so without it even a build into a new folder used the old digest (the maps
    kept the old title: their drawings' entries are salted with these digests)."""
    edited = kit / "kit.yaml"
    old = time.time() - 30
    os.utime(edited, (old, old))
    time.sleep(0.01)
    inputs.Inputs(kit, tmp_path / "out" / "k", up_to_date.digest_memo(kit)).keep_memo()
    before = edited.stat()
    with open(edited, "r+", encoding="utf-8") as stream:
        stream.write(edited.read_text().replace("Space Empires", "Space Empire5", 1))
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (edited.stat().st_size, edited.stat().st_ino) == (before.st_size, before.st_ino)
    again = inputs.Inputs(kit, tmp_path / "new" / "k", up_to_date.digest_memo(kit))
    assert again.fingerprint() == _fresh(kit, tmp_path / "other" / "k")


@pytest.mark.parametrize("damage", ["garbled", "unsigned", "misshapen"])
def test_a_damaged_or_foreign_memo_is_worked_out_again(kit, tmp_path, damage):
    inputs.Inputs(kit, tmp_path / "out" / "k", up_to_date.digest_memo(kit)).keep_memo()
    path = up_to_date.digest_memo(kit).path
    entries = json.loads(signing.read_sealed(path))["files"]
    wrong = {name: [*entry[:4], hashlib.sha256(b"not the file").hexdigest()] for name, entry in entries.items()}
    if damage == "garbled":
        path.write_bytes(path.read_bytes()[:-40] + b"x" * 40)
    elif damage == "unsigned":  # the right shape, the wrong digests, no signature of this user's
        path.write_bytes(json.dumps({"version": inputs.MEMO_VERSION, "files": wrong}).encode())
    else:  # signed, but no entry of the shape pnpgen writes
        path.write_bytes(signing.seal(json.dumps({"version": inputs.MEMO_VERSION, "files": {
            name: [entry[0], "1", entry[2], entry[3], entry[4][:10]] for name, entry in wrong.items()}}).encode()))
    memo = up_to_date.digest_memo(kit)
    assert memo.known and not any(name.startswith(str(kit)) for name in memo.known)  # pnpgen's own kept apart
    assert inputs.Inputs(kit, tmp_path / "new" / "k", memo).fingerprint() == _fresh(kit, tmp_path / "x" / "k")
