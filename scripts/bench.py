"""Benchmark: the counter sheets alone, then the full default kit (counters, maps, cards, sheets, booklet),
each built cold, again with nothing changed, and after one unit is edited in a throw-away kit copy.

Each build runs in a fresh process, as a designer runs it: seconds include start-up, imports and YAML.
Prints seconds, pages, faces drawn and peak memory (the largest of the build process and its workers).
"""
from __future__ import annotations

import json
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

from generator.kit import BUILTIN_DATA, DEFAULT_KIT  # noqa: E402

RUNNER = """
import resource, sys
from generator.cli import main
code = main(sys.argv[1:])
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(f"PEAK_KIB {peak}", file=sys.stderr)
sys.exit(code)
"""


RUNS = 5


def run_build(kit: Path, out: Path, only: str | None) -> dict:
    start, cpu_before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    selection = ["--only", only] if only else []
    done = subprocess.run([sys.executable, "-c", RUNNER, "build", "--data", str(kit), "--out", str(out),
                           *selection, "--verbose"], cwd=ROOT, capture_output=True, text=True)
    seconds, cpu_after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    if done.returncode:
        raise SystemExit(f"build failed:\n{done.stderr}")
    manifest = json.loads((out / DEFAULT_KIT / "manifest.json").read_text())
    files = [f for part in manifest["parts"].values() for f in part.get("files", [])]
    drawn = re.search(r"drew (\d+) file\(s\) \((\d+) faces rendered\)", done.stderr)  # absent: part reused
    return {"seconds": seconds, "cpu": cpu, "pages": sum(f["pages"] for f in files), "files": len(files),
            "files_drawn": int(drawn.group(1)) if drawn else 0, "faces_rendered": int(drawn.group(2)) if drawn else 0,
            "peak_mib": int(re.search(r"PEAK_KIB (\d+)", done.stderr).group(1)) / 1024}


def report(name: str, results: list[dict]) -> None:
    """Median and best wall seconds of the runs (other work on the machine only ever adds time)."""
    walls = sorted(r["seconds"] for r in results)
    last = results[-1]
    print(f"{name:<28} median {statistics.median(walls):5.2f} s, best {walls[0]:5.2f} s, "
          f"cpu {statistics.median(r['cpu'] for r in results):5.2f} s | {last['pages']} pages in {last['files']} "
          f"files | counters drew {last['files_drawn']} file(s), {last['faces_rendered']} faces | "
          f"peak {max(r['peak_mib'] for r in results):5.1f} MiB")


def toggle_destroyer_attack(kit: Path, run: int) -> None:
    """Each edit run changes the data again (DD attack 4 -> 5 -> 4 ...), so every run is a real edit."""
    units = kit / "units.yaml"
    old, new = ("attack: 4", "attack: 5") if run % 2 == 0 else ("attack: 5", "attack: 4")
    units.write_text(units.read_text().replace(f"class: D\n    {old}", f"class: D\n    {new}", 1))


def bench(title: str, only: str | None) -> None:
    print(title)
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
        kit = Path(tmp) / "kit"
        shutil.copytree(BUILTIN_DATA / DEFAULT_KIT, kit)
        report("  cold (empty cache)", [run_build(kit, Path(tmp) / f"cold{n}", only) for n in range(RUNS)])
        out = Path(tmp) / "cold0"
        report("  warm (nothing changed)", [run_build(kit, out, only) for _ in range(RUNS)])
        edits = []
        for run in range(RUNS):
            toggle_destroyer_attack(kit, run)
            edits.append(run_build(kit, out, only))
        report("  one unit edited (DD attack)", edits)


def main() -> None:
    bench("counter sheets (--only counters)", "counters")
    bench("full kit (counters, maps, cards, sheets, booklet)", None)


if __name__ == "__main__":
    main()
