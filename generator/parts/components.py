"""Part "components" (also `counters`): every component table's pieces, double-sided, one PDF per print group,
for every kit (Space Empires 4X's counters are tables too).

The work is in pnpgen.components.files, imported when the part is built: registering the part (every
`pnpgen` command does) loads no drawing code.
"""
from __future__ import annotations

from pnpgen.parts import Option, Part


def build(ctx) -> dict:
    from pnpgen.components.files import build as build_components
    return build_components(ctx)


def split(ctx):
    """Its print files as shards, where that pays (pnpgen.run_parts decides; pnpgen.components.shards)."""
    from pnpgen.components.shards import split as split_components
    return split_components(ctx)


PART = Part(name="components", build=build, order=15, aliases=("pieces", "counters", "counter-sheets"),
            doc="every component table's pieces, double-sided, one PDF per print group",
            options=(Option(("--previews",), {"action": "store_true",
                                              "help": "also draw every sheet page of pieces "
                                                      "as a 60 dpi PNG in previews/ (off by default: a third again "
                                                      "of their drawing time)"}),
                     Option(("--gutter",), {"type": float, "default": None, "metavar": "MM",
                                            "help": "gap between the pieces of every group that sets "
                                                    "no gutter of its own, in mm "
                                                    "(default: the group's, 0 for squares: they abut and share "
                                                    "cut lines)"})),
            applies=lambda kit: bool(kit.tables), ignores=("rules", "boards", "maps", "aids"), needs=("cairo",),
            weight=1.5, split=split)
