"""Type and table styles of the booklet: one place for every size, colour and spacing. The fonts are the
shipped DejaVu faces unless kit.yaml `fonts:` names the kit's own for body text, headings or tables
(pnpgen.documents.doc_fonts); styles are made once per choice of faces."""
from __future__ import annotations

from functools import cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle

from pnpgen.documents.doc_fonts import Faces, faces
from pnpgen.fonts import BODY, BOLD, ITALIC, register_reportlab_fonts

INK = colors.HexColor("#1a1a1a")
RULE = colors.HexColor("#7a7a7a")
SHADE = colors.HexColor("#e6e9ef")
HEADER_FILL = colors.HexColor("#2b3a55")
CONDENSED = "DejaVuSansCondensed"
CONDENSED_BOLD = "DejaVuSansCondensed-Bold"


def styles() -> dict[str, ParagraphStyle]:
    return _styles(faces())


@cache
def _styles(chosen: Faces) -> dict[str, ParagraphStyle]:
    register_reportlab_fonts()
    regular, bold, italic = chosen.body or BODY, chosen.body_bold or BOLD, chosen.body_italic or ITALIC
    heading, cell, cell_bold = chosen.heading or BOLD, chosen.table or CONDENSED, chosen.table_bold or CONDENSED_BOLD
    body = ParagraphStyle("body", fontName=regular, bulletFontName=regular, fontSize=8.6, leading=11.4,
                          textColor=INK, spaceAfter=4.5)
    return {
        "body": body,
        "bullet": ParagraphStyle("bullet", parent=body, leftIndent=10, bulletIndent=2, spaceAfter=2),
        "sub-bullet": ParagraphStyle("sub-bullet", parent=body, leftIndent=22, bulletIndent=13, spaceAfter=1),
        "step": ParagraphStyle("step", parent=body, leftIndent=12, bulletIndent=1, bulletFontName=bold,
                               bulletFontSize=body.fontSize, spaceAfter=2),   # "1." as large as the text
        "h1": ParagraphStyle("h1", parent=body, fontName=heading, fontSize=15, leading=18, spaceBefore=4,
                             spaceAfter=7, textColor=HEADER_FILL),
        "h2": ParagraphStyle("h2", parent=body, fontName=heading, fontSize=10.5, leading=13, spaceBefore=6,
                             spaceAfter=3, textColor=HEADER_FILL),
        "h3": ParagraphStyle("h3", parent=body, fontName=heading, fontSize=9, leading=11.5, spaceBefore=3,
                             spaceAfter=2),
        "cell": ParagraphStyle("cell", parent=body, fontName=cell, fontSize=7.6, leading=9, spaceAfter=0),
        "cell-num": ParagraphStyle("cell-num", parent=body, fontName=cell, fontSize=7.6, leading=9,
                                   spaceAfter=0, alignment=TA_CENTER),
        "cell-head": ParagraphStyle("cell-head", parent=body, fontName=cell_bold, fontSize=7.6, leading=9,
                                    spaceAfter=0, textColor=colors.white),
        "caption": ParagraphStyle("caption", parent=body, fontName=italic, fontSize=7.4, leading=9,
                                  alignment=TA_CENTER),
        "callout": ParagraphStyle("callout", parent=body, fontName=BOLD, fontSize=7.6, leading=9),
        "cover-title": ParagraphStyle("cover-title", parent=body, fontName=heading, fontSize=26, leading=31,
                                      alignment=TA_CENTER, textColor=HEADER_FILL, spaceAfter=8),
        "cover-sub": ParagraphStyle("cover-sub", parent=body, fontSize=12, leading=16, alignment=TA_CENTER),
        "toc0": ParagraphStyle("toc0", parent=body, fontName=heading, fontSize=9.5, leading=13, spaceAfter=3),
        "toc1": ParagraphStyle("toc1", parent=body, fontSize=8, leading=10, leftIndent=10, spaceAfter=0),
    }


SHORT_TABLE = 14  # rows; longer tables break across pages, repeating their header row


def table_look():
    return _table_look(faces())


@cache
def _table_look(chosen: Faces):
    """Tables in the booklet: a dark header row, hairlines between rows, zebra stripes, short ones kept whole."""
    from pnpgen.documents.table_flow import TableLook

    st = _styles(chosen)
    return TableLook(font=chosen.table or CONDENSED, bold=chosen.table_bold or CONDENSED_BOLD, size=7.6, leading=9, cell=st["cell"], head=st["cell-head"],
                     shade=SHADE, header_fill=HEADER_FILL, header_ink=colors.white, rule=RULE, line_below=0.25,
                     zebra=SHADE, padding=(1.6, 2.4, 3, 3), h_align="LEFT", whole_up_to=SHORT_TABLE)
