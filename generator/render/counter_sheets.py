"""Drawing a game module's counter sheets (the counters part alone): reads the imposition
(pnpgen.layout.packing, counter-sheet layout) and paints faces, cut lines and titles onto PDF pages and PNG
previews. It decides no position of a piece; layout does.

The page itself is the components' page drawing (pnpgen.render.piece_sheets.draw_sheet_page) and its
preview is rasterised by pnpgen.render.png, so counters and a kit's pieces print alike; what is left here is
only what the counters road's worker processes need.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnpgen.layout.sheets import SheetPage as Page
from pnpgen.render import svg_ops
from pnpgen.render.face_store import FaceStore, record_svg, replay
from pnpgen.render.pdf import Art, PdfDocument
from pnpgen.render.piece_sheets import draw_sheet_page
from pnpgen.render.png import save_png


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


def draw_page(cr, page: SheetPage, arts: list[Art]) -> None:
    pictures = {slot.index: arts[face] for slot, face in zip(page.layout.slots, page.faces)}
    draw_sheet_page(cr, page.layout, pictures, None, 0.0, "", lines=page.lines)


def write_preview(path: str, page: SheetPage, arts: list[Art], size: tuple[float, float]) -> None:
    save_png(path, size, lambda cr: draw_page(cr, page, arts))


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


