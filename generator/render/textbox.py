"""Wrapped text that must fit its box, for piece templates: `textbox(text, x, y, w, h, size, min_size)`.

SVG cannot wrap text, so lines are broken here with the widths cairo will draw the shipped fonts at
(unhinted, as pnpgen.render.svg_ops and fast_text draw them), from `size` down to `min_size` in half
points. Text that still does not fit raises TextFitError; the caller names the row, template and box.

`:name:` in the text places the kit's icon `name` (kit.yaml `icons:`) inline: a square one em a side,
measured and wrapped with the word it is part of, drawn as an <image> beside the text.
"""
from __future__ import annotations

import hashlib
import marshal
import re
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from markupsafe import Markup, escape

from pnpgen.fonts import FONT_DIR
from pnpgen.icon_names import ICON, unknown_icon
from pnpgen.kit_fonts import measure_name, missing_character


PT_IN_MM = 25.4 / 72
FILES = {("DejaVu Sans", False): "DejaVuSans.ttf", ("DejaVu Sans", True): "DejaVuSans-Bold.ttf",
         ("DejaVu Sans Condensed", False): "DejaVuSansCondensed.ttf",
         ("DejaVu Sans Condensed", True): "DejaVuSansCondensed-Bold.ttf"}
BOLD_RUN = re.compile(r"\*\*(.+?)\*\*")
ICON_RAISE = 0.8      # an icon's top stands this many ems above the baseline (its foot a little below it)
_ICONS: ContextVar[dict] = ContextVar("icons", default={})  # the kit's icons, for the face being rendered


@contextmanager
def icons_in_text(icons: dict):
    """The kit's icons (name -> image path) that textbox places for `:name:` while a face renders (a
    context variable: a kit's own macro that calls textbox sees them too, imported without context)."""
    token = _ICONS.set(dict(icons))
    try:
        yield
    finally:
        _ICONS.reset(token)


def _parts(word: str) -> list[tuple[str, bool]]:
    """A word as (text, is_icon) pieces: '2:credit:,' -> ('2', False), ('credit', True), (',', False)."""
    parts, pos = [], 0
    for match in ICON.finditer(word):
        if match.start() > pos:
            parts.append((word[pos:match.start()], False))
        parts.append((match.group(1), True))
        pos = match.end()
    return parts + ([(word[pos:], False)] if pos < len(word) else [])


def _icon_file(name: str) -> str:
    icons = _ICONS.get()
    if name not in icons:
        raise TextFitError(unknown_icon(name, icons))
    return icons[name]


def word_width(word: str, family: str, bold: bool, size_pt: float) -> float:
    """A word's width in mm, its icons one em each."""
    if ":" not in word:
        return width_mm(word, family, bold, size_pt)
    return sum(size_pt * PT_IN_MM if icon else width_mm(text, family, bold, size_pt) for text, icon in _parts(word)
               if not icon or _icon_file(text))


class TextFitError(ValueError):
    """A text that does not fit its box even at its smallest allowed size."""


def width_mm(text: str, family: str, bold: bool, size_pt: float) -> float:
    """The advance of `text` as cairo will draw it (unhinted metrics, the shipped fonts), in mm. Unhinted
    advances scale with the size, so each text is measured once, at 100 pt, and kept on disk between builds:
    laying out an unchanged card loads no cairo at all."""
    own = measure_name(family)
    name = family if (family, bold) in FILES or own else "DejaVu Sans"
    key = f"{own or name}\0{int(bold)}\0{text}"
    widths = _widths()
    if key not in widths:
        widths[key] = _measure(text, name, bold)
        _DIRTY.append(key)
    return widths[key] * size_pt / 100 * PT_IN_MM


def _measure(text: str, name: str, bold: bool) -> float:
    from pnpgen.render.cairo_lib import scratch_context
    context = scratch_context()
    context.select_font_face(name, 0, 1 if bold else 0)
    context.set_font_size(100)
    return context.text_extents(text)[4]


_WIDTHS: list = []
_DIRTY: list = []


def _widths() -> dict:
    if not _WIDTHS:
        widths = {}
        path = _widths_file()
        if path is not None:   # sealed: a damaged file would measure text wrong, silently
            from pnpgen.sandbox import unmarshalled
            from pnpgen.signing import read_sealed
            loaded = unmarshalled(read_sealed(path))
            widths = loaded if isinstance(loaded, dict) else {}
        _WIDTHS.append(widths)
        # at exit, and at the end of a worker process too (parts are built in forked workers, which skip atexit)
        from multiprocessing import util
        util.Finalize(None, _save_widths, exitpriority=10)
    return _WIDTHS[0]


def _widths_file() -> Path | None:
    """Per user, per cairocffi version and per shipped font set (a new font measures anew)."""
    from pnpgen.sandbox import code_folder
    folder = code_folder()
    if folder is None:
        return None
    fonts = ",".join(f"{p.name}:{p.stat().st_size}" for p in sorted(FONT_DIR.glob("*.ttf")))
    from pnpgen.render.cairo_lib import installed_version
    tag = hashlib.sha1(f"{installed_version('cairocffi')}|{fonts}".encode()).hexdigest()[:16]
    return folder / f"widths-{tag}.bin"


def _save_widths() -> None:
    path = _widths_file() if _DIRTY else None
    if path is None:
        return
    from pnpgen.sandbox import write_sealed
    write_sealed(path, marshal.dumps(_WIDTHS[0]))


BREAKS = re.compile(r"[^\S\u00a0\u202f\u2007\u2060]+")  # white space a line may break at: not a no-break space


def _split(text: str) -> list[str]:
    """The words of `text`: str.split(), but a no-break space (French `Prix\u00a0:`) holds its words together."""
    return [word for word in BREAKS.split(text) if word]


def _words(paragraph: str, bold_all: bool) -> list[tuple[str, bool]]:
    """(word, bold) pairs; **runs** are bold."""
    out, pos = [], 0
    for match in BOLD_RUN.finditer(paragraph):
        out += [(w, bold_all) for w in _split(paragraph[pos:match.start()])]
        out += [(w, True) for w in _split(match.group(1))]
        pos = match.end()
    return out + [(w, bold_all) for w in _split(paragraph[pos:])]


def wrap(text: str, width: float, size: float, family: str, bold: bool) -> list[list[tuple[str, bool]]] | None:
    """Lines of (word, bold) that fit `width` mm at `size` pt, or None if one word alone is too wide."""
    space = width_mm(" ", family, False, size)
    lines = []
    for paragraph in str(text).split("\n"):
        line, used = [], 0.0
        for word, heavy in _words(paragraph, bold):
            w = word_width(word, family, heavy, size)
            if w > width + 1e-6:
                return None
            if line and used + space + w > width + 1e-6:
                lines.append(line)
                line, used = [], 0.0
            used += (space if line else 0) + w
            line.append((word, heavy))
        lines.append(line)
    return lines


def fit(text, w, h, size, min_size, family, bold, line_height) -> tuple[float, list]:
    """The largest size (half-point steps) at which the wrapped text fits w x h mm."""
    step = size
    while step >= min_size - 1e-9:
        lines = wrap(text, w, step, family, bold)
        if lines is not None and len(lines) * step * line_height * PT_IN_MM <= h + 1e-6:
            return step, lines
        step -= 0.5
    needed = wrap(text, w, min_size, family, bold)
    reason = ("a word is wider than the box" if needed is None else
              f"{len(needed)} lines need {len(needed) * min_size * line_height * PT_IN_MM:.1f} mm")
    from pnpgen.i18n.translator import noted
    raise TextFitError(f"text does not fit its {w:g} x {h:g} mm box at {min_size:g} pt ({reason}): "
                       f"{str(text)[:60]!r}{noted(str(text))}")


def textbox(text, x, y, w, h, size=8, min_size=6, weight="normal", align="start", valign="top",
            fill="#000000", family="DejaVu Sans", line_height=1.2) -> Markup:
    """SVG <text> of the wrapped lines; `align` start|middle|end, `valign` top|middle|bottom. Each line is
    placed from its measured width (SVG would centre every bold run of a line on its own)."""
    bold = weight == "bold"
    if problem := missing_character(family, ICON.sub("", BOLD_RUN.sub(r"\1", str(text)))):
        raise TextFitError(problem)
    size, lines = fit(text, w, h, size, min_size, family, bold, line_height)
    lead = size * line_height * PT_IN_MM
    block = len(lines) * lead
    top = y + {"top": 0, "middle": (h - block) / 2, "bottom": h - block}.get(valign, 0)
    space = width_mm(" ", family, False, size)
    spans, images = [], []
    for number, line in enumerate(lines):
        baseline = top + lead * number + size * PT_IN_MM * 0.9
        used = sum(word_width(word, family, heavy, size) for word, heavy in line) + space * max(len(line) - 1, 0)
        start = {"start": x, "middle": x + (w - used) / 2, "end": x + w - used}.get(align, x)
        if any(ICON.search(word) for word, _ in line):
            spans += _line_with_icons(line, start, baseline, space, family, bold, size, images)
            continue
        words = "".join(_word_span(word, heavy, bold, i) for i, (word, heavy) in enumerate(line))
        spans.append(f'<tspan x="{start:.3f}" y="{baseline:.3f}">{words}</tspan>')
    weight_attr = ' font-weight="bold"' if bold else ""
    return Markup(f'<text font-family="{escape(family)}" font-size="{size * PT_IN_MM:.3f}"{weight_attr} '
                  f'fill="{escape(fill)}">{"".join(spans)}</text>' + "".join(images))


def _line_with_icons(line, start: float, baseline: float, space: float, family: str, bold_all: bool,
                     size: float, images: list) -> list[str]:
    """A line holding icons: each run of text a tspan at its measured x, each icon an <image> (into
    `images`, drawn after the text) one em square, standing on the line as a capital letter does."""
    em, cursor, spans = size * PT_IN_MM, start, []
    for word, heavy in line:
        for text, icon in _parts(word):
            if icon:
                images.append(f'<image href="{escape(_icon_file(text))}" x="{cursor:.3f}" '
                              f'y="{baseline - ICON_RAISE * em:.3f}" width="{em:.3f}" height="{em:.3f}"/>')
                cursor += em
                continue
            weight = ' font-weight="bold"' if heavy and not bold_all else ""
            spans.append(f'<tspan x="{cursor:.3f}" y="{baseline:.3f}"{weight}>{escape(text)}</tspan>')
            cursor += width_mm(text, family, heavy, size)
        cursor += space
    return spans


def _word_span(word: str, heavy: bool, bold_all: bool, index: int) -> str:
    space, text = (" " if index else ""), str(escape(word))
    if heavy and not bold_all:
        return f'{space}<tspan font-weight="bold">{text}</tspan>'
    return space + text
