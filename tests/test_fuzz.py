"""Fuzz every kit's YAML: a seeded mutator breaks one file at a time, and `pnpgen validate` must end as a
located error or a valid kit, never a traceback and never an exit code other than 0 or 1.

The normal suite runs a few dozen mutations (a few seconds); `pytest -m fuzz` runs many more
(PNPGEN_FUZZ_RUNS, default 2000; PNPGEN_FUZZ_SEED picks another sequence). A failure prints the kit, the
file, the mutation and the seed, so it can be replayed.
"""
from __future__ import annotations

import contextlib
import io
import itertools
import os
import random
import re
import shutil
from pathlib import Path

import pytest

from pnpgen.cli import main
from pnpgen.kit import BUILTIN_DATA

KITS = sorted(p for p in BUILTIN_DATA.iterdir() if (p / "kit.yaml").is_file())
NUMBER = re.compile(r"(?<![\w.#])-?\d+(\.\d+)?(?![\w.])")
NEW_NUMBERS = ("-1", "0", "1", "2.5", "1000000000", "-1000000000", "1e309", "0x10", "nan", "99999999999999999999")
INSERTS = (":", "-", "[", "]", "{", "}", "#", "&a", "*a", "!!", "|", ">", "'", '"', "%", "@", "`", "\t", "\0",
           " ", "\n", "  ", "{{", "}}", "{%", "x", "\u00e9", "\ufeff", ",", "?", "<", "&")


def kit_files(kit: Path) -> list[Path]:
    return sorted(p.relative_to(kit) for p in kit.rglob("*.yaml"))


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One random edit of a YAML text and a description of it (for replaying a failure)."""
    lines = text.split("\n")
    op = rng.choice(("delete", "duplicate", "swap", "number", "number", "insert", "insert"))
    i = rng.randrange(len(lines))
    if op == "delete":
        return "\n".join(lines[:i] + lines[i + 1:]), f"delete line {i + 1}"
    if op == "duplicate":
        return "\n".join(lines[:i + 1] + lines[i:]), f"duplicate line {i + 1}"
    if op == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines), f"swap lines {i + 1} and {j + 1}"
    if op == "number":
        spots = [(n, m) for n, line in enumerate(lines) for m in NUMBER.finditer(line)]
        if spots:
            n, match = rng.choice(spots)
            new = rng.choice(NEW_NUMBERS)
            lines[n] = lines[n][:match.start()] + new + lines[n][match.end():]
            return "\n".join(lines), f"line {n + 1}: number {match.group()} -> {new}"
    insert = rng.choice(INSERTS)
    col = rng.randrange(len(lines[i]) + 1)
    lines[i] = lines[i][:col] + insert + lines[i][col:]
    return "\n".join(lines), f"line {i + 1} col {col + 1}: insert {insert!r}"


LOCATED = re.compile(r"^\S+:\d+: |^\S+\.(yaml|csv|md|j2): ")


def validate(kit: Path, quick: bool = True) -> tuple[int, str]:
    """`validate --quick` (the data, its schemas, counts and texts; a second a kit): the full validate also
    builds into a scratch folder, seconds for each mutation that stays valid (PNPGEN_FUZZ_FULL=1 runs it)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["validate", "--data", str(kit)] + (["--quick"] if quick else []))
    return code, err.getvalue()


def run_fuzz(tmp_path: Path, runs: int, seed: int) -> list[str]:
    """Mutate, validate, restore; return the failures (crashes, bad exit codes, unlocated errors)."""
    rng = random.Random(seed)
    copies = {}
    for kit in KITS:
        copies[kit.name] = tmp_path / kit.name
        shutil.copytree(kit, copies[kit.name], ignore=shutil.ignore_patterns("__pycache__"))
    per_kit = [[(name, rel) for rel in kit_files(copy)] for name, copy in copies.items()]
    for files in per_kit:
        rng.shuffle(files)
    # Kits take turns, so even a short run breaks files of every kit.
    targets = [t for group in itertools.zip_longest(*per_kit) for t in group if t is not None]
    failures = []
    for run in range(runs):
        name, rel = targets[run % len(targets)] if run < len(targets) else rng.choice(targets)
        path = copies[name] / rel
        original = path.read_text(encoding="utf-8")
        mutated, hows = original, []
        for _ in range(rng.choice((1, 1, 1, 2, 3))):  # mostly one edit; sometimes a few on top of each other
            mutated, how = mutate(mutated, rng)
            hows.append(how)
        how = "; ".join(hows)
        path.write_text(mutated, encoding="utf-8")
        what = f"{name}/{rel}: {how} (seed {seed}, run {run})"
        try:
            code, err = validate(copies[name], quick=os.environ.get("PNPGEN_FUZZ_FULL") != "1")
        except BaseException as exc:  # noqa: BLE001 - any escape is the bug we look for
            failures.append(f"{what}: {type(exc).__name__}: {exc}")
            code, err = None, ""
        finally:
            path.write_text(original, encoding="utf-8")
        if code not in (0, 1, None):
            failures.append(f"{what}: exit code {code}: {err.strip()[-300:]}")
        elif "Traceback" in err:
            failures.append(f"{what}: traceback printed")
        elif code == 1 and not any(LOCATED.match(line) for line in err.splitlines()):
            failures.append(f"{what}: an error without a file: {err.strip()[-300:]}")
    return failures


def test_mutated_kits_end_located_or_valid(tmp_path):
    failures = run_fuzz(tmp_path, runs=int(os.environ.get("PNPGEN_FUZZ_QUICK", "40")), seed=15)
    assert not failures, "\n".join(failures)


@pytest.mark.fuzz
def test_mutated_kits_long_run(tmp_path, request):
    if "fuzz" not in (request.config.option.markexpr or ""):
        pytest.skip("the long fuzz run: pytest -m fuzz (PNPGEN_FUZZ_RUNS, PNPGEN_FUZZ_SEED)")
    runs = int(os.environ.get("PNPGEN_FUZZ_RUNS", "2000"))
    seed = int(os.environ.get("PNPGEN_FUZZ_SEED", "4242"))
    failures = run_fuzz(tmp_path, runs, seed)
    assert not failures, f"{len(failures)} of {runs} mutations failed:\n" + "\n".join(failures)
