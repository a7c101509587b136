"""Space Empires 4X's game module: what its kit needs beyond data and templates.

Its data files (units, technologies, markers, counters, game, maps) have shapes of their own, the game
derives numbers from them (a Homeworld's value steps, group numbers, the marker mixes) and checks its
counters (the rules between its files are declared in its kit.yaml `checks:`, what its hex maps mean in its
`map_rules:`); its own Python adds its booklet's figures and chapter names (booklet/chapters.py).
Everything is printed by the core's parts, as any kit's:
its counters (the pieces it makes), aid cards, record sheets, hex maps and rules booklet (the documents part,
under the name `booklet`); so are tables, boards and documents.
"""
from __future__ import annotations

from pnpgen.game_modules import GameModule

NAME = "space_empires_4x"


def _load(*args):
    from pnpgen.games.space_empires_4x.load import load
    return load(*args)


def _pieces(kit):
    from pnpgen.games.space_empires_4x.inventory import kit_pieces
    return kit_pieces(kit)


def _inventory(kit, pieces):
    from pnpgen.games.space_empires_4x.inventory import inventory_lines
    return [{"kind": line.kind, "ref": line.ref, "name": line.name, "per_colour": line.per_colour,
             "neutral": line.neutral, "total": line.total} for line in inventory_lines(kit, pieces)]


def _summary(kit, pieces):
    return (f"{len(pieces)} counters, {len(kit.units)} unit types, {len(kit.technologies)} technologies, "
            f"{len(kit.marker_kinds)} marker kinds")


def _listing(kit, pieces):
    from pnpgen.games.space_empires_4x.listing import inventory_text
    return inventory_text(kit, pieces)


def _chart_context(kit, pieces):
    from pnpgen.games.space_empires_4x.facts import chart_context
    return chart_context(kit, pieces)


def _print_groups(kit):
    """Each colour's counters, then the deep-space markers, then the shared counters."""
    from pnpgen.games.space_empires_4x.inventory import DEEP_SPACE, NEUTRAL
    return [(c.id, c.name) for c in kit.colours] + [(DEEP_SPACE, "Deep space"), (NEUTRAL, kit.neutral.name)]


def _documents(kit, pieces, counter_size, tables):
    from pnpgen.games.space_empires_4x.booklet.chapters import chapter_extras
    return chapter_extras(kit, pieces, counter_size, tables)


def _parts():
    from pnpgen.parts import documents
    booklet = documents.named("booklet", order=50, aliases=("rules",), ignores=("aids",), weight=0.9,
                              doc="the rules booklet, in reading order and imposed for folding",
                              needs=("cairo", "reportlab", "pypdf"))
    return (booklet,)


MODULE = GameModule(name=NAME, load=_load, pieces=_pieces, parts=_parts(), inventory=_inventory,
                    summary=_summary, listing=_listing,
                    chart_context=_chart_context, print_groups=_print_groups,
                    documents=_documents)
