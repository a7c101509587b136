"""What to say when libcairo is missing. pip cannot install it, so both ways in say how to get it, from this
one text: make's system check before the virtual environment exists (scripts/check_system.py reads this
file by path: it must import nothing), and the command line of an installed pnpgen (pipx) whose first
drawing finds no libcairo."""

HOW_TO_GET_CAIRO = """\
libcairo (the Cairo 2D graphics library) was not found on this machine.
cairosvg, which draws every face, needs it. Install it, then run the command again:
  Debian/Ubuntu:  sudo apt-get install libcairo2
  Fedora:         sudo dnf install cairo
  macOS:          brew install cairo
  Windows:        install MSYS2, run `pacman -S mingw-w64-ucrt-x86_64-cairo` in its shell, and put
                  C:\\msys64\\ucrt64\\bin (where libcairo-2.dll is) on PATH
"""


def is_missing_cairo(error: BaseException) -> bool:
    """cairocffi's OSError when it could load no libcairo (it lists every name it tried)."""
    text = str(error)
    return isinstance(error, OSError) and "cairo" in text and ("no library called" in text
                                                                 or "cannot load library" in text)
