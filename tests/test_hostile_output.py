"""A build replaces only a build, and uses only caches this user's pnpgen wrote (issue 40).

Each test has a canary file outside the kit and someone else's files beside the output: a refused build
must leave every one of them (bytes and modes) as it was, and leave no staging folder.
"""
from __future__ import annotations

import json
import marshal
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pnpgen import owned_folders
from pnpgen.cli import main

MINI = Path(__file__).parent / "kits" / "mini"
PLANTED = b"%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert('pwned')) >> >>" \
          b"\nendobj\n%%EOF\n"


def tree(folder: Path) -> dict:
    """{relative path: (mode, bytes or None)} of everything under `folder`, links not followed."""
    found = {}
    for path in sorted(Path(folder).rglob("*")):
        info = os.lstat(path)
        data = path.read_bytes() if stat.S_ISREG(info.st_mode) else os.readlink(path) if path.is_symlink() else None
        found[path.relative_to(folder).as_posix()] = (info.st_mode, data)
    return found


@pytest.fixture
def place(tmp_path):
    """A kit copy, a canary outside it, and an output folder holding someone else's files."""
    kit = tmp_path / "kit"
    shutil.copytree(MINI, kit)
    (tmp_path / "canary.txt").write_text("outside the kit\n")
    out = tmp_path / "out"
    (out / "theirs").mkdir(parents=True)
    (out / "theirs" / "notes.txt").write_text("someone else's\n")
    os.chmod(out / "theirs", 0o700)
    return kit, out


def build(kit: Path, out: Path, *extra: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI in its own process (its own signing key when `env` names another cache home)."""
    return subprocess.run([sys.executable, "-m", "pnpgen", "build", "--data", str(kit), "--out", str(out), *extra],
                          capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})})


def assert_refused(run, out: Path, before: dict, folder: Path) -> None:
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert str(folder) in run.stderr or folder.name in run.stderr, run.stderr
    assert "--out" in run.stderr, run.stderr
    assert tree(out) == before
    assert not [p for p in out.rglob("*") if p.name.startswith(".staging")]


def test_a_user_folder_named_as_the_kit_is_refused_untouched(place, run_cli):
    kit, out = place
    mine = out / "mini"
    (mine / "private").mkdir(parents=True)
    (mine / "private" / "thesis.tex").write_text("years of work\n")
    os.chmod(mine / "private", 0o700)
    (mine / "manifest.json").write_text('{"kit": "mini", "generator": "pnpgen 1"}\n')  # but not only its files
    before = tree(out)
    result = run_cli("build", "--data", kit, "--out", out, "--quiet")
    assert result.code == 1, result.err
    assert "out/mini" in result.err and "not made by pnpgen" in result.err and "--out" in result.err, result.err
    assert tree(out) == before
    assert (kit.parent / "canary.txt").read_text() == "outside the kit\n"


@pytest.mark.parametrize("what", ["file", "link", "foreign-marker", "other-kit-marker"])
def test_a_file_link_or_foreign_marker_in_the_kits_place_is_refused(place, run_cli, what):
    kit, out = place
    target = out / "mini"
    if what == "file":
        target.write_text("the user's file\n")
    elif what == "link":
        target.symlink_to(out / "theirs")
    else:
        target.mkdir()
        (target / "cards.pdf").write_bytes(b"theirs")
        marker = "not json" if what == "foreign-marker" else '{"pnpgen": "build", "kit": "other"}'
        (target / owned_folders.MARKER).write_text(marker)
    before = tree(out)
    result = run_cli("build", "--data", kit, "--out", out, "--quiet")
    assert result.code == 1, result.err
    assert "out/mini" in result.err and "--out" in result.err, result.err
    assert tree(out) == before


def test_a_cache_folder_holding_another_programs_files_is_refused_untouched(place, run_cli):
    kit, out = place
    theirs = out / ".cache" / "mini" / "http-v2"
    theirs.mkdir(parents=True)
    (theirs / "blob").write_bytes(b"another program's cache")
    before = tree(out)
    result = run_cli("build", "--data", kit, "--out", out, "--quiet")
    assert result.code == 1, result.err
    assert ".cache/mini" in result.err and "http-v2" in result.err, result.err
    assert tree(out) == before


def test_a_mount_point_inside_an_old_build_is_refused_and_never_emptied(place, run_cli, monkeypatch):
    """No bind mount can be made in a test without privileges: os.path.ismount is made to say that the
    folder `usb` inside the previous build is one (what pnpgen checks besides st_dev)."""
    kit, out = place
    assert run_cli("build", "--data", kit, "--out", out, "--quiet").code == 0
    usb = out / "mini" / "usb"
    (usb / "photos").mkdir(parents=True)
    (usb / "photos" / "a.jpg").write_bytes(b"a photo")
    real = os.path.ismount
    monkeypatch.setattr(os.path, "ismount", lambda p: Path(p) == usb or real(p))
    before = tree(out)
    result = run_cli("build", "--data", kit, "--out", out, "--quiet")
    assert result.code == 1 and "mount point" in result.err and "usb" in result.err, result.err
    assert tree(out) == before
    owned_folders.remove_tree(out / "mini")   # and were it removed regardless: the mount's files stay
    assert (usb / "photos" / "a.jpg").read_bytes() == b"a photo"
    assert not (out / "mini" / "cards.pdf").exists()


def test_a_bind_mount_from_the_same_file_system_is_a_mount_point_too(place, run_cli, monkeypatch):
    """A bind mount of a folder on the same device keeps st_dev and fools os.path.ismount; the kernel's list
    of mount points (here made to hold `usb`, as /proc/self/mountinfo would) does not."""
    kit, out = place
    assert run_cli("build", "--data", kit, "--out", out, "--quiet").code == 0
    usb = out / "mini" / "usb"
    (usb / "thesis.tex").parent.mkdir(parents=True)
    (usb / "thesis.tex").write_text("chapter one", encoding="utf-8")
    monkeypatch.setattr(owned_folders, "mount_points", lambda: frozenset({os.path.realpath(usb)}))
    assert not os.path.ismount(usb)
    result = run_cli("build", "--data", kit, "--out", out, "--quiet")
    assert result.code == 1 and "mount point" in result.err and "usb" in result.err, result.err
    owned_folders.remove_tree(out / "mini")
    assert (usb / "thesis.tex").read_text(encoding="utf-8") == "chapter one"


def test_a_rebuild_replaces_its_own_build_and_an_unmarked_old_build(place, run_cli):
    kit, out = place
    assert run_cli("build", "--data", kit, "--out", out, "--quiet").code == 0
    marker = json.loads((out / "mini" / owned_folders.MARKER).read_text())
    assert marker["kit"] == "mini" and owned_folders.is_own_build(out / "mini", "mini")
    (out / "mini" / owned_folders.MARKER).unlink()   # as a build made before markers: taken as pnpgen's
    (out / ".cache" / "mini" / owned_folders.CACHE_MARKER).unlink()   # and its cache (only pnpgen's names)
    (kit / "kit.yaml").write_text((kit / "kit.yaml").read_text() + "\n# an edit\n")
    result = run_cli("build", "--data", kit, "--out", out, "--quiet")
    assert result.code == 0, result.err
    assert owned_folders.is_own_build(out / "mini", "mini")
    assert owned_folders.is_own(out / ".cache" / "mini", owned_folders.CACHE_MARKER, "mini")
    assert (out / "theirs" / "notes.txt").read_text() == "someone else's\n"
    assert stat.S_IMODE(os.stat(out / "theirs").st_mode) == 0o700
    again = run_cli("build", "--data", kit, "--out", out, "--verbose")
    assert again.code == 0 and "nothing changed" in again.err


def test_a_shipped_output_folder_is_never_passed_off_as_a_build(tmp_path):
    """The kit's author builds into kit/output on their machine, then swaps the cached and built cards for
    a PDF with a JavaScript OpenAction and ships the folder; the user builds with their own key."""
    kit = tmp_path / "kit"
    shutil.copytree(MINI, kit)
    author = {"XDG_CACHE_HOME": str(tmp_path / "author-cache")}
    assert build(kit, kit / "output", "--quiet", env=author).returncode == 0
    cache = kit / "output" / ".cache" / "mini"
    planted = [p for p in cache.rglob("*") if p.is_file() and p.read_bytes().startswith(b"%PDF")]
    assert planted
    for path in planted + [kit / "output" / "mini" / "cards.pdf"]:
        path.write_bytes(PLANTED)
    (cache / "piece-faces.bin").write_bytes(marshal.dumps((1, {"k": "not a record", "j": [1, 2]})))
    user = {"XDG_CACHE_HOME": str(tmp_path / "user-cache")}
    run = build(kit, kit / "output", "--only", "boards", env=user)
    assert run.returncode == 0, run.stderr
    assert "ships this output folder" in run.stderr and "output/mini" in run.stderr, run.stderr
    assert not (kit / "output" / "mini" / "cards.pdf").exists()   # never carried over from a copied build
    run = build(kit, kit / "output", env=user)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    for path in (kit / "output" / "mini").rglob("*.pdf"):
        assert b"JavaScript" not in path.read_bytes(), path
    assert (kit / "output" / "mini" / "cards.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("kit_id", [".cache", "..", "Projects", "a/b", "x" * 65])
def test_a_kit_id_that_is_no_plain_name_is_a_located_error(tmp_path, run_cli, kit_id):
    kit = tmp_path / "kit"
    shutil.copytree(MINI, kit)
    text = (kit / "kit.yaml").read_text()
    line = text[:text.index("kit: mini")].count("\n") + 1
    (kit / "kit.yaml").write_text(text.replace("kit: mini", f"kit: {json.dumps(kit_id)}"))
    result = run_cli("build", "--data", kit, "--out", tmp_path / "out", "--quiet")
    assert result.code == 1, result.err
    assert f"kit.yaml:{line}" in result.err and "letters, digits and dashes" in result.err, result.err
    assert {p.name for p in (tmp_path / "out").glob("*")} <= {".cache"}  # the input digests' memo at most


def test_a_folder_put_in_the_kits_place_while_building_is_refused_at_landing(tmp_path):
    """Checked again just before the landing: a user's folder made there meanwhile stays, and so does no stage."""
    from pnpgen.output import OutputStage
    target = tmp_path / "out" / "mini"
    with pytest.raises(owned_folders.NotOurs, match="not made by pnpgen"):
        with OutputStage(target, "mini") as stage:
            stage.write_bytes("cards.pdf", b"new")
            (target / "mine").mkdir(parents=True)
            (target / "mine" / "notes.txt").write_text("mine\n")
    assert (target / "mine" / "notes.txt").read_text() == "mine\n"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["mini"]


def test_the_signing_key_is_private_and_a_key_others_can_read_is_not_used(tmp_path, monkeypatch):
    from pnpgen import signing
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    signing.user_key.cache_clear()
    try:
        key = signing.user_key()
        path = tmp_path / "pnpgen" / signing.KEY_FOLDER / signing.KEY_FILE
        assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_bytes() == key
        sealed = signing.seal(b"a cache entry")
        assert signing.unseal(sealed) == b"a cache entry"
        assert signing.unseal(sealed[:-1] + b"X") is None and signing.unseal(b"a cache entry") is None
        os.chmod(path, 0o644)
        signing.user_key.cache_clear()
        assert signing.user_key() != key and signing.unseal(sealed) is None
    finally:
        signing.user_key.cache_clear()


def test_a_foreign_file_where_pnpgen_keeps_its_digest_memo_is_left_alone(place, run_cli):
    """`--out ~` puts OUT/.cache in ~/.cache, among other programs' files: one of the names pnpgen keeps
    there that holds something else is neither read nor replaced; the build goes on without its memo."""
    kit, out = place
    memo = out / ".cache" / "input-digests.json"
    memo.parent.mkdir()
    memo.write_bytes(b"\x00another program's data")
    assert run_cli("build", "--data", kit, "--out", out, "--quiet").code == 0
    assert memo.read_bytes() == b"\x00another program's data"
