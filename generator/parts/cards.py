"""The `cards` part: a kit's aid cards (aids/cards.yaml: headings, text, bullets and charts that must fit),
double-sided, half-page, imposed for duplex printing."""
from __future__ import annotations

from pnpgen.parts import Option, Part

CARDS_PDF = "cards.pdf"        # a game module's aid cards (Space Empires 4X's players' aids)
AID_CARDS_PDF = "aid-cards.pdf"  # a data kit's: its own tables often print a `cards` group as cards.pdf


def file_name(kit) -> str:
    return CARDS_PDF if kit.has_game_module else AID_CARDS_PDF


def build(ctx) -> dict:
    from pnpgen.aids.cards import plan_cards, render_cards
    from pnpgen.aids.aid_memo import kept
    from pnpgen.kit_checked import key_of
    from pnpgen.aids.imposition import card_sheet  # reportlab loads only when built
    from pnpgen.duplex import build_setting, flip_said
    from pnpgen.documents.paragraphs import styles_lacked
    sheet = card_sheet(ctx.paper, int(ctx.option("cards_per_sheet", 2) or 2), *build_setting(ctx))
    name = file_name(ctx.kit)
    with kept(ctx.kit, name, key_of(ctx.kit)):  # its text, charts and lines as a build of this load made them
        cards = plan_cards(ctx.kit, sheet)
        entries, glyphs = render_cards(ctx.kit, cards, sheet, ctx.stage.path(name))
    _preflight(glyphs, entries, name, ctx.kit)
    pages = max(e["back"]["page"] for e in entries)
    ctx.log(f"cards: {len(cards)} cards on {pages} pages ({ctx.paper}, {flip_said(sheet.duplex)})")
    return {
        "files": [{"path": name, "pages": pages, "paper": ctx.paper,
                   "page_size": [round(sheet.width, 3), round(sheet.height, 3)]}],
        "duplex": flip_said(sheet.duplex),
        "cards_per_sheet": len(sheet.slots),
        "cards": entries,
    } | styles_lacked()


def _preflight(glyphs: dict, entries: list, name: str, kit) -> None:
    """Text that overprints text on a card page, reads at too little contrast on its ground, or is set
    below a card's floor (the glyphs and fills as the canvas set them), stops the build, naming the cards
    on that page."""
    from pnpgen.page_contrast import drawn_contrasts, drawn_sizes
    from pnpgen.page_overprint import drawn_overprints
    from pnpgen.preflight import preflight_rules
    from pnpgen.problems import BuildError
    rules, found = preflight_rules(kit), []
    sizes = drawn_sizes(glyphs, rules.card_text, rules.min_text)
    for page, finding in drawn_overprints(glyphs) + drawn_contrasts(glyphs, rules.contrast) + sizes:
        cards = sorted({f"{e['card']} ({side})" for e in entries for side in ("front", "back") if e[side]["page"] == page})
        found.append(f"aids/cards.yaml: {name} page {page} ({', '.join(cards)}): {finding}")
    if found:
        raise BuildError("preflight: these aid cards would print badly:\n" + "\n".join(sorted(set(found))))


def printed(ctx) -> dict:
    """What the cards print beyond kit.yaml: the cards file as rendered with the kit's numbers, each chart a
    face shows as built, the kit's own type (pnpgen.parts.sheets.aid_printed), and the title and colours
    as loaded. The part is keyed by these, kit.yaml and the kit's translations (locale/: the words an edition
    prints beside the file's, "front", the flip), not by the data files: an edit to a number no card shows
    (a marker's text, a unit's hull) leaves the cards' cache standing."""
    from pnpgen.aids.sources import CARDS_FILE
    from pnpgen.parts.sheets import aid_printed
    kit = ctx.kit
    text, charts, kind = aid_printed(kit, CARDS_FILE, lambda doc: (
        block for card in doc["cards"].values() for side in ("front", "back") for block in card[side]))
    return {"cards_text": text, "cards_charts": charts, "type": kind,
            "kit": repr((kit.title, kit.colours, kit.neutral))}


def _has_aid_cards(kit) -> bool:
    from pnpgen.aids.sources import has_aid_cards
    return has_aid_cards(kit)


PART = Part(
    name="cards", build=build, order=30, aliases=("aids",),
    doc="aid cards from aids/cards.yaml (half-letter / A5, double-sided)",
    options=(Option(("--cards-per-sheet",), {"type": int, "choices": (1, 2), "default": 2,
                                              "dest": "cards_per_sheet",
                                              "help": "aid cards: 2 per landscape sheet (default) or 1 per page"}),),
    applies=lambda kit: _has_aid_cards(kit),
    reads=("kit.yaml", "locale"), key_extra=printed, needs=("reportlab",), weight=0.5,
)
