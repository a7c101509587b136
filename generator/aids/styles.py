"""Shared type and table styles for every aid card and record sheet, so they read as one family.

All sizes are points. Fonts are the shipped DejaVu faces registered with reportlab (embedded, subset).
"""
from __future__ import annotations

from functools import cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, Table, TableStyle

from pnpgen.fonts import BODY, BOLD, CONDENSED_BOLD, register_reportlab_fonts
from pnpgen.fonts import CONDENSED_FACE as CONDENSED

INK = colors.HexColor("#1a1a1a")
RULE = colors.HexColor("#8c8c8c")
SHADE = colors.HexColor("#e6e6e6")       # table header rows
ADVANCED = colors.HexColor("#f2f2f2")    # rows of advanced-rules items
CUT_MARK = colors.black


@cache
def styles() -> dict[str, ParagraphStyle]:
    """The named paragraph styles; fonts are registered on first use."""
    register_reportlab_fonts()
    body = ParagraphStyle("body", fontName=CONDENSED, fontSize=7.6, leading=9.2, textColor=INK,
                          spaceAfter=1.6)
    return {
        "body": body,
        "bullet": ParagraphStyle("bullet", parent=body, leftIndent=8, bulletIndent=0, bulletFontName=BODY),
        "heading": ParagraphStyle("heading", parent=body, fontName=CONDENSED_BOLD, fontSize=9.5, leading=11,
                                  spaceBefore=3, spaceAfter=2),
        "title": ParagraphStyle("title", parent=body, fontName=BOLD, fontSize=12, leading=14),
        "sheet_title": ParagraphStyle("sheet_title", parent=body, fontName=BOLD, fontSize=15, leading=18),
        "cell": ParagraphStyle("cell", parent=body, fontSize=7, leading=8.0, spaceAfter=0),
        "cell_bold": ParagraphStyle("cell_bold", parent=body, fontName=CONDENSED_BOLD, fontSize=7, leading=8.0,
                                    spaceAfter=0),
        "cell_centre": ParagraphStyle("cell_centre", parent=body, fontSize=7, leading=8.0, spaceAfter=0,
                                      alignment=TA_CENTER),
        "sheet_cell": ParagraphStyle("sheet_cell", parent=body, fontSize=8.5, leading=10, spaceAfter=0),
        "sheet_cell_bold": ParagraphStyle("sheet_cell_bold", parent=body, fontName=CONDENSED_BOLD, fontSize=8.5,
                                          leading=10, spaceAfter=0),
        "sheet_centre": ParagraphStyle("sheet_centre", parent=body, fontSize=8.5, leading=10, spaceAfter=0,
                                       alignment=TA_CENTER),
    }


def para(text: str, style: str = "cell") -> Paragraph:
    return Paragraph(text, styles()[style])


@cache
def chart_look():
    """Charts on aid cards: small, fully ruled, a light header row, advanced rows and sections shaded."""
    from pnpgen.documents.table_flow import TableLook

    st = styles()
    return TableLook(font=CONDENSED, bold=CONDENSED_BOLD, size=7, leading=7 * 1.17, cell=st["cell"],
                     head=st["cell_bold"], shade=ADVANCED, header_fill=SHADE, grid=0.4, rule=RULE)


@cache
def sheet_look():
    """Charts on record sheets: the cards' look, larger, with room around each value to circle it."""
    from pnpgen.documents.table_flow import TableLook

    st = styles()
    return TableLook(font=CONDENSED, bold=CONDENSED_BOLD, size=8.5, leading=10, cell=st["sheet_cell"],
                     head=st["sheet_cell_bold"], shade=ADVANCED, header_fill=SHADE, grid=0.4, rule=RULE,
                     padding=(2.0, 2.0, 2.2, 2.2))


def grid_table(rows: list[list], widths: list[float], header_rows: int = 1, shaded_rows=(),
               padding: float = 1.0, font_size: float = 7, row_heights=None) -> Table:
    """A ruled table with a shaded header; `shaded_rows` marks rows (say, advanced units) apart."""
    table = Table(rows, colWidths=widths, rowHeights=row_heights, repeatRows=header_rows)
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), CONDENSED), ("FONTSIZE", (0, 0), (-1, -1), font_size),
        ("LEADING", (0, 0), (-1, -1), font_size * 1.17),
        ("GRID", (0, 0), (-1, -1), 0.4, RULE), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), padding), ("BOTTOMPADDING", (0, 0), (-1, -1), padding),
        ("LEFTPADDING", (0, 0), (-1, -1), 2.2), ("RIGHTPADDING", (0, 0), (-1, -1), 2.2),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE),
        ("FONTNAME", (0, 0), (-1, header_rows - 1), CONDENSED_BOLD),
    ]
    commands += [("BACKGROUND", (0, r), (-1, r), ADVANCED) for r in shaded_rows]
    table.setStyle(TableStyle(commands))
    return table
