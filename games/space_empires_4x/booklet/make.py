"""Making the rules booklet: rules/*.md (Jinja over Markdown) -> booklet.pdf and booklet-imposed.pdf."""
from __future__ import annotations

import io
import time

from pypdf import PdfReader
from reportlab.platypus import Spacer

from games.space_empires_4x.booklet.chapters import directives, load_chapters
from generator.booklet.document import frame_width, lay_out
from games.space_empires_4x.booklet.figures import build_figure
from generator.booklet.impose import impose, sheet_sides
from games.space_empires_4x.booklet.maps_hook import scenario_figure
from generator.booklet.markdown import Block
from generator.booklet.overlay import overlay
from generator.booklet.story import flowables, table
from generator.documents.charts import ChartTables
from generator.documents.context import chart_context
from generator.documents.table_data import plain_table
from generator.paper import half_page_size, paper_size
from generator.problems import BuildError, display_path
from generator.render.pdf import ArtCache
from games.space_empires_4x.facts import home_hexes

BOOKLET = "booklet.pdf"
IMPOSED = "booklet-imposed.pdf"


def render_figures(ctx, figures: dict) -> dict:
    """Each figure's art drawn by cairo once: {(figure, index): Art}."""
    cache, rendered = ArtCache(), {}
    for fig in figures.values():
        for index, art in enumerate(fig.arts):
            rendered[(fig.name, index)] = cache.get(art.svg, f"booklet figure {fig.name} ({art.source})")
    return rendered


def load_figures(ctx, chapters) -> dict:
    figures = {}
    for name, path in directives(chapters, "figure"):
        try:
            figures[name] = build_figure(ctx.kit, ctx.pieces, name, display_path(path), ctx.counter_size)
        except BuildError as exc:
            raise BuildError(f"{display_path(path)}: figure {name}: {exc}") from None
        for label in figures[name].missing:
            ctx.log(f"booklet: figure {name}: the template prints no text for the '{label}' callout; left out")
    for scenario in ctx.kit.game.scenarios:
        if (fig := scenario_figure(ctx.kit, scenario)) is not None:
            figures[f"scenario-map:{scenario.id}"] = fig
    return figures


def scenario_numbers(kit, scenario_id: str, width: float) -> list:
    """What stands in for the scenario map picture while the kit has no map data."""
    s = next(s for s in kit.game.scenarios if s.id == scenario_id)
    rows = (("Players", str(s.players)), ("Home Systems", str(s.players)),
            ("Hexes in each Home System", str(home_hexes(kit))), ("Deep Space hexes", str(s.deep_space_markers)),
            ("All hexes", str(s.players * home_hexes(kit) + s.deep_space_markers)))
    return [table(plain_table(("Scenario", s.name), rows, (3, 2)), width * 0.8), Spacer(1, 6)]


def build_story(ctx, chapters, charts: ChartTables, figures, rendered, placements, width) -> list:
    art_sizes = {f.name: [(rendered[(f.name, i)].width, rendered[(f.name, i)].height) for i in range(len(f.arts))]
                 for f in figures.values()}
    tables = charts.built()

    def scenario_map(arg):
        key = f"scenario-map:{arg}"
        if key in figures:
            return flowables([Block("directive", "figure", arg=key)], "m", width, tables, figures, art_sizes, placements, {})
        return scenario_numbers(ctx.kit, arg, width)

    extras = {"scenario-map": scenario_map}
    return [flowables(list(c.blocks), f"c{i}", width, tables, figures, art_sizes, placements, extras)
            for i, c in enumerate(chapters)]


def build_booklet(ctx) -> dict:
    start = time.perf_counter()
    kit, pagesize = ctx.kit, half_page_size(ctx.paper)
    charts = ChartTables(kit.charts, lambda: chart_context(kit, ctx.pieces))
    chapters = load_chapters(kit, charts, ctx.counter_size)
    figures = load_figures(ctx, chapters)
    rendered, placements = render_figures(ctx, figures), {}
    story = build_story(ctx, chapters, charts, figures, rendered, placements, frame_width(pagesize))
    pdf = overlay(lay_out(kit, pagesize, story, ctx.cache_dir / "booklet-contents.json"), rendered, placements)
    sheet = paper_size(ctx.paper, landscape=True)
    imposed = impose(pdf, sheet)
    ctx.stage.write_bytes(BOOKLET, pdf)
    ctx.stage.write_bytes(IMPOSED, imposed)
    pages = _page_count(pdf)
    ctx.log(f"booklet: {pages} pages, {len(sheet_sides(pages)) // 2} sheets, {time.perf_counter() - start:.2f} s")
    return {
        "files": [
            {"path": BOOKLET, "pages": pages, "paper": f"half-{ctx.paper}", "page_size": list(pagesize)},
            {"path": IMPOSED, "pages": len(sheet_sides(pages)), "paper": ctx.paper, "page_size": list(sheet),
             "binding": "saddle-stitch, duplex flip on short edge"},
        ],
        "chapters": [display_path(c.path) for c in chapters],
        "figures": sorted(figures),
    }


def _page_count(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)

