"""What every printed piece is, whatever the game: a front and a back Face (a template name plus JSON
parameters: hashable, deterministic, and the render-cache key), a print group and where it comes from."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Face:
    template: str
    params_json: str

    @cached_property
    def params(self) -> dict:
        return json.loads(self.params_json)

    @property
    def key(self) -> str:
        return f"{self.template}:{self.params_json}"


# what json.dumps(value, sort_keys=True, separators=(",", ":")) makes, without a new encoder for each call
ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def face(template: str, **params) -> Face:
    return Face(template, ENCODE(params))


def joined_face(template: str, encoded: dict) -> Face:
    """face(template, **params) from its parameters each already encoded ({name: JSON text}): the same text,
    for faces that share most of their parameters (a row's front and back, a row in every colour: SE4X's 874
    faces encoded whole were 0.02-0.04 s of every load)."""
    return Face(template, "{" + ",".join(f"{ENCODE(name)}:{encoded[name]}" for name in sorted(encoded)) + "}")


@dataclass(frozen=True)
class Piece:
    """One physical piece: a copy of a component table's row (the one road to a printed piece)."""

    ref: str         # where it comes from in the data: TABLE.ROW, "cards.scout", "units.DD"
    name: str        # what it is: "TABLE NAME: ROW" ("Units: DD")
    label: str       # this very piece: "DD 3"
    colour: str      # colour id, or "neutral"
    group: str       # print group: a table's group, with "-COLOUR" where each colour has a file of its own
    front: Face
    back: Face


def colour_params(colour) -> dict | None:
    """The colour as template parameters (None stays None: a piece or board of no colour)."""
    if colour is None:
        return None
    return {"id": colour.id, "name": colour.name, "print": colour.print, "ink": colour.ink,
            "emblem": colour.emblem, "pattern": colour.pattern}
