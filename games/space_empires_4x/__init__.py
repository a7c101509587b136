"""Space Empires 4X's game module: what its kit needs beyond data and templates.

Its counters are component tables (units, markers, other counters: the kit's components/), printed by the
core's components part as any kit's; their rule counts and the rules between its files are data (the tables'
`counts:`, kit.yaml `checks:`, what its hex maps mean in `map_rules:`). Its data files (technologies, marker
kinds, game, maps) have shapes of their own; the game reads them and the counter tables into its model for
the numbers its charts and chapters derive (a Homeworld's value steps, the marker mixes), and its own Python
adds its booklet's figures and chapter names (booklet/chapters.py). Its aid cards, record sheets, hex maps and
rules booklet (the documents part, under the name `booklet`) are printed by the core's parts too.
"""
from __future__ import annotations

from pnpgen.game_modules import GameModule

NAME = "space_empires_4x"


def _load(*args):
    from pnpgen.games.space_empires_4x.load import load
    return load(*args)


def _chart_context(kit):
    from pnpgen.games.space_empires_4x.facts import chart_context
    return chart_context(kit)


def _documents(kit, pieces, counter_size, tables):
    from pnpgen.games.space_empires_4x.booklet.chapters import chapter_extras
    return chapter_extras(kit, pieces, counter_size, tables)


def _parts():
    from pnpgen.parts import documents
    booklet = documents.named("booklet", order=50, aliases=("rules",), ignores=("aids",), weight=0.9,
                              doc="the rules booklet, in reading order and imposed for folding",
                              needs=("cairo", "reportlab", "pypdf"))
    return (booklet,)


MODULE = GameModule(name=NAME, load=_load, parts=_parts(), chart_context=_chart_context, documents=_documents)
