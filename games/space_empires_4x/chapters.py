"""What Space Empires 4X's rules chapters may use beyond the kit's chart names (GameModule.documents): its
figures drawn from the counter templates, the scenario maps, unit labels and two derived facts. The core's
documents part renders, typesets and caches the booklet (generator/documents/make.py).

{{ figure('counter-anatomy') }} and {{ scenario_map(s) }} leave directive lines; {{ table(...) }} is the core's.
"""
from __future__ import annotations

from pnpgen.booklet.figure import Art, Figure
from pnpgen.documents.extras import ChapterExtras
from pnpgen.documents.table_data import plain_table
from pnpgen.games.space_empires_4x.figures import FIGURES
from pnpgen.lengths import mm, parse_length
from pnpgen.model import Kit

MAP_WIDTH = 230.0  # points: a small picture of the whole map, across most of the page


def unit_label(unit) -> str:
    """'Cruiser (CA)', but 'Miner' where the code is the name."""
    return unit.name if unit.code == unit.name else f"{unit.name} ({unit.code})"


def scenario_numbers(kit: Kit, scenario):
    """What stands in for a scenario's map picture while the kit has no board for it."""
    hexes = kit.home_system.hexes
    rows = (("Players", str(scenario.players)), ("Home Systems", str(scenario.players)),
            ("Hexes in each Home System", str(hexes)), ("Deep Space hexes", str(scenario.deep_space_markers)),
            ("All hexes", str(scenario.players * hexes + scenario.deep_space_markers)))
    return plain_table(("Scenario", scenario.name), rows, (3, 2))


def scenario_figure(kit: Kit, scenario, hexmap) -> Figure:
    """The scenario's board as a thumbnail, drawn only when the booklet places it: the grid only, no
    coordinates (unreadable that small)."""
    from pnpgen.maps.draw import compose, map_svg
    svg = map_svg(kit, compose(kit, hexmap, kit.counter_size), thumbnail=True)
    return Figure(f"scenario-map:{scenario.id}", (Art(svg, f"map of {scenario.name}", scenario.name),),
                  width=MAP_WIDTH)


def chapter_extras(kit: Kit, pieces, counter_size: str, tables) -> ChapterExtras:
    """`counter_size` is the size this build prints counters at (the kit's default or --counter-size);
    `tables` is the core's table(...), which keeps a scenario's numbers where it has no map."""
    figures = {name: (lambda draw=draw: draw(kit, list(pieces), mm(parse_length(counter_size))))
               for name, draw in FIGURES.items()}

    def scenario_map(scenario) -> str:
        hexmap = next((m for m in kit.maps if m.extra["scenario"] == scenario.id), None)
        if hexmap is None:
            return tables.keep(scenario_numbers(kit, scenario))
        name = f"scenario-map:{scenario.id}"
        figures[name] = lambda: scenario_figure(kit, scenario, hexmap)  # the core's figure(...) reads this dict
        return f"\n[[figure:{name}]]\n"

    names = {"scenario_map": scenario_map, "unit_label": unit_label, "home_hexes": kit.home_system.hexes,
             "counter_size": counter_size}
    return ChapterExtras(names=names, figures=figures)
