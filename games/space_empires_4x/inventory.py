"""Expand the kit model into every physical piece, each with a front and a back face to render.

A Face is a template name plus JSON parameters: hashable, deterministic, and the render-cache key.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pnpgen.model import Colour, Kit
from pnpgen.games.space_empires_4x.model import CounterSet, MarkerKind, Unit
from pnpgen.pieces import Face, Piece, colour_params, face

DEEP_SPACE = "deep-space"
NEUTRAL = "neutral"


def template_id(name: str) -> str:
    return name.replace("_", "-")


# A counter's face has a table piece's parameters (its row's values by name, its colour, its piece), so the
# core draws, proofs and exports it as it does any table's. Its templates draw in the 100 x 100 counter
# square, to the trim only: a print shop's bleed is made by mirroring the face's edges.
COUNTER_PIECE = {"shape": "square", "mirror_bleed": True}


def counter_face(template: str, colour: dict | None = None, **row) -> Face:
    return face(template, row=row, colour=colour, piece=COUNTER_PIECE)


def kit_pieces(kit: Kit) -> list[Piece]:
    """Every piece, in print order: each colour's set, then deep space, then neutral counters."""
    pieces: list[Piece] = []
    for colour in kit.colours:
        for unit in kit.units.values():
            pieces += unit_pieces(unit, colour, kit)
        pieces += home_markers(kit, colour)
        for cset in kit.counters.values():
            if cset.per == "colour":
                pieces += counter_pieces(kit, cset, colour)
    pieces += deep_space_markers(kit)
    for cset in kit.counters.values():
        if cset.per == "neutral":
            pieces += counter_pieces(kit, cset, kit.neutral)
    return pieces


# Units -----------------------------------------------------------------------------------------

def unit_pieces(unit: Unit, colour: Colour, kit: Kit) -> list[Piece]:
    return [
        Piece("unit", f"units.{unit.code}", unit.name, _unit_label(unit, number), colour.id, colour.id,
              unit.rules, unit_front(unit, colour, number), unit_back(unit, colour, kit, number))
        for number in unit.group_numbers
    ]


def _unit_label(unit: Unit, number: int) -> str:
    return f"{unit.code} {number}" if unit.groups else unit.code


def unit_front(unit: Unit, colour: Colour, number: int) -> Face:
    return counter_face(unit.template or "unit-front", colour_params(colour), code=unit.code, name=unit.name,
                        group=number if unit.groups else None, cls=unit.cls, attack=unit.attack,
                        defence=unit.defence, hull=unit.hull, rules=unit.rules)


def unit_back(unit: Unit, colour: Colour, kit: Kit, number: int) -> Face:
    if unit.back_template:
        return counter_face(unit.back_template, colour_params(colour), code=unit.code)
    if unit.back == "same":
        return unit_front(unit, colour, number)
    if unit.back == "colony":
        return colony_face(colour, kit.game.economy["colony_growth"][0])
    if unit.back == "moved":
        return counter_face("pipeline-moved", colour_params(colour), code=unit.code, name=unit.name)
    return counter_face("group-back", colour_params(colour))


def colony_face(colour: Colour, cp: int) -> Face:
    return counter_face("colony", colour_params(colour), cp=cp)


# System markers ----------------------------------------------------------------------------------

def marker_label(kind: MarkerKind, value: int | None) -> str:
    if value is None:
        return kind.name
    return f"{kind.name} {value} CP" if kind.value == "cp" else f"{kind.name} {value}"


def marker_front(kind: MarkerKind, value: int | None, border: Colour) -> Face:
    return counter_face(kind.template or f"marker-{template_id(kind.id)}", kind=kind.id, name=kind.name,
                        value=value, value_is=kind.value, border=colour_params(border), stats=kind.stats)


def marker_back(border: Colour) -> Face:
    """Only the border colour: unexplored markers of one area cannot be told apart."""
    return counter_face("marker-back", border=colour_params(border))


def _markers(kit: Kit, entries, border: Colour, group: str) -> list[Piece]:
    pieces = []
    for entry in entries:
        kind = kit.marker_kinds[entry.kind]
        label = marker_label(kind, entry.value)
        front, back = marker_front(kind, entry.value, border), marker_back(border)
        colour = border.id if group != DEEP_SPACE else NEUTRAL
        pieces += [Piece("system-marker", f"markers.{kind.id}", label, label, colour, group, kind.rules,
                         front, back)] * entry.count
    return pieces


def home_markers(kit: Kit, colour: Colour) -> list[Piece]:
    return _markers(kit, kit.home_system.face_up + kit.home_system.entries, colour, colour.id)


def deep_space_markers(kit: Kit) -> list[Piece]:
    white = Colour("deep-space", "Deep space", "#ffffff", "#1a1a1a", "hexagon", "none")
    return _markers(kit, kit.deep_space.entries, white, DEEP_SPACE)


# Other counters ----------------------------------------------------------------------------------

def counter_sides(kit: Kit, cset: CounterSet) -> list[tuple]:
    """(front value, back value) of each distinct counter in a set."""
    sides = cset.sides
    if "steps" in sides:
        steps = kit.game.homeworld_steps() if sides["steps"] == "homeworld" else kit.game.economy["colony_growth"]
        steps = list(steps)[sides.get("from", 0):]
        return [(steps[i], steps[i + 1] if i + 1 < len(steps) else steps[i]) for i in range(0, len(steps), 2)]
    if "values" in sides:
        return [(v, v) for v in sides["values"]]
    return [(sides["front"], sides["back"])]


def counter_template(cset: CounterSet) -> str:
    if cset.template:
        return cset.template
    steps = cset.sides.get("steps")
    if steps == "colony":
        return "colony"
    if steps == "homeworld":
        return "homeworld-step"
    if "values" in cset.sides:
        return "numeral"
    return "label"


def counter_pieces(kit: Kit, cset: CounterSet, colour: Colour) -> list[Piece]:
    template = counter_template(cset)
    pieces = []
    for front_value, back_value in counter_sides(kit, cset):
        front = _counter_face(template, cset, colour, front_value)
        back = _counter_face(template, cset, colour, back_value)
        label = _counter_label(cset, front_value, back_value)
        pieces += [Piece("counter", f"counters.{cset.id}", cset.name, label, colour.id,
                         colour.id if cset.per == "colour" else NEUTRAL, cset.rules, front, back)] * cset.copies
    return pieces


def _counter_label(cset: CounterSet, front_value, back_value) -> str:
    if isinstance(front_value, str):  # fixed labels: the set's name says it all
        return cset.name
    return f"{cset.name} {front_value}" + (f" / {back_value}" if back_value != front_value else "")


def _counter_face(template: str, cset: CounterSet, colour: Colour, value) -> Face:
    if template == "colony":
        return colony_face(colour, value)
    return counter_face(template, colour_params(colour), name=cset.name, value=value)


# Summaries -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class InventoryLine:
    kind: str
    ref: str
    name: str
    per_colour: dict        # colour id -> count
    neutral: int

    @property
    def total(self) -> int:
        return sum(self.per_colour.values()) + self.neutral


def inventory_lines(kit: Kit, pieces: list[Piece]) -> list[InventoryLine]:
    """The box's component list: one line per distinct item, counted per colour and in total."""
    order, counts = [], {}
    for piece in pieces:
        key = (piece.kind, piece.ref, piece.name if piece.kind == "unit" else piece.label, piece.group == DEEP_SPACE)
        if key not in counts:
            order.append(key)
            counts[key] = Counter()
        counts[key][piece.colour] += 1
    lines = []
    for key in order:
        kind, ref, name, _ = key
        per_colour = {c.id: counts[key][c.id] for c in kit.colours if counts[key][c.id]}
        lines.append(InventoryLine(kind, ref, name, per_colour, counts[key][NEUTRAL]))
    return lines
