"""Stop early, with the fix, when the machine lacks what pip cannot install: Python 3.11+, its venv module
with ensurepip (to create .venv), and libcairo. Nothing else outside the virtual environment is needed: the
tests read PDFs with pypdf and pypdfium2 (pip wheels), never with poppler-utils, qpdf or Ghostscript."""
import ctypes.util
import importlib.util
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOW_TO_GET_CAIRO = runpy.run_path(str(ROOT / "generator" / "cairo_missing.py"))["HOW_TO_GET_CAIRO"]  # one text

HOW_TO_GET_VENV = """\
Python's ensurepip module was not found, so `{python} -m venv` cannot create .venv with pip in it.
Install it, then run the command again:
  Debian/Ubuntu:  sudo apt-get install python{version}-venv
  other systems:  use a Python from python.org, Homebrew or pyenv (they include it)
"""


def main() -> int:
    if sys.version_info < (3, 11):
        print(f"pnpgen needs Python 3.11 or newer; this is {sys.version.split()[0]}.", file=sys.stderr)
        return 1
    status = 0
    if not any(ctypes.util.find_library(name) for name in ("cairo", "cairo-2", "libcairo-2")):
        print(HOW_TO_GET_CAIRO, file=sys.stderr, end="")
        status = 1
    if importlib.util.find_spec("ensurepip") is None or importlib.util.find_spec("venv") is None:
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        print(HOW_TO_GET_VENV.format(python=sys.executable, version=version), file=sys.stderr, end="")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
