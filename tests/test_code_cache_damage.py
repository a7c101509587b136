"""The user's folder of compiled templates and text measures (pnpgen.sandbox.code_folder) holds code that is
run and numbers that place text: a damaged file there is worked out again, never used. Before its files were
sealed, one flipped byte unmarshalled into code that failed every later build until the folder was cleared."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MINI = Path(__file__).parent / "kits" / "mini"


def _build(out: Path, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnpgen", "build", "--data", str(MINI), "--out", str(out), "-q"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "XDG_CACHE_HOME": str(cache)})


def test_a_damaged_code_folder_is_worked_out_again(tmp_path):
    cache = tmp_path / "cache"
    assert _build(tmp_path / "first", cache).returncode == 0
    kept = [p for p in (cache / "pnpgen" / "code").iterdir()
            if p.is_file() and (p.name.startswith("__jinja2_") or p.suffix == ".code" or p.name.startswith("widths-"))]
    assert kept, "the first build kept compiled templates and measures"
    for path in kept:   # one byte flipped deep inside each: the marshalled code or numbers, not the seal
        data = bytearray(path.read_bytes())
        data[len(data) * 3 // 4] ^= 0x21
        path.write_bytes(bytes(data))
    again = _build(tmp_path / "second", cache)
    assert again.returncode == 0, again.stderr
    first, second = (sorted((tmp_path / name / "mini").rglob("*.pdf")) for name in ("first", "second"))
    assert [p.name for p in first] == [p.name for p in second]
    for one, other in zip(first, second):
        assert one.read_bytes() == other.read_bytes(), one.name
