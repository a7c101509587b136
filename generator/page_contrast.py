"""Contrast and size on pages a reportlab canvas set (aid cards, record sheets, the rules booklet): each
glyph's colour against the ground drawn under it, and its size against the page's floor, as the canvas
recorded them while drawing (pnpgen.render.drawn_text.DrawnGlyphs), never read back from the PDF. The ground
is the last filled rectangle drawn before the glyph that covers its whole box, over the white paper; a
picture under it with no such fill between is a finding too."""
from __future__ import annotations

from functools import lru_cache

from pnpgen.contrast import contrast_ratio, hex_colour, over_paper
from pnpgen.overlaps import BoxGrid
from pnpgen.preflight import CONTRAST, SIZE_SLACK

SLACK = 0.5   # points: a fill this close to a glyph's edge still counts as under it (rounding, strokes)


def drawn_contrasts(drawn, least: float = CONTRAST) -> list[tuple[int, str]]:
    """(page, finding) for every line of text set below `least`:1 against its ground, or on a picture:
    one finding per page, colour pair and run of neighbouring glyphs (a line, not its letters)."""
    inks, grounds = getattr(drawn, "inks", None), getattr(drawn, "grounds", None)
    if inks is None or grounds is None:
        return []
    found = []
    for page in sorted(drawn):
        glyphs, colours = drawn[page], inks.get(page, [])
        if len(colours) != len(glyphs):
            continue
        found += [(page, finding) for finding in _page_findings(glyphs, colours, grounds.get(page, []), least)]
    return found


def _page_findings(glyphs, colours, grounds, least: float) -> list[str]:
    """The page's findings: consecutive glyphs of one verdict join into one quoted phrase."""
    verdicts, grid, known = [], ground_grid(glyphs, grounds), {}   # known: (ink, ground) -> verdict
    for index, (record, ink) in enumerate(zip(glyphs, colours)):
        ground, picture = ground_under(record[1], index, grounds, grid)
        if picture:
            verdicts.append(("picture", None, None))
            continue
        verdict = known.get((ink, ground), known)
        if verdict is known:   # a page sets thousands of glyphs in a handful of colours on a handful of grounds
            ratio = _ratio(ink, ground)
            verdict = known[ink, ground] = ("low", ink, ground, round(ratio, 1)) if ratio < least - 0.005 else None
        verdicts.append(verdict)
    out = []
    for verdict, text in _phrases(glyphs, verdicts):
        if verdict[0] == "picture":
            out.append(f"text {text!r} is set over a picture with no backing")
        else:
            _, ink, ground, ratio = verdict
            out.append(f"text {text!r} ({hex_colour(ink)} on {hex_colour(ground)}) has a contrast of {ratio:.1f}:1, "
                       f"below {least:g}:1")
    return sorted(set(out), key=out.index)


def drawn_sizes(drawn, body: float, small: float) -> list[tuple[int, str]]:
    """(page, finding) for every line of text set below its floor, as the canvas set it: `small` (points)
    for text drawn as small print (GlyphCanvas.small_print: tables, captions, running headers), `body` for
    the rest. One finding per page, size and run of neighbouring glyphs."""
    fine_of = getattr(drawn, "fine", None) or {}
    found = []
    for page in sorted(drawn):
        glyphs, fine = drawn[page], fine_of.get(page, ())
        verdicts = []
        for index, record in enumerate(glyphs):
            floor = small if index < len(fine) and fine[index] else body
            verdicts.append((round(record[3], 1), floor) if record[3] < floor - SIZE_SLACK else None)
        out = [f"text {text!r} is {size:g} pt, below the {floor:g} pt minimum"
               + (" for small print" if floor == small and small != body else "")
               for (size, floor), text in _phrases(glyphs, verdicts)]
        found += [(page, finding) for finding in sorted(set(out), key=out.index)]
    return found


def _phrases(glyphs, verdicts) -> list[tuple]:
    """(verdict, quoted words) of each run of consecutive glyph records sharing a verdict (None: no finding):
    a line's findings said once, not per letter."""
    if not any(verdicts):   # the usual page: nothing found, nothing to join (a booklet sets thousands of strings)
        return []
    runs: list = []   # [verdict, words, the last record]
    for record, verdict in zip(glyphs, verdicts):
        if verdict is None:
            runs.append([None, "", None])
        elif runs and runs[-1][0] == verdict and _follows(runs[-1][2], record):
            joined = len(record[0]) == 1 and len(runs[-1][2][0]) == 1   # letters set one by one join up
            runs[-1][1] += ("" if joined else " ") + record[0]
            runs[-1][2] = record
        else:
            runs.append([verdict, record[0], record])
    return [(verdict, words.strip() if len(words.strip()) <= 40 else words.strip()[:37] + "...")
            for verdict, words, _ in runs if verdict is not None and words.strip()]


def _follows(last, record) -> bool:
    """Whether a record goes on the phrase `last` ended: the same line, near after it, or the next line (a
    paragraph's lines make one phrase, a running header's two ends do not)."""
    size, gap = record[3], record[2] - last[2]
    if abs(gap) < size * 0.3:
        return -size <= record[1][0] - last[1][2] <= size * 3
    return 0 < gap <= size * 2.5


@lru_cache(maxsize=1024)
def _ratio(ink, ground) -> float:
    """contrast_ratio of a page's few colour pairs, worked out once each (a page sets thousands of strings)."""
    return contrast_ratio(ink, ground)


def ground_grid(glyphs, grounds) -> BoxGrid | None:
    """The page's grounds filed on a grid over its glyphs (pnpgen.overlaps.BoxGrid): a glyph holds only the
    fills whose square it starts in against its box, not every fill of the page (a record sheet's table
    has hundreds of cells under thousands of glyphs)."""
    if not glyphs or not grounds:
        return None
    boxes = [record[1] for record in glyphs]
    within = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return BoxGrid([bounds for _, bounds, _, _ in grounds], within, grow=SLACK)


def ground_under(box, index: int, grounds, grid: BoxGrid | None = None) -> tuple:
    """(colour under the box, whether a picture shows under it) of the glyph drawn `index`-th on its page:
    the fills that cover it, the last drawn first (only those filed where its box starts, with a grid)."""
    layers = []
    if grid is None or box[2] < box[0] or box[3] < box[1]:
        candidates = reversed(grounds)
    else:
        candidates = (grounds[k] for k in reversed(grid.at(box[0], box[1])))
    for order, bounds, rgb, alpha in candidates:
        if order > index or not _covers(bounds, box):
            continue
        if rgb is None:
            return _over_paper(tuple(layers)), True
        layers.append((rgb, alpha))
        if alpha >= 0.99:
            break
    return _over_paper(tuple(layers)), False


@lru_cache(maxsize=1024)
def _over_paper(layers: tuple) -> tuple:
    """over_paper of a page's few stacks of fills, worked out once each."""
    return over_paper(layers)


def _covers(bounds, box) -> bool:
    return bounds[0] - SLACK <= box[0] and bounds[1] - SLACK <= box[1] and \
        box[2] <= bounds[2] + SLACK and box[3] <= bounds[3] + SLACK

