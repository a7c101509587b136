"""Saddle-stitch imposition: booklet pages 2-up on landscape sheets, ordered so the printed stack,
printed duplex with the build's one flip, folded once and stapled, reads in order. A long-edge flip turns
a landscape sheet's back over top to bottom, so the back sides are then drawn half a turn round
(pnpgen.duplex); a short-edge flip needs them as they are."""
from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter

from pnpgen.booklet.pdfforms import draw_forms, page_form
from pnpgen.duplex import mirrors_top_bottom


def padded(pages: int) -> list[int | None]:
    """Page indexes padded with blanks (None) to a multiple of 4; blanks go before the back cover."""
    total = -(-pages // 4) * 4
    if pages < 2:
        return list(range(pages)) + [None] * (total - pages)
    return list(range(pages - 1)) + [None] * (total - pages) + [pages - 1]


def sheet_sides(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page index of every printed side, in print order: sheet 1 front, sheet 1 back, ..."""
    seq = padded(pages)
    n, sides = len(seq), []
    for sheet in range(n // 4):
        i = 2 * sheet
        sides.append((seq[n - 1 - i], seq[i]))           # front: outer pages
        sides.append((seq[i + 1], seq[n - 2 - i]))       # back: the pages inside them
    return sides


def impose(pdf: bytes, sheet: tuple[float, float], duplex: str = "short") -> bytes:
    """A new PDF of landscape sheets, each booklet page centred in its half (drawn as a form XObject), the
    back sides turned half a turn where the `duplex` flip stands them on their heads."""
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    forms = [page_form(writer, page) for page in reader.pages]
    width, height = sheet
    turn_backs = mirrors_top_bottom(sheet, duplex)
    for number, (left, right) in enumerate(sheet_sides(len(reader.pages))):
        side = writer.add_blank_page(width, height)
        placed = []
        for index, x0 in ((left, 0.0), (right, width / 2)):
            if index is not None:
                box = reader.pages[index].mediabox
                dx, dy = x0 + (width / 2 - float(box.width)) / 2, (height - float(box.height)) / 2
                turned = turn_backs and number % 2 == 1
                placed.append((forms[index], (-1, 0, 0, -1, width - dx, height - dy) if turned else (1, 0, 0, 1, dx, dy)))
        draw_forms(writer, side, placed)
    writer.add_metadata({"/Title": f"{reader.metadata.title} (imposed for saddle stitching)"}
                        if reader.metadata and reader.metadata.title else {})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
