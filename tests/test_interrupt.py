"""Interrupted and concurrent builds, in real processes: the output folder always holds one whole build."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pnpgen.cli import main

from tests.conftest import DEFAULT_KIT_DIR

PROJECT = Path(__file__).resolve().parent.parent
KIT = "space-empires-4x"
ONLY = "cards,sheets"  # two parts: built by forked workers; quick to build; each build is paused (SIGSTOP) mid-way, so its speed does not matter


def snapshot(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in (out / KIT).rglob("*") if p.is_file()}


def start_build(out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pnpgen", "build", "--data", str(DEFAULT_KIT_DIR), "--out",
                             str(out), "--only", ONLY, "--quiet", *extra],
                            cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_staging(out: Path, proc: subprocess.Popen, timeout: float = 30.0) -> bool:
    """Until the build has started writing (its staging folder exists): True, or False if it ended first."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            return False
        if any(p.name.startswith(".staging-") for p in out.iterdir()):
            return True
        time.sleep(0.02)
    pytest.fail("the build never started writing")


def stopped(proc: subprocess.Popen, timeout: float = 5.0) -> bool:
    """Whether the process is stopped (SIGSTOP lands at once, but is seen a moment later), not ended."""
    stat = Path(f"/proc/{proc.pid}/stat")
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        if not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] == "T":
            return True  # no /proc (not Linux): alive is all that can be told
        time.sleep(0.01)
    return False


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("good")
    assert main(["build", "--out", str(out), "--only", ONLY, "--quiet"]) == 0
    return out, snapshot(out)


def fresh_copy(good, tmp_path, name: str = "out") -> Path:
    out = tmp_path / name
    shutil.copytree(good[0], out)
    return out


def paused_build(good, tmp_path) -> tuple[Path, subprocess.Popen]:
    """A copy of the good output and a build into it (A4: every file changes) stopped mid-build: writing,
    nothing landed yet. On a busy machine a quick build can finish, or start landing, between the test seeing
    its staging folder and the SIGSTOP: that build is let go and another tried on a fresh copy, so what a
    test sees always happened mid-build."""
    for attempt in range(5):
        out = fresh_copy(good, tmp_path, f"out{attempt}")
        proc = start_build(out, "--paper", "a4")
        if wait_for_staging(out, proc):
            proc.send_signal(signal.SIGSTOP)
            if stopped(proc) and snapshot(out) == good[1]:
                return out, proc
            proc.send_signal(signal.SIGCONT)
        proc.communicate(timeout=120)
    pytest.fail("five builds in a row finished before they could be stopped mid-build")


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_a_signal_mid_build_leaves_the_previous_output_whole(good, tmp_path, signum, code):
    out, proc = paused_build(good, tmp_path)  # a4 changes every file: any that landed would show
    proc.send_signal(signum)
    proc.send_signal(signal.SIGCONT)
    _, err = proc.communicate(timeout=60)
    # 128 + the signal, or (Python re-raising a Ctrl-C that came as the process ended) ended by it: either way
    # a calling shell sees a build stopped by the signal
    assert proc.returncode in (code, -signum), err
    assert "Traceback" not in err and "nothing half-written" in err, err
    assert snapshot(out) == good[1]
    assert not [p for p in out.iterdir() if p.name.startswith(".staging-")]


def test_two_builds_into_one_folder_end_with_one_whole_build(good, tmp_path, capsys):
    out, first = paused_build(good, tmp_path)
    second = main(["build", "--out", str(out), "--only", ONLY, "--quiet"])
    err = capsys.readouterr().err
    first.send_signal(signal.SIGCONT)
    assert second == 1 and "another build is writing" in err and "before writing anything" in err, err
    _, first_err = first.communicate(timeout=120)
    assert first.returncode == 0, first_err
    manifest = json.loads((out / KIT / "manifest.json").read_text())
    assert manifest["options"]["paper"] == "a4"
    files = [out / KIT / f["path"] for part in manifest["parts"].values() for f in part.get("files", [])]
    assert files and all(f.is_file() for f in files)
    assert all(f.read_bytes() != good[1].get(f.relative_to(out / KIT)) for f in files if f.suffix == ".pdf")
    # The lock goes with the build: a third build now runs.
    assert main(["build", "--out", str(out), "--only", "manifest", "--quiet"]) == 0


def test_a_build_killed_outright_leaves_no_lock_and_its_staging_is_cleared(good, tmp_path):
    out, proc = paused_build(good, tmp_path)
    proc.kill()
    proc.communicate(timeout=30)
    assert snapshot(out) == good[1]
    assert main(["build", "--out", str(out), "--only", "manifest", "--quiet"]) == 0  # flock died with the process
    assert not [p for p in out.iterdir() if p.name.startswith(".staging-")]


SIGNALS_HELD = """
import os, signal, time
from pnpgen.output import signals_held
caught = []
signal.signal(signal.SIGINT, lambda *a: caught.append("late"))
with signals_held():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)
    caught.append("landed")
time.sleep(0.05)
print(" ".join(caught))
"""


def test_signals_wait_while_files_land():
    """In a fresh interpreter: inside pytest, a signal the main thread holds was seen delivered early after
    the tests that signal a build (pytest's faulthandler plugin at work), which says nothing of a build."""
    done = subprocess.run([sys.executable, "-c", SIGNALS_HELD], cwd=PROJECT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["landed", "late"]


def _worker_terminates_by_default(indexes):
    return signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_a_drawing_pool_s_workers_die_on_sigterm_whatever_the_build_s_handler(monkeypatch):
    """A build of one part (`--only counters`) renders its new faces in a pool forked from the main process,
    whose SIGTERM has a Python handler (pnpgen.cli). Inherited, that handler could lose a SIGTERM sent while a
    worker was still inside fork, and the pool's join then waited for ever: the workers die by the kernel's
    default."""
    from pnpgen.render import piece_arts
    monkeypatch.setattr(piece_arts, "_prepare_chunk", _worker_terminates_by_default)
    previous = signal.signal(signal.SIGTERM, lambda *a: None)
    try:
        with piece_arts.face_pool() as pool:
            assert list(pool.map(piece_arts._prepare_chunk, [range(1), range(1), range(1)])) == [True, True, True]
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_ctrl_c_while_the_stage_is_made_leaves_no_staging_folder(tmp_path, monkeypatch):
    """The test above stops a build once its staging folder shows: that can be inside OutputStage() itself,
    after the folder is made and before the build owns it. A Ctrl-C there (here: while its mode is set) must
    not leave the folder behind (seen once in a full run under load)."""
    from pnpgen import output

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "chmod", interrupted)
    with pytest.raises(KeyboardInterrupt):
        output.OutputStage(tmp_path / "out" / KIT, KIT)
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".staging-")]
