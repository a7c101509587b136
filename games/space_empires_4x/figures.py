"""Figures drawn from the kit's real counter templates: the anatomy of a ship counter, a system marker.

Each figure is plain data: the SVG of every piece of art it shows (rendered through the same template and
Face params as the counters sheet) and callouts located on that art. story.py reserves room for it and draws
the callouts; overlay.py places the art itself, as vector, once reportlab has laid the pages out.
"""
from __future__ import annotations

from pnpgen.games.space_empires_4x.text import marker_label, said
from pnpgen.games.space_empires_4x.load import HOME_MARKERS
from pnpgen.pieces import Piece
from pnpgen.lengths import parse_length
from pnpgen.model import Kit
from pnpgen.problems import BuildError
from pnpgen.booklet.figure import Art, Callout, Figure
from pnpgen.booklet.svgtext import find_text, text_positions


def render_face(kit: Kit, piece: Piece, face, figure: str, size_mm: float) -> str:
    """The face exactly as the counter sheets draw it, at the counter size in mm (the one face road)."""
    from pnpgen.render.piece_faces import face_document
    from pnpgen.shapes import Shape
    side = parse_length(f"{size_mm}mm")
    return face_document(kit, face, Shape("square", side, side), 0.0, f"booklet figure {figure}, {piece.label}")


def anatomy_piece(kit: Kit, pieces: list[Piece]) -> Piece:
    """A Destroyer group counter whose group number differs from its other numbers, so callouts are unambiguous."""
    code = "DD" if "DD" in kit.units else next(u.code for u in kit.units.values() if u.groups and u.combat)
    unit = kit.units[code]
    candidates = [p for p in pieces if p.ref == f"units.{code}" and p.colour == kit.colours[0].id]
    taken = {unit.hull, unit.attack, unit.defence}
    return next((p for p in candidates if p.front.params["row"].get("number") not in taken), candidates[0])


def counter_anatomy(kit: Kit, pieces: list[Piece], size_mm: float) -> Figure:
    piece = anatomy_piece(kit, pieces)
    p = piece.front.params["row"]
    svg = render_face(kit, piece, piece.front, "counter-anatomy", size_mm)
    code, group, cls = p["id"], p["number"], p["class"]
    ad = rf"{p['attack']}\s*[-–/]\s*{p['defence']}"
    wanted = {  # the part each callout points at is the regex group `at`; templates may combine texts
        "Attack–defence": [rf"(?P<at>{ad})", (rf"{cls}\s*(?P<at>{ad})", False)],
        "Hull size": [rf"(?P<at>[x×]\s*{p['hull']})", rf"(?P<at>{p['hull']}\s*[x×])", rf"{p['hull']}"],
        "Type": [rf"{code}", (rf"(?P<at>{code})\s*#?{group}", False)],
        "Group number": [rf"#?{group}", (rf"{code}\s*(?P<at>#?{group})", False)],
        "Class": [rf"{cls}", rf"[Cc]lass\s*(?P<at>{cls})", (rf"(?P<at>{cls})\s*{ad}", False)],
    }
    found, used = text_positions(svg), set()
    callouts, missing = [], []
    for label, patterns in wanted.items():
        spot = find_text(found, patterns, used)
        if spot:
            callouts.append(Callout(said(label), *spot))
        else:
            missing.append(label)
    art = Art(svg, piece.label, said("{name}, group {group}", name=p["name"], group=group))
    return Figure("counter-anatomy", (art,), tuple(callouts), tuple(missing))


def marker_faces(kit: Kit, pieces: list[Piece], size_mm: float) -> Figure:
    """Front and back of one Home System marker (one that prints a value, when the mix has one)."""
    home = [p for p in pieces if p.ref.startswith(f"{HOME_MARKERS}.") and p.colour == kit.colours[0].id
            and not p.front.params["row"].get("face_up")]
    if not home:
        raise BuildError("booklet figure marker-faces: the kit has no Home System markers to show")
    piece = next((p for p in home if p.front.params["row"].get("value") is not None), home[0])
    colour, row = kit.colours[0].name, piece.front.params["row"]
    label = marker_label(kit.marker_kinds[row["kind"]], row.get("value"))
    front = Art(render_face(kit, piece, piece.front, "marker-faces", size_mm), label, said("Front: {label}", label=label))
    back = Art(render_face(kit, piece, piece.back, "marker-faces", size_mm), label,
               said("Back: every {colour} Home System marker", colour=colour))
    return Figure("marker-faces", (front, back))


FIGURES = {"counter-anatomy": counter_anatomy, "marker-faces": marker_faces}

