"""Benchmark: every kit built cold (a new output folder, the user cache warm), cold with an empty user cache,
again with nothing changed, after one data edit and after one template edit, in fresh processes as a
designer runs them (seconds include start-up, imports and YAML), and the share of a cold build's CPU each
check takes; then how the overlap checks grow (200 against 2,000 lines and cards); then two generated kits: about 1,000
distinct double-sided counters, timed against a reportlab script drawing the same geometry, and 500 faces
showing 50 distinct images. Prints median and best wall seconds, CPU seconds, pages and peak memory. Last,
`pnpgen serve` with its page open in headless Chromium: seconds from saving a CSV cell to the new picture.

    python scripts/bench.py                      # everything, 5 runs each
    python scripts/bench.py --runs 3 --only space-empires-4x,counters-1000
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT  # noqa: E402
from pnpgen.newkit import BLANK_KIT  # noqa: E402

RUNNER = """
import resource, sys
from pnpgen.__main__ import exit_now
from pnpgen.cli import main
code = main(sys.argv[1:])
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(f"PEAK_KIB {peak}", file=sys.stderr)
sys.exit(exit_now(code))  # as the pnpgen script ends
"""
KITS = ("space-empires-4x", "eclipse", "4x-space-euro", "se4-board-game")


def run(arguments: list[str], env: dict | None = None) -> dict:
    """One fresh Python process running `arguments` (a script or -c code and its arguments); `env`: variables
    set for it (an empty user cache)."""
    start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env} if env else None)
    seconds, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"failed: {' '.join(arguments)}\n{done.stderr}")
    peak = re.search(r"PEAK_KIB (\d+)", done.stderr)
    return {"seconds": seconds, "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "peak_mib": int(peak.group(1)) / 1024 if peak else after.ru_maxrss / 1024}


def run_build(kit: Path, out: Path, only: str | None = None, env: dict | None = None) -> dict:
    selection = ["--only", only] if only else []
    result = run(["-c", RUNNER, "build", "--data", str(kit), "--out", str(out), *selection], env)
    kit_id = re.search(r"(?m)^kit:\s*(\S+)", (kit / "kit.yaml").read_text()).group(1)
    manifest = json.loads((out / kit_id / "manifest.json").read_text())
    files = [f for part in manifest["parts"].values() for f in part.get("files", [])]
    faces = manifest["parts"].get("components", {}).get("faces", {})
    return result | {"pages": sum(f.get("pages", 0) for f in files), "files": len(files),
                     "faces": faces.get("distinct", 0)}


def report(name: str, results: list[dict]) -> float:
    """Median and best wall seconds of the runs (other work on the machine only ever adds time)."""
    walls = sorted(r["seconds"] for r in results)
    last = results[-1]
    extra = f" | {last['pages']} pages in {last['files']} files" if "pages" in last else ""
    extra += f", {last['faces']} distinct faces" if last.get("faces") else ""
    print(f"  {name:<26} median {statistics.median(walls):5.2f} s, best {walls[0]:5.2f} s, "
          f"cpu {statistics.median(r['cpu'] for r in results):5.2f} s, peak "
          f"{max(r['peak_mib'] for r in results):5.1f} MiB{extra}")
    return statistics.median(walls)


def edit_space_empires(kit: Path, run_number: int) -> None:
    """Each edit run changes the data again (DD attack 4 -> 5 -> 4 ...), so every run is a real edit."""
    units = kit / "components" / "units.yaml"
    old, new = ("attack: 4", "attack: 5") if run_number % 2 == 0 else ("attack: 5", "attack: 4")
    units.write_text(units.read_text().replace(f"class: D\n    {old}", f"class: D\n    {new}", 1))


NAME = re.compile(r"(\bname:\s*\"?)([A-Za-z])")


def edit_first_name(kit: Path, run_number: int) -> None:
    """A generic kit's edit: the first `name:` of its first component table that has one changes case."""
    for path in sorted((kit / "components").glob("*.yaml")):
        text = path.read_text()
        for match in NAME.finditer(text):
            if match.start() and text[:match.start()].count("rows:"):
                letter = match.group(2)
                path.write_text(text[:match.start(2)] + letter.swapcase() + text[match.end(2):])
                return
    raise SystemExit(f"{kit}: no row name to edit")


def bench_kit(name: str, runs: int) -> None:
    print(f"{name} (whole kit)")
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
        kit = Path(tmp) / name
        shutil.copytree(BUILTIN_DATA / name, kit)
        run_build(kit, Path(tmp) / "warm-up")   # the user cache warm (fonts made TrueType, faces' fonts)
        report("cold (new output folder)", [run_build(kit, Path(tmp) / f"cold{n}") for n in range(runs)])
        report("cold, empty user cache", [run_build(kit, Path(tmp) / f"empty{n}",
                                                    env={"XDG_CACHE_HOME": str(Path(tmp) / f"user-cache{n}")})
                                          for n in range(runs)])
        out = Path(tmp) / "cold0"
        report("nothing changed", [run_build(kit, out) for _ in range(runs)])
        edit = edit_space_empires if name == DEFAULT_KIT else edit_first_name
        edits = []
        for number in range(runs):
            edit(kit, number)
            edits.append(run_build(kit, out))
        report("one data edit", edits)
        edits = []
        for number in range(runs):
            edit_template(kit, number)
            edits.append(run_build(kit, out))
        report("one template edit", edits)
        watch_edits(kit, out, edit, runs)
        check_shares(kit, Path(tmp) / "shares")


def edit_template(kit: Path, run_number: int) -> None:
    """A template edit a designer makes: the first piece template's first colour nudged, back and forth."""
    templates = sorted(p for p in (kit / "templates").glob("*.svg.j2") if not p.name.startswith("_"))
    template = templates[0] if templates else None
    if template is None:
        raise SystemExit(f"{kit}: no template of its own to edit")
    text = template.read_text()
    marker = "<!-- bench edit -->"
    template.write_text(text.replace(marker, "") if marker in text else text + marker)


CHECKS = {  # what a check is called: (module, attribute) it is timed at, where the build calls it
    "faces: text size and margins": [("pnpgen.render.piece_arts", "check_face")],
    "faces: overprint and contrast (ink read from the record)": [("pnpgen.render.piece_arts", "overprints"),
                                                                 ("pnpgen.render.piece_arts", "contrasts"),
                                                                 ("pnpgen.render.ink_lines", "read_ink")],
    "sheets: home bleed's bare edges": [("pnpgen.render.home_bleed", "bare_edges")],
    "aid and booklet pages: contrast": [("pnpgen.page_contrast", "drawn_contrasts")],
    "aid and booklet pages: type size": [("pnpgen.page_contrast", "drawn_sizes")],
    "maps, boards: size, overprint, contrast": [("pnpgen.maps.files", "art_checks"),
                                                ("pnpgen.boards.files", "art_checks")],
    "figures: overprint": [("pnpgen.booklet.overlay", "art_overprints")],
    "aid and booklet pages: glyphs recorded": [("pnpgen.render.drawn_text", "RecordingText._record")],
    "aid pages: overprint": [("pnpgen.page_overprint", "drawn_overprints")],
    "kit load: templates, chapters, aid texts": [("pnpgen.kit", "_check_texts")],
}
SHARES = """
import gc, importlib, json, os, sys, time
os.cpu_count = lambda: 1          # every part and face in this one process, so every check is timed
spent, collecting = {}, [0.0, 0.0]   # the collector's CPU so far, and when its running pass began
def collector(phase, info):
    if phase == "start":
        collecting[1] = time.process_time()
    else:
        collecting[0] += time.process_time() - collecting[1]
gc.callbacks.append(collector)
def timed(name, function):
    # a pass of the garbage collector that happens to start during a check (a full one takes ~0.08 s on
    # SE4X, set off by what the whole build allocated) is not the check's: it is counted apart
    def wrapper(*args, **kwargs):
        start, collected = time.process_time(), collecting[0]
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - start - (collecting[0] - collected)
    return wrapper
for name, places in json.loads(sys.argv[1]).items():
    for module, attribute in places:
        owner = importlib.import_module(module)
        *path, last = attribute.split(".")
        for step in path:
            owner = getattr(owner, step)
        setattr(owner, last, timed(name, getattr(owner, last)))
from pnpgen.cli import main
code = main(sys.argv[2:])
print("SHARES " + json.dumps({"total": time.process_time(), "collector": collecting[0], **spent}), file=sys.stderr)
sys.exit(code)
"""


def check_shares(kit: Path, out: Path) -> None:
    """Each check's CPU seconds in a cold build run in one process (the checks timed where the build calls
    them), as a share of that build's CPU. A comment is added to kit.yaml first: inputs no build has seen, so
    the kit's texts are checked as after any edit (those found clean before, by the watch case too, are not
    checked again); the drawings' caches are not keyed by comments."""
    with (kit / "kit.yaml").open("a", encoding="utf-8") as kit_file:
        kit_file.write("# bench: the checks' share\n")
    done = subprocess.run([sys.executable, "-c", SHARES, json.dumps(CHECKS), "build", "--data", str(kit),
                           "--out", str(out), "-q"], cwd=ROOT, capture_output=True, text=True)
    found = re.search(r"SHARES (.*)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"check shares: {done.stderr[-2000:]}")
    spent = json.loads(found.group(1))
    total, collector = spent.pop("total"), spent.pop("collector")
    print(f"  checks' share of a cold build's CPU ({total:.2f} s, one process): "
          f"{sum(spent.values()) / total:5.1%} in all (the garbage collector, apart: {collector:.2f} s)")
    for name in CHECKS:
        print(f"    {name:<44} {spent.get(name, 0.0):5.3f} s  {spent.get(name, 0.0) / total:5.1%}")


def bench_check_growth(runs: int) -> None:
    """The overlap checks' cost per line and per card: 200 against 2,000 (flat is linear)."""
    print("check growth (CPU seconds of the checks alone, best of the runs)")
    sys.path.insert(0, str(ROOT))
    from tests.test_drawn_checks import _page_of_lines, _seconds, deck_faces, face_checks
    from pnpgen.page_overprint import drawn_overprints
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
        pages = {n: _page_of_lines(Path(tmp) / f"{n}.pdf", n) for n in (200, 2000)}
        lines = {n: _seconds(drawn_overprints, pages[n], repeat=runs, loops=20000 // n) for n in pages}
    decks = {n: deck_faces(n) for n in (200, 2000)}
    cards = {n: _seconds(face_checks, decks[n], repeat=runs, loops=2000 // n) for n in decks}
    for what, seconds in (("page text lines", lines), ("distinct cards", cards)):
        print(f"  {what:<16} 200: {seconds[200] * 1000:7.1f} ms, 2,000: {seconds[2000] * 1000:7.1f} ms, "
              f"{seconds[2000] / max(seconds[200], 1e-9):4.1f}x (linear: 10x)")


REBUILT = re.compile(r"rebuilt .* in (\d+\.\d+) s")


def watch_edits(kit: Path, out: Path, edit, runs: int) -> None:
    """The designer's loop: `pnpgen build --watch` kept running (imports, fonts and libraries loaded once),
    the same edit saved `runs` times. Prints the rebuild seconds `--watch` reports, and the seconds from the
    save to that report (the watcher's 150 ms debounce and its polling included)."""
    watcher = subprocess.Popen([sys.executable, "-c", RUNNER, "build", "--data", str(kit), "--out", str(out),
                                "--watch"], cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        _wait_for(watcher, "watching")
        rebuilds, seen = [], []
        for number in range(runs):
            time.sleep(0.3)  # an edit made during the previous report's flush would merge with it
            saved = time.perf_counter()
            edit(kit, number + runs)
            rebuilds.append(float(REBUILT.search(_wait_for(watcher, "rebuilt")).group(1)))
            seen.append(time.perf_counter() - saved)
        print(f"  {'one piece edited, --watch':<26} median {statistics.median(rebuilds):5.2f} s, best "
              f"{min(rebuilds):5.2f} s; from the save {statistics.median(seen):5.2f} s (debounce included)")
    finally:
        watcher.terminate()
        watcher.wait(timeout=30)


def _wait_for(process, word: str) -> str:
    """The first line of the watcher's output that holds `word`; a failed rebuild stops the bench."""
    for line in process.stderr:
        if "failed" in line or line.startswith("error"):
            raise SystemExit(f"--watch: {line.strip()}")
        if word in line:
            return line
    raise SystemExit(f"--watch ended before saying {word!r}")


# Generated kits -----------------------------------------------------------------------------------------

SHIP = "M9.5 6.35 L4.2 3.8 L5.1 6.35 L4.2 8.9 Z M3.6 5.6 H2.2 V7.1 H3.6 Z"
COUNTER_FRONT = """<rect x="0.3" y="0.3" width="12.1" height="12.1" rx="1" fill="#c62828"/>
<path d="{ship}" fill="#ffffff"/>
<text x="1" y="2.6" font-family="DejaVu Sans" font-size="2" font-weight="bold" fill="#ffffff">{{{{ code }}}}</text>
<text x="1" y="11.6" font-family="DejaVu Sans" font-size="1.9" fill="#ffffff">{{{{ attack }}}}-{{{{ defence }}}}</text>
<text x="11.6" y="11.6" font-family="DejaVu Sans" font-size="1.9" text-anchor="end" fill="#ffffff">{{{{ hull }}}}x</text>
""".format(ship=SHIP)
COUNTER_BACK = """<rect width="12.7" height="12.7" fill="#1e5bb8"/>
<circle cx="6.35" cy="6.35" r="{{ 1.5 + (n % 7) * 0.3 }}" fill="#ffffff"/>
"""


def generated_counters(folder: Path, count: int = 1000) -> Path:
    """A kit of `count` distinct double-sided 1/2 in counters (the PERFORMANCE.md workload)."""
    (folder / "components").mkdir(parents=True)
    (folder / "templates").mkdir()
    (folder / "kit.yaml").write_text("kit: counters-1000\ntitle: Bench counters\nplayers: {min: 1, max: 2}\n"
                                     "preflight: {min_text: 5pt, cut_margin: 0.5mm}\n")
    (folder / "components" / "counters.yaml").write_text(
        "name: Counters\nshape: square\nsize: 1/2in\nfront: bench-front\nback: bench-back\n"
        "columns:\n  n: {type: int}\n  code: {type: text}\n  attack: {type: int}\n  defence: {type: int}\n"
        "  hull: {type: int}\nrows: counters.csv\n")
    rows = ["n,code,attack,defence,hull"] + [f"{n},U{n:03d},{n % 10},{n % 4},{1 + n % 3}" for n in range(count)]
    (folder / "components" / "counters.csv").write_text("\n".join(rows) + "\n")
    (folder / "templates" / "bench-front.svg.j2").write_text(COUNTER_FRONT)
    (folder / "templates" / "bench-back.svg.j2").write_text(COUNTER_BACK)
    return folder


REPORTLAB_DIRECT = """
import sys
from reportlab.pdfgen import canvas
from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
sys.path.insert(0, {root!r})
from pnpgen.fonts import FONT_DIR
pdfmetrics.registerFont(TTFont("B", str(FONT_DIR / "DejaVuSans-Bold.ttf")))
pdfmetrics.registerFont(TTFont("R", str(FONT_DIR / "DejaVuSans.ttf")))
mm = 72 / 25.4
size, cols, rows = 36, 15, 19
c = canvas.Canvas({out!r}, pagesize=letter, invariant=1)
def ship(x, y):
    p = c.beginPath(); p.moveTo(x + 9.5*mm, y + 6.35*mm); p.lineTo(x + 4.2*mm, y + 3.8*mm)
    p.lineTo(x + 5.1*mm, y + 6.35*mm); p.lineTo(x + 4.2*mm, y + 8.9*mm); p.close()
    c.drawPath(p, fill=1, stroke=0); c.rect(x + 2.2*mm, y + 5.6*mm, 1.4*mm, 1.5*mm, fill=1, stroke=0)
n = 0
while n < {count}:
    batch = range(n, min(n + cols * rows, {count}))
    for side in ("front", "back"):
        for i in batch:
            k = i - n; x = 18 + (k % cols) * size; y = 792 - 48 - (k // cols + 1) * size
            if side == "back":
                x = 612 - x - size
                c.setFillColorRGB(0.12, 0.36, 0.72); c.rect(x, y, size, size, fill=1, stroke=0)
                c.setFillColorRGB(1, 1, 1); c.circle(x + size / 2, y + size / 2, (1.5 + (i % 7) * 0.3) * mm, fill=1, stroke=0)
                continue
            c.setFillColorRGB(0.78, 0.16, 0.16); c.roundRect(x + 0.85, y + 0.85, 34.3, 34.3, 2.8, fill=1, stroke=0)
            c.setFillColorRGB(1, 1, 1); ship(x, y)
            c.setFont("B", 5.7); c.drawString(x + 2.8, y + size - 7.4, "U%03d" % i)
            c.setFont("R", 5.4); c.drawString(x + 2.8, y + 3.1, "%d-%d" % (i % 10, i % 4))
            c.drawRightString(x + size - 2.8, y + 3.1, "%dx" % (1 + i % 3))
        c.setStrokeColorRGB(0.45, 0.45, 0.45); c.setLineWidth(0.5)
        c.showPage()
    n += cols * rows
c.save()
import resource
print("PEAK_KIB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def bench_counters(runs: int, count: int = 1000) -> None:
    print(f"counters-{count} (generated kit: {count} distinct double-sided 1/2 in counters, cold)")
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
        kit = generated_counters(Path(tmp) / "kit", count)
        ours = report("pnpgen cold", [run_build(kit, Path(tmp) / f"out{n}") for n in range(runs)])
        script = Path(tmp) / "direct.py"
        script.write_text(REPORTLAB_DIRECT.format(root=str(ROOT), out=str(Path(tmp) / "direct.pdf"), count=count))
        direct = report("reportlab, drawn directly", [run([str(script)]) for _ in range(runs)])
        # the same script on reportlab without its C speed-ups (rl_accel): the yardstick before pnpgen
        # depended on reportlab[accel], so earlier ratios stay comparable
        plain = f"import sys; sys.modules['_rl_accel'] = None; exec(open({str(script)!r}).read())"
        pure = report("reportlab, no rl_accel", [run(["-c", plain]) for _ in range(runs)])
        print(f"  ratio pnpgen / reportlab-direct: {ours / direct:4.2f} ({ours / pure:4.2f} without rl_accel); "
              f"per distinct face {ours / (2 * count) * 1000:4.2f} ms (2 faces a counter)")


IMAGE_FRONT = """{% import "_pieces.svg.j2" as p %}{{ p.ground(piece, "#f5f0e1") }}
<image href="{{ art }}" x="3" y="3" width="{{ piece.w - 6 }}" height="{{ piece.w - 6 }}"/>
{{ p.text(title, piece.w / 2, piece.h - 6, pt(9), "#1a1a1a", "middle", True) }}"""


def images_kit(folder: Path, faces: int = 500, images: int = 50) -> Path:
    from PIL import Image, ImageDraw
    (folder / "components").mkdir(parents=True)
    (folder / "templates").mkdir()
    (folder / "art").mkdir()
    for n in range(images):
        picture = Image.new("RGB", (640, 640), (40 + n * 4, 90, 200 - n * 3))
        ImageDraw.Draw(picture).ellipse((120, 120, 520, 520), fill=(250, 240 - n * 2, 60 + n * 3))
        picture.save(folder / "art" / f"ship{n:02d}.png")
    (folder / "kit.yaml").write_text("kit: images-500\ntitle: Bench images\nplayers: {min: 1, max: 2}\n")
    (folder / "components" / "cards.yaml").write_text(
        "name: Cards\nshape: rect\nsize: 50x60mm\nradius: 2mm\nfront: image-front\n"
        "columns:\n  title: {type: text}\n  art: {type: image}\nrows: cards.csv\n")
    rows = ["title,art"] + [f"Ship {n},art/ship{n % images:02d}.png" for n in range(faces)]
    (folder / "components" / "cards.csv").write_text("\n".join(rows) + "\n")
    (folder / "templates" / "image-front.svg.j2").write_text(IMAGE_FRONT)
    return folder


def bench_images(runs: int) -> None:
    print("images-500 (generated kit: 500 card faces showing 50 distinct 640 px images)")
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
        kit = images_kit(Path(tmp) / "kit")
        report("cold (empty cache)", [run_build(kit, Path(tmp) / f"out{n}") for n in range(runs)])
        out = Path(tmp) / "out0"
        report("nothing changed", [run_build(kit, out) for _ in range(runs)])


# The studio ---------------------------------------------------------------------------------------------

NEW_PICTURE = ("[...document.querySelectorAll('#pieces img')]"
               ".some(i => !window.benchOld.has(i.src) && i.complete && i.naturalWidth > 0)")
PAGES_DONE = "document.getElementById('status').dataset.status === 'built' && {}"


def toggle_cell(csv: str, first: str, second: str):
    """An edit of one spreadsheet cell, back and forth, so every run is a real change."""
    def edit(kit: Path, run_number: int) -> None:
        path = kit / csv
        old, new = (first, second) if run_number % 2 == 0 else (second, first)
        text = path.read_text()
        assert old in text, f"{old!r} not in {path}"
        path.write_text(text.replace(old, new, 1))
    return edit


STUDIO_KITS = {  # kit, what a designer saves (a data cell, or a template: every face it draws changes)
    "blank": (BLANK_KIT, toggle_cell("components/tokens.csv", "\n5,1", "\n4,1")),
    "eclipse": (BUILTIN_DATA / "eclipse", toggle_cell("components/technologies.csv", "build starbases",
                                                      "build a starbase")),
    "space-empires-4x data": (BUILTIN_DATA / DEFAULT_KIT, toggle_cell(
        "components/units.yaml", "    name: Scout\n    class: E\n    attack: 3", "    name: Scout\n    class: E\n    attack: 2")),
    "space-empires-4x template": (BUILTIN_DATA / DEFAULT_KIT, toggle_cell(
        "templates/marker-supernova.svg.j2", 'fill="#ffb300"', 'fill="#ff8f00"')),
}
STUDIO_GOALS = {"data": 0.3, "template": 0.5}   # issue 35: save -> new picture, median seconds


def bench_serve(runs: int, only: str | None = None) -> None:
    """`pnpgen serve` with the page open in headless Chromium: seconds from saving a CSV cell to the new piece
    picture loaded in the page, and to every page of the rebuilt files shown."""
    from tests.browser import Browser, chromium_path
    from tests.studio_helpers import ALL_LOADED, ServeProcess
    if chromium_path() is None:
        print("serve: skipped, no Chromium (apt-get install -y chromium)")
        return
    for name, (source, edit) in STUDIO_KITS.items():
        if only and only not in name:
            continue
        print(f"serve {name} (the page open in headless Chromium; {'a template' if 'template' in name else 'a cell'} saved)")
        with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
            kit = Path(tmp) / "kit"
            shutil.copytree(source, kit)
            with ServeProcess(kit, Path(tmp) / "out", seconds=120) as served, Browser() as browser:
                served.wait_for_view(lambda view: view["status"] == "built")
                browser.open(served.url)
                browser.wait_for(ALL_LOADED, seconds=120)
                pictures, pages = [], []
                for number in range(runs):
                    browser.evaluate("window.benchOld = new Set([...document.querySelectorAll('#pieces img')]"
                                     ".map(i => i.src)); true")
                    time.sleep(0.3)
                    saved = time.perf_counter()
                    edit(kit, number)
                    browser.wait_for(NEW_PICTURE, seconds=60, step=0.005)
                    pictures.append(time.perf_counter() - saved)
                    browser.wait_for(PAGES_DONE.format(ALL_LOADED), seconds=60, step=0.005)
                    pages.append(time.perf_counter() - saved)
        goal = STUDIO_GOALS.get(name.rsplit(" ", 1)[-1], 0.5)
        print(f"  {'save -> new picture shown':<28} median {statistics.median(pictures):5.2f} s, "
              f"best {min(pictures):5.2f} s (goal: under {goal} s)")
        print(f"  {'save -> pages in view shown':<28} median {statistics.median(pages):5.2f} s, best {min(pages):5.2f} s")


def bench_serve_cpu(runs: int) -> None:
    """The CPU seconds the studio's build thread spends from a save to the new pieces in its view (the kit
    loaded, the changed faces drawn), on Space Empires 4X: what a busy machine does not change, unlike the
    seconds on the wall bench_serve measures."""
    from pnpgen.cli import command_parser
    from pnpgen.cli_common import load_quietly
    from pnpgen.render.font_reset import use_kit_fonts
    from pnpgen.studio.pictures import FacePictures
    from pnpgen.studio.state import StudioState
    print("serve-se4x-cpu (in this process: the studio's load and faces after a save)")
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
        kit = Path(tmp) / "kit"
        shutil.copytree(BUILTIN_DATA / DEFAULT_KIT, kit)
        args = command_parser().parse_args(["serve", "--data", str(kit), "--out", str(Path(tmp) / "out")])
        faces = FacePictures(StudioState().pictures, skip=(Path(tmp) / "out",))

        def show() -> None:
            loaded, _ = load_quietly(args, kit, texts=False)
            use_kit_fonts(loaded.fonts)
            faces.pieces(loaded)
        show()
        for name in ("space-empires-4x data", "space-empires-4x template"):
            edit, seconds = STUDIO_KITS[name][1], []
            for number in range(runs):
                edit(kit, number)
                start = time.thread_time()
                show()
                seconds.append(time.thread_time() - start)
            print(f"  {name.split()[-1]:<10} save -> new pieces in the view, CPU: median "
                  f"{statistics.median(seconds):5.3f} s, best {min(seconds):5.3f} s")


CASES = {**{kit: (lambda runs, kit=kit: bench_kit(kit, runs)) for kit in KITS}, "check-growth": bench_check_growth,
         "counters-1000": bench_counters, "images-500": bench_images, "serve": bench_serve,
         "serve-se4x": lambda runs: bench_serve(runs, "space-empires-4x"), "serve-se4x-cpu": bench_serve_cpu}


def compile_bytecode() -> None:
    """Compile the generator's and the game modules' code first, as installing a package does (and as Python does on a first run
    where writing bytecode is allowed): otherwise, under PYTHONDONTWRITEBYTECODE, every run would time
    compiling pnpgen's own source (~0.1 s) that no designer's second build pays."""
    import compileall
    for package in ("generator", "games"):
        compileall.compile_dir(str(ROOT / package), quiet=1)
    print("(generator/ and games/ bytecode compiled before timing)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each build (default 5)")
    parser.add_argument("--only", help=f"comma-separated cases: {', '.join(CASES)}")
    args = parser.parse_args()
    chosen = [c.strip() for c in args.only.split(",")] if args.only else list(CASES)
    unknown = [c for c in chosen if c not in CASES]
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}")
    compile_bytecode()
    for case in chosen:
        CASES[case](args.runs)


if __name__ == "__main__":
    main()
