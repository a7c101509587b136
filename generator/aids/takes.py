"""A measured block drawn once per PDF and its marks repeated where it is drawn again the same.

Every player's copy of an aid card or record sheet prints the same measured content (pnpgen.aids.fit.Fitted)
in the same frame, under a title band in another colour: drawing it again through reportlab writes the same
operators, sets the same glyphs in the same places and leaves the same slots for icons. The first drawing is
kept as a take (the page operators it wrote, the glyph, colour and ground records it left for the preflight,
pnpgen.render.drawn_text, its icon slots) and a later drawing of the same block, in the same frame and the
same canvas state (font, colours, matrix...), appends the take instead: the same bytes, the same records, a
fraction of the time (SE4X: 9 of the record sheets' 12 pages and 8 of the cards' 16 faces).

A drawing that changes anything else on the canvas (an annotation, a picture used on the page) is never kept:
it is drawn every time, as before.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.render.drawn_text import DrawnGlyphs

# what a drawing may change on the canvas, each repeated by a take: the page's operators, the glyph records
# (and the recorder's look-up caches), the icon slots; anything else changed means the drawing is not kept
FOLLOWED = frozenset({"_code", "drawn_glyphs", "icon_places", "_record_lists", "_record_add", "_record_rgbs",
                      "_takes"})
SCALARS = (int, float, str, bytes, bool, type(None))


@dataclass(frozen=True)
class Take:
    """What one drawing left: its operators; per record list of DrawnGlyphs the records it added; the grounds
    with their order counted from the drawing's first glyph; the icon slots (name, matrix); and which of
    the records' dicts first gained the page's key while it drew."""

    block: object
    code: tuple
    glyphs: tuple
    inks: tuple
    fine: tuple
    grounds: tuple
    icons: tuple
    opened: tuple


def draw_once(canvas, block, place: tuple, draw) -> None:
    """`draw()` draws `block` at `place` (numbers saying where) on `canvas`; a later call with the same block,
    place and canvas state repeats the first drawing's marks instead of drawing again."""
    takes = canvas.__dict__.setdefault("_takes", {})
    key = (id(block), place, _state(canvas))
    take = takes.get(key)
    if take is not None and take.block is block:
        _repeat(canvas, take)
        return
    drawn = getattr(canvas, "drawn_glyphs", None)
    if drawn is not None and not isinstance(drawn, DrawnGlyphs):
        draw()
        return
    before = _snapshot(canvas)
    draw()
    take = _took(canvas, block, before)
    if take is not None:
        takes[key] = take


def _state(canvas) -> tuple:
    """Everything of the canvas's state its drawing reads, exactly (reportlab's saved graphics state: font,
    size, leading, colours, matrix, text and line settings; the page size; small print)."""
    return (tuple(_frozen(canvas.__dict__.get(name)) for name in canvas.STATE_ATTRIBUTES),
            tuple(canvas._pagesize), getattr(canvas, "small_print", False),
            getattr(getattr(canvas, "drawn_glyphs", None), "coarse", None))


def _frozen(value):
    if isinstance(value, SCALARS):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((repr(k), _frozen(v)) for k, v in value.items()))
    if hasattr(value, "__dict__"):
        return (type(value).__name__, _frozen(vars(value)))
    return (type(value).__name__, repr(value))


def _snapshot(canvas) -> dict:
    """The canvas's attributes (their identity, or value, and size), and where each record list stood."""
    page = canvas._pageNumber
    drawn = getattr(canvas, "drawn_glyphs", None)
    lists = {}
    if drawn is not None:
        lists = {name: (page in table, len(table.get(page, ()))) for name, table in _tables(drawn)}
    return {"attributes": _attributes(canvas), "page": page, "code": (canvas._code, len(canvas._code)),
            "lists": lists, "icons": len(getattr(canvas, "icon_places", ()))}


def _attributes(canvas) -> dict:
    return {name: (value if isinstance(value, SCALARS) else id(value),
                   len(value) if isinstance(value, (list, dict, set, tuple)) else None)
            for name, value in canvas.__dict__.items() if name not in FOLLOWED}


def _tables(drawn) -> list[tuple[str, dict]]:
    return [("glyphs", drawn), ("inks", drawn.inks), ("fine", drawn.fine), ("grounds", drawn.grounds)]


def _took(canvas, block, before: dict):
    """The take of the drawing since `before`, or None where it changed what a take does not repeat."""
    code, length = before["code"]
    if canvas._code is not code or canvas._pageNumber != before["page"] or \
            _attributes(canvas) != before["attributes"]:
        return None
    page, drawn = before["page"], getattr(canvas, "drawn_glyphs", None)
    added, opened = {}, []
    for name, table in _tables(drawn) if drawn is not None else ():
        had, count = before["lists"][name]
        added[name] = tuple(table.get(page, ())[count:])
        if page in table and not had:
            opened.append(name)
    first = before["lists"]["glyphs"][1] if drawn is not None else 0
    icons = tuple(getattr(canvas, "icon_places", ()))[before["icons"]:]
    if any(place[1] != page for place in icons):
        return None
    return Take(block, tuple(code[length:]), added.get("glyphs", ()), added.get("inks", ()), added.get("fine", ()),
                tuple((order - first, box, rgb, alpha) for order, box, rgb, alpha in added.get("grounds", ())),
                tuple((name, matrix) for name, _, matrix in icons), tuple(opened))


def _repeat(canvas, take: Take) -> None:
    """Append the take's marks to the current page as its drawing would have."""
    canvas._code.extend(take.code)
    page, drawn = canvas._pageNumber, getattr(canvas, "drawn_glyphs", None)
    if drawn is not None:
        tables = dict(_tables(drawn))
        for name in take.opened:
            tables[name].setdefault(page, [])
        first = len(drawn.get(page, ()))
        for name in ("glyphs", "inks", "fine"):
            if getattr(take, name):
                tables[name].setdefault(page, []).extend(getattr(take, name))
        if take.grounds:
            drawn.grounds.setdefault(page, []).extend((first + order, box, rgb, alpha)
                                                      for order, box, rgb, alpha in take.grounds)
    if take.icons:
        canvas.icon_places.extend((name, page, matrix) for name, matrix in take.icons)
