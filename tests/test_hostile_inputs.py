"""A kit from a stranger, as a table: each row makes one file kind of a copy of the mini kit hostile
(templates, chapters, charts, CSV, images, kit.yaml's budgets, the output folder) and builds it into a
folder that holds an earlier build. Every run must end with exit 1, a message naming the file (and the line
where there is one) and what to do, no traceback, within seconds, and the earlier output byte for byte
as it was. The budgets (pnpgen.budgets) are lowered in the rows' kit.yaml so that reaching one is quick.
"""
from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from pnpgen.cli import main

MINI = Path(__file__).parent / "kits" / "mini"
CARD = "templates/card-front.svg.j2"
CHAPTER = "rules/01-rules.md"


def png(width: int, height: int, rows: bytes) -> bytes:
    """A greyscale PNG of the given header size whose pixel data is `rows` (compressed)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


BOMB = png(20000, 20000, b"\0" * 20001 * 50)          # 400 million pixels announced, a few KB on disk
CUT_SHORT = png(64, 64, b"\0" * 65 * 64)[:60]         # the header whole, the pixels cut off


@dataclass(frozen=True)
class Hostile:
    id: str
    file: str              # the kit file edited
    old: str               # "" prepends `new`
    new: str
    words: str             # what the message must say
    reported: str = ""     # the file the message names (default: the edited one)
    line: bool = True      # the message gives a line
    budgets: str = ""      # kit.yaml `budgets:` for the row
    only: str = "components"
    image: bytes = b""     # written to art/hostile.png


H = Hostile
TABLE = [
    H("macro-recursion", CARD, "", "{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}\n", "nest too deep"),
    H("huge-range", CARD, "", "{% for i in range(10**9) %}{% endfor %}\n", "Range too big"),
    H("cpu-loops", CARD, "", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n",
      "over the template_seconds budget", budgets="{template_seconds: 1}"),
    H("wide-filter", CARD, "", '{{ "x"|center(10**9) }}\n', "over the text_chars budget"),
    H("wide-method", CARD, "", '{{ "x".ljust(10**8) }}\n', "over the text_chars budget"),
    H("format-width", CARD, "", '{{ "{:>10000000}".format(1) }}\n', "over the text_chars budget"),
    H("include-itself", CARD, "", '{% include "card-front.svg.j2" %}\n', "nest too deep"),
    H("huge-number", CARD, "", "{{ ((2**64)**64)**64 }}\n", "over the int_digits budget"),
    H("memory", CARD, "", '{% set ns = namespace(s="xxxxxxxx") %}{% for i in range(40) %}'
      "{% set ns.s = ns.s ~ ns.s %}{% endfor %}\n", "over the memory_mb budget", budgets="{memory_mb: 256}"),
    H("face-size", CARD, "", '{% for i in range(3000) %}<rect x="1" y="1" width="1" height="1"/>{% endfor %}\n',
      "over the face_kb budget", reported="components/cards.yaml", budgets="{face_kb: 32}"),
    H("image-bomb", CARD, "", '<image href="{{ "art/" ~ "hostile.png" }}" x="1" y="1" width="9" height="9"/>\n',
      "over the limit of", reported="components/cards.yaml", image=BOMB),
    H("image-cut-short", CARD, "", '<image href="{{ "art/hostile" ~ ".png" }}" x="1" y="1" width="9" height="9"/>\n',
      "hostile.png: not an image that can be read", reported="components/cards.yaml", image=CUT_SHORT),
    H("long-cell", "components/cards.yaml", "Look at the top", "Look " + "x" * 200_000, "over the text_chars budget",
      budgets="{text_chars: 100000}"),
    H("csv-cell", "components/tokens.csv", "2,3\n", "2,3\n3," + "9" * 140_000 + "\n", "field limit"),
    H("chapter-recursion", CHAPTER, "", "{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}\n", "nest too deep",
      only="documents"),
    H("chapter-size", CHAPTER, "", "{% for i in range(20000) %}Lorem ipsum. {% endfor %}\n",
      "over the chapter_kb budget", line=False, budgets="{chapter_kb: 16}", only="documents"),
    H("chart-recursion", "charts.yaml", 'cell: "<b>{{ row.title }}</b>"',
      "cell: \"{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}\"", "recursion depth", only="documents"),
    H("board-text", "boards/board.yaml", 'text: "My Game"', 'text: "' + "M" * 300_000 + '"',
      "over the text_chars budget", reported="boards/board.yaml", line=False, budgets="{text_chars: 100000}",
      only="boards"),
    H("data-csv-cell", "data/parts.csv", "", "name,size\nbig," + "9" * 140_000 + "\n", "field limit"),
    H("aid-recursion", "aids/cards.yaml", "", "cards:\n  turn:\n    title: Turn\n    front:\n"
      "      - text: \"{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}\"\n", "nest too deep"),
    H("budget-ceiling", "kit.yaml", "", "", "budgets.memory_mb", budgets="{memory_mb: 99999999}"),
]


def snapshot(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}


@pytest.fixture(scope="module")
def earlier(tmp_path_factory) -> Path:
    """The mini kit built once; every hostile run lands (or rather does not) on top of it."""
    out = tmp_path_factory.mktemp("earlier")
    assert main(["build", "--data", str(MINI), "--out", str(out), "--quiet"]) == 0
    return out


def hostile_copy(bad: Hostile, folder: Path) -> Path:
    kit = folder / "mini"
    shutil.copytree(MINI, kit)
    target = kit / bad.file
    target.parent.mkdir(exist_ok=True)
    text = target.read_text(encoding="utf-8") if target.exists() else ""
    if bad.old:
        assert bad.old in text
        text = text.replace(bad.old, bad.new, 1)
    else:
        text = bad.new + text
    target.write_text(text, encoding="utf-8")
    if bad.budgets:
        with open(kit / "kit.yaml", "a", encoding="utf-8") as kit_yaml:
            kit_yaml.write(f"budgets: {bad.budgets}\n")
    if bad.image:
        (kit / "art" / "hostile.png").write_bytes(bad.image)
    return kit


@pytest.mark.parametrize("bad", TABLE, ids=[b.id for b in TABLE])
def test_hostile_input_is_located_quick_and_harmless(bad, run_cli, earlier, tmp_path):
    kit = hostile_copy(bad, tmp_path)
    before = snapshot(earlier)
    start = time.monotonic()
    result = run_cli("build", "--data", kit, "--out", earlier, "--only", bad.only, "--quiet")
    assert time.monotonic() - start < 30
    assert result.code == 1, result.err
    assert "Traceback" not in result.err + result.out
    assert bad.words in result.err, result.err
    reported = re.escape(bad.reported or bad.file)
    assert re.search(rf"{reported}:\d+: " if bad.line else reported, result.err), result.err
    assert snapshot(earlier) == before
    assert not [p for p in earlier.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".staging")]


def test_a_full_disk_is_said_and_leaves_no_temporary_files(tmp_path):
    """The disk fills while the build writes (RLIMIT_FSIZE: a file may not grow past 40 KB, as on a disk with
    40 KB left): exit 1, the reason in words, no traceback and no `.tmp` left anywhere under the output."""
    out = tmp_path / "out"
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, 40_000));"
            "from pnpgen.cli import main; sys.exit(main(sys.argv[1:]))")
    run = subprocess.run([sys.executable, "-c", code, "build", "--data", str(MINI), "--out", str(out), "--quiet"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    # Python's own write says "File too large"; cairo, writing a PDF itself, knows only that its write failed
    assert "Traceback" not in run.stderr and "room" in run.stderr, run.stderr
    assert "File too large" in run.stderr or "cairo could not write a file" in run.stderr, run.stderr
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".staging")]
    assert not (out / "mini").exists()


def test_an_output_folder_that_cannot_be_made_is_said(run_cli, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_cli("build", "--data", MINI, "--out", blocker / "out", "--only", "manifest", "--quiet")
    assert result.code == 1 and "Traceback" not in result.err
    assert "a-file" in result.err and "nothing was changed" in result.err, result.err


def test_watch_reports_a_budget_and_keeps_watching():
    import io

    from pnpgen.budgets import BudgetExceeded
    from pnpgen.watch import _attempt

    def over():
        raise BudgetExceeded("template_seconds", "templates/card-front.svg.j2:1")

    def crash():
        raise MemoryError()
    stream = io.StringIO()
    _attempt(over, stream)
    _attempt(crash, stream)
    said = stream.getvalue()
    assert "over the template_seconds budget" in said and "over the memory_mb budget" in said
    assert said.count("Still watching") == 2


@pytest.mark.skipif(not hasattr(os, "fork"), reason="kernel limits need a Unix")
def test_the_limits_are_back_after_a_command(run_cli, tmp_path):
    """The kernel limits a command sets are soft and put back after it, so a test process or a later
    command is not held to a kit's budgets."""
    import resource
    before = resource.getrlimit(resource.RLIMIT_AS), resource.getrlimit(resource.RLIMIT_CPU)
    assert run_cli("validate", "--data", MINI).code == 0
    assert (resource.getrlimit(resource.RLIMIT_AS), resource.getrlimit(resource.RLIMIT_CPU)) == before
