"""Expanding component tables into physical pieces: `qty` copies of every row, once per colour where asked.

Each piece carries a front and a back Face (template + JSON parameters). The parameters hold the row,
the piece's shape and the colour, and the copy's number only in a numbered table, so identical copies render
once.
"""
from __future__ import annotations

from pnpgen.components.tables import Table
from pnpgen.pieces import ENCODE, Face, Piece, colour_params, joined_face
from pnpgen.lengths import mm

NEUTRAL = "neutral"
OWN_COLUMNS = ("qty", "front", "back")
# Half the printable area of the smaller of Letter and A4 (203 x 267 mm inside 1/4 in margins), in pt².
SHARE_BELOW = 0.5 * (203.2 * 72 / 25.4) * (266.7 * 72 / 25.4)


def piece_params(table: Table, bleed_mm: float = 0.0) -> dict:
    """The piece as its templates see it (`piece.w` ...); `mirror_bleed` only where the table asks for it
    (export.decks reads it), so every other table's faces keep their keys."""
    shape = table.shape
    params = {"w": round(mm(shape.w), 4), "h": round(mm(shape.h), 4), "shape": shape.kind,
              "radius": round(mm(shape.radius), 4), "orientation": shape.orientation, "bleed": bleed_mm,
              "table": table.id}
    return params | {"mirror_bleed": True} if table.mirror_bleed else params


def row_faces(table: Table, row, colour, bleed_mm: float = 0.0, number: int | None = None,
              memo: dict | None = None) -> tuple[Face, Face | None]:
    """The front and back of a row's pieces; a numbered table's copy `number` has faces of its own. `memo`: the
    encoded parameters of the rows and colours met so far in one table's expansion (they stay alive in it),
    so a row is encoded once, not once per face and colour."""
    memo = {} if memo is None else memo
    row_key, colour_key = (id(row), number), ("colour", id(colour))
    if row_key not in memo:
        values = {k: v for k, v in row.values.items() if k not in OWN_COLUMNS}
        if number is not None:
            values["number"] = number
        memo[row_key] = {"row": ENCODE(values), "piece": ENCODE(piece_params(table, bleed_mm) | {"id": row.label})}
    if colour_key not in memo:
        memo[colour_key] = ENCODE(colour_params(colour))
    base = memo[row_key] | {"colour": memo[colour_key]}
    front = joined_face(row.values.get("front") or table.front, base | {"side": '"front"'})
    back_name = row.values.get("back") or table.back
    back = joined_face(back_name, base | {"side": '"back"'}) if back_name else None
    return front, back


def colour_files(table: Table) -> bool:
    """Whether a per_colour table prints one file per colour. The table says so (colour_files), or its size
    does: a colour's pieces that cover less than half a page would leave most of every sheet blank in a file
    of their own, so they share sheets with the other colours; a player's deck of cards keeps its own file.
    Decided from the table alone (not the paper), so print groups and their rule counts never depend on it."""
    if not table.per_colour:
        return False
    if table.colour_files is not None:
        return table.colour_files
    copies = sum(row.values["qty"] for row in table.rows)
    return copies * table.shape.w * table.shape.h >= SHARE_BELOW


def table_pieces(table: Table, colours: tuple, neutral, bleed_mm: float = 0.0) -> list[Piece]:
    """Every piece of one table, in print order: colour by colour, then row by row, copy by copy."""
    pieces, memo = [], {}
    own_files = colour_files(table)
    for colour in (colours if table.per_colour else (None,)):
        group = f"{table.group}-{colour.id}" if colour and own_files else table.group
        for row in table.rows:
            name = f"{table.name}: {row.label}"
            for number, (front, back) in copy_faces(table, row, colour or neutral, bleed_mm, memo):
                label = f"{row.label} {number}" if number is not None else row.label
                pieces.append(Piece(ref=f"{table.id}.{row.label}", name=name, label=label,
                                    colour=colour.id if colour else NEUTRAL, group=group, front=front, back=back))
    return pieces


def copy_faces(table: Table, row, colour, bleed_mm: float = 0.0, memo: dict | None = None) -> list[tuple]:
    """(number, (front, back)) of each copy of a row: identical copies share their faces (number None); a
    numbered table's copies are numbered 1..qty from their index (group numbers, serials). `memo`: row_faces'."""
    if not table.numbered:
        return [(None, row_faces(table, row, colour, bleed_mm, memo=memo))] * row.values["qty"]
    return [(n, row_faces(table, row, colour, bleed_mm, n, memo)) for n in range(1, row.values["qty"] + 1)]

