"""Type and table styles of the booklet: one place for every size, colour and spacing."""
from __future__ import annotations

from functools import cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle

from pnpgen.fonts import BODY, BOLD, ITALIC, register_reportlab_fonts

INK = colors.HexColor("#1a1a1a")
RULE = colors.HexColor("#7a7a7a")
SHADE = colors.HexColor("#e6e9ef")
HEADER_FILL = colors.HexColor("#2b3a55")
CONDENSED = "DejaVuSansCondensed"
CONDENSED_BOLD = "DejaVuSansCondensed-Bold"


@cache
def styles() -> dict[str, ParagraphStyle]:
    register_reportlab_fonts()
    body = ParagraphStyle("body", fontName=BODY, bulletFontName=BODY, fontSize=8.6, leading=11.4, textColor=INK,
                          spaceAfter=4.5)
    return {
        "body": body,
        "bullet": ParagraphStyle("bullet", parent=body, leftIndent=10, bulletIndent=2, spaceAfter=2),
        "sub-bullet": ParagraphStyle("sub-bullet", parent=body, leftIndent=22, bulletIndent=13, spaceAfter=1),
        "step": ParagraphStyle("step", parent=body, leftIndent=12, bulletIndent=1, bulletFontName=BOLD,
                               bulletFontSize=body.fontSize, spaceAfter=2),   # "1." as large as the text
        "h1": ParagraphStyle("h1", parent=body, fontName=BOLD, fontSize=15, leading=18, spaceBefore=4,
                             spaceAfter=7, textColor=HEADER_FILL),
        "h2": ParagraphStyle("h2", parent=body, fontName=BOLD, fontSize=10.5, leading=13, spaceBefore=6,
                             spaceAfter=3, textColor=HEADER_FILL),
        "h3": ParagraphStyle("h3", parent=body, fontName=BOLD, fontSize=9, leading=11.5, spaceBefore=3,
                             spaceAfter=2),
        "cell": ParagraphStyle("cell", parent=body, fontName=CONDENSED, fontSize=7.6, leading=9, spaceAfter=0),
        "cell-num": ParagraphStyle("cell-num", parent=body, fontName=CONDENSED, fontSize=7.6, leading=9,
                                   spaceAfter=0, alignment=TA_CENTER),
        "cell-head": ParagraphStyle("cell-head", parent=body, fontName=CONDENSED_BOLD, fontSize=7.6, leading=9,
                                    spaceAfter=0, textColor=colors.white),
        "caption": ParagraphStyle("caption", parent=body, fontName=ITALIC, fontSize=7.4, leading=9,
                                  alignment=TA_CENTER),
        "callout": ParagraphStyle("callout", parent=body, fontName=BOLD, fontSize=7.6, leading=9),
        "cover-title": ParagraphStyle("cover-title", parent=body, fontName=BOLD, fontSize=26, leading=31,
                                      alignment=TA_CENTER, textColor=HEADER_FILL, spaceAfter=8),
        "cover-sub": ParagraphStyle("cover-sub", parent=body, fontSize=12, leading=16, alignment=TA_CENTER),
        "toc0": ParagraphStyle("toc0", parent=body, fontName=BOLD, fontSize=9.5, leading=13, spaceAfter=3),
        "toc1": ParagraphStyle("toc1", parent=body, fontSize=8, leading=10, leftIndent=10, spaceAfter=0),
    }


SHORT_TABLE = 14  # rows; longer tables break across pages, repeating their header row


@cache
def table_look():
    """Tables in the booklet: a dark header row, hairlines between rows, zebra stripes, short ones kept whole."""
    from pnpgen.documents.table_flow import TableLook

    st = styles()
    return TableLook(font=CONDENSED, bold=CONDENSED_BOLD, size=7.6, leading=9, cell=st["cell"], head=st["cell-head"],
                     shade=SHADE, header_fill=HEADER_FILL, header_ink=colors.white, rule=RULE, line_below=0.25,
                     zebra=SHADE, padding=(1.6, 2.4, 3, 3), h_align="LEFT", whole_up_to=SHORT_TABLE)
