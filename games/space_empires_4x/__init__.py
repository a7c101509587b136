"""Space Empires 4X's game module: what its kit needs beyond data and templates.

Its counters are component tables printed by the core's components part; their rule counts and the rules
between its files are data (the tables' `counts:`, kit.yaml `checks:` and `map_rules:`). The module reads its
data files and counter tables into its model (load.py, model.py) for what its charts and chapters derive
(text.py, chapters.py, figures.py); its aid cards, record sheets, maps and booklet (the documents part, named
`booklet`) are printed by the core's parts.
"""
from __future__ import annotations

from pnpgen.game_modules import GameModule, on_use


def _parts():
    from pnpgen.parts import documents
    return (documents.named("booklet", order=50, aliases=("rules",), ignores=("aids",), weight=0.9,
                            doc="the rules booklet, in reading order and imposed for folding",
                            needs=("cairo", "reportlab")),)  # its PDFs ask to print at 100 % as written: no pypdf


# Its loader, chart names and chapter names are imported on use: every CLI run lists the modules' parts.
MODULE = GameModule(name="space_empires_4x", load=on_use(f"{__name__}.load", "load"), parts=_parts(),
                    chart_context=on_use(f"{__name__}.text", "chart_context"),
                    documents=on_use(f"{__name__}.chapters", "chapter_extras"))
