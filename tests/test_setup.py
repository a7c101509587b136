"""The setup commands stop early, with the fix, when the machine lacks libcairo or a new enough Python."""
import ctypes.util
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = Path(__file__).resolve().parent.parent / "scripts" / "check_system.py"


def load_check():
    spec = importlib.util.spec_from_file_location("check_system", CHECK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_missing_libcairo_stops_with_install_instructions(monkeypatch, capsys):
    check = load_check()
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None)
    assert check.main() == 1
    err = capsys.readouterr().err
    assert "libcairo" in err and "apt-get install libcairo2" in err and "brew install cairo" in err


def test_this_machine_passes_the_check(capsys):
    assert load_check().main() == 0
    assert capsys.readouterr().err == ""


def test_makefile_checks_the_system_before_creating_the_environment():
    makefile = (CHECK.parent.parent / "Makefile").read_text()
    stamp_rule = makefile.split("$(STAMP):")[1].split("\n\n")[0]
    assert stamp_rule.index("check_system.py") < stamp_rule.index("-m venv")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="LD_LIBRARY_PATH hides the library on Linux")
def test_an_installed_pnpgen_without_libcairo_says_how_to_get_it(tmp_path):
    """pipx users never run make's check: their first build finds no libcairo. A file named libcairo.so.2
    that is no library, first on LD_LIBRARY_PATH, is what every load of libcairo then finds."""
    from pnpgen.resources import blank_kit
    fake = tmp_path / "lib"
    fake.mkdir()
    (fake / "libcairo.so.2").write_text("not a library")
    env = {**os.environ, "LD_LIBRARY_PATH": str(fake), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--data", str(blank_kit()),
                           "--out", str(tmp_path / "out"), "--only", "components"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "libcairo" in done.stderr and "sudo apt-get install libcairo2" in done.stderr
    out = tmp_path / "out"
    assert not out.exists() or not [p for p in out.iterdir() if not p.name.startswith(".")]   # nothing landed
