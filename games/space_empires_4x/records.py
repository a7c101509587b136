"""Record sheets players write on: the production sheet and the ship technology sheet, one set per colour.

Layout only: each page is a list of flowables measured against the page frame; `render_pages` draws them.
Labels come from the kit's `aids/sheets.yaml`, levels and costs from the model.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.platypus import Spacer

from generator.aids import draw
from generator.aids.fit import Fitted, Frame, fit
from generator.aids.prose import load_aid_yaml
from generator.aids.schema import Markup
from generator.schema import Bool, Field, ListOf, Record, optional
from generator.aids.styles import CONDENSED_BOLD, SHADE, grid_table, para
from generator.model import Colour, Kit
from games.space_empires_4x.model import Technology, Unit
from generator.paper import paper_size

SHEETS_FILE = Path("aids") / "sheets.yaml"
PAGE_MARGIN = 36.0          # half an inch: clear of every home printer's dead zone
BAND_HEIGHT, BAND_GAP = 20.0, 8.0
PHASES_PER_TABLE = 10       # Economic Phase columns in one table
TABLES_PER_PAGE = ((1,), (2, 3))   # page 1: phases 1-10 and the technology block; page 2: 11-30
ROW_HEIGHT = 22.0           # room to write a number by hand
SPACE = "\u2003"            # between numbers to circle
DASH = "\u2013"


def sheets_schema(charts: tuple = ()) -> Record:
    row = Record({
        "label": Field(Markup(), doc="the row's label"),
        "total": optional(Bool(), False, "printed bold and shaded"),
        "minus": optional(Bool(), False, "an amount taken away"),
    }, "a row {label, total, minus}")
    return Record({
        "production": Field(Record({
            "title": Field(Markup()), "intro": Field(Markup()), "rows": Field(ListOf(row, 1)),
            "tech_heading": Field(Markup()), "tech_intro": Field(Markup()),
        }, "the production sheet {title, intro, rows, tech_heading, tech_intro}")),
        "ship_tech": Field(Record({"title": Field(Markup()), "intro": Field(Markup())},
                                  "the ship technology sheet {title, intro}")),
    }, "the record sheets file")


@dataclass(frozen=True)
class SheetPage:
    colour: Colour
    title: str
    fitted: Fitted
    where: str


def page_frames(paper: str) -> tuple[tuple[float, float], Frame, Frame]:
    """Page size, title band, content frame (portrait, half-inch margins)."""
    width, height = paper_size(paper)
    band = Frame(PAGE_MARGIN, height - PAGE_MARGIN - BAND_HEIGHT, width - 2 * PAGE_MARGIN, BAND_HEIGHT)
    body = Frame(PAGE_MARGIN, PAGE_MARGIN, band.width, band.y - BAND_GAP - PAGE_MARGIN)
    return (width, height), band, body


def sheet_texts(kit: Kit) -> tuple[dict, str]:
    """The sheet labels, checked against their schema (generator/aids/schema.py)."""
    return load_aid_yaml(kit, SHEETS_FILE, sheets_schema)


# --- production sheet -------------------------------------------------------------------------------

def production_table(texts: dict, first_phase: int, width: float):
    """Rows from the text file; one empty column per Economic Phase to write in."""
    phases = list(range(first_phase, first_phase + PHASES_PER_TABLE))
    rows = [[para("Economic Phase", "sheet_cell_bold")] + [str(p) for p in phases]]
    totals = []
    for row in texts["rows"]:
        label = ("\u2212 " if row.get("minus") else "") + str(row["label"])
        rows.append([para(f"<b>{label}</b>" if row.get("total") else label, "sheet_cell")] + [""] * len(phases))
        if row.get("total"):
            totals.append(len(rows) - 1)
    label_width = width * 0.3
    widths = [label_width] + [(width - label_width) / len(phases)] * len(phases)
    table = grid_table(rows, widths, shaded_rows=totals, font_size=8.5, row_heights=[14] + [ROW_HEIGHT] *
                       (len(rows) - 1))
    table.setStyle([("ALIGN", (1, 0), (-1, 0), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")])
    return table


def level_cell(tech: Technology, index: int) -> str:
    if index >= len(tech.levels):
        return ""
    level = tech.levels[index]
    if index == 0:
        return f'<font color="#8a8a8a">start {level.level}</font>'
    return f"<b>{level.level}</b> \u00b7 {level.cost} CP"


def tech_progression(kit: Kit, width: float):
    """Each technology's levels with their costs, in boxes to circle; advanced technologies shaded."""
    columns = max(len(t.levels) for t in kit.technologies.values())
    rows = [[para("Technology", "sheet_cell_bold"), para("Levels (level \u00b7 cost)", "sheet_cell_bold")]
            + [""] * (columns - 1)]
    shaded = []
    for tech in kit.technologies.values():
        if tech.rules != "basic":
            shaded.append(len(rows))
        rows.append([para(f"<b>{escape(tech.name)}</b>", "sheet_cell")]
                    + [para(level_cell(tech, i), "sheet_centre") for i in range(columns)])
    name_width = width * 0.2
    table = grid_table(rows, [name_width] + [(width - name_width) / columns] * columns, shaded_rows=shaded,
                       font_size=8.5, row_heights=[14] + [16] * (len(rows) - 1))
    table.setStyle([("SPAN", (1, 0), (-1, 0))])
    return table


def production_flowables(kit: Kit, texts: dict, width: float) -> list[list]:
    """The flowables of each production page."""
    pages = []
    for page_number, tables in enumerate(TABLES_PER_PAGE):
        flow = [para("Player: ______________________________", "sheet_cell")]
        if page_number == 0:
            flow.append(para(" ".join(str(texts["intro"]).split()), "body"))
        for table_number in tables:
            flow += [Spacer(1, 6), production_table(texts, 1 + (table_number - 1) * PHASES_PER_TABLE, width)]
        if page_number == 0:
            flow += [para(str(texts["tech_heading"]), "heading"), para(" ".join(str(texts["tech_intro"]).split()),
                                                                       "body"), tech_progression(kit, width)]
        pages.append(flow)
    return pages


# --- ship technology sheet --------------------------------------------------------------------------

def level_choices(tech: Technology, cap: int | None = None, low: int | None = None) -> str:
    """The levels a group could have been built with, spaced for circling; `cap` is the hull size."""
    levels = [lv.level for lv in tech.levels if (cap is None or lv.level <= cap) and (low is None or lv.level >= low)]
    return SPACE.join(str(v) for v in levels) or DASH


def other_tech(kit: Kit, unit: Unit) -> str:
    parts = [f"{escape(kit.technologies[t].name)}: " + level_choices(kit.technologies[t], low=lvl) for t, lvl in unit.requires]
    return "<br/>".join(parts) or DASH


def group_rows(kit: Kit) -> list[tuple[Unit, int]]:
    return [(u, n) for u in kit.units.values() if u.groups for n in u.group_numbers]


def ship_tech_table(kit: Kit, width: float):
    techs = kit.technologies
    size = kit.game.economy["group_size"]
    ships = SPACE.join(str(n) for n in range(size["min"], size["max"] + 1))
    header = ["Group", "Attack", "Defence", "Tactics", "Movement", "Ships", "Other"]
    rows = [[para(h, "sheet_cell_bold") for h in header]]
    for unit, number in group_rows(kit):
        rows.append([para(f"<b>{escape(unit.code)} {number}</b>", "sheet_cell"),
                     para(level_choices(techs["attack"], unit.hull), "sheet_centre"),
                     para(level_choices(techs["defence"], unit.hull), "sheet_centre"),
                     para(level_choices(techs["tactics"]), "sheet_centre"),
                     para(level_choices(techs["movement"]), "sheet_centre"),
                     para(ships, "sheet_centre"), para(other_tech(kit, unit), "cell")])
    widths = [w * width / 100 for w in (9, 11, 11, 13, 21, 17, 18)]
    table = grid_table(rows, widths, shaded_rows=_alternate_units(kit), font_size=8.5)
    table.setStyle([("FONTNAME", (0, 0), (-1, 0), CONDENSED_BOLD), ("BACKGROUND", (0, 0), (-1, 0), SHADE)])
    return table


def _alternate_units(kit: Kit) -> list[int]:
    """Rows of every second unit type, shaded so a row is easy to follow across the page."""
    shaded, codes = [], []
    for row, (unit, _) in enumerate(group_rows(kit), start=1):
        if unit.code not in codes:
            codes.append(unit.code)
        if len(codes) % 2 == 0:
            shaded.append(row)
    return shaded


def ship_tech_flowables(kit: Kit, texts: dict, width: float) -> list[list]:
    intro = para(" ".join(str(texts["intro"]).split()), "body")
    return [[para("Player: ______________________________", "sheet_cell"), intro, ship_tech_table(kit, width)]]


# --- pages ------------------------------------------------------------------------------------------

def plan_sheet(kit: Kit, paper: str, kind: str) -> list[SheetPage]:
    """Every page of one sheet kind for every colour, measured; raises a located BuildError on overflow."""
    texts, name = sheet_texts(kit)
    section = texts[kind]
    where = f"{name}:{texts.line_of(kind)} {kind}"
    _, _, body = page_frames(paper)
    build = production_flowables if kind == "production" else ship_tech_flowables
    pages = []
    for colour in kit.colours:
        for number, flow in enumerate(build(kit, section, body.width), start=1):
            fitted = fit(flow, body.width, body.height, f"{where} (page {number})")
            pages.append(SheetPage(colour, str(section["title"]), fitted, where))
    return pages


def render_pages(kit: Kit, pages: list[SheetPage], paper: str, path: Path) -> list[dict]:
    size, band, body = page_frames(paper)
    canvas = draw.open_canvas(path, f"{kit.title}: {pages[0].title}", size)
    entries = []
    for number, page in enumerate(pages, start=1):
        draw.title_band(canvas, band, page.colour, f"{page.title} \u00b7 {page.colour.name}", kit.title)
        draw.content(canvas, page.fitted, body)
        canvas.showPage()
        entries.append({"page": number, "colour": page.colour.id, "frame": body.as_list(),
                        "content_height": round(page.fitted.height, 2)})
    canvas.save()
    return entries
