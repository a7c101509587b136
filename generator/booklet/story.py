"""Blocks -> platypus flowables: headings that feed the table of contents, tables, figures, bullets."""
from __future__ import annotations

from reportlab.lib import colors
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, PageBreak, Spacer, Table, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents

from pnpgen.booklet.figure import Figure
from pnpgen.booklet.markdown import Block
from pnpgen.booklet.styles import CONDENSED, styles, table_look
from pnpgen.documents.paragraphs import Paragraph, paragraph
from pnpgen.documents.table_data import TableData
from pnpgen.documents.table_flow import WholeTable, table_flowable
from pnpgen.fonts import BOLD
from pnpgen.problems import BuildError


class Heading(Paragraph):
    """A chapter (level 1) or section (level 2) heading: listed in the contents and the PDF outline."""

    TALLEST = 160.0  # points: the room a chapter heading asks for (CondPageBreak); a taller one is no title

    def __init__(self, text: str, level: int, key: str, where: str = ""):
        super().__init__(text, styles()[f"h{level}"])
        self.toc_level, self.key, self.plain, self.where = level - 1, key, self.getPlainText(), where

    def split(self, avail_width, avail_height):
        """A heading never breaks across pages: it moves to the next one whole; one taller than TALLEST (a
        runaway line: a number of thousands of digits) is an error at its line, not reportlab's TypeError."""
        _, height = self.wrap(avail_width, avail_height)
        if height > self.TALLEST:
            raise BuildError(f"{self.where}: a heading {len(self.plain):,} characters long sets {height:.0f} pt "
                             f"tall, more than the {self.TALLEST:.0f} pt a heading may take: shorten it")
        return []


def heading(block: Block, key: str, where: str = "") -> list:
    here = f"{where}:{block.line}"
    flow = paragraph(block.text, styles()[f"h{block.level}"], here,
                     make=lambda markup, _style: Heading(markup, block.level, key, here))
    if block.level == 1:
        return [CondPageBreak(160), flow]
    return [CondPageBreak(60 if block.level == 2 else 70), flow]


def table(data: TableData, width: float, where: str = ""):
    """A data table in the booklet's look (generator/documents/table_flow.py draws every table)."""
    return table_flowable(data, width, table_look(), where)


def bullets(block: Block, where: str = "") -> list:
    style, sub = styles()["bullet"], styles()["sub-bullet"]
    return [paragraph(text, sub if depth else style, f"{where}:{block.line}", bulletText="–" if depth else "•")
            for depth, text in block.items]


def steps(block: Block, where: str = "") -> list:
    """Numbered steps: each item's own number where a bullet would be."""
    return [paragraph(text, styles()["step"], f"{where}:{block.line}", bulletText=f"{number}.")
            for number, text in block.items]


class FigureBox(Flowable):
    """Room for a figure's art plus its callouts and captions. Where each art lands is recorded so the
    art can be laid on the page afterwards (placements[(figure, index)] = (page, x, y, w, h))."""

    ART = 118.0  # points: the art's printed width in the figure (a 5/8 in counter shown about 2.6 times)
    GAP = 30.0   # points between two arts of a row

    def __init__(self, figure: Figure, art_sizes: list[tuple[float, float]], placements: dict):
        super().__init__()
        self.figure, self.art_sizes, self.placements = figure, art_sizes, placements
        self.art = figure.width or self.default_width(figure)

    @classmethod
    def default_width(cls, figure: Figure) -> float:
        """The printed width of each art of a figure that gives none: ART alone, a little less in a row."""
        return cls.ART if len(figure.arts) == 1 else cls.ART * 0.8

    def _art_height(self, index: int) -> float:
        w, h = self.art_sizes[index]
        return self.art * h / w

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        n = len(self.figure.arts)
        self.art = min(self.art, (avail_width - (n - 1) * self.GAP) / n)   # a wide piece: as wide as the column
        self.height = max(self._art_height(i) for i in range(len(self.figure.arts))) + 22
        return self.width, self.height

    def _slots(self) -> list[float]:
        """The left x of each art, centred as a row."""
        n, gap = len(self.figure.arts), self.GAP
        row = n * self.art + (n - 1) * gap
        return [(self.width - row) / 2 + i * (self.art + gap) for i in range(n)]

    def drawOn(self, canvas, x, y, _sW=0):
        for index, left in enumerate(self._slots()):
            top = self.height - self._art_height(index)
            self.placements[(self.figure.name, index)] = (canvas.getPageNumber(), x + left, y + top,
                                                          self.art, self._art_height(index))
        super().drawOn(canvas, x, y, _sW)

    def draw(self):
        canvas, st = self.canv, styles()
        for index, (left, art) in enumerate(zip(self._slots(), self.figure.arts)):
            top = self.height - self._art_height(index)
            caption = paragraph(art.caption, st["caption"], f"figure {self.figure.name} ({art.source})")
            _, h = caption.wrap(self.art + 40, 30)
            caption.drawOn(canvas, left - 20, top - 6 - h)
        if self.figure.callouts:
            self._draw_callouts(canvas, self._slots()[0], self.height - self._art_height(0))

    def _draw_callouts(self, canvas, left, bottom):
        w, h = self.art, self._art_height(0)
        canvas.setFont(BOLD, 7.6)
        canvas.setLineWidth(0.6)
        canvas.setStrokeColor(colors.black)
        for side in ("left", "right"):
            items = [c for c in self.figure.callouts if (c.fx < 0.5) == (side == "left")]
            for callout, ly in callout_rows(items, side, bottom, h):
                ax, ay = left + callout.fx * w, bottom + (1 - callout.fy) * h
                lx = left - 14 if side == "left" else left + w + 14
                canvas.setStrokeColor(colors.black)
                canvas.line(lx, ly, ax, ay)
                canvas.setStrokeColor(colors.white)  # a ringed dot reads on any counter colour
                canvas.circle(ax, ay, 1.8, stroke=1, fill=1)
                if side == "left":
                    canvas.drawRightString(lx - 2, ly - 2.6, callout.label)
                else:
                    canvas.drawString(lx + 2, ly - 2.6, callout.label)


def callout_rows(items: list, side: str, bottom: float, height: float, gap: float = 12.0) -> list:
    """Each label level with what it points at, pushed apart so none overlap; of two labels at one height,
    the one pointing farther from the edge goes higher, so leader lines do not cross."""
    inward = (lambda c: -c.fx) if side == "left" else (lambda c: c.fx)
    ordered = sorted(items, key=lambda c: (round(c.fy, 2), inward(c)))
    rows, y = [], bottom + height + gap
    for callout in ordered:
        y = min(bottom + (1 - callout.fy) * height, y - gap)
        rows.append((callout, y))
    shift = max(0.0, bottom - rows[-1][1]) if rows else 0.0
    return [(c, y + shift) for c, y in rows]


def flowables(blocks: list[Block], prefix: str, width: float, tables: dict, figures: dict, art_sizes: dict,
              placements: dict, extras: dict, where: str = "") -> list:
    """The story of one chapter (`where`: its file, for problems with the line of a block). `extras` builds
    the directives that need more than data (maps)."""
    st, story = styles(), []
    for number, block in enumerate(blocks):
        if block.kind == "heading":
            story += heading(block, f"{prefix}-{number}", where)
        elif block.kind == "para":
            story.append(paragraph(block.text, st["body"], f"{where}:{block.line}"))
        elif block.kind == "bullets":
            story += bullets(block, where)
        elif block.kind == "steps":
            story += steps(block, where)
        elif block.text == "table":
            story += [table(tables[block.arg](), width, f"{where}:{block.line}"), Spacer(1, 6)]
        elif block.text == "figure":
            fig = figures[block.arg]
            story += [FigureBox(fig, art_sizes[fig.name], placements), Spacer(1, 8)]
        elif block.text == "pagebreak":
            story.append(PageBreak())
        else:
            story += extras[block.text](block.arg)
    return keep_headings_with_pictures(story)


LEAD_IN = 2  # paragraphs between a heading and its figure or short table that travel with both


def keep_headings_with_pictures(story: list) -> list:
    """A heading above a figure or a short table moves to the next page with it, together with the short
    lead-in paragraphs between them (as the Space Wreck table's one sentence). (Long tables may break, so
    their heading only needs the room CondPageBreak already asks for.)"""
    result = []
    for flow in story:
        if isinstance(flow, (FigureBox, WholeTable)):
            lead = 0
            while lead < LEAD_IN and len(result) > lead and type(result[-1 - lead]) is Paragraph:
                lead += 1
            start = len(result) - lead - 1
            if start >= 0 and isinstance(result[start], Heading):
                result[start:] = [KeepTogether([*result[start:], flow])]
                continue
        result.append(flow)
    return result


class Contents(TableOfContents):
    """reportlab's contents, split in linear time: its one table, split page by page, measures all the rows
    left at every page (a booklet of 4,000 chapters spent most of its time there), so a long contents is
    split once: the rows that fit here, then tables of ROWS rows, each split only where a page ends in it.
    A contents that needs no split, or a short one, is the very table it was."""

    ROWS = 100

    def split(self, availWidth, availHeight):
        rows, heights = self._table._cellvalues, self._table._rowHeights
        if len(rows) <= self.ROWS:
            return super().split(availWidth, availHeight)
        fit, used = 0, 0.0
        while fit < len(rows) and used + heights[fit] <= availHeight:
            used += heights[fit]
            fit += 1
        if fit == 0:
            return []
        return [Table(rows[i:j], colWidths=(availWidth,), style=self.tableStyle)
                for i, j in _chunks(fit, len(rows), self.ROWS)]


def _chunks(first: int, total: int, size: int) -> list[tuple[int, int]]:
    """(start, end) of the rows that fit first, then of every `size` rows after them."""
    return [(0, first)] + [(i, min(i + size, total)) for i in range(first, total, size)]


def contents() -> TableOfContents:
    toc = Contents(dotsMinLevel=0)
    toc.levelStyles = [styles()["toc0"], styles()["toc1"]]
    toc.tableStyle = TableStyle([("FONTNAME", (0, 0), (-1, -1), CONDENSED),  # not the Helvetica default
                                 ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                 ("RIGHTPADDING", (0, 0), (-1, -1), 0)])
    return toc
