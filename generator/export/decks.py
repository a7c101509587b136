"""What print shops and digital tables are sent: a kit's component pieces as decks (one table, and one colour
of a per-colour table), each distinct face rendered once, and faces rasterised to RGB images."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pnpgen.lengths import parse_length

TARGETS = ("home", "print-shop", "tts")
BLEED = parse_length("1/8in")          # print shops ask 1/8 in past the trim on every side (9 pt)


def parse_targets(text: str) -> str:
    """`--for` value: one target or several joined by commas (`print-shop,tts`), checked and normalised."""
    import argparse
    names = [t.strip() for t in str(text).split(",") if t.strip()]
    unknown = [t for t in names if t not in TARGETS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown target {', '.join(unknown) or repr(text)} "
                                         f"(choose from {', '.join(TARGETS)}; several with commas)")
    return ",".join(t for t in TARGETS if t in names)


MAX_BLEED = parse_length("1/4in")


def parse_bleed(text: str) -> str:
    """`--bleed` value: a length from 0 to 1/4 in (print shops ask 1/8 in; some 3 mm)."""
    import argparse
    try:
        points = parse_length(str(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not 0 <= points <= MAX_BLEED:
        raise argparse.ArgumentTypeError(f"--bleed must be between 0 and 1/4in, not {text!r}")
    return str(text).strip()


def wants(target: str):
    """Part.wanted for a part built only when `--for` names `target`."""
    return lambda extra: target in str(extra.get("for") or "").split(",")


@dataclass(frozen=True)
class Deck:
    name: str           # table id, or table id + '-' + colour id for per-colour tables
    table: object       # pnpgen.components.tables.Table
    colour: str         # colour id or 'neutral'
    pieces: tuple       # in print order, every copy


def decks(kit) -> list[Deck]:
    """Every piece of the kit as decks, in print order: each table's pieces, one deck per colour of a
    per-colour table (at the size the build prints: --counter-size and --piece-size resize the tables)."""
    runs: dict[tuple, list] = {}
    for piece in kit.component_pieces:
        table_id = piece.ref.split(".", 1)[0]
        runs.setdefault((table_id, piece.colour), []).append(piece)
    out = []
    for (table_id, colour), pieces in runs.items():
        table = kit.tables[table_id]
        name = f"{table_id}-{colour}" if table.per_colour else table_id
        out.append(Deck(name, table, colour, tuple(pieces)))
    return out


class ExportArts:
    """Each distinct face rendered once (at the bleed asked for); faces whose SVG is the same text share one
    Art, so a common back is one image. Same steps as the components part's faces, without its disk store."""

    bleed_memo = None   # a reprint's sheets work their home bleed out afresh (pnpgen.render.bleed_memo is the build's)

    def __init__(self, kit):
        from pnpgen.components.files import face_origins
        from pnpgen.render.font_reset import use_kit_fonts
        from pnpgen.render.pdf import ArtCache
        use_kit_fonts(kit.fonts)   # the studio, proofs and print-shop files draw in the kit's fonts, as the build does
        self.cache = ArtCache(kit.root)   # images in the kit folder resolve against it
        from pnpgen.render.piece_faces import kit_env
        self.kit, self.origins, self.done = kit, face_origins(kit), {}
        self.env = kit_env(kit.root)  # looked up once: each look-up lists the kit's template folder

    def svg(self, face, shape, bleed_pt: float) -> tuple[str, str]:
        """(the face's SVG at the bleed asked for, where it comes from): what `art` draws, and what the studio
        hashes to tell a changed picture from an unchanged one. Every face goes the one face road
        (piece_faces.face_document); one whose templates draw to the trim only (a table's `mirror_bleed`:
        piece.mirror_bleed) is drawn without bleed, which `art` then makes by mirroring its edges."""
        from pnpgen.lengths import mm
        from pnpgen.render.piece_faces import face_document
        bleed = 0.0 if mirrors(face) else round(mm(bleed_pt), 4)
        where = self.origins.get(face.key, face.template)
        return face_document(self.kit, face, shape, bleed, where, self.env), where

    def art(self, face, shape, bleed_pt: float):
        key = (face.key, round(bleed_pt, 3))
        if key not in self.done:
            svg, where = self.svg(face, shape, bleed_pt)
            art = self.cache.get(svg, where)
            self.done[key] = mirror_bleed(art, bleed_pt) if mirrors(face) and bleed_pt > 0 else art
        return self.done[key]


def mirrors(face) -> bool:
    """Whether a face's bleed is made by mirroring its edges (its templates draw to the trim only)."""
    return bool(face.params["piece"].get("mirror_bleed"))


def mirror_bleed(art, bleed: float):
    """The art extended by `bleed` on every side with its own edges mirrored (the way prepress tools make
    bleed for art drawn only to the trim): nothing is stretched, and what lies past the trim is cut away."""
    from pnpgen.render.art import Art, cairo_and_cairosvg
    cairocffi, _ = cairo_and_cairosvg()
    w, h = art.width, art.height
    surface = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None)
    cr = cairocffi.Context(surface)
    seam = 0.75  # the mirrored bands reach under the face's own edge, so no anti-aliased hairline shows at the trim
    band = {-1: (0.0, bleed + seam), 0: (bleed, w), 1: (bleed + w - seam, bleed + seam)}
    bands_y = {-1: (0.0, bleed + seam), 0: (bleed, h), 1: (bleed + h - seam, bleed + seam)}
    for sx, sy in sorted(((x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)), key=lambda t: t == (0, 0)):
        cr.save()
        cr.rectangle(band[sx][0], bands_y[sy][0], band[sx][1], bands_y[sy][1])
        cr.clip()
        # a mirror axis a little inside each edge: the copy meets the face with opaque art, not its soft edge
        cr.translate(bleed + {-1: 2 * seam, 0: 0.0, 1: 2 * w - 2 * seam}[sx],
                     bleed + {-1: 2 * seam, 0: 0.0, 1: 2 * h - 2 * seam}[sy])
        cr.scale(-1 if sx else 1, -1 if sy else 1)
        cr.set_source_surface(art.recording, 0, 0)
        cr.paint()
        cr.restore()
    return Art(surface, w + 2 * bleed, h + 2 * bleed)


def safe_name(text: str) -> str:
    """A file-name-safe form of a row label."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", str(text)).strip("-.") or "x"


def distinct_faces(deck: Deck, side: str, arts, bleed: float) -> tuple[list, list[int]]:
    """([(art, first piece)] in order of first use, [index into that list for every piece]) for one side;
    faces that render to the same art (the same SVG) share one entry."""
    faces, index, where = [], [], {}
    for piece in deck.pieces:
        face = piece.front if side == "front" else piece.back
        if face is None:
            index.append(-1)
            continue
        art = arts.art(face, deck.table.shape, bleed)
        if id(art) not in where:
            where[id(art)] = len(faces)
            faces.append((art, piece))
        index.append(where[id(art)])
    return faces, index


def rasterise(art, width_px: int, height_px: int, background=(255, 255, 255)):
    """A PIL RGB image of `art` scaled to width_px x height_px, on an opaque background."""
    from PIL import Image

    from pnpgen.fonts import use_shipped_fonts_for_cairo
    use_shipped_fonts_for_cairo()
    import cairocffi
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, width_px, height_px)
    cr = cairocffi.Context(surface)
    cr.set_source_rgb(*(c / 255 for c in background))
    cr.paint()
    cr.scale(width_px / art.width, height_px / art.height)
    cr.set_source_surface(art.recording, 0, 0)
    cr.rectangle(0, 0, art.width, art.height)
    cr.fill()
    surface.flush()
    image = Image.frombuffer("RGBA", (width_px, height_px), bytes(surface.get_data()), "raw", "BGRA",
                             surface.get_stride(), 1)
    return image.convert("RGB")


def pixels(points: float, dpi: float) -> int:
    return max(1, round(points * dpi / 72.0))


def save_png(image, path, dpi: float) -> None:
    """PNG with its resolution stored (so it prints at size); Pillow writes the same bytes every time."""
    image.save(path, format="PNG", dpi=(dpi, dpi), optimize=False)
