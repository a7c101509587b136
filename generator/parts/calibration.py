"""Part "calibration": the duplex calibration sheet, for every kit that prints double-sided sheets; it also
owns the build's one duplex setting (--duplex, --back-offset), which every double-sided file follows.

The work is in pnpgen.calibration; registering the part loads no drawing code.
"""
from __future__ import annotations

from pnpgen.parts import Option, Part


def build(ctx) -> dict:
    from pnpgen.calibration import build as build_calibration
    return build_calibration(ctx)


def _applies(kit) -> bool:
    from pnpgen.calibration import has_double_sided
    return has_double_sided(kit)


def _sheets(ctx) -> dict:
    """Whether the landscape sheet is printed: it follows the aid cards' file and a default booklet's
    rules/, which kit.yaml alone does not show."""
    from pnpgen.calibration import prints_landscape_duplex
    return {"landscape": prints_landscape_duplex(ctx.kit)}


PART = Part(
    name="calibration", build=build, order=12, aliases=("duplex-calibration",),
    doc="a duplex calibration sheet for kits with double-sided sheets (it measures --back-offset)",
    options=(
        Option(("--duplex",), {"choices": ("long", "short"), "default": "long",
                               "help": "which edge your printer flips the paper on, for every double-sided "
                                       "file (default: long)"}),
        Option(("--back-offset",), {"default": "0,0", "metavar": "X,Y",
                                    "help": "shift of the back pages in mm, as read from the calibration sheet"}),
    ),
    # it prints the kit's title (in the edition's words: locale/) and the build's options only: keyed by kit.yaml
    # and the catalogues (and the code, the options, _sheets)
    applies=_applies, reads=("kit.yaml", "locale"), key_extra=_sheets, needs=("cairo",), weight=0.2,
)
