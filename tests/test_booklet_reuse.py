"""What the booklet's build takes over instead of working it out again: the chapters the kit's load rendered
for its check (documents.rendered_chapters), and the cover's stars written without reportlab's calls
(booklet.star_field), both the same as what they replace."""
from __future__ import annotations

import random

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from pnpgen.booklet.cover import _mix
from pnpgen.booklet.star_field import SIZES, stars
from pnpgen.documents.context import chapter_context, render_chapter
from pnpgen.documents.extras import figure_helper, retell
from pnpgen.documents.load import chapter_files
from pnpgen.documents.map_figures import map_figures
from pnpgen.documents.rendered_chapters import take
from pnpgen.kit import load_kit
from pnpgen.render.drawn_text import GlyphCanvas
from tests.conftest import DEFAULT_KIT_DIR


def _canvas_stars(canvas, box, sky, rnd) -> None:
    """The stars as booklet.cover drew them through the canvas before star_field."""
    x, y, w, h = box
    for _ in range(int(w * h / 160)):
        canvas.setFillColor(_mix(sky, colors.white, rnd.uniform(0.25, 1.0)))
        canvas.circle(x + rnd.uniform(0, w), y + rnd.uniform(0, h), rnd.choice(SIZES), stroke=0, fill=1)


def test_the_stars_are_the_operators_the_canvas_writes_and_leave_the_same_random_state():
    for seed, (box, sky, alpha) in enumerate([((22, 300, 352, 290), "#0b1530", None),
                                              ((22.3, 500.1, 351.7, 64.0), "#334455", 0.5),
                                              ((0, 0, 12, 12), "#000000", None)]):
        made = []
        for draw in (_canvas_stars, lambda c, b, s, r: stars(c, b, s, r, _mix)):
            canvas, rnd = GlyphCanvas("/dev/null", pagesize=(396, 612)), random.Random(f"kit{seed}")
            if alpha is not None:   # a fill alpha set before: the first star sets it back, as the canvas did
                canvas.setFillAlpha(alpha)
            draw(canvas, box, colors.HexColor(sky), rnd)
            made.append((list(canvas._code), repr(canvas._fillColorObj), rnd.random()))
        assert made[0] == made[1]
        assert len(made[0][0]) >= 7 * int(box[2] * box[3] / 160)


def test_a_canvas_of_its_own_draws_its_stars_through_its_own_calls():
    circles = []

    class Counting(Canvas):
        def circle(self, *args, **kwargs):
            circles.append(args)
            return super().circle(*args, **kwargs)
    stars(Counting("/dev/null"), (0, 0, 160, 10), colors.HexColor("#000000"), random.Random(1), _mix)
    assert len(circles) == 10


def test_the_build_takes_the_chapters_the_load_rendered_in_its_context():
    """The bundled kit's booklet chapters, as the check rendered them at load, are what the build would render
    (its tables placed and the figure a chapter retold under a name of its own too); a build in another
    context (another counter size) renders its own."""
    kit, _ = load_kit(DEFAULT_KIT_DIR)
    settings = kit.documents["booklet"]
    files = chapter_files(kit, settings["chapters"], settings.get("back_cover"))
    pieces = list(kit.component_pieces)
    kept = take(kit, "booklet", files, pieces, kit.counter_size, "long")
    assert kept is not None and take(kit, "booklet", files, pieces, kit.counter_size, "long") is None  # once
    context, registry, known = chapter_context(kit, pieces, kit.counter_size, "long", map_figures(kit))
    assert kept.texts == [render_chapter(path, context, kit.root) for path in files]
    assert sorted(kept.registry.made) == sorted(registry.made)
    assert "marker-faces" in known and "marker-faces" not in chapter_context(kit, pieces)[2]
    retell(known, kept.retold)   # the SE4X chapter's figure('home-system-markers...', name='marker-faces')
    assert known["marker-faces"]().name == "marker-faces"

    other, _ = load_kit(DEFAULT_KIT_DIR)
    assert take(other, "booklet", files, list(other.component_pieces), "20mm", "long") is None


def test_a_retold_figure_is_retold_the_same_in_another_context():
    def draw():
        from pnpgen.booklet.figure import Art, Figure
        return Figure("cards.x", (Art("<svg/>", "x", "Front"),))
    first = {"cards.x": draw}
    helper = figure_helper(first)
    helper("cards.x", name="x-face", captions=["Face"])
    second = {"cards.x": draw}
    retell(second, helper.retold)
    assert second["x-face"]() == first["x-face"]()


def test_a_map_figure_is_kept_under_what_the_maps_read(default_kit, tmp_path):
    """The map figures' SVG (map_figures.MapSvgs) is kept under a salt that an edit to a component table does
    not change (the maps never read one) and an edit to a map, or the code, does; a kept SVG is not drawn."""
    from types import SimpleNamespace

    from pnpgen.documents.make import map_salt
    from pnpgen.documents.map_figures import MapSvgs, map_figure

    def salt(**files):
        kit_files = tuple(sorted({"components/units.yaml": "a", "maps/duel-small.yaml": "b", **files}.items()))
        return map_salt(SimpleNamespace(code_key="code", kit_files=kit_files, kit=default_kit))
    assert salt() == salt(**{"components/units.yaml": "edited"}) == salt(**{"rules/01-intro.md": "edited"})
    assert salt() != salt(**{"maps/duel-small.yaml": "edited"})
    assert map_salt(SimpleNamespace(code_key="", kit_files=(), kit=default_kit)) == ""   # nothing kept

    hexmap = default_kit.maps[0]
    drawn = map_figure(default_kit, hexmap)
    first = MapSvgs(tmp_path / "maps.json", salt())
    assert map_figure(default_kit, hexmap, first) == drawn
    first.save()
    kept = MapSvgs(tmp_path / "maps.json", salt())
    assert kept.svg(f"{hexmap.id}\0{default_kit.counter_size}", lambda: "drawn again") == drawn.arts[0].svg
    assert MapSvgs(tmp_path / "maps.json", salt(**{"maps/duel-small.yaml": "edited"})).svg(
        f"{hexmap.id}\0{default_kit.counter_size}", lambda: "drawn again") == "drawn again"
