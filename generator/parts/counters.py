"""Part "counters": double-sided counter sheets, one PDF per print group (the calibration sheet and the
--duplex / --back-offset options are the core's: pnpgen.parts.calibration; --gutter and --previews the
components part's, pnpgen.parts.components, read here with ctx.option: an option has one owner).

The work is in pnpgen.counter_files, imported when the part is built: registering the part (every
`pnpgen` command does) costs no drawing code.
"""
from __future__ import annotations

from pnpgen.parts import Part


def build(ctx) -> dict:
    from pnpgen.counter_files import build_counters
    return build_counters(ctx)


PART = Part(
    name="counters", build=build, order=10, aliases=("counter-sheets",),
    doc="a game module's counters on double-sided sheets, one PDF per print group",
    applies=lambda kit: kit.has_game_module,  # a game module's pieces; a kit's tables print as components
    ignores=("rules", "maps", "aids"), needs=("cairo",), weight=2.3,
)
