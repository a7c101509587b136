"""A hostile kit's files and output folder: every kind of kit file as a symlink out of the kit and as a FIFO,
`--out` inside the kit with symlinks planted where the build writes, and builds killed outright (kill -9)
while they land. Each ends in a located error within seconds, reads nothing outside the kit (an audit hook
sees every file Python opens), changes nothing outside, and leaves the output whole."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from pnpgen.cli import main

MINI = Path(__file__).resolve().parent / "kits" / "mini"
PROJECT = MINI.parent.parent.parent
SECRET = "hunter2-not-for-print"
SECONDS = 10   # a case that takes longer is a hang (a FIFO waited on)

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not hasattr(os, "symlink"), reason="POSIX only")

_OPENED: list[str] = []
_WATCHED: list[str] = []   # the folder outside the kit that no build may open anything in


def _audit(event: str, args) -> None:
    if event == "open" and _WATCHED and isinstance(args[0], (str, bytes, os.PathLike)):
        real = os.path.realpath(os.fsdecode(args[0]))
        if any(real == w or real.startswith(w + os.sep) for w in _WATCHED):
            _OPENED.append(real)


sys.addaudithook(_audit)


def snapshot(folder: Path) -> dict:
    """Every entry below `folder`, links never followed: {relative path: bytes, link target or 'dir'}."""
    out = {}
    for here, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(here) / name
            rel = str(path.relative_to(folder))
            out[rel] = ("link", os.readlink(path)) if path.is_symlink() else "dir" if path.is_dir() else path.read_bytes()
    return out


@dataclass
class Run:
    code: int
    err: str
    seconds: float


def run_build(kit: Path, out: Path, outside: Path, capsys, *extra) -> Run:
    """The CLI in this process, with an alarm against hangs and the audit hook watching `outside`."""
    def hang(signum, frame):
        raise TimeoutError(f"the build did not end within {SECONDS} s")
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(SECONDS)
    _OPENED.clear()
    _WATCHED[:] = [os.path.realpath(outside)]
    capsys.readouterr()
    start = time.monotonic()
    try:
        code = main(["build", "--data", str(kit), "--out", str(out), "--quiet", *extra])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        _WATCHED.clear()
    captured = capsys.readouterr()
    return Run(code, captured.err + captured.out, time.monotonic() - start)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The mini kit with a good build inside it (`mini/output/`), copied by each case."""
    root = tmp_path_factory.mktemp("hostile") / "mini"
    shutil.copytree(MINI, root)
    assert main(["build", "--data", str(root), "--out", str(root / "output"), "--quiet"]) == 0
    return root


@pytest.fixture
def case(built, tmp_path) -> tuple[Path, Path]:
    """(a fresh copy of the built kit, a folder outside it holding secrets)."""
    kit = tmp_path / "mini"
    shutil.copytree(built, kit, symlinks=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    return kit, outside


def _secret_copy(kit: Path, rel: str, outside: Path) -> Path:
    """A copy outside the kit of the file `rel` would be (the kit's own, or a plausible one), with SECRET in
    it where it would print."""
    original = MINI / rel
    text = original.read_bytes() if original.is_file() else EXTRA.get(rel, b"x: 1\n")
    if rel.endswith(".md"):
        text += f"\n{SECRET}\n".encode()
    target = outside / rel.replace("/", "__")
    target.write_bytes(text)
    return target


EXTRA = {
    "data/facts.yaml": f"secret: {SECRET}\n".encode(),
    "data/facts.csv": f"secret\n{SECRET}\n".encode(),
    "aids/cards.yaml": f"cards:\n  a: {{title: {SECRET}, per: table, front: [{{text: x}}], back: [{{text: y}}]}}\n".encode(),
    "maps/island.yaml": b"legend: {'.': off-map, s: sea}\nrows: ['s s']\n",
    "templates/_pieces.svg.j2": (PROJECT / "templates" / "_pieces.svg.j2").read_bytes(),
    "shared/words.md": f"{SECRET}\n".encode(),
    "templates/notes.txt": f"<text>{SECRET}</text>\n".encode(),
}

# Kit files read while the kit loads (validation), each a kind of file a build reads.
LOADED = ["kit.yaml", "components/cards.yaml", "components/tokens.csv", "data/facts.yaml", "data/facts.csv",
          "boards/board.yaml", "charts.yaml", "rules/01-rules.md", "templates/card-front.svg.j2",
          "templates/_pieces.svg.j2", "art/red.png", "aids/cards.yaml", "maps/island.yaml", "shared/words.md",
          "templates/notes.txt"]
INCLUDERS = {  # files reached only through an include: the including file, and what it gains
    "shared/words.md": ("rules/01-rules.md", '\n{% include "shared/words.md" %}\n'),
    "templates/notes.txt": ("templates/chit.svg.j2", '\n{% include "notes.txt" %}\n'),
}


def _plant(kit: Path, rel: str, make) -> None:
    path = kit / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    make(path)
    if rel in INCLUDERS:
        includer, text = INCLUDERS[rel]
        with open(kit / includer, "a", encoding="utf-8") as handle:
            handle.write(text)


def _check_refused(kit: Path, outside: Path, run: Run, rel: str, words: str) -> None:
    assert run.code == 1, run.err
    assert "Traceback" not in run.err
    assert run.seconds < SECONDS
    assert any(rel in line and words in line for line in run.err.splitlines()), run.err
    assert SECRET not in run.err
    assert not _OPENED, f"opened outside the kit: {_OPENED}"


@pytest.mark.parametrize("rel", LOADED)
def test_a_kit_file_linked_out_of_the_kit_is_refused_unread(case, capsys, rel):
    kit, outside = case
    before = snapshot(kit / "output" / "mini")
    _plant(kit, rel, lambda path: path.symlink_to(_secret_copy(kit, rel, outside)))
    run = run_build(kit, kit / "output", outside, capsys)
    _check_refused(kit, outside, run, rel, "links to a file outside the kit folder")
    assert snapshot(kit / "output" / "mini") == before


@pytest.mark.parametrize("rel", LOADED)
def test_a_fifo_in_place_of_a_kit_file_is_refused_at_once(case, capsys, rel):
    kit, outside = case
    before = snapshot(kit / "output" / "mini")
    _plant(kit, rel, os.mkfifo)
    run = run_build(kit, kit / "output", outside, capsys)
    _check_refused(kit, outside, run, rel, "is a FIFO (named pipe), not a regular file")
    assert snapshot(kit / "output" / "mini") == before


def test_a_linked_templates_subfolder_is_refused_unread(case, capsys):
    kit, outside = case
    (outside / "parts").mkdir()
    (outside / "parts" / "frame.svg.j2").write_text(f"<text>{SECRET}</text>")
    (kit / "templates" / "parts").symlink_to(outside / "parts")
    with open(kit / "templates" / "chit.svg.j2", "a", encoding="utf-8") as handle:
        handle.write('\n{% include "parts/frame.svg.j2" %}\n')
    before = snapshot(kit / "output" / "mini")
    run = run_build(kit, kit / "output", outside, capsys)
    _check_refused(kit, outside, run, "templates/parts/frame.svg.j2", "links to a file outside the kit folder")
    lines = (kit / "templates" / "chit.svg.j2").read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "parts/frame" in text)
    assert f"chit.svg.j2:{line}: include" in run.err  # the include's own line
    assert snapshot(kit / "output" / "mini") == before


def test_the_output_inside_the_kit_is_never_read_as_input(case, capsys):
    kit, outside = case
    with open(kit / "rules" / "01-rules.md", "a", encoding="utf-8") as handle:
        handle.write('\n{% include "output/mini/manifest.json" %}\n')
    run = run_build(kit, kit / "output", outside, capsys)
    assert run.code == 1 and "lies in the build's output folder" in run.err, run.err
    assert "01-rules.md:" in run.err


def test_an_include_in_a_chapter_reads_a_kit_file(case, capsys):
    """Includes work in texts (no "no loader for this environment"): the chapter prints the shared text."""
    kit, outside = case
    with open(kit / "rules" / "01-rules.md", "a", encoding="utf-8") as handle:
        handle.write('\n{% include "shared/words.md" %}\n')
    run = run_build(kit, kit / "output", outside, capsys, "--only", "documents")
    assert run.code == 1 and "01-rules.md:" in run.err and "include 'shared/words.md': no such file" in run.err
    (kit / "shared").mkdir()
    (kit / "shared" / "words.md").write_text("Shared words: {{ tables.cards.count }} cards.\n")
    run = run_build(kit, kit / "output", outside, capsys, "--only", "documents")
    assert run.code == 0, run.err
    from pypdf import PdfReader
    text = "".join(page.extract_text() for page in PdfReader(kit / "output" / "mini" / "booklet.pdf").pages)
    assert "Shared words:" in text


def test_a_latin1_csv_is_located_at_its_line(case, capsys):
    kit, outside = case
    (kit / "components" / "tokens.csv").write_bytes(b"value,qty\n1,4\n2,3\n3,1 caf\xe9\n")
    run = run_build(kit, kit / "output", outside, capsys)
    assert run.code == 1 and "tokens.csv:4: not UTF-8 text (byte 0xe9)" in run.err, run.err


# --out inside the kit, with links planted where the build writes, caches, locks and clears up ----------------

def _dir_link(kit: Path, outside: Path, rel: str) -> None:
    path = kit / "output" / rel
    if path.is_dir():
        shutil.rmtree(path)
    path.symlink_to(outside, target_is_directory=True)


def _file_link(kit: Path, outside: Path, rel: str) -> None:
    path = kit / "output" / rel
    if path.exists():
        path.unlink()
    path.symlink_to(outside / "victim.txt")


PLANTED = [
    ("output", lambda kit, outside: (shutil.rmtree(kit / "output"), (kit / "output").symlink_to(outside))),
    ("output/mini", lambda kit, outside: _dir_link(kit, outside, "mini")),
    ("output/mini/boards", lambda kit, outside: _dir_link(kit, outside, "mini/boards")),
    ("output/mini/cards.pdf", lambda kit, outside: _file_link(kit, outside, "mini/cards.pdf")),
    ("output/mini/notes.txt", lambda kit, outside: _file_link(kit, outside, "mini/notes.txt")),
    ("output/.cache", lambda kit, outside: _dir_link(kit, outside, ".cache")),
    ("output/.cache/mini/parts", lambda kit, outside: _dir_link(kit, outside, ".cache/mini/parts")),
    ("output/.cache/input-digests.json", lambda kit, outside: _file_link(kit, outside, ".cache/input-digests.json")),
    ("output/.mini.lock", lambda kit, outside: _file_link(kit, outside, ".mini.lock")),
    ("output/.staging-mini-planted", lambda kit, outside: _dir_link(kit, outside, ".staging-mini-planted")),
]


@pytest.mark.parametrize("rel,plant", PLANTED, ids=[rel for rel, _ in PLANTED])
def test_links_planted_under_an_out_inside_the_kit_are_errors(case, capsys, rel, plant):
    kit, outside = case
    (outside / "victim.txt").write_text("keep me\n")
    plant(kit, outside)
    outside_before = snapshot(outside)
    output_before = snapshot(kit / "output" / "mini") if rel != "output" else None
    components = kit / "components" / "cards.yaml"  # a change: the build must not find itself up to date
    components.write_text(components.read_text().replace("Scout", "Scout2", 1))
    run = run_build(kit, kit / "output", outside, capsys)
    assert run.code == 1, run.err
    assert rel in run.err and "symbolic link" in run.err, run.err
    assert "Traceback" not in run.err and run.seconds < SECONDS
    assert snapshot(outside) == outside_before  # nothing written, deleted or locked through the link
    assert not _OPENED, f"opened outside the kit: {_OPENED}"
    if output_before is not None:
        assert snapshot(kit / "output" / "mini") == output_before


def test_an_out_that_would_cover_the_kit_is_refused(built, tmp_path, capsys):
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    before = snapshot(kit)
    run = run_build(kit, tmp_path, tmp_path / "nothing", capsys)
    assert run.code == 1 and "holds the kit folder itself" in run.err, run.err
    assert snapshot(kit) == before


# kill -9 while files land ---------------------------------------------------------------------------------

def _start(kit: Path, out: Path, paper: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pnpgen", "build", "--data", str(kit), "--out", str(out),
                             "--paper", paper, "--only", "components,manifest", "--quiet"],
                            cwd=PROJECT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _files(folder: Path) -> dict:
    """The built files (not the marker: it names the very folder it was written in)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != ".pnpgen-build"}


def _which(now: dict, whole: dict) -> str | None:
    """The paper of the complete build the folder holds, or None for a mix: every PDF byte for byte that
    build's, and its manifest (whose face counters tell cache hits, so not compared byte for byte) its own."""
    for paper, (files, _) in whole.items():
        pdfs = {k: v for k, v in files.items() if k != "manifest.json"}
        if {k: v for k, v in now.items() if k != "manifest.json"} == pdfs and "manifest.json" in now \
                and json.loads(now["manifest.json"])["options"]["paper"] == paper:
            return paper
    return None


def test_kill_9_at_random_points_leaves_one_whole_build(tmp_path):
    """Builds alternate letter and A4 (every file differs) and are killed outright at random instants of
    their run, landing included; after each, the folder is exactly one of the two complete builds."""
    out = tmp_path / "out"
    whole = {}
    for paper in ("a4", "letter"):
        proc = _start(MINI, out, paper)
        start = time.monotonic()
        assert proc.wait(60) == 0, proc.stderr.read()
        whole[paper] = (_files(out / "mini"), time.monotonic() - start)
    state, rng, landed = "letter", random.Random(29), 0
    for attempt in range(6):
        paper = "a4" if state == "letter" else "letter"
        proc = _start(MINI, out, paper)
        time.sleep(rng.uniform(0.3, 1.3) * whole[paper][1])
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        assert not (out / "mini").is_symlink() and (out / "mini").is_dir()
        now = _which(_files(out / "mini"), whole)
        assert now in (state, paper), f"a mix after kill {attempt}"
        landed += now == paper
        state = now
    proc = _start(MINI, out, "a4")
    assert proc.wait(60) == 0
    assert _which(_files(out / "mini"), whole) == "a4"
    assert not [p for p in out.iterdir() if p.name.startswith(".staging-")]  # killed builds' folders cleared


def test_a_missing_include_in_a_piece_template_is_located_at_its_line(case, capsys):
    kit, outside = case
    with open(kit / "templates" / "chit.svg.j2", "a", encoding="utf-8") as handle:
        handle.write('{% include "nothing.svg.j2" %}\n')
    line = len((kit / "templates" / "chit.svg.j2").read_text().splitlines())
    run = run_build(kit, kit / "output", outside, capsys, "--only", "components")
    assert run.code == 1 and f"chit.svg.j2:{line}: template nothing.svg.j2 not found (for " in run.err, run.err
    assert "chits.yaml:" in run.err  # and the row that needed it


def _generation(folder_fd: int) -> set:
    """The generations the files of an opened folder hold, read relative to it (as a viewer that opened it)."""
    seen = set()
    for name in os.listdir(folder_fd):
        if name == ".pnpgen-build":  # the marker pnpgen writes in every build: no generation
            continue
        try:
            descriptor = os.open(name, os.O_RDONLY, dir_fd=folder_fd)
        except FileNotFoundError:  # the folder was swapped out and is being removed: not a mix, just gone
            continue
        with os.fdopen(descriptor, "rb") as handle:
            seen.add(handle.read())
    return seen


@pytest.mark.parametrize("can_exchange", [True, False], ids=["exchange", "rename-aside"])
def test_a_reader_of_the_output_folder_never_sees_a_mix(tmp_path, monkeypatch, can_exchange):
    """Stages of 30 files, each holding its generation, land one after another while a reader keeps opening
    the output folder and reading every file in it: each look finds one generation only."""
    import threading

    from pnpgen import out_folder
    from pnpgen.output import OutputStage
    if not can_exchange:
        monkeypatch.setattr(out_folder, "exchange", lambda first, second: False)
    target, mixes, looks, done = tmp_path / "kit", [], [0], threading.Event()

    def reader():
        while not done.is_set():
            try:
                folder = os.open(target, os.O_RDONLY | os.O_DIRECTORY)
            except FileNotFoundError:  # the rename-aside fallback: an instant with no folder
                continue
            try:
                seen = _generation(folder)
            finally:
                os.close(folder)
            looks[0] += 1
            if len(seen) > 1:
                mixes.append(seen)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for generation in range(15):
            with OutputStage(target, "kit") as stage:
                for number in range(30):
                    stage.write_bytes(f"f{number}.txt", str(generation).encode())
    finally:
        done.set()
        thread.join()
    assert not mixes and looks[0] > 0
    assert _generation_of(target) == {b"14"}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".staging-")]


def _generation_of(folder: Path) -> set:
    return {p.read_bytes() for p in folder.iterdir() if p.name != ".pnpgen-build"}


ODD = [  # other entries in place of a kit file: each a located error, never a hang or a traceback
    ("charts.yaml", lambda path: path.mkdir(), "is a folder, not a regular file"),
    ("components/cards.yaml", lambda path: path.symlink_to(path.name), "Too many levels of symbolic links"),
    ("templates/card-front.svg.j2", lambda path: path.symlink_to("gone.svg.j2"), "no such file"),
    ("components/tokens.csv", lambda path: path.symlink_to("../art/red.png"), "not UTF-8 text"),
]


@pytest.mark.parametrize("rel,make,words", ODD, ids=[f"{rel}-{words.split()[-1]}" for rel, _, words in ODD])
def test_other_entries_in_place_of_a_kit_file_are_located(case, capsys, rel, make, words):
    kit, outside = case
    _plant(kit, rel, make)
    run = run_build(kit, kit / "output", outside, capsys)
    assert run.code == 1 and "Traceback" not in run.err and run.seconds < SECONDS, run.err
    assert any(rel in line and words in line for line in run.err.splitlines()), run.err


def test_a_game_module_s_data_files_go_through_the_same_reader(kit_copy, tmp_path, capsys):
    """Space Empires 4X's own files (`files:` in kit.yaml, and its counter tables): one a FIFO, one a link out;
    both located in one run."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "technologies.yaml").write_bytes((kit_copy / "technologies.yaml").read_bytes())
    (kit_copy / "components" / "units.yaml").unlink()
    os.mkfifo(kit_copy / "components" / "units.yaml")
    (kit_copy / "technologies.yaml").unlink()
    (kit_copy / "technologies.yaml").symlink_to(outside / "technologies.yaml")
    run = run_build(kit_copy, tmp_path / "out", outside, capsys)
    assert run.code == 1 and run.seconds < SECONDS and not _OPENED, run.err
    assert "units.yaml: is a FIFO (named pipe)" in run.err, run.err
    assert "files.technologies: 'technologies.yaml' points outside the kit folder" in run.err, run.err  # its line


def test_a_kit_id_that_is_a_path_never_places_the_output(case, capsys):
    """kit.yaml's id is read before the kit loads (where the output goes): `kit: ..` is only a located error."""
    kit, outside = case
    text = (kit / "kit.yaml").read_text()
    (kit / "kit.yaml").write_text(text.replace("kit: mini", "kit: ..", 1))
    before = snapshot(kit)
    run = run_build(kit, kit / "output", outside, capsys)
    assert run.code == 1 and "kit.yaml:3: kit: " in run.err and "holds the kit folder" not in run.err, run.err
    after = snapshot(kit)
    assert {k: v for k, v in after.items() if ".cache" not in k} == {k: v for k, v in before.items() if ".cache" not in k}


def test_new_from_a_kit_copies_nothing_from_outside_it(tmp_path, capsys):
    """`pnpgen new --from` copies every file of the source, read or not by a build: a link out among them
    stops the copy, naming it, and leaves no half-copied folder."""
    source, outside = tmp_path / "source", tmp_path / "outside"
    shutil.copytree(MINI, source)
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    (source / "art" / "notes.txt").symlink_to(outside / "secret.txt")
    run = run_new(source, tmp_path / "copy", outside, capsys)
    assert run.code == 1 and "art/notes.txt: links to a file outside the kit folder" in run.err, run.err
    assert not (tmp_path / "copy").exists() and not _OPENED
    (source / "art" / "notes.txt").unlink()
    assert run_new(source, tmp_path / "copy", outside, capsys).code == 0
    assert (tmp_path / "copy" / "art" / "red.png").read_bytes() == (MINI / "art" / "red.png").read_bytes()


def run_new(source: Path, target: Path, outside: Path, capsys) -> Run:
    _OPENED.clear()
    _WATCHED[:] = [os.path.realpath(outside)]
    capsys.readouterr()
    try:
        code = main(["new", "--from", str(source), str(target)])
    finally:
        _WATCHED.clear()
    captured = capsys.readouterr()
    return Run(code, captured.err + captured.out, 0.0)


def test_reading_a_small_kit_file_reserves_no_more_than_it_holds(tmp_path):
    """Python reserves what read() asks for: asking a 12-byte file for its whole size limit (256 MiB) spent
    that much address space against the memory budget (RLIMIT_AS) on every kit file read."""
    import tracemalloc
    from pnpgen.kit_files import read_bytes
    small = tmp_path / "units.csv"
    small.write_text("name,attack\n")
    tracemalloc.start()
    try:
        assert read_bytes(small, [tmp_path], limit=256 * 2**20) == b"name,attack\n"
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20, f"{peak:,} bytes reserved to read 12"


def test_a_hidden_kit_file_is_refused_as_the_digests_leave_it_out(case, capsys):
    """The input digests skip dot names (pnpgen.inputs.tree_digests), so an included `.macros.md` changed no
    cache key: a build into the same --out kept the old text (shown with a board template's hidden include)."""
    kit, outside = case
    (kit / "shared").mkdir()
    (kit / "shared" / ".words.md").write_text("Hidden words.\n")
    with open(kit / "rules" / "01-rules.md", "a", encoding="utf-8") as handle:
        handle.write('\n{% include "shared/.words.md" %}\n')
    run = run_build(kit, kit / "output", outside, capsys, "--only", "documents")
    assert run.code == 1 and "01-rules.md:" in run.err and "is hidden" in run.err, run.err
    from pnpgen.kit_files import KitFileError, read_bytes
    with pytest.raises(KitFileError, match="is hidden"):
        read_bytes(kit / "shared" / ".words.md", [kit])
