"""Part "counters": double-sided counter sheets, one PDF per print group, and a duplex calibration sheet.

The work is in pnpgen.counter_files, imported when the part is built: registering the part (every
`pnpgen` command does) costs no drawing code.
"""
from __future__ import annotations

from pnpgen.parts import Option, Part


def build(ctx) -> dict:
    from pnpgen.counter_files import build_counters
    return build_counters(ctx)


PART = Part(
    name="counters", build=build, order=10, aliases=("counter-sheets",),
    doc="a game module's counters on double-sided sheets, one PDF per print group, plus a duplex calibration sheet",
    options=(
        Option(("--gutter",), {"type": float, "default": 0.0, "metavar": "MM",
                               "help": "gap between counters in mm (default 0: counters abut and share cut lines)"}),
        Option(("--duplex",), {"choices": ("long", "short"), "default": "long",
                               "help": "which edge your printer flips the paper on (default: long)"}),
        Option(("--back-offset",), {"default": "0,0", "metavar": "X,Y",
                                    "help": "shift of the back pages in mm, as read from the calibration sheet"}),
    ),
    applies=lambda kit: kit.has_game_module,  # a game module's pieces; a kit's tables print as components
    ignores=("rules", "maps", "aids"), needs=("cairo",), weight=2.3,
)
