"""What a document's designed covers say, as plain data from the kit (kit.yaml `cover:`, its tables, boards
and maps, the build's flip): the front's title lines and picture settings, the back's inventory, printing
summary and credits. Typesetting (pnpgen.booklet.cover) only draws it; the cache key reads it whole.

A booklet page is never cut, so its back cover is where the printing summary may live: no piece carries it."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pnpgen.documents.piece_figures import find_piece
from pnpgen.documents.rulings import MARK, SOURCE, ruling_ids
from pnpgen.i18n.translator import core_words
from pnpgen.problems import BuildError
from pnpgen.shapes import Shape


@dataclass(frozen=True)
class CoverPiece:
    """A piece the front picture shows: which copy and side (the figure draws its face from the piece), the
    shape it is cut to and the scale it prints at."""

    ref: str
    colour: str                   # the copy's colour id, or "neutral"
    side: str                     # "front" or "back"
    shape: Shape                  # its outline at print size, in points
    scale: float
    new_row: bool = False         # starts a row of the picture of its own

    @property
    def size(self) -> tuple[float, float]:
        """Its width and height on the cover, in points."""
        return self.shape.w * self.scale, self.shape.h * self.scale


@dataclass(frozen=True)
class Cover:
    """One document's covers, every word already in the edition's language."""

    title: str
    subtitle: str
    document: str                 # "Rules booklet", or the document's own title
    facts: tuple[str, ...]        # "2–6 players", "14+", "60–120 minutes"
    version: str
    art: str                      # "hexes" or "stars"
    sky: str                      # "#rrggbb"
    palette: tuple[str, ...]      # the hexes' fill colours, "#rrggbb"
    seed: str                     # the picture's stars and hexes are drawn from it (the kit's id): stable
    contents: tuple[str, ...]     # the back's "In this kit" lines
    printing: tuple[str, ...]     # the back's "How to print" lines
    credits: tuple[str, ...]
    pieces: tuple[CoverPiece, ...] = ()   # the kit's own pieces on the front picture, row by row


def cover_of(kit, name: str, settings: dict, duplex: str) -> Cover | None:
    """The covers of document `name`, or None where the kit declares no `cover:` (a plain title page)."""
    declared = kit.cover
    if not declared:
        return None
    low, high = kit.players
    players = (core_words("For {players} players").format(players=f"{low}–{high}" if low != high else str(low)))
    ages = core_words("Ages {value}").format(value=declared["ages"]) if declared.get("ages") else ""
    marked = marks(kit, declared.get("rulings") or {})
    facts = tuple(f"{fact} {marked[key]}" if key in marked else fact
                  for key, fact in (("players", players), ("ages", ages), ("time", declared.get("time") or ""))
                  if fact)
    version = core_words("Kit version {value}").format(value=declared["version"]) if declared.get("version") else ""
    chosen = declared.get("colours") or [c.id for c in kit.colours] or ["neutral"]
    palette = tuple(kit.neutral.print if c == "neutral" else kit.colour(c).print for c in chosen)
    return Cover(title=kit.title, subtitle=kit.subtitle, document=settings.get("title") or core_words("Rules booklet"),
                 facts=facts, version=version, art=declared["art"], sky=declared["sky"], palette=palette, seed=kit.id,
                 contents=tuple(inventory(kit)), printing=tuple(printing(kit, name, settings, duplex)),
                 credits=tuple(declared.get("credits") or ()), pieces=cover_pieces(kit, declared.get("pieces") or ()))


def marks(kit, declared: dict) -> dict[str, str]:
    """kit.yaml `cover.rulings`: each fact the rules sources do not state (the player count, say) and the mark
    it prints after it, "(kit ruling 3)", numbered as the Kit rulings chapter lists the rulings; a BuildError
    at its line for a ruling data/rules.yaml does not hold."""
    ids = ruling_ids(kit)
    out = {}
    for fact, rid in declared.items():
        if rid is None:
            continue
        if rid not in ids:
            file, line = kit.locate("kit", f"cover.rulings.{fact}")
            raise BuildError(f"{file}:{line}: cover.rulings.{fact}: no ruling {rid!r} in {SOURCE} rulings "
                             f"(known: {', '.join(map(str, ids)) or 'none'})")
        out[fact] = core_words(MARK).format(number=ids.index(rid) + 1)
    return out


def cover_pieces(kit, declared) -> tuple[CoverPiece, ...]:
    """kit.yaml `cover.pieces`, each found among the kit's pieces (the named colour's copy, or the first),
    or a BuildError at its line naming the refs that exist."""
    out = []
    for number, entry in enumerate(declared):
        piece = find_piece(kit, entry["piece"], entry.get("colour"))
        if piece is None:
            file, line = kit.locate("kit", f"cover.pieces[{number}].piece")
            colour = f" in colour {entry['colour']!r}" if entry.get("colour") else ""
            known = sorted({p.ref for p in kit.component_pieces})
            raise BuildError(f"{file}:{line}: cover.pieces[{number}]: no piece {entry['piece']!r}{colour} among "
                             f"the kit's pieces (such as {', '.join(known[:6])}{'...' if len(known) > 6 else ''})")
        if entry["side"] == "back" and piece.back is None:
            file, line = kit.locate("kit", f"cover.pieces[{number}].side")
            raise BuildError(f"{file}:{line}: cover.pieces[{number}]: {entry['piece']} has no back")
        shape = kit.tables[piece.ref.split(".", 1)[0]].shape
        out.append(CoverPiece(piece.ref, piece.colour, entry["side"], shape, float(entry["scale"]), entry["new_row"]))
    return tuple(out)



def inventory(kit) -> list[str]:
    """"In this kit": each component table's pieces (with the count per colour where each colour has its
    own), then the boards and hex maps."""
    counts = Counter(p.ref.split(".", 1)[0] for p in kit.component_pieces)
    out = []
    for table in kit.tables.values():
        if not counts[table.id]:
            continue
        each = (core_words(" ({count} per colour)").format(count=counts[table.id] // len(kit.colours))
                if table.per_colour and kit.colours else "")
        out.append(f"{counts[table.id]} × {table.name}{each}")
    out += [core_words("Board: {name}").format(name=board.name) for board in kit.boards]
    out += [core_words("Hex map: {name}").format(name=hexmap.title) for hexmap in kit.maps]
    return out


def printing(kit, name: str, settings: dict, duplex: str) -> list[str]:
    """"How to print": actual size, the calibration sheet first, which piece files print on both sides and
    which on one, and how to print and bind this document."""
    from pnpgen.documents import imposed_copy
    from pnpgen.duplex import CALIBRATION, FLIP_WORDS
    flip = core_words(FLIP_WORDS[duplex])
    two, one = _files_by_sides(kit)
    out = [core_words("Print every file at actual size (100 %), never fit to page.")]
    if two:
        out.append(core_words("First print {file}: it shows whether your printer lands the backs on their fronts.")
                   .format(file=CALIBRATION))
        out.append(core_words("Double-sided, {flip}: {files}.").format(flip=flip, files=", ".join(two)))
    if one:
        out.append(core_words("One-sided: {files}.").format(files=", ".join(one)))
    if settings.get("impose"):
        out.append(core_words("This booklet: {file}, double-sided, {flip}; fold the stack in half and staple on "
                              "the fold.").format(file=imposed_copy(f"{name}.pdf"), flip=flip))
    out.append(core_words("The build's summary and its manifest.json say how to print every file."))
    return out


def _files_by_sides(kit) -> tuple[list[str], list[str]]:
    """The piece files, two-sided and one-sided; a file per colour is named once, as NAME-<colour>.pdf."""
    colours = "|".join(re.escape(c.id) for c in kit.colours)
    sides: dict[str, bool] = {}
    for piece in kit.component_pieces:
        file = (re.sub(rf"-({colours})$", "-<colour>", piece.group) if colours else piece.group) + ".pdf"
        sides[file] = sides.get(file, False) or piece.back is not None
    return [f for f, two in sides.items() if two], [f for f, two in sides.items() if not two]
