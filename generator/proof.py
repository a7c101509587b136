"""`pnpgen proof`: single pieces at print size, front and back, with the cut line and the safe zone drawn on.

A designer who changed a unit, a card or a face wants to see (and print, and hold) that one piece without a
whole sheet. Any kit's pieces: every table's counters, cards, tokens and tiles in their own shapes (at the
size the run prints: --counter-size resizes square tables). Each face is drawn as the sheets and exports draw it (the same
template, parameters and size: export.decks.ExportArts), then written as

- `proofs/<ref>-front.png` / `-back.png`: the face plus a PNG_MARGIN_MM white border on every side, at the
  asked dpi (stored in the PNG, so it prints at size). The cut line follows the piece's shape just outside
  the art; the dashed safe zone lies SAFE_INSET_MM inside the cut, over the art.
- `proofs/proof.pdf`: every requested piece, front beside back (under it where the two do not fit across) at
  exact size (vector), labelled, with the same overlay and the 1 in / 25 mm scale check of the sheets.

Files go through the atomic output stage: a template error leaves the previous proofs as they were.
"""
from __future__ import annotations

import difflib
import re
import time
from dataclasses import dataclass
from pathlib import Path

from pnpgen.fonts import FAMILY
from pnpgen.layout.proof import SAFE_INSET_MM, png_canvas, proof_rows, safe_inset
from pnpgen.lengths import mm, parse_length
from pnpgen.model import Kit
from pnpgen.out_folder import check_out
from pnpgen.output import BuildLock, OutputStage
from pnpgen.paper import PRINTABLE_MARGIN, paper_size
from pnpgen.pdf_update import add_print_scaling_none
from pnpgen.pieces import Piece
from pnpgen.render.art import Art
from pnpgen.render.pdf import PdfDocument
from pnpgen.render.piece_sheets import draw_scale, outline_path, paint_art
from pnpgen.render.png import save_png
from pnpgen.shapes import Shape

PROOFS = "proofs"
CUT_COLOUR = (0.9, 0.0, 0.9)     # magenta: no player colour or face uses it, so the overlay never blends in
SAFE_COLOUR = (0.0, 0.7, 1.0)    # cyan, dashed
OVERLAY_WIDTH = 0.6              # points
SAFE_DASH = (2.0, 1.5)           # points on, off
DEFAULT_DPI = 300.0
MAX_DPI = 2400.0


@dataclass(frozen=True)
class Proof:
    """One proofed piece: the file stem, the piece, its shape and its two faces drawn at size."""

    stem: str
    piece: Piece
    shape: Shape
    front: Art
    back: Art | None  # a one-sided piece (a table with no back) has none


@dataclass
class ProofResult:
    files: list[Path]
    seconds: float
    proofs: list[Proof]


# Choosing the pieces -------------------------------------------------------------------------------------

def parse_only(text: str) -> list[tuple[str, str | None]]:
    """'units.DD,units.CA:3' -> [('units.DD', None), ('units.CA', '3')]."""
    wanted = []
    for item in (part.strip() for part in text.split(",")):
        if item:
            ref, _, variant = item.partition(":")
            wanted.append((ref.strip(), variant.strip() or None))
    if not wanted:
        raise ValueError("--only names no piece: give refs like units.DD,markers.danger")
    return wanted


VARIANTS = ("number", "value")   # what `ref:N` picks, first given: a numbered table's copy, else a row's value


def variant_of(piece: Piece) -> str | None:
    """What `ref:N` picks in this piece: its copy's number in a numbered table (DD 3), else its row's value."""
    params = piece.front.params["row"]
    return next((str(params[key]) for key in VARIANTS if params.get(key) is not None), None)


def choose(pieces: list[Piece], ref: str, variant: str | None, colour: str | None) -> Piece:
    """The first piece of `ref` (and variant) in `colour`, else one of no player colour (deep space, neutral),
    else the first."""
    same_ref = [p for p in pieces if p.ref == ref]
    if not same_ref:
        raise ValueError(unknown_ref_message(pieces, ref))
    found = [p for p in same_ref if variant is None or variant_of(p) == variant]
    if not found:
        known = sorted({v for v in map(variant_of, same_ref) if v is not None}, key=_natural)
        word = next((key for key in VARIANTS if same_ref[0].front.params["row"].get(key) is not None), "value")
        raise ValueError(f"{ref} has no {word} {variant!r}; it has: {', '.join(known) or 'none to choose from'}")
    for wanted in (lambda p: p.colour == colour, lambda p: p.colour == "neutral", lambda p: True):
        match = next((p for p in found if wanted(p)), None)
        if match is not None:
            return match
    raise AssertionError("unreachable")


def unknown_ref_message(pieces: list[Piece], ref: str) -> str:
    """Close matches by name within the same kind (units.DX -> units.DD, units.DN), else the kinds there are."""
    refs = list(dict.fromkeys(p.ref for p in pieces))
    kind, _, name = ref.partition(".")
    names = {r.partition(".")[2].lower(): r for r in refs if r.partition(".")[0] == kind}
    if not names:
        kinds = sorted({r.partition(".")[0] for r in refs})
        return f"no piece {ref!r} in this kit; refs start with {', '.join(k + '.' for k in kinds)} (e.g. {refs[0]})"
    close = [names[n] for n in difflib.get_close_matches(name.lower(), list(names), n=5, cutoff=0.5)]
    hint = f"did you mean {', '.join(close)}?" if close else f"its {kind}: {', '.join(names.values())}"
    return f"no piece {ref!r} in this kit; {hint}"


def _natural(text: str):
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def file_stem(ref: str, variant: str | None) -> str:
    return ref + (f"-{re.sub(r'[^A-Za-z0-9_.]+', '-', variant)}" if variant else "")


# Drawing --------------------------------------------------------------------------------------------------

def shape_of(kit: Kit, piece: Piece) -> Shape:
    """A piece has its table's shape (at the size this run prints: --counter-size resizes square tables)."""
    return kit.tables[piece.ref.split(".", 1)[0]].shape


def draw_overlay(cr, x: float, y: float, shape: Shape) -> None:
    """The cut line just outside the piece's edge (it covers no art) and the dashed safe zone inside it,
    both along the piece's own shape."""
    cr.save()
    cr.set_line_width(OVERLAY_WIDTH)
    cr.set_source_rgb(*CUT_COLOUR)
    for command in shape.outline(x, y, grow=OVERLAY_WIDTH / 2):
        outline_path(cr, command)
    cr.stroke()
    cr.set_source_rgb(*SAFE_COLOUR)
    cr.set_dash(list(SAFE_DASH), 0)
    for command in shape.outline(x, y, grow=-safe_inset()):
        outline_path(cr, command)
    cr.stroke()
    cr.restore()


def write_png(path: Path, art: Art, shape: Shape, dpi: float) -> None:
    (width, height), offset = png_canvas(shape.w, shape.h)

    def draw(cr):
        paint_art(cr, art, offset, offset)
        draw_overlay(cr, offset, offset, shape)
    save_png(str(path), (width, height), draw, dpi)


def header_lines(kit: Kit, counter_size: str, size: float, has_counters: bool) -> tuple[str, ...]:
    sizes = f" \u00b7 {counter_size} counters ({mm(size):.2f} mm)" if has_counters else ""
    return (f"{kit.title} \u00b7 proof{sizes}",
            "Print at 100% / actual size (never 'fit to page'); the bars at the right must measure 1 in and 25 mm.",
            f"Magenta: the cut line, just outside the piece's edge. Dashed cyan: the safe zone, "
            f"{SAFE_INSET_MM:g} mm inside the cut;",
            "keep text and symbols inside it.")


def draw_text(cr, x: float, y: float, text: str, points: float, bold: bool = False) -> None:
    cr.select_font_face(FAMILY, 0, 1 if bold else 0)
    cr.set_font_size(points)
    cr.move_to(x, y)
    cr.show_text(text)


def write_pdf(path: Path, kit: Kit, proofs: list[Proof], counter_size: str, size: float, paper: str) -> int:
    """Every proof's front and back at exact size, in labelled rows; returns the number of pages."""
    page = paper_size(paper)
    margin = PRINTABLE_MARGIN
    rows = proof_rows([(p.shape.w, p.shape.h) for p in proofs], page, margin)
    has_counters = any(t.shape.kind == "square" and abs(t.shape.w - size) < 0.01 for t in kit.tables.values())
    doc = PdfDocument(path, f"{kit.title}: proof", *page)
    cr = doc.context
    for row in rows:
        if row.page == doc.pages:
            doc.new_page()
            cr.set_source_rgb(0.1, 0.1, 0.1)
            for number, line in enumerate(header_lines(kit, counter_size, size, has_counters)):
                draw_text(cr, margin, margin + 10 + number * 10, line, 9 if number == 0 else 7.5, number == 0)
            draw_scale(cr, page[0] - margin, margin + 8)
        draw_row(cr, proofs[row.index], row)
    doc.close()
    return doc.pages


def draw_row(cr, proof: Proof, row) -> None:
    piece, shape = proof.piece, proof.shape
    cr.set_source_rgb(0.1, 0.1, 0.1)
    words = dict.fromkeys((piece.ref, piece.label, piece.name, piece.group))  # a marker's name is its label
    draw_text(cr, *row.label, " \u00b7 ".join(words), 8, True)
    for side, art, (x, y) in (("front", proof.front, row.front), ("back", proof.back, row.back)):
        if art is None:
            cr.set_source_rgb(0.3, 0.3, 0.3)
            draw_text(cr, x, y + 9, "no back: printed on one side", 7)
            continue
        paint_art(cr, art, x, y)
        draw_overlay(cr, x, y, shape)
        cr.set_source_rgb(0.3, 0.3, 0.3)
        draw_text(cr, x, y + shape.h + 9, side, 7)


# The command ----------------------------------------------------------------------------------------------

def check_dpi(dpi: float) -> float:
    if not 10 <= dpi <= MAX_DPI:
        raise ValueError(f"--dpi must be between 10 and {MAX_DPI:g}, not {dpi:g}")
    return dpi


def pick_colour(kit: Kit, colour: str | None) -> str | None:
    ids = [c.id for c in kit.colours]
    if colour is None:
        return ids[0] if ids else None
    if colour not in ids:
        raise ValueError(f"no colour {colour!r} in this kit; its colours: {', '.join(ids)}")
    return colour


def make_proofs(kit: Kit, only: str | None, out: Path, colour: str | None = None, dpi: float = DEFAULT_DPI,
                counter_size: str | None = None) -> ProofResult:
    """Choose the pieces, draw each face once, write PNGs and the PDF through one output stage."""
    start = time.perf_counter()
    from pnpgen.i18n import translator
    translator.activate(kit.edition)  # the kit's language, whichever kit was loaded last
    if counter_size is not None:
        from pnpgen.build import check_counter_size
        check_counter_size(counter_size)
    counter_size = counter_size or kit.counter_size
    size, dpi, colour = parse_length(counter_size), check_dpi(dpi), pick_colour(kit, colour)
    from pnpgen.render.font_reset import use_kit_fonts
    use_kit_fonts(kit.fonts)
    pieces = list(kit.component_pieces)
    if not pieces:
        raise ValueError(f"{kit.title} has no pieces to proof")
    wanted = parse_only(only) if only else [(ref, None) for ref in dict.fromkeys(p.ref for p in pieces)]
    chosen = {file_stem(ref, variant): choose(pieces, ref, variant, colour) for ref, variant in wanted}
    from pnpgen.export.decks import ExportArts
    arts = ExportArts(kit)
    proofs = []
    for stem, piece in chosen.items():
        shape = shape_of(kit, piece)
        back = arts.art(piece.back, shape, 0.0) if piece.back else None
        proofs.append(Proof(stem, piece, shape, arts.art(piece.front, shape, 0.0), back))
    check_out(out, kit.root, kit.id)
    with BuildLock(Path(out) / kit.id), OutputStage(Path(out) / kit.id, kit.id) as stage:
        for proof in proofs:
            write_png(stage.path(f"{PROOFS}/{proof.stem}-front.png"), proof.front, proof.shape, dpi)
            if proof.back is not None:
                write_png(stage.path(f"{PROOFS}/{proof.stem}-back.png"), proof.back, proof.shape, dpi)
        write_pdf(stage.path(f"{PROOFS}/proof.pdf"), kit, proofs, counter_size, size, kit.paper)
        add_print_scaling_none(stage.path(f"{PROOFS}/proof.pdf"))  # print at 100 %, as every PDF of a build
        files = [stage.target / rel for rel in stage.written]
    return ProofResult(files, time.perf_counter() - start, proofs)
