"""The docs say what the code does: the generated reference is current, and every shell block of the README
and the guide runs as written."""
from __future__ import annotations

from pnpgen.reference import COMMAND, PAGE, reference


def test_the_reference_is_generated_from_the_code_and_current():
    written = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    assert written == reference(), f"docs/reference.md is stale: run `{COMMAND}` and commit it"


def test_the_reference_names_every_key_type_kind_and_option():
    from pnpgen.components.columns import COLUMN_TYPES
    from pnpgen.declared_checks import KINDS
    from pnpgen.schemas import KIT
    page = reference()
    assert all(f"| `{key}` |" in page for key in KIT.fields)
    assert all(f"| `{kind}` |" in page for kind in COLUMN_TYPES) and all(f"| `{kind}` |" in page for kind in KINDS)
    assert "| `--paper` |" in page and "(one of: letter, a4)" in page and "| `--duplex` | `long` |" in page


# ------------------------------------------------------------------------------ shell blocks, run as written

import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>sh|bash|console)[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(?P<why>.*?)\s*-->\s*$")


def shell_blocks(page: Path) -> list[tuple[int, str, str | None]]:
    """(line, the block's commands, why it is not run or None) for every ```sh, ```bash or ```console block:
    a block is not run when the line just above it says `<!-- not run: WHY -->`."""
    text = page.read_text(encoding="utf-8")
    out = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        above = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skipped = NOT_RUN.search(above)
        body = textwrap.dedent(match["body"])
        if match["lang"] == "console":  # a prompt line is a command; the others are what it printed
            body = "\n".join(l[2:] for l in body.splitlines() if l.startswith("$ "))
        out.append((line, body, skipped["why"] if skipped else None))
    return out


def test_every_shell_block_is_run_or_says_why_not():
    blocks = {page: shell_blocks(page) for page in GUIDE}
    assert sum(len(b) for b in blocks.values()) >= 8, "the fence pattern found too few blocks"
    assert any(why is None for b in blocks.values() for _, _, why in b)
    installs = [f"{p.name}:{line}" for p, b in blocks.items() for line, body, why in b
                if why is None and re.search(r"\b(pip|pipx|make|apt-get|brew)\b", body)]
    assert not installs, f"blocks that install things must say `<!-- not run: installs ... -->`: {installs}"


@pytest.mark.parametrize("page", [p for p in GUIDE if any(why is None for _, _, why in shell_blocks(p))],
                         ids=lambda p: p.name)
def test_the_shell_blocks_run_as_written(page, tmp_path, capsys):
    """Each page's blocks run in order in a fresh folder (so `output/` and the kits they make are theirs), with
    the pnpgen this test imports first on PATH; a failing block names its page and line."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    started = time.monotonic()
    for line, body, why in shell_blocks(page):
        if why is not None:
            print(f"{page.name}:{line}: not run: {why}")
            continue
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", body], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{page.relative_to(ROOT)}:{line}: exit {done.returncode}\n{body}\n{done.stderr}"
    print(f"{page.name}: {time.monotonic() - started:.1f} s")


def test_every_relative_link_of_the_guide_leads_to_a_file():
    """A section moved out of the README keeps its links working: each `](path)` names a file that exists."""
    broken = []
    for page in GUIDE:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            path = target.split("#", 1)[0]
            if path and not re.match(r"[a-z]+:", path) and not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken
