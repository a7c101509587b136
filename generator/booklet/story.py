"""Blocks -> platypus flowables: headings that feed the table of contents, tables, figures, bullets."""
from __future__ import annotations

from ast import literal_eval

from reportlab.lib import colors
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, PageBreak, Spacer, Table, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

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
    """reportlab's contents, laid out in one pass and split in linear time.

    One pass: reportlab draws each entry's dots and page number when the contents page is drawn, before the
    chapters are laid out, so it lays the whole story out again until the numbers settle. The numbers take
    no room in the layout (an entry's paragraph is its title; the dots and number are drawn after it), so
    given the chapters' titles up front (expect), the pass that lays them out is the one kept: each number
    is drawn where reportlab would have drawn it once the pass knows the chapters' pages (at the canvas's
    save), as reportlab's own drawPageNumbers draws it, its link and its glyph records on the contents page
    where they would have been: the same operators on the same page.

    Linear split: its one table, split page by page, measures all the rows left at every page (a booklet of
    4,000 chapters spent most of its time there), so a long contents is split once: the rows that fit here,
    then tables of ROWS rows, each split only where a page ends in it. A contents that needs no split, or a
    short one, is the very table it was."""

    ROWS = 100

    def expect(self, titles: list[tuple[str, str]]) -> None:
        """The (title, key) of each chapter, in order: this pass draws the numbers once they are known."""
        self._entries = [(0, title, 0, key) for title, key in titles]
        self.deferred = True

    def beforeBuild(self):
        super().beforeBuild()
        self.pending: list = []   # what each deferred number needs to be drawn (see _defer)

    def isSatisfied(self):
        """A deferred pass is the last when the chapters it met are the ones it expected (pages aside)."""
        if getattr(self, "deferred", False):
            self.deferred = False   # another pass (titles that differ) draws its numbers as reportlab does
            return [entry[:2] + entry[3:] for entry in self._entries] == \
                [entry[:2] + entry[3:] for entry in self._lastEntries]
        return super().isSatisfied()

    def wrap(self, availWidth, availHeight):
        size = super().wrap(availWidth, availHeight)
        if getattr(self, "deferred", False):
            self.canv.setNamedCB("drawTOCEntryEnd", lambda canvas, kind, label:
                                 self._defer(canvas, label, availWidth, availHeight))
            self.canv.before_save[:] = [self._draw_numbers]
        return size

    def _defer(self, canvas, label: str, avail_width: float, avail_height: float) -> None:
        """In place of drawPageNumbers: a mark in the page's operators, and the state they are drawn in."""
        _, level, key = label.split(",")
        mark = f"%pnp-contents-{len(self.pending)}"   # a PDF comment, on a line of its own
        glyphs, page = canvas.drawn_glyphs, canvas.getPageNumber()
        marks = (len(glyphs.get(page, ())), len(getattr(glyphs, "grounds", {}).get(page, ()))) if glyphs else None
        self.pending.append((mark, page, canvas._currentMatrix, dict(canvas._curr_tx_info), int(level),
                             literal_eval(key), avail_width, avail_height, canvas._annotationrefs,
                             getattr(canvas, "small_print", False), marks))
        canvas._code.append(mark)

    def _draw_numbers(self, canvas) -> None:
        """Each deferred number drawn as drawPageNumbers draws it, with the page the pass gave its chapter, its
        operators put where its mark is in the page's (reportlab keeps each page's operators as text until
        it saves), its link on that page; the last first, so the glyph records of each go where the page
        drew it (before those drawn after it)."""
        pages, streams = {entry[3]: entry[2] for entry in self._entries}, canvas._doc.Pages.pages
        kept = (canvas._pageNumber, canvas._currentMatrix, canvas.small_print, canvas._annotationrefs,
                canvas._code)
        for mark, page, matrix, cursor, level, key, width, height, links, small, marks in reversed(self.pending):
            canvas._pageNumber, canvas._currentMatrix, canvas._curr_tx_info = page, matrix, cursor
            canvas.small_print, canvas._annotationrefs, canvas._code = small, links, []
            before = len(canvas.drawn_glyphs.get(page, ())) if canvas.drawn_glyphs is not None else 0
            drawPageNumbers(canvas, self.getLevelStyle(level), [(pages.get(key, 0), key)], width, height,
                            " . " if 0 <= self.dotsMinLevel <= level else "")
            if marks is not None:
                _move_records(canvas.drawn_glyphs, page, before, marks)
            target = streams[page - 1]
            target.stream = target.stream.replace(mark + "\n", "\n".join(canvas._code) + "\n", 1)
        (canvas._pageNumber, canvas._currentMatrix, canvas.small_print, canvas._annotationrefs,
         canvas._code) = kept


def _move_records(glyphs, page: int, since: int, marks: tuple[int, int]) -> None:
    """The glyph records made from `since` on (a deferred number's) moved back to where the page drew it,
    `marks` (the glyphs and grounds recorded by then); the grounds recorded after it count them."""
    at, grounds_before = marks
    lists = [glyphs.get(page, [])] + [getattr(glyphs, name).get(page, []) for name in ("inks", "fine")
                                      if isinstance(getattr(glyphs, name, None), dict)]
    moved = len(lists[0]) - since
    for records in lists:
        records[at:at] = records[since:]
        del records[since + moved:]
    grounds = getattr(glyphs, "grounds", {}).get(page, [])
    grounds[grounds_before:] = [(index + moved, *rest) for index, *rest in grounds[grounds_before:]]


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
