"""Shared fixtures: a private copy of the default kit to break, and an in-process CLI runner."""
from __future__ import annotations

import os
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest

from pnpgen.cli import main
from pnpgen.kit import load_kit
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT

# A shell starts a background job (`pytest ... &`) with SIGINT ignored, and an ignored signal stays ignored in
# every child: the Ctrl-C tests' builds then never see their Ctrl-C. A handled one is reset at exec.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

DEFAULT_KIT_DIR = BUILTIN_DATA / DEFAULT_KIT


@pytest.fixture(scope="session", autouse=True)
def own_config_folder(tmp_path_factory):
    """The tests' own config folder: a developer's budgets.yaml (pnpgen.budget_grants) never reaches them."""
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("config"))


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys):
    def run(*argv: str) -> CliResult:
        code = main([str(a) for a in argv])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)
    return run


@pytest.fixture
def kit_copy(tmp_path) -> Path:
    """A throw-away copy of the default kit that a test may edit."""
    target = tmp_path / "kit"
    shutil.copytree(DEFAULT_KIT_DIR, target)
    return target


@pytest.fixture(scope="session")
def default_kit_build(tmp_path_factory) -> Path:
    """The default kit built once, every part, for the tests that only read its files."""
    root = tmp_path_factory.mktemp("default-build")
    assert main(["build", "--out", str(root), "--quiet"]) == 0
    return root / DEFAULT_KIT


@pytest.fixture(scope="session")
def default_kit():
    kit, _ = load_kit(DEFAULT_KIT_DIR)
    return kit


def edit(path: Path, old: str, new: str, count: int = 1) -> int:
    """Replace text in a kit file; return the 1-based line of the first replacement."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return line
