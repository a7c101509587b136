"""Where things sit on a proof: the PNG's canvas around one face, and the proof PDF's rows of front/back pairs.

Pure numbers in points, top-left origin; games.space_empires_4x.proof draws what these say.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.lengths import pt_from_mm

SAFE_INSET_MM = 1.0     # keep text and symbols this far inside the cut: a hand cut wanders about a millimetre
PNG_MARGIN_MM = 3.0     # white border around the face in a proof PNG, so the cut line lies outside the art
HEADER = 58.0           # page title, the overlay key and the 1 in / 25 mm scale check
LABEL = 12.0            # a row's label line above its faces
CAPTION = 12.0          # "front" / "back" under each face
ROW_GAP = 14.0
FACE_GAP = 36.0         # between a front and its back


@dataclass(frozen=True)
class ProofRow:
    """One proofed piece on the page: its label's baseline and the top-left corners of its two faces."""

    index: int              # into the list of proofs
    page: int               # 0-based
    label: tuple[float, float]
    front: tuple[float, float]
    back: tuple[float, float]


def png_canvas(size: float) -> tuple[float, float]:
    """(canvas edge, face offset) in points: the PNG is the face plus PNG_MARGIN_MM on every side."""
    margin = pt_from_mm(PNG_MARGIN_MM)
    return size + 2 * margin, margin


def safe_inset() -> float:
    return pt_from_mm(SAFE_INSET_MM)


def proof_rows(count: int, size: float, page: tuple[float, float], margin: float) -> list[ProofRow]:
    """Rows top to bottom below the header; a row that would cross the bottom margin starts a new page."""
    if 2 * size + FACE_GAP > page[0] - 2 * margin or HEADER + LABEL + size + CAPTION > page[1] - 2 * margin:
        raise ValueError(f"a {size:.1f} pt counter does not fit twice across the proof page")
    step = LABEL + size + CAPTION + ROW_GAP
    top, bottom = margin + HEADER, page[1] - margin
    rows, number, y = [], 0, top
    for index in range(count):
        if y + LABEL + size + CAPTION > bottom:
            number, y = number + 1, top
        face_y = y + LABEL
        rows.append(ProofRow(index, number, (margin, y + LABEL - 3), (margin, face_y),
                             (margin + size + FACE_GAP, face_y)))
        y += step
    return rows
