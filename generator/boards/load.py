"""Reading boards/*.yaml: the schema of a board, its places, links and tracks, and their checks
(ids unique, every link joins two places that exist, everything inside the board)."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.boards.tracks import misplaced_keys, track_cells
from pnpgen.components.columns import TEMPLATE, Anything, Text
from pnpgen.lengths import LENGTH_PATTERN, mm, parse_length
from pnpgen.paper import PAPER
from pnpgen.problems import Problems
from pnpgen.schema import INVALID, Bool, Choice, Field, Int, ListOf, MapOf, Number, Record, Str, Where, optional
from pnpgen.shapes import MAX_SIDE

LENGTH = Str(LENGTH_PATTERN, "a length such as 420mm or 11in")
COLOUR = Str(r"#[0-9a-fA-F]{6}", "a colour written #rrggbb")
HOLDS = r"[A-Za-z0-9_-]+(\.[^.\s][^\s]*)?"
HOLDS_DOC = "a component table, or table.row"


class Extra(Record):
    """A record that keeps keys it does not know (a place's `kind`, `population`...) for kit templates."""

    def check(self, value, where):
        if not isinstance(value, dict):
            return where.error(f"must be {self.description}, not {value!r}")
        known = {k: v for k, v in value.items() if k in self.fields}
        out = super().check(_Located(known, value), where)
        if out is INVALID:
            return INVALID
        return {**{k: v for k, v in value.items() if k not in self.fields}, **out}


class _Located(dict):
    def __init__(self, items, source):
        super().__init__(items)
        self.line = getattr(source, "line", 0)
        self.source = source

    def line_of(self, key):
        return self.source.line_of(key) if hasattr(self.source, "line_of") else self.line


PLACE = Extra({
    "id": Field(Str(r"[A-Za-z0-9_-]+", "an id of letters, digits, _ or -")),
    "x": Field(Number(), doc="centre, mm from the board's left edge"),
    "y": Field(Number(), doc="centre, mm from the board's top edge"),
    "shape": optional(Choice(("circle", "hex", "square", "none")), "circle"),
    "size": optional(Number(0), 20, "diameter, across-flats or side in mm"),
    "fill": optional(COLOUR, "#ffffff"),
    "stroke": optional(COLOUR, "#1a1a1a"),
    "label": optional(Text(), ""),
    "text": optional(Text(), ""),
    "holds": optional(Str(HOLDS, HOLDS_DOC), "", "the piece made to sit here: it must fit, and keep off its neighbours"),
}, "a place: {id, x, y, shape, size, fill, stroke, label, text, holds, ...}")

LINK = Record({
    "from": Field(Str()),
    "to": Field(Str()),
    "style": optional(Choice(("single", "double", "dashed")), "single"),
    "colour": optional(COLOUR, "#1a1a1a"),
    "width": optional(Number(0), 0.8, "line width in mm"),
    "label": optional(Text(), ""),
}, "a link: {from, to, style, colour, width, label}")

TRACK = Record({
    "id": Field(Str(r"[A-Za-z0-9_-]+", "an id")),
    "layout": optional(Choice(("grid", "edge")), "grid",
                       "grid: rows of spaces from x, y; edge: the spaces run around the board, clockwise "
                       "from its top-left corner (a score track)"),
    "x": optional(Number(), None, "grid: the first space's left edge, mm"),
    "y": optional(Number(), None, "grid: the first space's top edge, mm"),
    "inset": optional(Number(0), 5, "edge: mm between the board's edge and the track"),
    "spaces": Field(Int(1, 500)),
    "first": optional(Int(), 1, "number of the first space"),
    "values": optional(ListOf(Text()), None, "what each space shows (default: numbers from `first`)"),
    "cell": optional(Number(1), 12, "space size in mm"),
    "pitch": optional(Number(1), None, "centre to centre of two spaces in mm (default: the cell; spaces abut)"),
    "holds": optional(Str(HOLDS, HOLDS_DOC), "", "the piece made to sit on each space: it must fit one"),
    "columns": optional(Int(1, 500), None, "spaces per row (default: all in one row)"),
    "direction": optional(Choice(("right", "down")), "right", "which way the numbers run first"),
    "start_box": optional(Bool(), False, "a start box before the first space"),
    "label": optional(Text(), ""),
    "fill": optional(COLOUR, "#ffffff"),
    "ink": optional(COLOUR, "#1a1a1a", "the label's colour (light on a dark board)"),
}, "a track")

TEXT = Record({
    "x": Field(Number()), "y": Field(Number()), "text": Field(Text()),
    "size": optional(Number(0), 4, "font size in mm"),
    "anchor": optional(Choice(("start", "middle", "end")), "start"),
    "fill": optional(COLOUR, "#1a1a1a"),
    "bold": optional(Bool(), False),
}, "a text")

BOARD_COUNT = Record({
    "rule": Field(Str(), doc="the rule's name, quoted in the error"),
    "of": optional(Choice(("places", "links", "tracks")), "places", "what is counted"),
    "match": optional(MapOf(Anything(), key=Str()), {}, "{field: value} the counted items must have"),
    "total": Field(Int(0), doc="how many the rule asks for"),
}, "{rule, of, match, total}")

BOARD = Record({
    "name": Field(Str()),
    "size": Field(Anything(), doc="a paper name (a3-landscape) or {width, height}"),
    "template": optional(TEMPLATE, "board", "the template that draws the board"),
    "background": optional(COLOUR, "#ffffff"),
    "per_colour": optional(Bool(), False, "one board per kit colour"),
    "places": optional(ListOf(PLACE), []),
    "links": optional(ListOf(LINK), []),
    "tracks": optional(ListOf(TRACK), []),
    "texts": optional(ListOf(TEXT), []),
    "fields": optional(Anything(), {}, "anything else the board's template reads"),
    "counts": optional(ListOf(BOARD_COUNT), [], "rule counts of places, links or tracks"),
}, "a board")


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    file: Path
    w: float            # mm
    h: float            # mm
    template: str
    per_colour: bool
    doc: dict = field(compare=False, repr=False)

    def params(self, colour=None) -> dict:
        return {**self.doc, "id": self.id, "w": self.w, "h": self.h, "colour": colour}


def board_size(size, where: Where) -> tuple[float, float] | None:
    if isinstance(size, str):
        name, _, turn = size.partition("-")
        if name in PAPER and turn in ("", "landscape", "portrait"):
            w, h = (round(mm(v), 4) for v in PAPER[name])
            return (h, w) if turn == "landscape" else (w, h)
        where.error(f"unknown board size {size!r}: a paper ({', '.join(PAPER)}, with -landscape) "
                    f"or {{width: 420mm, height: 297mm}}")
        return None
    checked = Record({"width": Field(LENGTH), "height": Field(LENGTH)}, "{width, height}").check(size, where)
    if checked is INVALID:
        return None
    w, h = parse_length(checked["width"]), parse_length(checked["height"])
    if not (0 < w <= 4 * MAX_SIDE and 0 < h <= 4 * MAX_SIDE):
        where.error("a board must be larger than zero and at most 80 in a side")
        return None
    return mm(w), mm(h)


def load_board(path: Path, raw, problems: Problems) -> Board | None:
    where = Where(path, "", getattr(raw, "line", 1), problems)
    doc = BOARD.check(raw, where)
    if doc is INVALID:
        return None
    size = board_size(doc["size"], where.child("size", raw.line_of("size")))
    if size is None or not _links_ok(doc, raw, where) or not _counts_ok(doc, raw, where) \
            or not _tracks_laid_out(doc, raw, size, where):
        return None
    return Board(path.stem, doc["name"], path, round(size[0], 4), round(size[1], 4), doc["template"],
                 doc["per_colour"], doc)


def _tracks_laid_out(doc: dict, raw, size: tuple, where: Where) -> bool:
    """Each track's spaces placed (`cells`, read by the board template); a key its layout does not use, or
    spaces that cannot go around the board, is a located error."""
    ok = True
    for i, track in enumerate(doc["tracks"]):
        line = raw["tracks"].line_of(i)
        here = where.child("tracks", line).item(i, line)
        for problem in misplaced_keys(track, raw["tracks"][i]):
            here.error(problem)
            ok = False
        try:
            track["cells"] = track_cells(track, *size)
        except ValueError as exc:
            here.error(str(exc))
            ok = False
    return ok


def _counts_ok(doc: dict, raw, where: Where) -> bool:
    """The board's own rule counts: 17 planets, 9 outer-rim spaces, the links of a kind."""
    ok = True
    for i, rule in enumerate(doc["counts"]):
        items = doc[rule["of"]]
        known = sorted({key for item in items for key in item if key != "cells"})
        for key in rule["match"]:
            if key not in known:
                near = difflib.get_close_matches(key, known, n=1)
                line = raw["counts"].line_of(i)
                where.child("counts", line).item(i, line).child("match", line).child(key, line).error(
                    f"no {rule['of'][:-1]} on this board has a field {key!r}"
                    + (f" (did you mean {near[0]!r}?)" if near else ""))
                ok = False
        got = sum(all(str(item.get(k)) == str(v) for k, v in rule["match"].items()) for item in items)
        if got != rule["total"]:
            line = raw["counts"].line_of(i)
            where.child("counts", line).item(i, line).error(
                f"{rule['rule']}: the rule asks for {rule['total']}, the board has {got}")
            ok = False
    return ok


def _links_ok(doc: dict, raw, where: Where) -> bool:
    ok, ids = True, set()
    for i, place in enumerate(doc["places"]):
        if place["id"] in ids:
            where.child("places", raw["places"].line_of(i)).item(i, raw["places"].line_of(i)).error(
                f"place id {place['id']!r} is used twice")
            ok = False
        ids.add(place["id"])
    for i, link in enumerate(doc["links"]):
        for end in ("from", "to"):
            if link[end] not in ids:
                line = raw["links"].line_of(i)
                where.child("links", line).item(i, line).child(end, line).error(
                    f"no place with id {link[end]!r} on this board")
                ok = False
    return ok


def load_boards(root: Path, rel: str, kit_file: Path, line: int, colours: tuple, problems: Problems,
                tables: dict | None = None) -> tuple:
    from pnpgen.components.load import yaml_mappings
    from pnpgen.template_files import template_path
    boards = []
    for path, raw in yaml_mappings(root, rel, "boards", "name, size", kit_file, line, problems):
        board = load_board(path, raw, problems)
        if board is None:
            continue
        if template_path(root, board.template) is None:
            problems.error(path, raw.line_of("template"), "template", f"template {board.template}.svg.j2 not found")
            continue
        if board.per_colour and not colours:
            problems.error(path, raw.line_of("per_colour"), "per_colour", "the kit has no colours")
            continue
        _check_holds(board, raw, tables or {}, problems)
        boards.append(board)
    return tuple(boards)


def _check_holds(board: Board, raw, tables: dict, problems: Problems) -> None:
    """Every place and track that names the piece it holds: that piece fits (pnpgen.boards.fit)."""
    from pnpgen.boards.fit import place_findings, track_findings
    for key, findings in (("places", place_findings(board.doc["places"], tables)),
                          ("tracks", track_findings(board.doc["tracks"], tables))):
        for index, message in findings:
            line = raw[key].line_of(index)
            item = board.doc[key][index]
            problems.error(board.file, line, f"{key}[{index}] ({item['id']}).holds", message)
