"""Files for a print shop (`pnpgen build --for print-shop`), into output/<kit>/print-shop/:

- `<deck>.pdf` for every table (and every colour of a per-colour table): one piece per page at its trim size
  plus 1/8 in bleed on each side, the art re-rendered with `piece.bleed` set (templates draw their ground
  from -piece.bleed), never stretched; pages back 1, front 1, back 2, front 2 ... (DriveThruCards' order;
  one-sided pieces: fronts only); every page has TrimBox = the piece and BleedBox = the page; a table whose
  templates draw to the trim only (`mirror_bleed: true`, Space Empires 4X's counters) has its bleed made by
  mirroring each face's edges;
- `png/<deck>-NN-<label>-<side>.png`: every distinct face at trim + bleed, 300 dpi (resolution stored);
  a face every piece of a deck shares on one side (a common back) is `png/<deck>-<side>.png`.

The home-print sheets are not touched: this is a separate part that runs only when asked for.
"""
from __future__ import annotations

from pnpgen.export.decks import (BLEED, ExportArts, decks, distinct_faces, pixels, rasterise,
                                    safe_name, save_png)
from pnpgen.lengths import parse_length
from pnpgen.pdf_update import set_page_boxes

FOLDER = "print-shop"
DPI = 300


def page_boxes(shape, bleed: float) -> tuple[tuple, tuple]:
    """(TrimBox, BleedBox) in PDF coordinates of a page that is the piece plus `bleed` on every side."""
    w, h = shape.w + 2 * bleed, shape.h + 2 * bleed
    return (bleed, bleed, bleed + shape.w, bleed + shape.h), (0.0, 0.0, w, h)


def write_deck(ctx, deck, arts: ExportArts, bleed: float = BLEED) -> dict:
    from pnpgen.render.pdf import PdfDocument
    shape = deck.table.shape
    width, height = shape.w + 2 * bleed, shape.h + 2 * bleed
    rel = f"{FOLDER}/{deck.name}.pdf"
    path = ctx.stage.path(rel)
    title = f"{ctx.kit.title}: {deck.table.name}" + (f" ({deck.colour})" if deck.table.per_colour else "")
    doc = PdfDocument(path, title, width, height)
    order = []
    for number, piece in enumerate(deck.pieces, 1):
        for side, face in (("back", piece.back), ("front", piece.front)):
            if face is None:
                continue
            art = arts.art(face, shape, bleed)
            if abs(art.width - width) > 0.01 or abs(art.height - height) > 0.01:
                raise AssertionError(f"{deck.name}: face {face.template} is {art.width} x {art.height} pt, "
                                     f"the page {width} x {height}")
            doc.new_page(width, height)
            doc.place(art, 0, 0)
            order.append(f"{side} {number}")
    doc.close()
    set_page_boxes(path, [page_boxes(shape, bleed)] * len(order))
    trim, box = page_boxes(shape, bleed)
    return {"deck": deck.name, "table": deck.table.id, "colour": deck.colour, "path": rel, "pages": len(order),
            "pieces": len(deck.pieces), "page_size": [round(width, 3), round(height, 3)],
            "trim_box": [round(v, 3) for v in trim], "bleed_box": [round(v, 3) for v in box],
            "order": "back, front" if any(p.back for p in deck.pieces) else "front"}


def write_images(ctx, deck, arts: ExportArts, bleed: float = BLEED, dpi: float = DPI) -> list[dict]:
    shape = deck.table.shape
    size = (pixels(shape.w + 2 * bleed, dpi), pixels(shape.h + 2 * bleed, dpi))
    images = []
    for side in ("front", "back"):
        faces, index = distinct_faces(deck, side, arts, bleed)
        shared = len(faces) == 1 and len(deck.pieces) > 1
        for n, (art, piece) in enumerate(faces, 1):
            name = f"{deck.name}-{side}" if shared else f"{deck.name}-{n:02d}-{safe_name(piece.label)}-{side}"
            rel = f"{FOLDER}/png/{name}.png"
            save_png(rasterise(art, *size), ctx.stage.path(rel), dpi)
            images.append({"path": rel, "deck": deck.name, "side": side, "px": list(size), "dpi": dpi,
                           "pieces": [p.label for p, i in zip(deck.pieces, index) if i == n - 1]})
    return images


def build(ctx) -> dict:
    kit = ctx.kit
    arts = ExportArts(kit)
    bleed = parse_length(ctx.option("bleed") or "1/8in")
    files, images = [], []
    for deck in decks(kit):
        files.append(write_deck(ctx, deck, arts, bleed))
        images += write_images(ctx, deck, arts, bleed)
    ctx.log(f"print-shop: {len(files)} decks, {sum(f['pages'] for f in files)} pages, {len(images)} images")
    return {"bleed_pt": round(bleed, 3), "dpi": DPI, "files": files, "images": images}
