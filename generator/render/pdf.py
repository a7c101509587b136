"""SVG art onto one multi-page PDF through cairo, with every distinct piece of art rendered only once.

cairosvg draws one SVG per call onto a surface of its own; here each SVG is drawn once onto a cairo
RecordingSurface, and pages paint those recordings where layout says. cairo writes a recording used many
times as one reusable vector XObject, so text stays text, the font is embedded once per document (subset),
and a sheet of 26 identical Danger markers holds one copy of the art.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pnpgen.problems import BuildError
from pnpgen.render.art import Art
from pnpgen.render.cairo_lib import cairo

FIXED_DATE = "2000-01-01T00:00:00Z"  # PDF dates are fixed so the same data builds the same bytes


def render_svg(svg: str, source: str = "", base: Path | None = None) -> Art:
    """Draw one SVG (sized in mm or pt, with a viewBox) onto a recording surface, at its physical size.
    References (images) resolve against the kit folder `base` and may not leave it; with no base, none is
    read at all."""
    return recorded_svg(svg, source, base)[0]


def recorded_svg(svg: str, source: str = "", base: Path | None = None) -> tuple[Art, dict | None]:
    """render_svg's Art, and the record it replayed when the SVG is of the subset pnpgen.render.svg_ops draws
    (a store may keep that record: replayed, it draws the same calls); None when cairosvg drew it."""
    from pnpgen.render import svg_ops
    from pnpgen.svg_depth import TooDeep
    try:  # the SVG subset the templates use, drawn without cairosvg (see pnpgen.render.svg_ops)
        from pnpgen.render.face_store import replay
        record = svg_ops.record(svg, base)
        return replay(record, unbounded=True), record
    except svg_ops.Unsupported:
        pass
    except TooDeep as exc:
        raise BuildError(f"{f'{source}: ' if source else ''}{exc}") from None
    # Unbounded on purpose: cairo 1.16 writes a BOUNDED recording into the PDF as cropped by its first (maybe
    # clipped) use, and every later use then misses the rest. Placing still paints only the art's rectangle
    # (see PdfDocument.place). Recorded, so the preflight reads its glyphs and calls as for the subset's.
    from pnpgen.render.face_store import record_svg
    return record_svg(svg, source, base, unbounded=True)[0], None


class ArtCache:
    """Each distinct SVG text is rendered once per build; identical text returns the same Art."""

    def __init__(self, base: Path | None = None):
        self._arts: dict[str, Art] = {}
        self.rendered = 0
        self.base = base  # the kit folder that images may come from

    def get(self, svg: str, source: str = "") -> Art:
        key = hashlib.sha1(svg.encode("utf-8")).hexdigest()
        art = self._arts.get(key)
        if art is None:
            art = self._arts[key] = render_svg(svg, source, self.base)
            self.rendered += 1
        return art


class PdfDocument:
    """A multi-page PDF on one cairo surface. Coordinates are points from the page's top-left corner."""

    def __init__(self, path: Path, title: str, width: float, height: float, final: bool = False):
        """A `final` PDF is a build's output as it is (not an intermediate file another step rewrites): it
        asks viewers to print at 100 % from the start (pnpgen.render.print_scaling)."""
        cairocffi = cairo()
        self.final = final
        self._cairo = cairocffi
        self.path = Path(path)
        self.surface = cairocffi.PDFSurface(str(self.path), width, height)
        for key, value in ((cairocffi.PDF_METADATA_TITLE, title),
                           (cairocffi.PDF_METADATA_CREATOR, "pnpgen"),
                           (cairocffi.PDF_METADATA_CREATE_DATE, FIXED_DATE),
                           (cairocffi.PDF_METADATA_MOD_DATE, FIXED_DATE)):
            self.surface.set_metadata(key, value)
        self.context = cairocffi.Context(self.surface)
        self.pages = 0
        self._size = (width, height)
        self._open = False

    def new_page(self, width: float | None = None, height: float | None = None) -> None:
        if self._open:
            self.context.show_page()
        width, height = width or self._size[0], height or self._size[1]
        self.surface.set_size(width, height)
        self._size = (width, height)
        self.pages += 1
        self._open = True

    def place(self, art: Art, x: float, y: float, clip: tuple | None = None) -> None:
        """Paint `art` with its top-left corner at (x, y); `clip` (x, y, w, h) limits what shows."""
        ctx = self.context
        ctx.save()
        if clip:
            ctx.rectangle(*clip)
            ctx.clip()
        ctx.translate(x, y)
        ctx.set_source_surface(art.recording, 0, 0)
        ctx.rectangle(0, 0, art.width, art.height)
        ctx.fill()
        ctx.restore()

    def close(self) -> None:
        if self._open:
            self.context.show_page()
            self._open = False
        self.surface.finish()
        finish_file(self.path, self.final)


RESOURCE_DICT = re.compile(rb"/(?:XObject|ExtGState|Font|Pattern|Shading)\s*<<(.*?)>>", re.S)
RESOURCE_ENTRY = re.compile(rb"/[A-Za-z0-9_.]+\s+\d+\s+\d+\s+R")


def finish_file(path: str, final: bool = False) -> None:
    """The PDF cairo wrote, tidied (see blank_duplicate_resources), with PNGs' own data put in
    (pnpgen.render.pdf_images) and, when `final`, asking to print at 100 % (render.print_scaling)."""
    from pnpgen.render.pdf_images import embed_pngs
    from pnpgen.render.print_scaling import ask_print_at_full_size
    data = embed_pngs(blank_duplicate_resources(Path(path).read_bytes()))
    Path(path).write_bytes(ask_print_at_full_size(data) if final else data)


def blank_duplicate_resources(data: bytes) -> bytes:
    """cairo 1.16 lists a reused XObject once per use in a page's resource dictionary (`/x29 29 0 R` many
    times over); readers warn about it. Later copies are overwritten with spaces of the same length, so every
    byte offset in the cross-reference table stays right."""
    data = bytearray(data)
    for match in RESOURCE_DICT.finditer(bytes(data)):
        seen = set()
        for entry in RESOURCE_ENTRY.finditer(match.group(1)):
            if entry.group(0) in seen:
                start = match.start(1) + entry.start()
                data[start:start + len(entry.group(0))] = b" " * len(entry.group(0))
            seen.add(entry.group(0))
    return bytes(data)
