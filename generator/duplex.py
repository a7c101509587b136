"""Where a back lands once the paper is turned over: the one rule every double-sided file follows.

A printer feeds paper portrait; a landscape page is turned a quarter to fit it. Flipping on the long edge
turns the sheet about its long side, on the short edge about its short side. So on a portrait page a long
flip mirrors left-right and a short flip top-bottom, and on a landscape page the other way round. A back
placed by the top-bottom rule is also turned half a turn, or it would stand upside down behind its front.
With this rule a build has one duplex setting for all its files, portrait and landscape alike.

The user's back offset is what the calibration sheet (always portrait) measures: a shift in the paper's
own frame as it goes through the printer. A landscape page is fed turned a quarter counter-clockwise (its
top edge to the paper's left, as printer drivers and viewers turn landscape pages), so the offset is turned
the same way before it is added in that page's coordinates.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.i18n.translator import core_words
from pnpgen.problems import UsageError

FLIPS = ("long", "short")
CALIBRATION = "duplex-calibration.pdf"   # the sheet that measures the back offset (pnpgen.calibration)
FLIP_WORDS = {"long": "flip on the long edge", "short": "flip on the short edge"}


@dataclass(frozen=True)
class BackPlace:
    x: float
    y: float
    turned: bool          # drawn half a turn round, so it reads upright behind its front


def is_landscape(page: tuple[float, float]) -> bool:
    return page[0] > page[1]


def mirrors_top_bottom(page: tuple[float, float], duplex: str) -> bool:
    """True where the flip turns this page about its horizontal centre line (else its vertical one)."""
    if duplex not in FLIPS:
        raise UsageError(f"duplex must be long or short, not {duplex!r}")
    return (duplex == "short") != is_landscape(page)


def page_offset(page: tuple[float, float], offset: tuple[float, float]) -> tuple[float, float]:
    """The portrait calibration offset (points, x right, y down) in this page's own coordinates."""
    dx, dy = offset
    return (-dy, dx) if is_landscape(page) else (dx, dy)


def back_place(x: float, y: float, w: float, h: float, page: tuple[float, float], duplex: str,
               offset: tuple[float, float] = (0.0, 0.0), y_down: bool = True) -> BackPlace:
    """Where the back of a w x h piece at (x, y) goes on the back page so it lands behind its front.

    `y_down`: coordinates from the top-left (cairo) or, when False, from the bottom-left (PDF, reportlab);
    the mirror is the same either way, only the offset's y turns."""
    dx, dy = page_offset(page, offset)
    dy = dy if y_down else -dy
    if mirrors_top_bottom(page, duplex):
        return BackPlace(x + dx, page[1] - y - h + dy, True)
    return BackPlace(page[0] - x - w + dx, y + dy, False)


def build_setting(ctx) -> tuple[str, tuple[float, float]]:
    """The build's one duplex setting: the flip (--duplex) and the back offset in points (--back-offset)."""
    from pnpgen.lengths import parse_offset
    return ctx.option("duplex", "long") or "long", parse_offset(ctx.option("back_offset", "0,0") or "0,0")


def flip_words(duplex: str) -> str:
    """What to tell the printer, as every double-sided file says it on its first page (in the edition's
    language: pnpgen.i18n)."""
    return core_words(FLIP_WORDS[duplex])


def flip_said(duplex: str) -> str:
    """The flip as the manifest and the console say it: in English in every edition, as a tool reads it."""
    return FLIP_WORDS[duplex]
