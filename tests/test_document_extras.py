"""What any kit's chapters and charts may use without code: a figure under a name and captions of its own,
a hex map as a figure, the component tables' rows as one list, a game module's functions imported on use."""
from __future__ import annotations

import subprocess
import sys

import pytest

from pnpgen.booklet.figure import Art, Figure
from pnpgen.documents.component_rows import component_rows
from pnpgen.documents.extras import figure_helper
from pnpgen.documents.map_figures import MAP_WIDTH, map_figures
from pnpgen.problems import BuildError


def _two_sided() -> Figure:
    return Figure("cards.explore", (Art("<svg/>", "explore", "Front: Cards: Explore"),
                                    Art("<svg/>", "explore", "Back: Cards: Explore")))


def test_a_figure_placed_under_a_name_of_its_own_keeps_its_art_and_takes_the_chapters_captions():
    figures = {"cards.explore": _two_sided}
    line = figure_helper(figures)("cards.explore", name="explore-faces", captions=["Face up", "Face down"])
    assert "[[figure:explore-faces]]" in line
    drawn = figures["explore-faces"]()
    assert drawn.name == "explore-faces" and [a.caption for a in drawn.arts] == ["Face up", "Face down"]
    assert [a.svg for a in drawn.arts] == [a.svg for a in _two_sided().arts]
    assert figures["cards.explore"]().name == "cards.explore"  # the piece's own figure is unchanged


def test_one_name_is_one_figure_wherever_a_chapter_places_it():
    figures = {"cards.explore": _two_sided, "cards.trade": _two_sided}
    figure = figure_helper(figures)
    assert figure("cards.explore", name="faces") == figure("cards.explore", name="faces")  # placed twice: fine
    with pytest.raises(ValueError, match=r"figure name 'faces' is another figure's already"):
        figure("cards.trade", name="faces")
    with pytest.raises(ValueError, match=r"figure name 'cards.trade' is another figure's already"):
        figure("cards.explore", name="cards.trade")


@pytest.mark.parametrize("captions", [["Only one"], "Face up", 3])
def test_captions_that_do_not_give_one_a_picture_are_an_error_that_says_how_many(captions):
    figures = {"cards.explore": _two_sided}
    figure_helper(figures)("cards.explore", captions=captions)
    with pytest.raises(BuildError, match=r"captions= needs a list of 2 caption\(s\), one for each picture"):
        figures["cards.explore"]()


def test_an_unknown_figure_names_the_known_ones_whatever_its_options():
    with pytest.raises(KeyError, match=r"unknown figure 'map:nowhere' \(known: cards.explore\)"):
        figure_helper({"cards.explore": _two_sided})("map:nowhere", name="x", captions=["a"])


def test_every_hex_map_of_a_kit_is_a_figure_drawn_small_from_its_data(default_kit):
    figures = map_figures(default_kit)
    assert set(figures) == {f"map:{m.id}" for m in default_kit.maps} and len(figures) >= 6
    hexmap = default_kit.maps[0]
    drawn = figures[f"map:{hexmap.id}"]()
    (art,) = drawn.arts
    assert drawn.width == MAP_WIDTH and art.caption == hexmap.title
    assert art.svg.startswith("<svg") and "<path" in art.svg
    assert "<text" not in art.svg  # no coordinates or track words: unreadable that small


def test_component_rows_count_every_piece_of_the_kit_once(default_kit):
    rows = component_rows(default_kit)
    assert len(rows) == sum(len(t.rows) for t in default_kit.tables.values())
    assert sum(r["total"] for r in rows) == len(default_kit.component_pieces)
    per_colour = next(r for r in rows if r["table"]["per_colour"])
    assert per_colour["total"] == per_colour["qty"] * len(default_kit.colours)
    assert [r["table"]["id"] for r in rows] == [t.id for t in default_kit.tables.values() for _ in t.rows]


def test_a_game_module_is_imported_without_its_loader_and_texts():
    """Every CLI run lists the modules' parts: their loaders, checks and texts wait until a kit needs them."""
    code = ("import sys, pnpgen.games.space_empires_4x as m; "
            "print(sorted(n for n in sys.modules if n.startswith('pnpgen.games.space_empires_4x.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
