"""Aid cards: fit each card kind's two faces (layout), then draw every colour's copy onto duplex sheets."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pnpgen.aids import draw
from pnpgen.aids.fit import Fitted, fit
from pnpgen.aids.imposition import CardSheet, band_frame, content_frame
from pnpgen.aids.prose import CardText, block_flowables, load_card_texts
from pnpgen.documents.context import chart_context
from pnpgen.i18n.translator import core_words
from pnpgen.model import Colour, Kit
from pnpgen.problems import BuildError

SIDES = ("front", "back")


@dataclass(frozen=True)
class PlannedCard:
    """One physical card: its text, its colour, and both faces measured to fit."""

    text: CardText
    colour: Colour
    faces: dict          # side -> Fitted


def plan_cards(kit: Kit, sheet: CardSheet) -> list[PlannedCard]:
    """Every card in print order; raises a located BuildError if any face does not fit its card."""
    from pnpgen.documents.paragraphs import use_kit
    use_kit(kit)  # its fonts registered and chosen (kit.yaml `fonts:`), its icons
    frame = content_frame(sheet.slots[0])
    context, planned = chart_context(kit), []
    for text in load_card_texts(kit):
        for side in SIDES:
            check_markup(text.faces[side], text.where[side])
        check_band_title(text.title, text.where["front"].rsplit(".", 1)[0] + ".title")
        faces = {side: _fit_face(kit, text, side, frame, context) for side in SIDES}
        colours = kit.colours if text.per_colour and kit.colours else (kit.neutral,)  # no colours: one card
        planned += [PlannedCard(text, colour, faces) for colour in colours]
    return planned


def check_band_title(title: str, where: str) -> None:
    """A title printed in the band in the kit's heading font must have every character in it."""
    from pnpgen.aids.styles import band_fonts
    from pnpgen.documents.doc_fonts import missing_character
    if problem := missing_character(band_fonts()[0], title):
        raise BuildError(f"{where}: {problem}")


ESCAPED = re.compile(r"&amp;(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z]+);")


def check_markup(blocks, where: str) -> None:
    """A character reference that the text's Jinja escaped (`{{ x | join(" &#8594; ") }}` is quoted data, so
    its & is escaped) would print as "&#8594;": stop the build at the card face instead. Write the character
    itself (→) in a Jinja expression."""
    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from strings(item)
        elif isinstance(value, list):
            for item in value:
                yield from strings(item)
    for text in strings(blocks):
        found = ESCAPED.search(text)
        if found:
            raise BuildError(f"{where}: {found.group(0).replace('&amp;', '&')!r} would print as text: it comes "
                             f"from inside {{{{ ... }}}}, where markup is escaped; write the character itself")


def _fit_face(kit: Kit, text: CardText, side: str, frame, context: dict) -> Fitted:
    where = text.where[side]
    return fit(block_flowables(kit, text.faces[side], frame.width, where, context), frame.width, frame.height, where)


def render_cards(kit: Kit, cards: list[PlannedCard], sheet: CardSheet, path: Path) -> tuple[list[dict], dict]:
    """Draw front and back pages for each sheet of cards; return one manifest entry per card, and the glyphs
    set on each page (pnpgen.render.drawn_text) for the overprint check."""
    canvas = draw.open_canvas(path, f"{kit.title}: player aids", (sheet.width, sheet.height))
    entries, per_sheet = [], len(sheet.slots)
    for first in range(0, len(cards), per_sheet):
        batch = cards[first:first + per_sheet]
        page = 2 * (first // per_sheet) + 1
        for side in SIDES:
            for index, card in enumerate(batch):
                slot = sheet.slots[index] if side == "front" else sheet.back_slot(index)
                turned = side == "back" and sheet.back_turned()
                with draw.card_clip(canvas, slot, turned):
                    _draw_face(canvas, kit, card, side, slot)
            if side == "front" and sheet.note_at():
                draw.margin_note(canvas, sheet.note_at(), core_words("{title}: player aids \u00b7 print two-sided, "
                                                                     "{flip}").format(title=kit.title, flip=sheet.flip))
            draw.cut_marks(canvas, sheet.cut_marks)
            canvas.showPage()
        entries += [_entry(card, sheet, index, page) for index, card in enumerate(batch)]
    draw.close_canvas(canvas, path, kit)
    return entries, canvas.drawn_glyphs


def _draw_face(canvas, kit: Kit, card: PlannedCard, side: str, slot) -> None:
    """One face in its slot; nothing about printing (that goes in the page margin, off the cut card)."""
    owned = card.text.per_colour and card.colour.id != "neutral"  # a player's card names its colour
    title = f"{card.text.title} \u00b7 {card.colour.name}" if owned else card.text.title
    right = " \u00b7 ".join(words for words in (kit.title, core_words(side)) if words)
    draw.title_band(canvas, band_frame(slot), card.colour, title, right)
    draw.content(canvas, card.faces[side], content_frame(slot))


def _entry(card: PlannedCard, sheet: CardSheet, index: int, page: int) -> dict:
    slots = {"front": sheet.slots[index], "back": sheet.back_slot(index)}
    return {"card": card.text.id, "title": card.text.title, "colour": card.colour.id,
            **{side: {"page": page + (side == "back"), "card": slots[side].as_list(),
                      "frame": content_frame(slots[side]).as_list(),
                      "content_height": round(card.faces[side].height, 2)} for side in SIDES}}
