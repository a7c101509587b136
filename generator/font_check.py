"""A kit font's structure checked with fontTools before any renderer (FreeType through cairo, reportlab) sees
it, and the checked bytes kept as a private copy named by their content hash.

A font file comes from a stranger: a CFF font whose subroutines call each other a thousand times a level
(a "subroutine bomb": 1.7 GB and two minutes inside the renderers), composite glyphs that nest without end,
tables that do not parse. Here every table is read and every glyph drawn once into a pen that only counts,
with its subroutine calls and components counted too: a font that needs more steps than any real font
(STEPS_PER_BYTE for each byte of the file, at least MIN_STEPS), nests deeper than MAX_DEPTH or takes more
than CHECK_SECONDS of CPU is refused with the reason, at its file. The memory budget (pnpgen.budgets) holds
as everywhere.

Only the copy reaches the renderers: fontconfig is shown the copies, never the kit's folder (whose links,
FIFOs and other files the kit reader never vetted), and reportlab reads them. The copy's name is the hash of
its bytes, so a font checked once is never checked again (a warm build reads the file and hashes it), and a
copy changed after it was written is not taken for the checked font.
"""
from __future__ import annotations

import hashlib
import io
import os
import time
from functools import cache
from pathlib import Path

from pnpgen import resources

CACHE = "fonts-vetted"
RECIPE = 1                # in the copies' names: a stricter check checks every font anew
MIN_STEPS = 1_000_000     # pen moves, subroutine calls and components over all glyphs: DejaVu Sans takes 0.2 M
STEPS_PER_BYTE = 4        # DejaVu Sans takes 0.3 a byte
MAX_DEPTH = 16            # nested subroutine calls (CFF allows 10) or components (FreeType stops at a few)
CHECK_SECONDS = 30.0      # CPU: a real font of 30 MB checks in a fraction of this
CFF_FONT = "an OpenType font with PostScript (CFF) outlines pnpgen cannot use:"
_CHECKED: dict = {}       # sha256 -> Path of the copy, in this process
_PRIVATE: list = []       # a private temporary folder where the user's cache cannot be written


class FontCheckError(ValueError):
    """A font whose structure fontTools cannot read, or that needs more work to draw than any real font."""


def vetted_copy(data: bytes, suffix: str, what: str = "") -> Path:
    """The private copy of a font's bytes, checked (now, or by an earlier build: its name says so). Raises
    FontCheckError with the reason; `what` names the font in a budget's message."""
    digest = hashlib.sha256(data).hexdigest()
    if digest in _CHECKED and _CHECKED[digest].exists():
        return _CHECKED[digest]
    folder = _folder()
    copy = folder / f"{digest[:40]}-{RECIPE}{suffix.lower()}"
    if not _same(copy, data, digest):
        check_font(data, what)
        _write(copy, data)
    else:
        _touch(copy)   # in use: the cache's pruning leaves it alone
    _CHECKED[digest] = copy
    return copy


def read_vetted(copy: Path) -> bytes:
    """The bytes of a copy vetted_copy made, refused if they are no longer those it checked (its name)."""
    data = Path(copy).read_bytes()
    if not Path(copy).name.startswith(hashlib.sha256(data).hexdigest()[:40] + "-"):
        raise FontCheckError(f"its checked copy {copy} changed since it was checked; build again")
    return data


def _same(copy: Path, data: bytes, digest: str) -> bool:
    try:
        return copy.stat().st_size == len(data) and hashlib.sha256(copy.read_bytes()).hexdigest() == digest
    except OSError:
        return False


def _folder() -> Path:
    folder = resources.cache_folder(CACHE)
    if folder is not None:
        return folder
    if not _PRIVATE:
        import tempfile
        _PRIVATE.append(Path(tempfile.mkdtemp(prefix="pnpgen-fonts-")))
    return _PRIVATE[0]


def _write(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_bytes(data)
    os.replace(temporary, path)   # whole or not at all: fontconfig never meets half a font


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def check_font(data: bytes, what: str = "") -> None:
    """Every table parsed and every glyph drawn, counted; FontCheckError says what is wrong."""
    from fontTools.ttLib import TTFont

    from pnpgen import budgets
    try:
        font = TTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False)
        _Glyphs(font, max(MIN_STEPS, STEPS_PER_BYTE * len(data))).draw_all()
    except FontCheckError:
        raise
    except MemoryError:
        raise budgets.memory_error(f"checking {what or 'a font'}") from None
    except RecursionError:
        raise FontCheckError("its outlines nest without end") from None
    except Exception as exc:  # noqa: BLE001 - a stranger's file: any failure to read it is "not a font", said
        reason = f"{type(exc).__name__}: {str(exc)[:160]}"
        if data[:4] == b"OTTO":
            raise FontCheckError(f"{CFF_FONT} cannot read it ({reason})") from None
        raise FontCheckError(f"not a TrueType or OpenType font pnpgen can embed ({reason})") from None


class _Glyphs:
    """Draws every glyph of a font into a counting pen; subroutine calls and components count as steps."""

    def __init__(self, font, limit: int):
        self.font, self.limit, self.steps, self.depth = font, limit, 0, 0
        self.deadline = time.process_time() + CHECK_SECONDS
        self.cff = font["CFF "].cff[0].CharStrings if "CFF " in font else None
        if "CFF2" in font:
            raise FontCheckError(f"{CFF_FONT} a variable font with CFF2 outlines: use one of its static instances")
        self.glyph_set = None if self.cff is not None else font.getGlyphSet()
        self.pen = _CountingPen(self)

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > self.limit:
            raise FontCheckError(f"its glyphs take more than {self.limit:,} steps to draw (subroutines or "
                                 f"components calling each other over and over): no real font does")
        if not self.steps & 0xFFFF and time.process_time() > self.deadline:
            raise FontCheckError(f"drawing its glyphs took more than {CHECK_SECONDS:g} s of CPU: no real font does")

    def draw_all(self) -> None:
        for name in self.font.getGlyphOrder():
            self.draw(name)

    def draw(self, name: str) -> None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise FontCheckError(f"the glyph {name!r} nests components deeper than {MAX_DEPTH}")
            if self.cff is not None:
                _draw_charstring(self.cff[name], self)
            elif name in self.glyph_set:
                self.glyph_set[name].draw(self.pen)
        finally:
            self.depth -= 1


def _draw_charstring(charstring, glyphs: _Glyphs) -> None:
    private = charstring.private
    extractor = _bounded_extractor()(glyphs.pen, getattr(private, "Subrs", []), charstring.globalSubrs,
                                     private.nominalWidthX, private.defaultWidthX, private)
    extractor.glyphs = glyphs
    extractor.execute(charstring)


@cache
def _bounded_extractor():
    """fontTools' CFF interpreter, each charstring or subroutine it runs counted (a bomb is all calls)."""
    from fontTools.misc.psCharStrings import T2OutlineExtractor

    class Bounded(T2OutlineExtractor):
        def execute(self, charString):
            self.glyphs.step()
            if len(self.callingStack) > MAX_DEPTH:
                raise FontCheckError(f"its CFF subroutines nest deeper than {MAX_DEPTH}")
            super().execute(charString)
    return Bounded


class _CountingPen:
    """A pen that draws nothing: each call is a step, each component its glyph drawn in turn."""

    def __init__(self, glyphs: _Glyphs):
        self.glyphs = glyphs

    def moveTo(self, point):
        self.glyphs.step()

    def lineTo(self, point):
        self.glyphs.step()

    def curveTo(self, *points):
        self.glyphs.step(1 + len(points) // 3)

    def qCurveTo(self, *points):
        self.glyphs.step(1 + len(points) // 2)

    def closePath(self):
        self.glyphs.step()

    def endPath(self):
        self.glyphs.step()

    def addComponent(self, name, transformation):
        self.glyphs.step()
        self.glyphs.draw(name)
