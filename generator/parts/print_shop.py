"""The print-shop part (`pnpgen build --for print-shop`): one PDF per deck, one piece a page with 1/8 in bleed,
TrimBox and BleedBox, back/front page order, and 300 dpi PNGs of every face (pnpgen.export.print_shop).

It registers `--for`, which the tts part reads too: `--for print-shop,tts` builds both beside the home files.
"""
from __future__ import annotations

import argparse

from pnpgen.export.decks import TARGETS, parse_bleed, parse_targets, wants
from pnpgen.parts import Option, Part


def build(ctx) -> dict:
    from pnpgen.export.print_shop import build as build_print_shop
    return build_print_shop(ctx)


PART = Part(name="print-shop", build=build, order=80, aliases=("print_shop",),
            doc="print-shop files: one PDF per deck with bleed and page boxes, and PNGs of every face",
            options=(Option(("--for",), {"dest": "for", "type": parse_targets, "default": argparse.SUPPRESS,
                                         "metavar": "TARGET[,TARGET]",
                                         "help": "also build for: " + ", ".join(TARGETS[1:]) +
                                                 " (files in OUT/<kit>/print-shop or /tts; home is the default)"}),
                     Option(("--bleed",), {"dest": "bleed", "type": parse_bleed, "default": argparse.SUPPRESS,
                                           "metavar": "LENGTH",
                                           "help": "print-shop bleed past the trim on every side (default 1/8in)"})),
            applies=lambda kit: bool(kit.tables), wanted=wants("print-shop"))
