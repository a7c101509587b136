"""The kit's icons (kit.yaml `icons:`) inline in typeset text: `Gain 2 :credit:` in a chapter, a chart cell,
an aid card or a record sheet.

reportlab lays the line out: each `:name:` becomes an `<img>` one em square (the paragraph's size), standing
on the baseline as a capital letter does (a fifth of it below), measured and wrapped with the word it is
part of. The image reportlab is handed is an empty slot, never the kit's file: IconCanvas draws nothing for
it and records where it landed (the page and the full transformation, so a card face turned half a turn
keeps its icons upright with it). Once the PDF is written, each icon is drawn there (`icon_layer`, or `lay_icons`) as a form
XObject of the icon drawn by cairo from the kit's file (read through the kit reader, SVG kept vector), as
the booklet's figure art is laid on.
"""
from __future__ import annotations

import io
import re
import tempfile
from collections import defaultdict
from pathlib import Path
from pnpgen.xml_escape import escape

from pnpgen.render.drawn_text import GlyphCanvas

from pnpgen.icon_names import ICON, unknown_icon

TAG = re.compile(r"(<[^<>]*>)")  # [^<>]: a `<` never closed ends at the next one (linear in the text)
IMG = re.compile(r"<\s*img\b", re.IGNORECASE)
BELOW = 0.2              # of the em: how far an icon's foot sits below the baseline (textbox's ICON_RAISE, 0.8 above)
ART_MM = 10.0            # each icon is drawn once this size, then scaled to its place
_SLOTS: dict = {}        # icon name -> the empty image file standing in for it
_SLOT_FOLDER: list = []


class IconProblem(ValueError):
    """`:name:` naming no icon of the kit."""


def with_icons(markup: str, icons: dict, size: float) -> str:
    """Paragraph markup with each `:name:` outside the tags made an inline image slot `size` points square.
    A kit's own `<img>` is refused: reportlab would open its `src` itself, anywhere on the disk."""
    if "<" in markup and IMG.search(markup):
        raise IconProblem("an <img> tag: a kit's text places its images as icons, `:name:` (kit.yaml `icons:`)")
    if ":" not in markup:
        return markup
    parts = TAG.split(markup)
    for index in range(0, len(parts), 2):
        parts[index] = ICON.sub(lambda match: _slot_tag(match.group(1), icons, size), parts[index])
    return "".join(parts)


def _slot_tag(name: str, icons: dict, size: float) -> str:
    if name not in icons:
        raise IconProblem(unknown_icon(name, icons))
    return (f'<img src="{escape(str(slot_file(name)))}" width="{size:.3f}" height="{size:.3f}" '
            f'valign="{-BELOW * size:.3f}"/>')


def slot_file(name: str) -> Path:
    """A one-pixel PNG named after the icon: what reportlab's parser opens in its place (it reads no kit file)."""
    if name not in _SLOTS:
        if not _SLOT_FOLDER:  # in the user's cache folder: one for every build, never a leftover temporary one
            from pnpgen.resources import cache_folder
            _SLOT_FOLDER.append(cache_folder("icon-slots") or Path(tempfile.mkdtemp(prefix="pnpgen-icon-slots-")))
        path = _SLOT_FOLDER[0] / f"{name}.png"
        if not path.exists():
            from PIL import Image

            from pnpgen.whole_files import write_whole
            image = io.BytesIO()
            Image.new("L", (1, 1), 255).save(image, "PNG")
            write_whole(path, image.getvalue())  # whole: a build beside this one may be reading it
        _SLOTS[name] = path
    return _SLOTS[name]


def _slot_name(image) -> str | None:
    file = getattr(image, "fileName", None)
    if not _SLOT_FOLDER or not isinstance(file, str):
        return None
    path = Path(file)
    return path.stem if path.parent == _SLOT_FOLDER[0] else None


class IconCanvas(GlyphCanvas):
    """A reportlab canvas that leaves an icon's slot empty and records (name, page, matrix) for lay_icons,
    and the glyphs it sets (pnpgen.render.drawn_text) for the overprint check."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.icon_places: list = []
        self.before_save: list = []   # what draws into the pass's forms once its pages are all known

    def save(self):
        for draw in self.before_save:
            draw(self)
        super().save()

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        name = _slot_name(image)
        if name is None:
            return super().drawImage(image, x, y, width, height, *args, **kwargs)
        a, b, c, d, e, f = self._currentMatrix
        matrix = (width * a, width * b, height * c, height * d, x * a + y * c + e, x * b + y * d + f)
        self.icon_places.append((name, self.getPageNumber(), tuple(round(v, 4) for v in matrix)))
        return (width, height)


def icon_svg(ref: str) -> str:
    """The icon's file shown in a square ART_MM a side (its own proportions kept, centred)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{ART_MM}mm" height="{ART_MM}mm" '
            f'viewBox="0 0 {ART_MM} {ART_MM}"><image href="{escape(ref, {chr(34): "&quot;"})}" x="0" y="0" '
            f'width="{ART_MM}" height="{ART_MM}"/></svg>')


def icon_layer(places: list, icons: dict, root: Path, where: str) -> tuple[bytes, list]:
    """The recorded icons as a layer for booklet.pdfcopy.lay_on: (a PDF of each icon named, drawn by cairo,
    [(page, icon's page, matrix, above)]): above the page's own marks."""
    from pnpgen.booklet.overlay import art_pages
    from pnpgen.render.pdf import ArtCache
    names = sorted({name for name, _, _ in places})
    cache = ArtCache(root)
    arts = [cache.get(icon_svg(icons[name]), f"{where}: icon :{name}: ({icons[name]})") for name in names]
    with tempfile.TemporaryDirectory() as folder:
        drawn = art_pages(arts, Path(folder)) if names else b""
    placed = []
    for name, page, (a, b, c, d, e, f) in places:
        unit = 1 / arts[names.index(name)].width    # the art's page is ART_MM square, in points
        placed.append((page, names.index(name), (a * unit, b * unit, c * unit, d * unit, e, f), True))
    return drawn, placed


def lay_icons(pdf: bytes, places: list, icons: dict, root: Path, where: str) -> bytes:
    """The PDF with every recorded icon drawn in its slot, vector, above the page's own marks (by pypdf);
    unchanged when it places none."""
    if not places:
        return pdf
    from pypdf import PdfReader, PdfWriter

    from pnpgen.booklet.pdfforms import draw_forms, page_form
    art, placed = icon_layer(places, icons, root, where)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    drawn = PdfReader(io.BytesIO(art))
    forms = {index: page_form(writer, drawn.pages[index]) for _, index, _, _ in placed}
    by_page = defaultdict(list)
    for page, index, matrix, _ in placed:
        by_page[page].append((forms[index], matrix))
    for page, forms_here in sorted(by_page.items()):
        draw_forms(writer, writer.pages[page - 1], forms_here)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
