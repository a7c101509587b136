"""The setup commands stop early, with the fix, when the machine lacks libcairo or a new enough Python."""
import ctypes.util
import importlib.util
from pathlib import Path

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
