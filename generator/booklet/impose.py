"""Saddle-stitch imposition: booklet pages 2-up on landscape sheets, ordered so the printed stack,
printed duplex with the build's one flip, folded once and stapled, reads in order. A long-edge flip turns
a landscape sheet's back over top to bottom, so the back sides are then drawn half a turn round
(pnpgen.duplex); a short-edge flip needs them as they are. The back sides move by the build's back
offset (--back-offset, read off the calibration sheet), as every other double-sided file's backs do.
Nothing about printing is drawn on the sheets: the booklet's pages fill them, so a print line would stay on
the covers of the folded booklet. The build's summary and the manifest say how to print the stack (two-sided,
the flip, fold and staple), and the calibration sheet's landscape page checks the flip.

The blanks that make the page count a multiple of four go at the end, so no page of text is parted
from the one before it by a blank and none lands alone on the back cover; only the designed back cover
(kit.yaml `cover:`) and a page the kit names as its back cover (documents.<id>.back_cover; the inside back
cover when there is a designed one, on the same leaf) stay last, with the blanks before them."""
from __future__ import annotations

from pnpgen.booklet.pdfcopy import impose_pages
from pnpgen.duplex import mirrors_top_bottom, page_offset


def padded(pages: int, back_cover: int = 0) -> list[int | None]:
    """Page indexes padded with blanks (None) to a multiple of 4: at the end, or before the last
    `back_cover` pages (the back cover, and the inside back cover) that stay last."""
    blanks = [None] * (-(-pages // 4) * 4 - pages)
    kept = min(int(back_cover), pages - 1) if pages >= 2 else 0
    return list(range(pages - kept)) + blanks + list(range(pages - kept, pages))


def sheet_sides(pages: int, back_cover: int = 0) -> list[tuple[int | None, int | None]]:
    """(left, right) page index of every printed side, in print order: sheet 1 front, sheet 1 back, ..."""
    seq = padded(pages, back_cover)
    n, sides = len(seq), []
    for sheet in range(n // 4):
        i = 2 * sheet
        sides.append((seq[n - 1 - i], seq[i]))           # front: outer pages
        sides.append((seq[i + 1], seq[n - 2 - i]))       # back: the pages inside them
    return sides


def impose(pdf: bytes, sheet: tuple[float, float], back_cover: int = 0, duplex: str = "short",
           back_offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """A new PDF of landscape sheets, each booklet page centred in its half (drawn as a form XObject, its
    bytes copied as they are: booklet.pdfcopy); `back_cover`: how many last pages stay there (the back
    cover, the inside back cover). The back sides are turned half a turn where the `duplex` flip stands them
    on their heads, and moved by `back_offset` (points, portrait: x right, y down)."""
    width, height = sheet
    turn_backs = mirrors_top_bottom(sheet, duplex)
    shift_x, shift_y = page_offset(sheet, back_offset)

    def matrix(side: int, x0: float, box: list) -> tuple:
        back = side % 2 == 1
        ox, oy = (shift_x, -shift_y) if back else (0.0, 0.0)   # PDF's y runs up
        dx, dy = x0 + (width / 2 - (box[2] - box[0])) / 2, (height - (box[3] - box[1])) / 2
        placed = (-1, 0, 0, -1, width - dx, height - dy) if turn_backs and back else (1, 0, 0, 1, dx, dy)
        return (*placed[:4], placed[4] + ox, placed[5] + oy)
    return impose_pages(pdf, sheet, lambda pages: sheet_sides(pages, back_cover), matrix)
