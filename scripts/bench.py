"""Benchmark of the counter sheets: the full counter set (every colour, basic and advanced, deep space,
neutral) built cold, again with nothing changed, and after one unit is edited in a throw-away kit copy.

Each build runs in a fresh process, as a designer runs it: seconds include start-up, imports and YAML.
Prints seconds, pages, faces drawn and peak memory (the largest of the build process and its workers).
"""
from __future__ import annotations

import json
import re
import shutil
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


def run_build(kit: Path, out: Path) -> dict:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", RUNNER, "build", "--data", str(kit), "--out", str(out),
                           "--only", "counters"], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"build failed:\n{done.stderr}")
    manifest = json.loads((out / DEFAULT_KIT / "manifest.json").read_text())
    files = manifest["parts"]["counters"]["files"]
    drawn = re.search(r"drew (\d+) file\(s\) \((\d+) faces rendered\)", done.stderr)
    return {"seconds": seconds, "pages": sum(f["pages"] for f in files), "files": len(files),
            "files_drawn": int(drawn.group(1)), "faces_rendered": int(drawn.group(2)),
            "peak_mib": int(re.search(r"PEAK_KIB (\d+)", done.stderr).group(1)) / 1024}


def report(name: str, result: dict) -> None:
    print(f"{name:<28} {result['seconds']:6.2f} s  {result['pages']:3d} pages in {result['files']} files  "
          f"drew {result['files_drawn']} file(s), {result['faces_rendered']:3d} faces  "
          f"peak {result['peak_mib']:5.1f} MiB")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pnpgen-bench-") as tmp:
        kit, out = Path(tmp) / "kit", Path(tmp) / "out"
        shutil.copytree(BUILTIN_DATA / DEFAULT_KIT, kit)
        report("cold (empty cache)", run_build(kit, out))
        report("warm (nothing changed)", run_build(kit, out))
        units = kit / "units.yaml"
        text = units.read_text()
        units.write_text(text.replace("class: D\n    attack: 4", "class: D\n    attack: 5", 1))
        report("one unit edited (DD attack)", run_build(kit, out))


if __name__ == "__main__":
    main()
