"""Pieces on their board spaces: a place or a track that names (`holds:`) the component it is made for is
checked against that piece's printed size. A piece larger than its space, or one that reaches over a
neighbouring space, cannot be played as printed: the players would have to stack or shove them.

A place's `size` is its diameter, across-flats or side, a track's `cell` a square's side. The piece is
measured the way it lies on that space: a disc by its diameter; a hex on a hex space across its flats,
elsewhere corner to corner; a square or card on a square by its longer side, on a round space by its
diagonal. The same measure, halved, is how far it reaches towards a neighbour.
"""
from __future__ import annotations

import math

from pnpgen.lengths import mm

SLACK = 0.05   # mm: what rounding in a layout leaves


def piece_extent(ref: str, tables: dict, space: str = "square") -> tuple[str, float] | None:
    """(the piece's name, its size in mm as it lies on a `space` of that shape) for `table` or `table.row`;
    None when there is no such table or row."""
    table_id, _, row_id = ref.partition(".")
    table = tables.get(table_id)
    if table is None or (row_id and not any(row.label == row_id for row in table.rows)):
        return None
    shape = table.shape
    w, h = mm(shape.w), mm(shape.h)
    if shape.kind == "circle":
        return ref, w
    if shape.kind == "hex":
        return ref, min(w, h) if space == "hex" else max(w, h)
    return ref, math.hypot(w, h) if space in ("circle", "hex") else max(w, h)


def place_findings(places: list, tables: dict) -> list[tuple[int, str]]:
    """(index of the place, problem) for every place whose `holds` piece is too big for it or its neighbours."""
    found = []
    for index, place in enumerate(places):
        if not place.get("holds"):
            continue
        held = piece_extent(place["holds"], tables, place.get("shape", "circle"))
        if held is None:
            found.append((index, f"holds {place['holds']!r}: no such component table or row"))
            continue
        name, extent = held
        if extent > place["size"] + SLACK:
            found.append((index, f"{name} ({extent:.1f} mm) is larger than the place ({place['size']:g} mm)"))
        for other in places:
            if other is not place and other.get("shape") != "none":
                apart = math.hypot(other["x"] - place["x"], other["y"] - place["y"])
                if apart < extent / 2 + other["size"] / 2 - SLACK:
                    found.append((index, f"{name} ({extent:.1f} mm) on it reaches over place {other['id']} "
                                         f"({apart:.1f} mm away, centre to centre)"))
    return found


def track_findings(tracks: list, tables: dict) -> list[tuple[int, str]]:
    """(index of the track, problem) for every track whose `holds` piece is too big for a space or reaches
    over the next one (spaces `pitch` apart, centre to centre)."""
    found = []
    for index, track in enumerate(tracks):
        if not track.get("holds"):
            continue
        held = piece_extent(track["holds"], tables)
        if held is None:
            found.append((index, f"holds {track['holds']!r}: no such component table or row"))
            continue
        name, extent = held
        cell, pitch = track["cell"], track.get("pitch") or track["cell"]
        if extent > cell + SLACK:
            found.append((index, f"{name} ({extent:.1f} mm) is larger than a space ({cell:g} mm)"))
        elif extent / 2 + cell / 2 > pitch + SLACK:
            found.append((index, f"{name} ({extent:.1f} mm) on a space reaches over the next one "
                                 f"(spaces {pitch:g} mm apart, {cell:g} mm wide)"))
    return found
