"""What Space Empires 4X's rules chapters may use beyond the kit's chart names (GameModule.documents): its
counter-anatomy figure, drawn from the counter templates, and unit labels. The core's documents part renders,
typesets and caches the booklet (generator/documents/make.py) and draws the scenario maps and the marker
faces (figure('map:ID'), figure('TABLE.ROW'))."""
from __future__ import annotations

from pnpgen.documents.extras import ChapterExtras
from pnpgen.games.space_empires_4x.figures import FIGURES
from pnpgen.lengths import mm, parse_length
from pnpgen.model import Kit


def unit_label(unit) -> str:
    """'Cruiser (CA)', but 'Miner' where the code is the name."""
    return unit.name if unit.code == unit.name else f"{unit.name} ({unit.code})"


def chapter_extras(kit: Kit, pieces, counter_size: str, tables) -> ChapterExtras:
    """`counter_size` is the size this build prints counters at (the kit's default or --counter-size)."""
    figures = {name: (lambda draw=draw: draw(kit, list(pieces), mm(parse_length(counter_size))))
               for name, draw in FIGURES.items()}
    return ChapterExtras(names={"unit_label": unit_label}, figures=figures)
