"""Figures any kit's documents may place without code: a component piece as its sheets print it, front and
back, drawn from the kit's own templates. `{{ figure('cards.Explore') }}` names the piece by its ref (table
and row); a per-colour piece shows its first colour."""
from __future__ import annotations

from pnpgen.booklet.figure import Art, Figure
from pnpgen.i18n.translator import core_words


def piece_figures(kit) -> dict:
    """{ref: () -> Figure} for the first piece of every ref of the kit's component tables."""
    first: dict = {}
    for piece in kit.component_pieces:
        first.setdefault(piece.ref, piece)
    return {ref: (lambda piece=piece: piece_figure(kit, piece)) for ref, piece in first.items()}


def piece_figure(kit, piece) -> Figure:
    from pnpgen.render.piece_faces import face_document
    shape = kit.tables[piece.ref.split(".", 1)[0]].shape
    sides = [("Front", piece.front)] + ([("Back", piece.back)] if piece.back and piece.back != piece.front else [])
    caption = caption_name(kit, piece)
    arts = [Art(face_document(kit, face, shape, 0, f"figure {piece.ref}"), piece.label,
                f"{core_words(side)}: {caption}")
            for side, face in sides]
    return Figure(piece.ref, tuple(arts))


def caption_name(kit, piece) -> str:
    """'Table: row' in the kit's own words: the row's `name` where it has one (an id such as 'summary-red' is
    a handle for the data, not words for a reader), else the row's label."""
    table_id, label = piece.ref.split(".", 1)
    table = kit.tables[table_id]
    row = next((r for r in table.rows if r.label == label), None)
    name = row.values.get("name") if row is not None else None
    return f"{table.name}: {name}" if name not in (None, "") else piece.name
