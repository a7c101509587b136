"""Stop early, with the fix, when the machine lacks what pip cannot install (Python 3.11+, libcairo)."""
import ctypes.util
import sys

HOW_TO_GET_CAIRO = """\
libcairo (the Cairo 2D graphics library) was not found on this machine.
cairosvg, which draws the counters, needs it. Install it, then run the command again:
  Debian/Ubuntu:  sudo apt-get install libcairo2
  Fedora:         sudo dnf install cairo
  macOS:          brew install cairo
  Windows:        install GTK for Windows (it ships libcairo-2.dll) and put its bin folder on PATH
"""


def main() -> int:
    if sys.version_info < (3, 11):
        print(f"pnpgen needs Python 3.11 or newer; this is {sys.version.split()[0]}.", file=sys.stderr)
        return 1
    if not any(ctypes.util.find_library(name) for name in ("cairo", "cairo-2", "libcairo-2")):
        print(HOW_TO_GET_CAIRO, file=sys.stderr, end="")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
