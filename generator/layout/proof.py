"""Where things sit on a proof: the PNG's canvas around one face, and the proof PDF's rows of front/back pairs.

Pure numbers in points, top-left origin; generator/proof.py draws what these say.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.lengths import pt_from_mm

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


def png_canvas(width: float, height: float) -> tuple[tuple[float, float], float]:
    """((canvas width, height), face offset) in points: the PNG is the face plus PNG_MARGIN_MM on every side."""
    margin = pt_from_mm(PNG_MARGIN_MM)
    return (width + 2 * margin, height + 2 * margin), margin


def safe_inset() -> float:
    return pt_from_mm(SAFE_INSET_MM)


def proof_rows(sizes: list[tuple[float, float]], page: tuple[float, float], margin: float) -> list[ProofRow]:
    """One row per piece of (width, height), top to bottom below the header, its back beside its front, or
    under it where the two do not fit across (a large hex tile); a row that would cross the bottom margin
    starts a new page."""
    top, bottom = margin + HEADER, page[1] - margin
    rows, number, y = [], 0, top
    for index, (width, height) in enumerate(sizes):
        across = 2 * width + FACE_GAP <= page[0] - 2 * margin
        row_height = LABEL + (height + CAPTION) * (1 if across else 2)
        if width > page[0] - 2 * margin or HEADER + row_height > page[1] - 2 * margin:
            raise ValueError(f"a {width:.1f} x {height:.1f} pt piece does not fit on the proof page with its back")
        if y + row_height > bottom:
            number, y = number + 1, top
        face_y = y + LABEL
        back = (margin + width + FACE_GAP, face_y) if across else (margin, face_y + height + CAPTION)
        rows.append(ProofRow(index, number, (margin, y + LABEL - 3), (margin, face_y), back))
        y += row_height + ROW_GAP
    return rows
