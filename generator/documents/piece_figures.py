"""Figures any kit's documents may place without code: a component piece as its sheets print it, front and
back, drawn from the kit's own templates. `{{ figure('cards.Explore') }}` names the piece by its ref (table
and row), `figure('cards.Explore:front')` (or `:back`) one side alone; a per-colour piece shows its first
colour. Like every figure, it prints large enough for its smallest text to read at 6 pt
(pnpgen.booklet.overlay.readable), as wide as the column at most."""
from __future__ import annotations

from pnpgen.booklet.figure import Art, Figure
from pnpgen.i18n.translator import core_words


def piece_figures(kit) -> dict:
    """{ref: () -> Figure} for the first piece of every ref of the kit's component tables, and
    {ref:front, ref:back: () -> Figure} for each of its sides alone."""
    first: dict = {}
    for piece in kit.component_pieces:
        first.setdefault(piece.ref, piece)
    out = {ref: (lambda piece=piece: piece_figure(kit, piece)) for ref, piece in first.items()}
    for ref, piece in first.items():
        for side in ("front", "back"):
            out[f"{ref}:{side}"] = lambda piece=piece, side=side: piece_figure(kit, piece, side)
    return out


def piece_figure(kit, piece, only: str | None = None) -> Figure:
    """The piece's sides (or the one `only` names) as a figure."""
    from pnpgen.render.piece_faces import face_document
    shape = kit.tables[piece.ref.split(".", 1)[0]].shape
    sides = [("Front", piece.front)] + ([("Back", piece.back)] if piece.back and piece.back != piece.front else [])
    sides = [(side, face) for side, face in sides if only is None or side.lower() == only] or sides[:1]
    caption = caption_name(kit, piece)
    arts = [Art(face_document(kit, face, shape, 0, f"figure {piece.ref}"), piece.label,
                f"{core_words(side)}: {caption}")
            for side, face in sides]
    return Figure(piece.ref if only is None else f"{piece.ref}:{only}", tuple(arts))


COVER = "kit.yaml cover"   # the name of the front cover's figure: no directive can name it (it has a space)


def cover_figure(kit, cover) -> Figure:
    """The pieces the cover shows (documents.cover_data.CoverPiece), one art each, drawn by the same
    templates as the sheets."""
    from pnpgen.render.piece_faces import face_document
    arts = []
    for shown in cover.pieces:
        piece = find_piece(kit, shown.ref, shown.colour)
        face = piece.back if shown.side == "back" else piece.front
        arts.append(Art(face_document(kit, face, shown.shape, 0, f"cover piece {piece.ref}"), piece.label, ""))
    return Figure(COVER, tuple(arts))


def find_piece(kit, ref: str, colour: str | None = None):
    """The first piece of `ref` (in `colour`, where one is given), or None."""
    return next((p for p in kit.component_pieces if p.ref == ref and colour in (None, p.colour)), None)


def caption_name(kit, piece) -> str:
    """'Table: row' in the kit's own words: the row's `name` where it has one (an id such as 'summary-red' is
    a handle for the data, not words for a reader), else the row's label."""
    table_id, label = piece.ref.split(".", 1)
    table = kit.tables[table_id]
    row = next((r for r in table.rows if r.label == label), None)
    name = row.values.get("name") if row is not None else None
    return f"{table.name}: {name}" if name not in (None, "") else piece.name
