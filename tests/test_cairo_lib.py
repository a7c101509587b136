"""cairocffi loads cairo's declarations precompiled (no C parsing in a build) and draws the same bytes."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROBE = """
import sys
from pnpgen.render.cairo_lib import import_cairocffi
cairo = import_cairocffi()
surface = cairo.PDFSurface(sys.argv[1], 100, 100)
surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z")
context = cairo.Context(surface)
context.select_font_face("DejaVu Sans", 0, 1)
context.set_font_size(12)
context.move_to(10, 50)
context.show_text("Cruiser 3-1")
context.rectangle(5, 5, 30, 20)
context.fill()
surface.finish()
print("parsed" if "pycparser" in sys.modules else "precompiled", context.text_extents("Cruiser 3-1")[4])
"""


def probe(pdf: Path, code: str = PROBE) -> str:
    done = subprocess.run([sys.executable, "-c", code, str(pdf)], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).parent.parent)
    return done.stdout.strip()


def test_cairocffi_loads_precompiled_and_draws_the_same(tmp_path):
    probe(tmp_path / "first.pdf")                      # the first run on a machine writes the cache
    fast = probe(tmp_path / "fast.pdf")
    usual = probe(tmp_path / "usual.pdf", PROBE.replace("from pnpgen.render.cairo_lib import import_cairocffi\n"
                                                        "cairo = import_cairocffi()", "import cairocffi as cairo"))
    assert fast.split()[0] == "precompiled" and usual.split()[0] == "parsed"
    assert fast.split()[1] == usual.split()[1]
    assert (tmp_path / "fast.pdf").read_bytes() == (tmp_path / "usual.pdf").read_bytes()
