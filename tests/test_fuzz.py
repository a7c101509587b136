"""Fuzz every kit's files: a seeded mutator breaks one file at a time (its YAML, CSV, Markdown or template
text, or its kind: a symlink out of the kit or to another file, a folder, a FIFO, random bytes, nothing), and
`pnpgen validate` (and, in the long run, every tenth time `pnpgen build` over an earlier build) must end as a
located error or a valid kit: never a traceback, never an exit code other than 0 or 1, never the text of a
file outside the kit, within seconds, and a failed build leaves the earlier output byte for byte.

Some mutations are the hostile kit's families (tests/test_hostile_kits.py): a file renamed with terminal
escapes (nothing printed may hold a raw control character), SVG groups nested thousands deep in a template,
italics and `<font` tags never closed in a chapter (parsed in linear time), an unreferenced 3 GB sparse
file beside the data (never read), a 300-letter print group.

The normal suite runs a few dozen mutations (a few seconds); `pytest -m fuzz` runs many more
(PNPGEN_FUZZ_RUNS, default 2000; PNPGEN_FUZZ_SEED picks another sequence; PNPGEN_FUZZ_BUILD_EVERY, default
10). A failure prints the kit, the
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
import time
from pathlib import Path

import pytest

from pnpgen.cli import main
from pnpgen.kit_folder import BUILTIN_DATA

KITS = sorted(p for p in BUILTIN_DATA.iterdir() if (p / "kit.yaml").is_file())
NUMBER = re.compile(r"(?<![\w.#])-?\d+(\.\d+)?(?![\w.])")
NEW_NUMBERS = ("-1", "0", "1", "2.5", "1000000000", "-1000000000", "1e309", "0x10", "nan", "99999999999999999999")
INSERTS = (":", "-", "[", "]", "{", "}", "#", "&a", "*a", "!!", "|", ">", "'", '"', "%", "@", "`", "\t", "\0",
           " ", "\n", "  ", "{{", "}}", "{%", "x", "\u00e9", "\ufeff", ",", "?", "<", "&")


TEXT_KINDS = ("*.yaml", "*.csv", "*.md", "*.svg.j2")
FILE_TYPES = ("symlink-out", "symlink-in", "directory", "empty", "binary", "delete") + (("fifo",) if hasattr(os, "mkfifo") else ())
SECRET = "hunter2-secret-line"  # the text of a file outside the kit: it must never be printed
HOSTILE = ("escape-name", "deep-svg", "unclosed-italics", "unclosed-font", "sparse-file", "long-group")
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # what pnpgen.terminal escapes before printing


def kit_files(kit: Path) -> list[Path]:
    return sorted(p.relative_to(kit) for kind in TEXT_KINDS for p in kit.rglob(kind) if p.is_file())


def mutate_type(path: Path, rng: random.Random, secret: Path) -> str:
    """Put another kind of file where a kit file was (a FIFO too: the kit reader refuses it unopened)."""
    kind = rng.choice(FILE_TYPES)
    siblings = [p for p in path.parent.iterdir() if p.is_file() and p != path]
    path.unlink()
    if kind == "symlink-out":
        path.symlink_to(secret)
    elif kind == "symlink-in" and siblings:
        path.symlink_to(rng.choice(siblings))
    elif kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "binary":
        path.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000))))
    elif kind != "delete":
        path.write_bytes(b"")
    return f"made a {kind}"


def mutate_hostile(path: Path, rng: random.Random):
    """One of the hostile kit's families applied at `path`: (description, how to undo what is not `path`)."""
    kind = rng.choice(HOSTILE)
    text = path.read_text(encoding="utf-8")
    if kind == "escape-name":
        named = path.with_name(f"{path.stem}-\x1b]0;PWNED\x07\x1b[2J{''.join(path.suffixes)}")
        path.rename(named)
        return f"{kind}: renamed {named.name!r}", lambda: named.unlink(missing_ok=True)
    if kind == "sparse-file":
        huge = path.parent / "huge-unreferenced.bin"
        with huge.open("wb") as sparse:
            sparse.truncate(3 * 2**30)
        return kind, lambda: huge.unlink(missing_ok=True)
    if kind == "long-group" and path.suffix == ".yaml":
        path.write_text(f"group: {'g' * 300}\n{text}", encoding="utf-8")
    elif kind == "deep-svg" or path.name.endswith(".svg.j2"):
        path.write_text("<g>" * 3000 + "</g>" * 3000 + "\n" + text, encoding="utf-8")
    else:
        path.write_text(text + "\n\n" + ("*a " if kind == "unclosed-italics" else "<font ") * 200_000 + "\n",
                        encoding="utf-8")
    return kind, lambda: None


def restore(path: Path, original: bytes) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.is_symlink() or path.exists():  # a file, a link or a FIFO (never opened: it would block)
        path.unlink()
    path.write_bytes(original)


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


LOCATED = re.compile(r"^\S+:\d+: |^\S+\.(yaml|csv|md|j2): |^error: \S+(\.(yaml|csv|md|j2|png|jpg)|:\d+):? ")
SLOW_SECONDS = 30  # "within seconds": a run slower than this is a failure too


def run_cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, err.getvalue() + out.getvalue()


def validate(kit: Path) -> tuple[int, str]:
    """`validate --quick` (the data, its schemas, counts and texts; a second a kit): the full validate also
    builds into a scratch folder, seconds for each mutation that stays valid (PNPGEN_FUZZ_FULL=1 runs it;
    the long run's builds, PNPGEN_FUZZ_BUILD_EVERY, take that road anyway)."""
    quick = [] if os.environ.get("PNPGEN_FUZZ_FULL") == "1" else ["--quick"]
    return run_cli("validate", "--data", str(kit), *quick)


def snapshot(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}


class Fuzzer:
    """Mutates one kit file at a time (its text, or its kind: a link out of the kit, a folder, bytes...),
    runs validate (and every `build_every`-th time a build over the kit's earlier output), checks the
    promises and restores the file."""

    def __init__(self, tmp_path: Path, seed: int, build_every: int = 0, types_every: int = 4, hostile_every: int = 8):
        self.rng, self.seed, self.build_every, self.types_every = random.Random(seed), seed, build_every, types_every
        self.hostile_every = hostile_every
        self.secret = tmp_path / "outside" / "secret.txt"
        self.secret.parent.mkdir()
        self.secret.write_text(f"{SECRET}\nname: {SECRET}\n")
        self.copies, self.outs, self.before = {}, {}, {}
        for kit in KITS:
            self.copies[kit.name] = tmp_path / kit.name
            shutil.copytree(kit, self.copies[kit.name], ignore=shutil.ignore_patterns("__pycache__"))
        self.tmp_path = tmp_path
        self.stats = {"runs": 0, "validated": 0, "built": 0, "errors": 0, "types": 0, "hostile": 0, "slowest": 0.0}

    def targets(self) -> list[tuple[str, Path]]:
        per_kit = [[(name, rel) for rel in kit_files(copy)] for name, copy in self.copies.items()]
        for files in per_kit:
            self.rng.shuffle(files)
        return [t for group in itertools.zip_longest(*per_kit) for t in group if t is not None]  # kits take turns

    def earlier(self, name: str) -> Path:
        """An earlier build of the kit (built once, on first need), that a failed build must leave alone."""
        if name not in self.outs:
            out = self.tmp_path / f"out-{name}"
            code, said = run_cli("build", "--data", str(self.copies[name]), "--out", str(out), "--quiet")
            assert code == 0, said
            self.outs[name], self.before[name] = out, snapshot(out)
        return self.outs[name]

    def run(self, runs: int) -> list[str]:
        targets, failures = self.targets(), []
        for run in range(runs):
            name, rel = targets[run % len(targets)] if run < len(targets) else self.rng.choice(targets)
            build = bool(self.build_every) and run % self.build_every == self.build_every - 1
            failures += self.one(name, rel, run, build)
        return failures

    def one(self, name: str, rel: Path, run: int, build: bool) -> list[str]:
        path = self.copies[name] / rel
        original = path.read_bytes()
        out = self.earlier(name) if build else None
        undo = None
        if self.hostile_every and self.rng.randrange(self.hostile_every) == 0:
            how, undo = mutate_hostile(path, self.rng)
            self.stats["hostile"] += 1
        elif self.types_every and self.rng.randrange(self.types_every) == 0:
            how = mutate_type(path, self.rng, self.secret)
            self.stats["types"] += 1
        else:
            mutated, hows = original.decode("utf-8"), []
            for _ in range(self.rng.choice((1, 1, 1, 2, 3))):  # mostly one edit; sometimes a few on top of each other
                mutated, one_how = mutate(mutated, self.rng)
                hows.append(one_how)
            how = "; ".join(hows)
            path.write_text(mutated, encoding="utf-8")
        what = f"{name}/{rel}: {how} (seed {self.seed}, run {run}{', build' if build else ''})"
        start = time.monotonic()
        try:
            if build:
                code, err = run_cli("build", "--data", str(self.copies[name]), "--out", str(out), "--quiet")
            else:
                code, err = validate(self.copies[name])
        except BaseException as exc:  # noqa: BLE001 - any escape is the bug we look for
            return [f"{what}: {type(exc).__name__}: {exc}"]
        finally:
            if undo is not None:
                undo()
            restore(path, original)
        seconds = time.monotonic() - start
        self.stats["runs"] += 1
        self.stats["built" if build else "validated"] += 1
        self.stats["errors"] += code == 1
        self.stats["slowest"] = max(self.stats["slowest"], seconds)
        return self.judge(what, code, err, seconds, name if build else None)

    def judge(self, what: str, code: int, err: str, seconds: float, built: str | None) -> list[str]:
        failures = []
        if code not in (0, 1):
            failures.append(f"{what}: exit code {code}: {err.strip()[-300:]}")
        elif "Traceback" in err:
            failures.append(f"{what}: traceback printed")
        elif code == 1 and not any(LOCATED.match(line) for line in err.splitlines()):
            failures.append(f"{what}: an error without a file: {err.strip()[-300:]}")
        if SECRET in err:
            failures.append(f"{what}: printed the text of a file outside the kit")
        if RAW_CONTROL.search(err):
            failures.append(f"{what}: printed a raw control character: {RAW_CONTROL.search(err).group()!r}")
        if seconds > SLOW_SECONDS:
            failures.append(f"{what}: took {seconds:.0f} s")
        if built:
            now = snapshot(self.outs[built])
            if code != 0 and now != self.before[built]:
                failures.append(f"{what}: a failed build changed the earlier output")
            if any(SECRET.encode() in data for data in now.values()):
                failures.append(f"{what}: the output holds the text of a file outside the kit")
            self.before[built] = now  # a build that succeeded is the next run's earlier output
        return failures


def run_fuzz(tmp_path: Path, runs: int, seed: int, build_every: int = 0) -> list[str]:
    return Fuzzer(tmp_path, seed, build_every).run(runs)


def test_mutated_kits_end_located_or_valid(tmp_path):
    failures = run_fuzz(tmp_path, runs=int(os.environ.get("PNPGEN_FUZZ_QUICK", "40")), seed=15)
    assert not failures, "\n".join(failures)


@pytest.mark.fuzz
def test_mutated_kits_long_run(tmp_path, request):
    if "fuzz" not in (request.config.option.markexpr or ""):
        pytest.skip("the long fuzz run: pytest -m fuzz (PNPGEN_FUZZ_RUNS, PNPGEN_FUZZ_SEED)")
    runs = int(os.environ.get("PNPGEN_FUZZ_RUNS", "2000"))
    seed = int(os.environ.get("PNPGEN_FUZZ_SEED", "4242"))
    fuzzer = Fuzzer(tmp_path, seed, build_every=int(os.environ.get("PNPGEN_FUZZ_BUILD_EVERY", "10")))
    failures = fuzzer.run(runs)
    print(f"fuzz: {fuzzer.stats}, {len(failures)} failures")
    assert not failures, f"{len(failures)} of {runs} mutations failed:\n" + "\n".join(failures)
