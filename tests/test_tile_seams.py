"""No tile seam cuts a text: every kit's hex maps and boards, in every edition, planned on Letter and A4 from
the art as drawn (no PDF written or read back), each line of text the drawing recorded lies whole inside
the part of one tile that stays in view once the tiles are glued; and the planner's staggered rows and
extra sheets, on made-up boards."""
from __future__ import annotations

import json

import pytest

from pnpgen.boards.files import board_document, plan_board_tiles
from pnpgen.i18n import translator
from pnpgen.kit import load_kit
from pnpgen.kit_folder import BUILTIN_DATA
from pnpgen.maps.draw import compose, map_svg
from pnpgen.maps.files import plan_map_tiles
from pnpgen.maps.seams import crossings
from pnpgen.maps.tiling import OVERLAP, laid_out, plan_tiles
from pnpgen.preflight import runs
from pnpgen.render.pdf import ArtCache

EDITIONS = [("space-empires-4x", None), ("space-empires-4x", "fr"), ("eclipse", None), ("eclipse", "es"),
            ("se4-board-game", None), ("4x-space-euro", None)]
PAPERS = ("letter", "a4")


class Ctx:
    """What board_document reads of a build's context."""
    def __init__(self, kit):
        self.kit = kit


def tiled_arts(kit_id: str, language: str | None) -> list:
    """(name, art, planner) of every map and board (each colour of a per-colour one) of one edition."""
    kit, _ = load_kit(BUILTIN_DATA / kit_id, language=language)
    arts, out = ArtCache(kit.root), []
    for hexmap in kit.maps:
        board = compose(kit, hexmap, kit.counter_size)
        out.append((f"map {hexmap.id}", arts.get(map_svg(kit, board)),
                    lambda art, paper, board=board: plan_map_tiles(board, art, paper)))
    for board in kit.boards:
        for colour in (kit.colours if board.per_colour else (None,)):
            name = f"board {board.id}" + (f" ({colour.id})" if colour else "")
            out.append((name, arts.get(board_document(Ctx(kit), board, colour)), plan_board_tiles))
    return out


def kept(tile) -> tuple:
    """The map a tile shows once assembled (x0, y0, x1, y1): its GLUE strips go under its neighbours."""
    s, sides = tile.source, tile.neighbours
    return (s.x, s.y, s.x + s.w - (OVERLAP if "right" in sides else 0), s.y + s.h - (OVERLAP if "bottom" in sides else 0))


def lines_cut(art, plan) -> list[str]:
    """Each line of text (a run of the drawing's recorded glyphs) that no one tile keeps whole in view."""
    views = [kept(tile) for tile in plan.tiles]
    cut = []
    for run in runs(art.texts, 0.0):
        x0, y0 = min(box[0] for _, _, box in run), min(box[1] for _, _, box in run)
        x1, y1 = max(box[2] for _, _, box in run), max(box[3] for _, _, box in run)
        if not any(a <= x0 and b <= y0 and x1 <= c and y1 <= d for a, b, c, d in views):
            cut.append(f"{''.join(g for _, g, _ in run)[:40]!r} at ({x0:.0f}, {y0:.0f})-({x1:.0f}, {y1:.0f})")
    return cut


@pytest.mark.parametrize("kit_id, language", EDITIONS, ids=[f"{k}-{lang or 'source'}" for k, lang in EDITIONS])
def test_no_seam_cuts_a_text_in_any_kit_edition_or_paper(kit_id, language):
    """Planned as the build plans them: seams_cut empty, every line of text whole on one tile's kept part,
    and no sheet more than the paper alone needs (the tiles cost what they did before seams avoided text)."""
    try:
        tiled = tiled_arts(kit_id, language)
        assert tiled, kit_id
        for name, art, planner in tiled:
            for paper in PAPERS:
                plan, found = planner(art, paper)
                assert found == [], (name, paper)
                assert lines_cut(art, plan) == [], (name, paper)
                assert plan.extra_sheets == 0, (name, paper, plan.count)
    finally:
        translator.activate(None)   # the next test reads the source edition


def test_staggered_rows_clear_what_a_straight_seam_cannot():
    """A text at the top needs the vertical seam right of x = 483, one at the bottom left of x = 477: no
    straight seam clears both, so each row takes its own, in the 4 tiles the paper needs. A tile meeting two
    tiles across the staggered seam names both, and the ticks of the seam's two sides meet."""
    top, bottom = (300, 100, 480, 112), (480, 1200, 700, 1212)
    plan = plan_tiles(1000, 1300, "letter", (top, bottom), spend_paper=False)
    assert (plan.count, plan.extra_sheets, plan.landscape) == (4, 0, False)
    (row_a,), (row_b,) = plan.row_seams
    assert row_a > 483 and row_b <= 477
    assert crossings(plan, [(top, "top"), (bottom, "bottom")]) == []
    tiles = {t.label: t for t in plan.tiles}
    assert tiles["B1"].neighbours["top"] == "A1" and tiles["B2"].neighbours["top"] == ["A1", "A2"]
    assert tiles["A1"].neighbours["bottom"] == ["B1", "B2"]

    def ticks_at(row: str, vertical_from) -> set:
        return {round(x1 - t.at[0], 3) for t in plan.tiles if t.label[0] == row
                for x1, y1, x2, y2 in t.ticks if x1 == x2 and vertical_from(t, y1)}
    below_a = ticks_at("A", lambda t, y: y > t.clip.y + t.clip.h - OVERLAP)
    above_b = ticks_at("B", lambda t, y: y < t.clip.y)
    assert below_a == above_b and len(below_a) == 2 * 3   # thirds of each of the three shared stretches
    assert laid_out(1000, 1300, "letter", *json.loads(json.dumps(plan.choice))) == plan   # as a build keeps it


def test_a_text_no_seam_in_the_papers_sheets_clears_costs_one_sheet_said_as_such():
    """A text astride every place the paper's two tiles could meet: three tiles, not the two the paper alone
    needs (nor landscape's four); the manifest's extra_sheets and the summary say why."""
    from pnpgen.maps.files import extra_entry
    from pnpgen.paper_use import extra_said
    text = (400, 300, 540, 312)
    plan = plan_tiles(1000, 600, "letter", (text,), spend_paper=False)
    assert (plan.count, plan.extra_sheets) == (3, 1)
    assert crossings(plan, [(text, "a legend")]) == []
    assert extra_entry(plan) == {"extra_sheets": 1}
    assert extra_said(extra_entry(plan)) == "; 1 sheet more than the paper alone needs, so that no seam cuts a text"
    assert extra_entry(plan_tiles(1000, 600, "letter")) == {}
