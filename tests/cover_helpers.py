"""What the tests of designed covers read from a front page: its picture's pixels around the kit's pieces
(kit.yaml cover.pieces), where the sky, the hexes or the planet show."""
from __future__ import annotations

from pnpgen.booklet.cover import front_box, piece_places, piece_rows
from pnpgen.documents.cover_data import cover_of

AROUND = 4.0   # points around each piece left out with it: its rim and shadow


def picture_around_pieces(page, kit, dpi: float = 30) -> list[tuple[int, int, int]]:
    """The RGB pixels of the front picture on pdfium `page`, at `dpi`, outside every piece and its rim."""
    size = (page.get_width(), page.get_height())
    scale = dpi / 72
    image = page.render(scale=scale).to_pil().convert("RGB")
    cover = cover_of(kit, "booklet", {"title": None}, "long")
    boxes = [(x - AROUND, y - AROUND, x + w + AROUND, y + h + AROUND)
             for x, y, w, h in piece_places(size, *piece_rows(cover))]
    bx, by, bw, bh = front_box(size)
    out = []
    for py in range(int((size[1] - by - bh) * scale) + 1, int((size[1] - by) * scale) - 1):
        for px in range(int(bx * scale) + 1, int((bx + bw) * scale) - 1):
            x, y = px / scale, size[1] - py / scale
            if not any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes):
                out.append(image.getpixel((px, py)))
    return out
