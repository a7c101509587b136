"""Record sheets players write on (`aids/sheets.yaml`): each sheet's pages of blocks, one copy per player
colour (or one in all), measured to fit their page and drawn under a title band in the copy's colour.

A page holds the aid cards' blocks (heading, text, bullets, a chart of the kit's charts.yaml) plus two of
its own: `field`, a label and a line to write on, and `form`, a grid of blank boxes under column headings
(one column per round, per turn, per player...). Layout is here; `render_sheet` only draws.

A page whose blocks outgrow its frame runs on to as many further pages as it needs (pnpgen.aids.fit.flow: a
table splits between rows under its repeated header, other blocks move whole), each under the same title band
marked "(continued)" and under the lines the page opens with (its `field`s: "Player: ____", so a loose page
still says whose it is): a designer who adds rows to a table a sheet prints never has to add pages by hand.
Sheets print one-sided (a player writes on them; the manifest counts a sheet of paper a page), so a copy's
page count, odd or even, needs no blank page: each colour's copy is its pages in order, continuations in place.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.platypus import Spacer

from pnpgen.aids import draw
from pnpgen.aids.fit import Fitted, Frame, flow
from pnpgen.aids.prose import block_flowables, load_aid_yaml
from pnpgen.aids.schema import SHEET_BLOCK_KINDS, sheets_schema
from pnpgen.aids.sources import SHEETS_FILE
from pnpgen.aids.styles import grid_table, para, sheet_look
from pnpgen.documents.context import chart_context
from pnpgen.i18n.translator import core_words
from pnpgen.model import Colour, Kit
from pnpgen.paper import paper_size
from pnpgen.problems import BuildError

PAGE_MARGIN = 36.0          # half an inch: clear of every home printer's dead zone
BAND_HEIGHT, BAND_GAP = 20.0, 8.0
HEADER_HEIGHT = 14.0        # a form's heading row
FIELD_LINE = "_" * 30
MINUS = "\u2212 "
CONTINUED = " (continued)"   # after the title in the band of a page its blocks ran on to


@dataclass(frozen=True)
class SheetPage:
    colour: Colour
    title: str
    fitted: Fitted
    continued: bool = False     # the blocks of the page before it ran on to this one

    @property
    def band_title(self) -> str:
        return f"{self.title}{core_words(CONTINUED) if self.continued else ''} \u00b7 {self.colour.name}"


@dataclass(frozen=True)
class Sheet:
    id: str
    file: str
    pages: tuple[SheetPage, ...]


def page_frames(paper: str) -> tuple[tuple[float, float], Frame, Frame]:
    """Page size, title band, content frame (portrait, half-inch margins)."""
    width, height = paper_size(paper)
    band = Frame(PAGE_MARGIN, height - PAGE_MARGIN - BAND_HEIGHT, width - 2 * PAGE_MARGIN, BAND_HEIGHT)
    body = Frame(PAGE_MARGIN, PAGE_MARGIN, band.width, band.y - BAND_GAP - PAGE_MARGIN)
    return (width, height), band, body


def sheet_texts(kit: Kit):
    """The sheets file rendered with the kit's numbers and checked (a located KitError otherwise)."""
    return load_aid_yaml(kit, SHEETS_FILE, sheets_schema)


def file_name(sheet_id: str, spec) -> str:
    return spec.get("file") or f"{sheet_id.replace('_', '-')}-sheet.pdf"


def plan_sheets(kit: Kit, paper: str) -> list[Sheet]:
    """Every sheet's pages for every copy, measured; a located BuildError names a page that overflows."""
    from pnpgen.aids.cards import check_band_title
    from pnpgen.documents.paragraphs import use_kit
    use_kit(kit)  # its fonts registered and chosen (kit.yaml `fonts:`), its icons
    doc, name = sheet_texts(kit)
    _, _, body = page_frames(paper)
    context, sheets = chart_context(kit), []
    for sheet_id, spec in doc["sheets"].items():
        title = str(spec["title"])
        fitted = [page for index, blocks in enumerate(spec["pages"])
                  for page in _flowed_page(kit, blocks, body, context, index,
                                           f"{name}:{spec['pages'].line_of(index)}: sheets.{sheet_id}.pages[{index}]")]
        runs_on = any(part for part, _ in fitted)   # then the band says so too, in the same face
        check_band_title(title + (core_words(CONTINUED) if runs_on else ""),
                         f"{name}:{doc['sheets'].line_of(sheet_id)}: sheets.{sheet_id}.title")
        colours = kit.colours if spec.get("per", "colour") == "colour" and kit.colours else (kit.neutral,)
        pages = tuple(SheetPage(colour, title, page, part > 0) for colour in colours for part, page in fitted)
        sheets.append(Sheet(sheet_id, file_name(sheet_id, spec), pages))
        twin = next((s for s in sheets[:-1] if s.file == sheets[-1].file), None)
        if twin is not None:  # the second would silently replace the first
            raise BuildError(f"{name}:{doc['sheets'].line_of(sheet_id)}: sheets.{sheet_id}: prints to "
                             f"{twin.file}, as sheets.{twin.id} does: give one of them another `file`")
    return sheets


def _flowed_page(kit: Kit, blocks, body: Frame, context: dict, index: int, where: str) -> list[tuple[int, Fitted]]:
    """Declared page `index`'s blocks set on as many pages as they need: (0 for the page itself, 1... for the
    pages it ran on to, the page measured)."""
    places: list[str] = []
    flowables = block_flowables(kit, blocks, body.width, where, context, sheet_look(), SHEET_BLOCK_KINDS,
                                lambda kind, value, width: _sheet_block(kind, value, width, where), places)
    page = f" (page {index + 1})"
    owner = [block["field"] for block in _leading_fields(blocks)]
    return list(enumerate(flow(flowables, body.width, body.height, where + page, [p + page for p in places],
                               lambda: [f for line in owner for f in _sheet_block("field", line, body.width, where)])))


def _leading_fields(blocks) -> list:
    """The `field` blocks a page opens with (its owner's lines: "Player: ____"), which every page it runs on
    to repeats at its top: a loose page must still say whose it is."""
    leading = []
    for block in blocks:
        if not (isinstance(block, dict) and "field" in block):
            break
        leading.append(block)
    return leading


def _sheet_block(kind: str, value, width: float, where: str) -> list:
    if kind == "field":
        return [para(f"{value}: {FIELD_LINE}", "sheet_cell", where)]
    return [Spacer(1, 6), form_table(value, width, where)]


def form_table(form: dict, width: float, where: str = "a record sheet"):
    """The column headings over blank boxes, one row per label; total rows bold and shaded."""
    from pnpgen.documents.doc_fonts import faces, missing_character
    columns = [str(c) for c in form["columns"]]
    if problem := missing_character(faces().table_bold or "", "".join(columns)):
        raise BuildError(f"{where}: {problem}")
    from pnpgen.documents.paragraphs import needs_paragraph
    heads = [para(f"<b>{c}</b>", "sheet_centre", where) if needs_paragraph(c) else c for c in columns]  # an icon
    rows = [[para(str(form.get("corner", "")), "sheet_cell_bold", where)] + heads]
    totals = []
    for row in form["rows"]:
        label = (MINUS if row.get("minus") else "") + str(row["label"])
        rows.append([para(f"<b>{label}</b>" if row.get("total") else label, "sheet_cell", where)] + [""] * len(columns))
        if row.get("total"):
            totals.append(len(rows) - 1)
    label_width = width * form.get("label_width", 0.3)
    widths = [label_width] + [(width - label_width) / len(columns)] * len(columns)
    heights = [HEADER_HEIGHT] + [form.get("row_height", 22)] * (len(rows) - 1)
    table = grid_table(rows, widths, shaded_rows=totals, font_size=8.5, row_heights=heights)
    table.setStyle([("ALIGN", (1, 0), (-1, 0), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")])
    return table


def render_sheet(kit: Kit, sheet: Sheet, paper: str, path: Path) -> tuple[list[dict], dict]:
    """Draw one sheet's pages into `path`; one manifest entry per page, and the glyphs set on each page
    (pnpgen.render.drawn_text) for the overprint check."""
    size, band, body = page_frames(paper)
    canvas = draw.open_canvas(path, f"{kit.title}: {sheet.pages[0].title}", size)
    entries = []
    for number, page in enumerate(sheet.pages, start=1):
        draw.title_band(canvas, band, page.colour, page.band_title, kit.title)
        draw.content(canvas, page.fitted, body)
        canvas.showPage()
        entry = {"page": number, "colour": page.colour.id, "frame": body.as_list(),
                 "content_height": round(page.fitted.height, 2)}
        entries.append(entry | {"continued": True} if page.continued else entry)
    draw.close_canvas(canvas, path, kit)
    return entries, canvas.drawn_glyphs
