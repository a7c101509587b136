"""`pnpgen proof`: single counters at print size, front and back, with the cut line and the safe zone drawn on.

A designer who changed a unit or a face wants to see (and print, and hold) that one counter without a whole
sheet. Each face is drawn through the same function as the counter sheets (counter_sheets.face_svg: same
template, same parameters, same size), then written as

- `proofs/<ref>-front.png` / `-back.png`: the face plus a PNG_MARGIN_MM white border on every side, at the
  asked dpi (stored in the PNG, so it prints at size). The cut line is drawn in that border, just outside the
  art; the dashed safe zone lies SAFE_INSET_MM inside the cut, over the art.
- `proofs/proof.pdf`: every requested piece, front beside back at exact size (vector), labelled, with the
  same overlay and the 1 in / 25 mm scale check of the counter sheets.

Files go through the atomic output stage: a template error leaves the previous proofs as they were.
"""
from __future__ import annotations

import difflib
import re
import time
from dataclasses import dataclass
from pathlib import Path

from generator.fonts import FAMILY
from games.space_empires_4x.inventory import DEEP_SPACE, NEUTRAL, Piece, kit_pieces
from generator.layout.proof import SAFE_INSET_MM, png_canvas, proof_rows, safe_inset
from generator.lengths import mm, parse_length
from generator.model import Kit
from generator.output import BuildLock, OutputStage
from generator.paper import PRINTABLE_MARGIN, paper_size
from generator.render.counter_sheets import FaceRef, draw_scale, face_svg, paint_art, save_png
from generator.pdf_update import add_print_scaling_none
from generator.render.pdf import Art, PdfDocument, render_svg

PROOFS = "proofs"
CUT_COLOUR = (0.9, 0.0, 0.9)     # magenta: no player colour or face uses it, so the overlay never blends in
SAFE_COLOUR = (0.0, 0.7, 1.0)    # cyan, dashed
OVERLAY_WIDTH = 0.6              # points
SAFE_DASH = (2.0, 1.5)           # points on, off
DEFAULT_DPI = 300.0
MAX_DPI = 2400.0


@dataclass(frozen=True)
class Proof:
    """One proofed piece: the file stem, the piece, and its two faces drawn at the counter size."""

    stem: str
    piece: Piece
    front: Art
    back: Art


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


def variant_of(piece: Piece) -> str | None:
    """What `ref:N` picks: a unit's group number, else the value a marker or counter shows."""
    params = piece.front.params
    for key in ("group", "value", "cp"):
        if params.get(key) is not None:
            return str(params[key])
    return None


def choose(pieces: list[Piece], ref: str, variant: str | None, colour: str) -> Piece:
    """The first piece of `ref` (and variant) in `colour`; deep-space and neutral pieces have no colour."""
    same_ref = [p for p in pieces if p.ref == ref]
    if not same_ref:
        raise ValueError(unknown_ref_message(pieces, ref))
    found = [p for p in same_ref if variant is None or variant_of(p) == variant]
    if not found:
        known = sorted({v for v in map(variant_of, same_ref) if v is not None}, key=_natural)
        word = "group" if same_ref[0].kind == "unit" else "value"
        raise ValueError(f"{ref} has no {word} {variant!r}; it has: {', '.join(known) or 'none to choose from'}")
    for wanted in (lambda p: p.colour == colour, lambda p: p.group in (DEEP_SPACE, NEUTRAL), lambda p: True):
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

def face_art(kit: Kit, piece: Piece, side: str, size: float) -> Art:
    """A face drawn exactly as on the sheets: the same face_svg, then cairosvg at its physical size."""
    face = piece.front if side == "front" else piece.back
    source = f"{piece.ref} ({piece.label}, {side})"
    return render_svg(face_svg(FaceRef("", face.template, face.params_json, source), kit.root, mm(size)), source)


def draw_overlay(cr, x: float, y: float, size: float) -> None:
    """The cut line just outside the counter's edge (it covers no art) and the dashed safe zone inside it."""
    half, inset = OVERLAY_WIDTH / 2, safe_inset()
    cr.save()
    cr.set_line_width(OVERLAY_WIDTH)
    cr.set_source_rgb(*CUT_COLOUR)
    cr.rectangle(x - half, y - half, size + OVERLAY_WIDTH, size + OVERLAY_WIDTH)
    cr.stroke()
    cr.set_source_rgb(*SAFE_COLOUR)
    cr.set_dash(list(SAFE_DASH), 0)
    cr.rectangle(x + inset, y + inset, size - 2 * inset, size - 2 * inset)
    cr.stroke()
    cr.restore()


def write_png(path: Path, art: Art, size: float, dpi: float) -> None:
    canvas, offset = png_canvas(size)

    def draw(cr):
        paint_art(cr, art, offset, offset)
        draw_overlay(cr, offset, offset, size)
    save_png(str(path), (canvas, canvas), draw, dpi)


def header_lines(kit: Kit, counter_size: str, size: float) -> tuple[str, ...]:
    return (f"{kit.title} \u00b7 counter proof \u00b7 {counter_size} counters ({mm(size):.2f} mm)",
            "Print at 100% / actual size (never 'fit to page'); the bars at the right must measure 1 in and 25 mm.",
            f"Magenta: the cut line, just outside the counter's edge. Dashed cyan: the safe zone, "
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
    rows = proof_rows(len(proofs), size, page, margin)
    doc = PdfDocument(path, f"{kit.title}: counter proof", *page)
    cr = doc.context
    for row in rows:
        if row.page == doc.pages:
            doc.new_page()
            cr.set_source_rgb(0.1, 0.1, 0.1)
            for number, line in enumerate(header_lines(kit, counter_size, size)):
                draw_text(cr, margin, margin + 10 + number * 10, line, 9 if number == 0 else 7.5, number == 0)
            draw_scale(cr, page[0] - margin, margin + 8)
        draw_row(cr, proofs[row.index], row, size)
    doc.close()
    return doc.pages


def draw_row(cr, proof: Proof, row, size: float) -> None:
    piece = proof.piece
    cr.set_source_rgb(0.1, 0.1, 0.1)
    words = dict.fromkeys((piece.ref, piece.label, piece.name, piece.group))  # a marker's name is its label
    draw_text(cr, *row.label, " \u00b7 ".join(words), 8, True)
    for side, art, (x, y) in (("front", proof.front, row.front), ("back", proof.back, row.back)):
        paint_art(cr, art, x, y)
        draw_overlay(cr, x, y, size)
        cr.set_source_rgb(0.3, 0.3, 0.3)
        draw_text(cr, x, y + size + 9, side, 7)


# The command ----------------------------------------------------------------------------------------------

def check_dpi(dpi: float) -> float:
    if not 10 <= dpi <= MAX_DPI:
        raise ValueError(f"--dpi must be between 10 and {MAX_DPI:g}, not {dpi:g}")
    return dpi


def pick_colour(kit: Kit, colour: str | None) -> str:
    ids = [c.id for c in kit.colours]
    if colour is None:
        return ids[0]
    if colour not in ids:
        raise ValueError(f"no colour {colour!r} in this kit; its colours: {', '.join(ids)}")
    return colour


def make_proofs(kit: Kit, only: str | None, out: Path, colour: str | None = None, dpi: float = DEFAULT_DPI,
                counter_size: str | None = None) -> ProofResult:
    """Choose the pieces, draw each face once, write PNGs and the PDF through one output stage."""
    start = time.perf_counter()
    if counter_size is not None:
        from generator.build import check_counter_size
        check_counter_size(counter_size)
    counter_size = counter_size or kit.counter_size
    size, dpi, colour = parse_length(counter_size), check_dpi(dpi), pick_colour(kit, colour)
    pieces = kit_pieces(kit)
    wanted = parse_only(only) if only else [(ref, None) for ref in dict.fromkeys(p.ref for p in pieces)]
    chosen = {file_stem(ref, variant): choose(pieces, ref, variant, colour) for ref, variant in wanted}
    proofs = [Proof(stem, piece, face_art(kit, piece, "front", size), face_art(kit, piece, "back", size))
              for stem, piece in chosen.items()]
    with BuildLock(Path(out) / kit.id), OutputStage(Path(out) / kit.id) as stage:
        for proof in proofs:
            write_png(stage.path(f"{PROOFS}/{proof.stem}-front.png"), proof.front, size, dpi)
            write_png(stage.path(f"{PROOFS}/{proof.stem}-back.png"), proof.back, size, dpi)
        write_pdf(stage.path(f"{PROOFS}/proof.pdf"), kit, proofs, counter_size, size, kit.paper)
        add_print_scaling_none(stage.path(f"{PROOFS}/proof.pdf"))  # print at 100 %, as every PDF of a build
        files = [stage.target / rel for rel in stage.written]
    return ProofResult(files, time.perf_counter() - start, proofs)
