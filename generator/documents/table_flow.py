"""TableData -> a reportlab table, in the look of the document that prints it (aid cards are small and ruled,
the booklet is A5 with a dark header row): the one path every chart and table takes onto a page.

Cells are plain strings where they are plain text and fit their column (a Paragraph per cell would double
the booklet's build time), and Paragraphs where they hold markup, an icon (`:name:`) or must wrap; either
way a character the cell's kit font lacks stops the build at the table's place (`where`: the chart's line
in charts.yaml, else the text that placed the table).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Table, TableStyle

from pnpgen.documents.doc_fonts import missing_character
from pnpgen.documents.paragraphs import needs_paragraph, paragraph
from pnpgen.documents.table_data import TableData
from pnpgen.problems import BuildError

ALIGNMENT = {"left": TA_LEFT, "centre": TA_CENTER, "right": TA_RIGHT}
REPORTLAB_ALIGN = {"left": "LEFT", "centre": "CENTER", "right": "RIGHT"}


@dataclass(frozen=True)
class TableLook:
    """A document's table style sheet."""

    font: str
    bold: str
    size: float
    leading: float
    cell: ParagraphStyle            # wrapping cells (aligned per column from it)
    head: ParagraphStyle            # wrapping header cells
    shade: object                   # shaded rows and section title rows
    header_fill: object             # the header row, and a transposed chart's label column
    header_ink: object = None       # None: the cell style's ink
    grid: float = 0.0               # width of a full grid; 0 for lines below rows only
    rule: object = colors.grey
    line_below: float = 0.0
    zebra: object = None            # every other body row, when the table shades none itself
    padding: tuple = (1.0, 1.0, 2.2, 2.2)   # top, bottom, left, right
    h_align: str = "CENTER"
    whole_up_to: int = 0            # tables of at most this many body rows never split across pages


class WholeTable(Table):
    """A short table never splits: it moves to the next page whole."""

    def split(self, avail_width, avail_height):
        return []


@cache
def _aligned(style: ParagraphStyle, align: str) -> ParagraphStyle:
    return style if ALIGNMENT[align] == style.alignment else ParagraphStyle(f"{style.name}-{align}", parent=style,
                                                                            alignment=ALIGNMENT[align])


def _cell(text: str, width: float, font: str, look: TableLook, style: ParagraphStyle, align: str, where: str):
    """A plain string (fast), or a Paragraph when the text holds markup or an icon or is wider than its column."""
    if "<" not in text and "&" not in text and not needs_paragraph(text) and \
            stringWidth(text, font, look.size) <= width - look.padding[2] - look.padding[3]:
        if problem := missing_character(font, text):
            raise BuildError(f"{where}: {problem}")
        return text
    return paragraph(text, _aligned(style, align), where)


def table_flowable(data: TableData, width: float, look: TableLook, where: str = "a table") -> Table:
    """The table filling `width`, its header row repeated where it breaks across pages."""
    where = data.where or where
    total = sum(data.widths)
    widths = [width * w / total for w in data.widths]
    _check_widths(widths, data.header, look, where)
    aligns = data.alignments()
    rows = [[_cell(h, w, look.bold, look, look.head, a, where) for h, w, a in zip(data.header, widths, aligns)]]
    for number, row in enumerate(data.rows):
        if number in data.sections:
            rows.append([paragraph(row[0], look.cell, where)] + [""] * (len(widths) - 1))
            continue
        font = look.bold if data.header_column else look.font
        rows.append([_cell(c, w, font if i == 0 else look.font, look, look.cell, a, where)
                     for i, (c, w, a) in enumerate(zip(row, widths, aligns))])
    kind = WholeTable if len(data.rows) <= look.whole_up_to else Table
    table = kind(rows, colWidths=widths, repeatRows=1, hAlign=look.h_align)
    table.setStyle(TableStyle(_commands(data, look, aligns)))
    return table


def _check_widths(widths: list, header: tuple, look: TableLook, where: str) -> None:
    """Every column wider than its padding and a point (reportlab would stop on a thinner one without saying
    which table), else a BuildError at the table's place."""
    least = look.padding[2] + look.padding[3] + 1.0
    for number, (width, head) in enumerate(zip(widths, header), 1):
        if not width >= least:  # (not >=: NaN too)
            raise BuildError(f"{where}: column {number} ({head[:40]!r}) of the table would be {width:.1f} pt "
                             f"wide, less than its padding and a point ({least:.1f} pt): give the "
                             f"columns widths of a similar size")


def _commands(data: TableData, look: TableLook, aligns) -> list:
    top, bottom, left, right = look.padding
    commands = [("FONTNAME", (0, 0), (-1, -1), look.font), ("FONTSIZE", (0, 0), (-1, -1), look.size),
                ("LEADING", (0, 0), (-1, -1), look.leading), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), top), ("BOTTOMPADDING", (0, 0), (-1, -1), bottom),
                ("LEFTPADDING", (0, 0), (-1, -1), left), ("RIGHTPADDING", (0, 0), (-1, -1), right),
                ("FONTNAME", (0, 0), (-1, 0), look.bold), ("BACKGROUND", (0, 0), (-1, 0), look.header_fill)]
    commands += [("ALIGN", (i, 0), (i, -1), REPORTLAB_ALIGN[a]) for i, a in enumerate(aligns) if a != "left"]
    if look.header_ink is not None:
        commands.append(("TEXTCOLOR", (0, 0), (-1, 0), look.header_ink))
    if look.grid:
        commands.append(("GRID", (0, 0), (-1, -1), look.grid, look.rule))
    if look.line_below:
        commands.append(("LINEBELOW", (0, 1), (-1, -1), look.line_below, look.rule))
    commands += _row_shading(data, look)
    if data.header_column:  # the label column reads like the header row (over any row shading)
        commands += [("BACKGROUND", (0, 0), (0, -1), look.header_fill), ("FONTNAME", (0, 0), (0, -1), look.bold)]
        if look.header_ink is not None:
            commands.append(("TEXTCOLOR", (0, 0), (0, -1), look.header_ink))
    if data.total_row:
        commands += [("LINEABOVE", (0, -1), (-1, -1), 0.8, colors.black), ("FONTNAME", (0, -1), (-1, -1), look.bold)]
    return commands


def _row_shading(data: TableData, look: TableLook) -> list:
    """Section titles span the table, shaded; shaded rows as the chart says; else zebra stripes if the look
    has them (table rows count the header as 0)."""
    commands = [c for r in data.sections for c in (("SPAN", (0, r + 1), (-1, r + 1)),
                                                   ("BACKGROUND", (0, r + 1), (-1, r + 1), look.shade))]
    commands += [("BACKGROUND", (0, r + 1), (-1, r + 1), look.shade) for r in data.shaded]
    if look.zebra is not None and not data.sections and not data.shaded:
        commands += [("BACKGROUND", (0, r), (-1, r), look.zebra) for r in range(2, len(data.rows) + 1, 2)]
    return commands
