"""Where cards sit on the printed sheet (pure numbers, points, bottom-left origin): slots, backs, cut marks.

Two half-page cards fill a landscape sheet edge to edge, so the only cut is the middle line; one card per
sheet sits centred on portrait paper with corner crop marks. Backs sit where the build's one duplex flip puts
them (pnpgen.duplex): on the landscape sheet, mirrored top-bottom and turned half a turn for a long-edge flip,
left-right for a short one.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.aids.fit import Frame
from pnpgen.duplex import back_place, flip_words, mirrors_top_bottom
from pnpgen.paper import PRINTABLE_MARGIN, half_page_size, paper_size

MARK_GAP = 3.0       # crop marks stop this far from the card corner
MARK_LENGTH = 14.0
EDGE_TICK = PRINTABLE_MARGIN + 8.0   # a tick from the paper edge along a cut line: long enough to print
CARD_MARGIN = PRINTABLE_MARGIN + 3.0  # card content keeps this far from every card edge
BAND_HEIGHT = 17.0   # the coloured title band at the top of each card face
BAND_GAP = 5.0
NOTE_ROOM = PRINTABLE_MARGIN + 14.0   # the top margin a print line needs: the printer's margin and a line


@dataclass(frozen=True)
class CardSheet:
    width: float
    height: float
    slots: tuple[Frame, ...]          # card rectangles on the front page
    cut_marks: tuple[tuple[float, float, float, float], ...]   # (x1, y1, x2, y2) line segments
    duplex: str                       # the edge the printer flips on: long or short
    back_offset: tuple[float, float] = (0.0, 0.0)

    def back_slot(self, index: int) -> Frame:
        """The back of the card in slot `index`: where the flip lands it (bottom-left origin)."""
        front = self.slots[index]
        place = back_place(front.x, front.y, front.width, front.height, (self.width, self.height), self.duplex,
                           self.back_offset, y_down=False)
        return Frame(place.x, place.y, front.width, front.height)

    def back_turned(self) -> bool:
        """Whether backs are drawn half a turn round, so they read upright behind their fronts."""
        return mirrors_top_bottom((self.width, self.height), self.duplex)

    @property
    def flip(self) -> str:
        return flip_words(self.duplex)

    def note_at(self) -> tuple[float, float] | None:
        """Where the front's print line goes (centre, baseline): in the paper's top margin, above every card,
        never on one (it would stay on the cut card); None when the cards fill the sheet edge to edge (two
        half-page cards), where the build's summary and the calibration sheet say how to print instead."""
        top = max(slot.top for slot in self.slots)
        if self.height - top < NOTE_ROOM:
            return None
        return self.width / 2, (top + self.height) / 2 - 3


def card_sheet(paper: str, per_sheet: int, duplex: str = "long",
               back_offset: tuple[float, float] = (0.0, 0.0)) -> CardSheet:
    card_w, card_h = half_page_size(paper)
    if per_sheet == 1:
        width, height = paper_size(paper)
        slot = Frame((width - card_w) / 2, (height - card_h) / 2, card_w, card_h)
        return CardSheet(width, height, (slot,), corner_marks(slot), duplex, back_offset)
    width, height = paper_size(paper, landscape=True)
    x0, y0 = (width - 2 * card_w) / 2, (height - card_h) / 2
    slots = (Frame(x0, y0, card_w, card_h), Frame(x0 + card_w, y0, card_w, card_h))
    return CardSheet(width, height, slots, centre_ticks(width, height), duplex, back_offset)


def centre_ticks(width: float, height: float) -> tuple:
    """Ticks on the middle cut line, from the top and bottom paper edges inwards."""
    x = width / 2
    return ((x, 0.0, x, EDGE_TICK), (x, height - EDGE_TICK, x, height))


def corner_marks(slot: Frame) -> tuple:
    """Two short lines out from each card corner, along its edges, leaving a small gap."""
    marks = []
    for x, dx in ((slot.x, -1), (slot.x + slot.width, 1)):
        for y, dy in ((slot.y, -1), (slot.y + slot.height, 1)):
            marks.append((x + dx * MARK_GAP, y, x + dx * (MARK_GAP + MARK_LENGTH), y))
            marks.append((x, y + dy * MARK_GAP, x, y + dy * (MARK_GAP + MARK_LENGTH)))
    return tuple(marks)


def band_frame(card: Frame) -> Frame:
    return Frame(card.x + CARD_MARGIN, card.top - CARD_MARGIN - BAND_HEIGHT, card.width - 2 * CARD_MARGIN,
                 BAND_HEIGHT)


def content_frame(card: Frame) -> Frame:
    """Where a card face's text and tables go: inside the margins, under the title band."""
    height = card.height - 2 * CARD_MARGIN - BAND_HEIGHT - BAND_GAP
    return Frame(card.x + CARD_MARGIN, card.y + CARD_MARGIN, card.width - 2 * CARD_MARGIN, height)
