"""Part "counters": double-sided counter sheets, one PDF per print group, and a duplex calibration sheet.

The work is in generator.counter_files, imported when the part is built: registering the part (every
`pnpgen` command does) costs no drawing code.
"""
from __future__ import annotations

from generator.lengths import pt_from_mm
from generator.parts import Option, Part


def parse_offset(text: str) -> tuple[float, float]:
    """'X,Y' in mm -> points; the shift that puts the backs on top of their fronts."""
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"--back-offset wants two numbers in mm like 1.5,-0.5, not {text!r}") from None
    return pt_from_mm(x), pt_from_mm(y)


def build(ctx) -> dict:
    from generator.counter_files import build_counters
    return build_counters(ctx)


PART = Part(
    name="counters", build=build, order=10, aliases=("counter-sheets",),
    doc="double-sided counter sheets, one PDF per colour, deep space and neutral, plus a duplex calibration sheet",
    options=(
        Option(("--gutter",), {"type": float, "default": 0.0, "metavar": "MM",
                               "help": "gap between counters in mm (default 0: counters abut and share cut lines)"}),
        Option(("--duplex",), {"choices": ("long", "short"), "default": "long",
                               "help": "which edge your printer flips the paper on (default: long)"}),
        Option(("--back-offset",), {"default": "0,0", "metavar": "X,Y",
                                    "help": "shift of the back pages in mm, as read from the calibration sheet"}),
    ),
    ignores=("rules", "maps", "aids"), needs=("cairo",), weight=2.3,
)
