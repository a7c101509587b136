"""What the budget tests share: a copy of the mini kit to break, and one command run with its words and time."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from pnpgen.cli import main

MINI = Path(__file__).resolve().parent / "kits" / "mini"


@pytest.fixture
def kit(tmp_path) -> Path:
    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
    return root


def run_timed(capsys, *argv) -> tuple[int, str, float]:
    """The exit code, what it said (stderr then stdout) and its wall seconds."""
    capsys.readouterr()
    start = time.monotonic()
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.err + captured.out, time.monotonic() - start
