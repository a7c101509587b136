"""Shared fixtures: a private copy of the default kit to break, and an in-process CLI runner."""
from __future__ import annotations

import os
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdist.scheduler import LoadFileScheduling

from pnpgen.cli import main
from pnpgen.kit import load_kit
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT

# A shell starts a background job (`pytest ... &`) with SIGINT ignored, and an ignored signal stays ignored in
# every child: the Ctrl-C tests' builds then never see their Ctrl-C. A handled one is reset at exec.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

DEFAULT_KIT_DIR = BUILTIN_DATA / DEFAULT_KIT

# The slowest files, slowest first (seconds summed from `pytest --durations=0`, Nov 2026): `make test` hands
# whole files (or KIT_GROUPS' groups) to the workers in the order their first test is collected (--dist
# loadfile --no-loadscope-reorder), so a slow file collected last would run alone at the end while the other
# core idles; started first, the many quick files fill in behind them. Only the order changes (tests must
# pass in any order); a file not listed runs after.
SLOW_FIRST = (
    "test_part_cache.py", "test_kit_fonts.py", "test_booklet.py", "test_duplex_kit_euro.py",
    "test_duplex_kit_space_empires_4x.py", "test_overprint.py", "test_cards.py", "test_duplex_kit_se4_board_game.py",
    "test_counters_sheets.py", "test_duplex_printer.py", "test_duplex_kit_eclipse.py", "test_wheel.py",
    "test_tts.py", "test_kit_eclipse.py", "test_counters.py", "test_edition_es_eclipse.py", "test_preflight.py",
    "test_se4x_new_counter_type.py", "test_docs.py", "test_print_shop.py", "test_images.py",
    "test_bad_input_kinds.py", "test_edition_fr_se4x.py",
)


# The tests that read one bundled kit's kit_build (below), which `make test` hands to one worker together, as
# if they were one file, so that the kit is built once in the suite: these files whole, and the tests of
# test_overprint.py named for the kit.
KIT_GROUPS = {
    "eclipse": ("test_kit_eclipse.py::", "test_duplex_kit_eclipse.py::", "test_eclipse_rules.py::",
                "test_edition_es_eclipse.py::", "test_overprint.py::test_eclipse_"),
    "se4-board-game": ("test_kit_se4_board_game.py::", "test_duplex_kit_se4_board_game.py::",
                       "test_overprint.py::test_se4_"),
    "4x-space-euro": ("test_kit_4x_space_euro.py::", "test_duplex_kit_euro.py::", "test_wheel.py::",
                      "test_overprint.py::test_euro_"),
}


def pytest_collection_modifyitems(items):
    rank = {name: place for place, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))   # stable: each file keeps its own order


def work_unit(nodeid: str) -> str:
    """The share of the work a test goes with: its kit's group (KIT_GROUPS), or else its file."""
    path, _, test = nodeid.partition("::")
    here = f"{path.rsplit('/', 1)[-1]}::{test}"
    return next((kit for kit, starts in KIT_GROUPS.items() if here.startswith(starts)), path)


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, with each group of KIT_GROUPS handed out as one file. (xdist's own --dist loadgroup
    would read xdist_group marks, but its mark sets Item._nodeid, which pytest 9 no longer reads.)"""
    if config.getvalue("dist") != "loadfile":
        return None

    class KitGroups(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)
    return KitGroups(config, log)


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
def kit_build(tmp_path_factory):
    """`kit_build("eclipse")`: a bundled kit built once per worker, every part, with the kit's own options (its
    paper, the long-edge flip) and --strict (the bundled kits build without a warning), for the tests that only
    read its files (never write there: the next file reads them too). KIT_GROUPS lists the tests reading each
    kit's, which `make test` runs on one worker: the kit is built once in the suite, not once a file. A full
    build holds the same PDFs, byte for byte, as an `--only` build of some of its parts with the same options
    (compared for eclipse, se4-board-game and 4x-space-euro, Nov 2026)."""
    built: dict[str, Path] = {}

    def build(name: str) -> Path:
        if name not in built:
            out = tmp_path_factory.mktemp(f"{name}-build")
            assert main(["build", "--data", str(BUILTIN_DATA / name), "--out", str(out), "--strict", "--quiet"]) == 0
            built[name] = out / name
        return built[name]
    return build


@pytest.fixture(scope="session")
def default_kit_build(kit_build) -> Path:
    """The default kit built once, every part, for the tests that only read its files."""
    return kit_build(DEFAULT_KIT)


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
