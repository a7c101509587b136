"""Drawing counter sheets: reads the imposition (pnpgen.layout.packing, counter-sheet layout) and paints faces, cut lines and
titles onto PDF pages and PNG previews. It decides no position of a piece; layout does.

The same `draw_page` paints the PDF page and its preview, so the preview shows exactly what prints; it is
the components' page drawing (pnpgen.render.piece_sheets), so counters and a kit's pieces print alike.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from pnpgen.fonts import FAMILY
from pnpgen.layout.sheets import SheetPage as Page
from pnpgen.lengths import pt_from_mm
from pnpgen.render import svg_ops
from pnpgen.render.face_store import FaceStore, record_svg, replay
from pnpgen.render.pdf import Art, PdfDocument

CUT_GREY = (0.1, 0.1, 0.1)   # a near-black core ...
CUT_WIDTH = 0.3              # points: thin enough to vanish under a blade, visible enough to follow
CUT_HALO = (1.0, 1.0, 1.0)   # ... on a white halo, so the line reads on every ground: the mid-grey of old
CUT_HALO_WIDTH = 0.9         # vanished into the green and yellow patterns
PREVIEW_DPI = 60


@dataclass(frozen=True)
class SheetPage:
    """A laid-out page plus what goes on it: the face drawn in each slot and the title lines."""

    layout: Page
    faces: tuple[int, ...]            # for each slot, an index into SheetFile.faces
    lines: tuple[str, ...]            # title block text, first line bold


@dataclass(frozen=True)
class FaceRef:
    """A face to draw: its store key, its template and parameters, and who needs it (for error messages)."""

    key: str
    template: str
    params_json: str
    source: str


@dataclass(frozen=True)
class KitView:
    """What a face template sees of the kit (pnpgen.render.piece_faces.face_context), as plain data a worker
    process can take."""

    root: Path
    id: str
    title: str
    data: dict
    colours: tuple


@dataclass(frozen=True)
class SheetFile:
    """One PDF of counter sheets; plain data, so a worker process can draw it."""

    path: str
    title: str
    page_size: tuple[float, float]
    kit: "KitView"                   # what the face templates see of the kit
    size_mm: float                    # the counter size every face template is drawn at
    faces: tuple[FaceRef, ...]        # distinct faces, each rendered (or replayed) once
    pages: tuple[SheetPage, ...]
    previews: tuple[str, ...]         # one PNG path per page


def paint_art(cr, art: Art, x: float, y: float, turned: bool = False) -> None:
    """Paint a face at (x, y); a turned face is rotated half a turn about its centre."""
    cr.save()
    cr.translate(x, y)
    if turned:
        cr.translate(art.width, art.height)
        cr.rotate(math.pi)
    cr.set_source_surface(art.recording, 0, 0)
    cr.rectangle(0, 0, art.width, art.height)
    cr.fill()
    cr.restore()


def draw_cuts(cr, cuts, paths=None) -> None:
    """Each cut line (and cut path: `paths(cr)` adds them) twice: a white halo, then a dark core on it, so
    it reads on light and dark grounds alike."""
    cr.save()
    for colour, width in ((CUT_HALO, CUT_HALO_WIDTH), (CUT_GREY, CUT_WIDTH)):
        cr.set_source_rgb(*colour)
        cr.set_line_width(width)
        for x1, y1, x2, y2 in cuts:
            cr.move_to(x1, y1)
            cr.line_to(x2, y2)
        cr.stroke()
        if paths is not None:
            paths(cr)
            cr.stroke()
    cr.restore()


def draw_title_lines(cr, header: tuple, lines: tuple[str, ...], scale: bool) -> None:
    """Title lines in the header box (x, y, w, h), the first bold; `scale`: the scale check at the right (a
    file's first page, whose lines say how to measure it)."""
    x, y, w, h = header
    cr.save()
    cr.set_source_rgb(0.1, 0.1, 0.1)
    for number, line in enumerate(lines):
        cr.select_font_face(FAMILY, 0, 1 if number == 0 else 0)
        cr.set_font_size(9 if number == 0 else 7.5)
        cr.move_to(x, y + 10 + number * 10)
        cr.show_text(line)
    if scale:
        draw_scale(cr, x + w, y + 8)
    cr.restore()


def draw_scale(cr, right: float, top: float) -> None:
    """A 1 in and a 25 mm bar, right-aligned: if the print measures otherwise, the printer scaled it."""
    cr.set_line_width(0.6)
    for number, (length, label) in enumerate(((72.0, "1 in"), (pt_from_mm(25), "25 mm"))):
        y = top + number * 16
        left = right - 34 - length
        cr.rectangle(left, y, length, 5)
        cr.stroke()
        cr.rectangle(left, y, length / 2, 5)
        cr.fill()
        cr.select_font_face(FAMILY, 0, 0)
        cr.set_font_size(7.5)
        cr.move_to(right - 30, y + 5)
        cr.show_text(label)


def draw_page(cr, page: SheetPage, arts: list[Art]) -> None:
    from pnpgen.render.piece_sheets import draw_sheet_page
    pictures = {slot.index: arts[face] for slot, face in zip(page.layout.slots, page.faces)}
    draw_sheet_page(cr, page.layout, pictures, None, 0.0, "", lines=page.lines)


def write_preview(path: str, page: SheetPage, arts: list[Art], size: tuple[float, float]) -> None:
    save_png(path, size, lambda cr: draw_page(cr, page, arts))


def _fixed_font_options(cairocffi):
    """Explicit hinting and antialiasing: left to defaults, text rasterised differently once other surfaces
    (PDF pages, map art) had used the same font in the process, so previews were not byte-stable."""
    options = cairocffi.FontOptions()
    options.set_antialias(cairocffi.ANTIALIAS_GRAY)
    options.set_hint_style(cairocffi.HINT_STYLE_NONE)
    options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)
    return options


def save_png(path: str, size: tuple[float, float], draw, dpi: float = PREVIEW_DPI) -> None:
    """Rasterise one page (size in points) at `dpi` with `draw(context)`; PNG written by Pillow at light
    compression (cairo's own PNG writer spent more time compressing than drawing), the dpi stored in it so
    it prints at its real size."""
    import cairocffi
    from PIL import Image
    scale = dpi / 72
    width, height = round(size[0] * scale), round(size[1] * scale)
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, width, height)
    cr = cairocffi.Context(surface)
    cr.set_font_options(_fixed_font_options(cairocffi))
    cr.set_source_rgb(1, 1, 1)
    cr.paint()
    cr.scale(scale, scale)
    draw(cr)
    surface.flush()
    image = Image.frombuffer("RGB", (width, height), bytes(surface.get_data()), "raw", "BGRX",
                             surface.get_stride(), 1)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="PNG", compress_level=1, dpi=(dpi, dpi))
    surface.finish()


def face_svg(face: FaceRef, kit: KitView, size_mm: float) -> str:
    """The SVG of one face at the counter size: the same road as every piece's face
    (pnpgen.render.piece_faces.face_document), so sheets, proofs and exports draw the same thing."""
    from pnpgen.lengths import parse_length
    from pnpgen.pieces import Face
    from pnpgen.render.piece_faces import face_document
    from pnpgen.shapes import Shape
    side = parse_length(f"{size_mm}mm")
    return face_document(kit, Face(face.template, face.params_json), Shape("square", side, side), 0.0, face.source)


def face_art(face: FaceRef, sheet: SheetFile, store: FaceStore, new: list) -> Art:
    """A stored face is replayed; any other is rendered from its template (and stored for next time)."""
    record = store.get(face.key)
    if record is not None:
        return replay(record)
    svg = face_svg(face, sheet.kit, sheet.size_mm)
    try:  # the SVG subset drawn straight into cairo calls; cairosvg for anything outside it
        record = svg_ops.record(svg, Path(sheet.kit.root))
        art = replay(record)
    except svg_ops.Unsupported:
        art, record = record_svg(svg, face.source, Path(sheet.kit.root))
    if record is not None:
        store.put(face.key, record)
    new.append(face.key)
    return art


def write_sheet_file(sheet: SheetFile, store: FaceStore) -> int:
    """Draw every page into the PDF and its preview, each face once; return how many faces were rendered."""
    new: list = []
    arts = [face_art(face, sheet, store, new) for face in sheet.faces]
    doc = PdfDocument(Path(sheet.path), sheet.title, *sheet.page_size, final=True)
    for page in sheet.pages:
        doc.new_page()
        draw_page(doc.context, page, arts)
    doc.close()
    for page, preview in zip(sheet.pages, sheet.previews):
        write_preview(preview, page, arts, sheet.page_size)
    return len(new)


