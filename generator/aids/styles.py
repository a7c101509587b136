"""Shared type and table styles for every aid card and record sheet, so they read as one family.

All sizes are points. Fonts are the shipped DejaVu faces registered with reportlab (embedded, subset), or
the kit's own where kit.yaml `fonts:` names them (pnpgen.documents.doc_fonts); styles are made once per
choice of faces.
"""
from __future__ import annotations

from functools import cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, Table, TableStyle

from pnpgen.documents.doc_fonts import Faces, faces
from pnpgen.fonts import BODY, BOLD, CONDENSED_BOLD, register_reportlab_fonts
from pnpgen.fonts import CONDENSED_FACE as CONDENSED

INK = colors.HexColor("#1a1a1a")
RULE = colors.HexColor("#8c8c8c")
SHADE = colors.HexColor("#e6e6e6")       # table header rows
ADVANCED = colors.HexColor("#f2f2f2")    # rows of advanced-rules items
CUT_MARK = colors.black


def styles() -> dict[str, ParagraphStyle]:
    """The named paragraph styles, in the kit's chosen faces; fonts are registered on first use."""
    return _styles(faces())


@cache
def _styles(chosen: Faces) -> dict[str, ParagraphStyle]:
    register_reportlab_fonts()
    text, heading = chosen.body or CONDENSED, chosen.heading or CONDENSED_BOLD
    cell, cell_bold = chosen.table or CONDENSED, chosen.table_bold or CONDENSED_BOLD
    body = ParagraphStyle("body", fontName=text, fontSize=7.6, leading=9.2, textColor=INK,
                          spaceAfter=1.6)
    return {
        "body": body,
        "bullet": ParagraphStyle("bullet", parent=body, leftIndent=8, bulletIndent=0,
                                 bulletFontName=chosen.body or BODY),
        "heading": ParagraphStyle("heading", parent=body, fontName=heading, fontSize=9.5, leading=11,
                                  spaceBefore=3, spaceAfter=2, keepWithNext=1),
        "title": ParagraphStyle("title", parent=body, fontName=chosen.heading or BOLD, fontSize=12, leading=14),
        "sheet_title": ParagraphStyle("sheet_title", parent=body, fontName=chosen.heading or BOLD, fontSize=15,
                                      leading=18),
        "cell": ParagraphStyle("cell", parent=body, fontName=cell, fontSize=7, leading=8.0, spaceAfter=0),
        "cell_bold": ParagraphStyle("cell_bold", parent=body, fontName=cell_bold, fontSize=7, leading=8.0,
                                    spaceAfter=0),
        "cell_centre": ParagraphStyle("cell_centre", parent=body, fontName=cell, fontSize=7, leading=8.0,
                                      spaceAfter=0, alignment=TA_CENTER),
        "sheet_cell": ParagraphStyle("sheet_cell", parent=body, fontName=cell, fontSize=8.5, leading=10,
                                     spaceAfter=0),
        "sheet_cell_bold": ParagraphStyle("sheet_cell_bold", parent=body, fontName=cell_bold, fontSize=8.5,
                                          leading=10, spaceAfter=0),
        "sheet_centre": ParagraphStyle("sheet_centre", parent=body, fontName=cell, fontSize=8.5, leading=10,
                                       spaceAfter=0, alignment=TA_CENTER),
    }


def band_fonts() -> tuple[str, str]:
    """(title, words on the right) of a card's or sheet's title band: the kit's heading face for the title."""
    return faces().heading or CONDENSED_BOLD, CONDENSED


def para(text: str, style: str = "cell", where: str = "a record sheet") -> Paragraph:
    """A paragraph of kit text in a named style: icons placed, fonts and characters checked (located at `where`)."""
    from pnpgen.documents.paragraphs import paragraph
    return paragraph(text, styles()[style], where)


def chart_look():
    return _chart_look(faces())


@cache
def _chart_look(chosen: Faces):
    """Charts on aid cards: small, fully ruled, a light header row, advanced rows and sections shaded."""
    from pnpgen.documents.table_flow import TableLook

    st = _styles(chosen)
    return TableLook(font=chosen.table or CONDENSED, bold=chosen.table_bold or CONDENSED_BOLD, size=7, leading=7 * 1.17, cell=st["cell"],
                     head=st["cell_bold"], shade=ADVANCED, header_fill=SHADE, grid=0.4, rule=RULE)


def sheet_look():
    return _sheet_look(faces())


@cache
def _sheet_look(chosen: Faces):
    """Charts on record sheets: the cards' look, larger, with room around each value to circle it."""
    from pnpgen.documents.table_flow import TableLook

    st = _styles(chosen)
    return TableLook(font=chosen.table or CONDENSED, bold=chosen.table_bold or CONDENSED_BOLD, size=8.5, leading=10, cell=st["sheet_cell"],
                     head=st["sheet_cell_bold"], shade=ADVANCED, header_fill=SHADE, grid=0.4, rule=RULE,
                     padding=(2.0, 2.0, 2.2, 2.2))


def grid_table(rows: list[list], widths: list[float], header_rows: int = 1, shaded_rows=(),
               padding: float = 1.0, font_size: float = 7, row_heights=None) -> Table:
    """A ruled table with a shaded header; `shaded_rows` marks rows (say, advanced units) apart."""
    table = Table(rows, colWidths=widths, rowHeights=row_heights, repeatRows=header_rows)
    chosen = faces()
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), chosen.table or CONDENSED), ("FONTSIZE", (0, 0), (-1, -1), font_size),
        ("LEADING", (0, 0), (-1, -1), font_size * 1.17),
        ("GRID", (0, 0), (-1, -1), 0.4, RULE), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), padding), ("BOTTOMPADDING", (0, 0), (-1, -1), padding),
        ("LEFTPADDING", (0, 0), (-1, -1), 2.2), ("RIGHTPADDING", (0, 0), (-1, -1), 2.2),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE),
        ("FONTNAME", (0, 0), (-1, header_rows - 1), chosen.table_bold or CONDENSED_BOLD),
    ]
    commands += [("BACKGROUND", (0, r), (-1, r), ADVANCED) for r in shaded_rows]
    table.setStyle(TableStyle(commands))
    return table
