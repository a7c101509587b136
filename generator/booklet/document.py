"""Page layout of the booklet: cover, contents, chapters; running headers, page numbers, PDF outline."""
from __future__ import annotations

import io
from pnpgen.xml_escape import escape

from reportlab.lib import colors
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Frame, NextPageTemplate, PageBreak, PageTemplate,
                                Spacer, Table)
from reportlab.platypus.doctemplate import ActionFlowable

from pnpgen.booklet.cover import back_flowables, front_flowables, templates as cover_templates
from pnpgen.booklet.markdown import section_before_chapter
from pnpgen.booklet.story import Contents, FigureBox, Heading, contents
from pnpgen.booklet.styles import HEADER_FILL, RULE, styles
from pnpgen.fonts import BODY, ITALIC
from pnpgen.i18n.translator import core_words
from pnpgen.model import Kit
from pnpgen.problems import BuildError

QUIET = (Spacer, CondPageBreak, PageBreak, ActionFlowable)  # print nothing: do not end a page's "top"


class LayoutFrame(Frame):
    """A frame that says, while it draws a flowable, whether the flowable sets small print."""

    def _add(self, flowable, canv, trySplit=0):
        canv.small_print = small_print(flowable)
        try:
            return super()._add(flowable, canv, trySplit)
        finally:
            canv.small_print = False

    add = _add


SMALL_STYLES = frozenset(("cell", "cell-num", "cell-head", "caption", "callout"))


def small_print(flowable) -> bool:
    """Whether a flowable sets small print, held to the size floor of tables and captions (6 pt) rather than
    the body's (8 pt): a table, a figure (its captions and callouts), a paragraph in a small style."""
    if isinstance(flowable, (Table, FigureBox)):
        return True
    return getattr(getattr(flowable, "style", None), "name", None) in SMALL_STYLES

MARGIN = {"left": 34.0, "right": 34.0, "top": 46.0, "bottom": 40.0}


class BookletDoc(BaseDocTemplate):
    """Two page templates (cover, body); headings feed the contents, the outline and the running header."""

    def __init__(self, buffer, kit: Kit, pagesize: tuple[float, float], designed=None):
        super().__init__(buffer, pagesize=pagesize, invariant=1, title=f"{kit.title}: rules",
                         author=kit.title, creator="pnpgen", subject="Rules booklet",
                         leftMargin=MARGIN["left"], rightMargin=MARGIN["right"],
                         topMargin=MARGIN["top"], bottomMargin=MARGIN["bottom"],
                         initialFontName=BODY, initialFontSize=9)  # no stray unembedded Helvetica
        self.kit = kit
        frame = _frame(self.leftMargin, self.bottomMargin, self.width, self.height, "text")
        covers = ([PageTemplate("cover", [frame])] if designed is None
                  else cover_templates(self, designed, _frame))   # a designed front (and back) cover: its own
        self.addPageTemplates([covers[0], PageTemplate("body", [frame], onPage=self._page_start,
                                                       onPageEnd=self._decorate), *covers[1:]])
        self.chapter, self.page_chapter, self.page_has_text, self.chapter_met = "", None, False, False
        self.chapter_pages: list[int] = []   # the page each chapter heading (the outline's top level) is on
        self.chapter_files: list[tuple] = []  # (page, the file it was written in) of each chapter heading

    def afterFlowable(self, flowable):
        if not isinstance(flowable, Heading):
            if not isinstance(flowable, QUIET):
                self.page_has_text = True
            return
        if flowable.toc_level > 1:
            self.page_has_text = True
            return
        if flowable.toc_level == 1 and not self.chapter_met:
            raise BuildError(f"{flowable.where}: {section_before_chapter(flowable.plain)}")
        self.chapter_met = self.chapter_met or flowable.toc_level == 0
        self.canv.bookmarkPage(flowable.key)
        self.canv.addOutlineEntry(flowable.plain, flowable.key, flowable.toc_level, closed=True)
        if flowable.toc_level == 0:  # the contents list chapters; the PDF outline also has sections
            self.chapter_pages.append(self.page)
            self.chapter_files.append((self.page, flowable.where.rpartition(":")[0] or flowable.where))
            self.notify("TOCEntry", (0, flowable.plain, self.page, flowable.key))
            if not self.page_has_text:  # the chapter opens the page: the header names it
                self.page_chapter = self.page_chapter or flowable.plain
            self.chapter = flowable.plain
        self.page_has_text = True

    def beforeDocument(self):
        """multiBuild lays the story out more than once: every pass starts with the contents."""
        self.chapter, self.page_chapter, self.chapter_met = core_words("Contents"), None, False
        self.chapter_pages, self.chapter_files = [], []

    def _page_start(self, canvas, doc):
        """The header names the chapter current at the top of the page: the one running on from the page
        before, unless a chapter heading comes before any other text on this page."""
        self.page_top_chapter, self.page_chapter, self.page_has_text = self.chapter, None, False

    def _decorate(self, canvas, doc):
        """Running header (kit title, the chapter this page belongs to) and the page number."""
        w, h = self.pagesize
        canvas.saveState()
        canvas.small_print = True   # running header and folio: small print
        canvas.setFillColor(HEADER_FILL)
        canvas.setFont(ITALIC, 7.2)
        canvas.drawString(MARGIN["left"], h - 28, self.kit.title)
        canvas.drawRightString(w - MARGIN["right"], h - 28, self.page_chapter or self.page_top_chapter)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.line(MARGIN["left"], h - 32, w - MARGIN["right"], h - 32)
        canvas.setFillColor(colors.black)
        canvas.setFont(BODY, 8)
        canvas.drawCentredString(w / 2, 22, str(canvas.getPageNumber()))
        canvas.restoreState()
        canvas.small_print = False


def _frame(x: float, y: float, width: float, height: float, name: str) -> Frame:
    return LayoutFrame(x, y, width, height, id=name, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)


def cover(kit: Kit, designed=None) -> list:
    """The cover (title and subtitle in the kit's heading and body fonts, checked; the designed one where the
    kit declares it) and the contents page."""
    from pnpgen.documents.paragraphs import paragraph
    st = styles()
    if designed is not None:
        return [*front_flowables(designed, paragraph), NextPageTemplate("body"), PageBreak(),
                paragraph(core_words("Contents"), st["h1"], "the booklet's contents"), contents(), PageBreak()]
    players = f"{kit.players[0]}–{kit.players[1]}" if kit.players[0] != kit.players[1] else str(kit.players[0])
    title, subtitle = (paragraph(escape(text), st[style], "{}:{}".format(*kit.locate("kit", field)))
                       for text, style, field in ((kit.title, "cover-title", "title"),
                                                  (kit.subtitle, "cover-sub", "subtitle")))
    return [Spacer(1, 120), title, subtitle, Spacer(1, 18),
            paragraph(core_words("<b>Rules booklet</b>"), st["cover-sub"], "the booklet's cover"),
            paragraph(core_words("For {players} players").format(players=players), st["cover-sub"], "the booklet's cover"),
            NextPageTemplate("body"), PageBreak(), paragraph(core_words("Contents"), st["h1"], "the booklet's contents"),
            contents(), PageBreak()]


def back(designed, width: float) -> list:
    """The designed back cover, on a page of its own after the last chapter."""
    from pnpgen.documents.paragraphs import paragraph
    return [NextPageTemplate("back"), PageBreak(), *back_flowables(designed, paragraph, width)]


def lay_out(kit: Kit, pagesize: tuple[float, float], chapters: list, icon_places: list | None = None,
            laid: dict | None = None, designed=None) -> bytes:
    """The reading-order PDF (before figure art is laid on it), laid out in one pass: the contents know the
    chapters' titles before it and draw their page numbers once it has placed them (story.Contents). Where
    the pass left each inline icon's slot is added to `icon_places` (pnpgen.documents.inline_icons), and what
    the layout placed to `laid` (see build_recording_icons). `designed`: the kit's designed covers
    (documents.cover_data.Cover), a front before the contents and a back after the last chapter."""
    buffer = io.BytesIO()
    doc = BookletDoc(buffer, kit, pagesize, designed)
    story = cover(kit, designed) + [f for chapter in chapters for f in chapter]
    if designed is not None:
        story += back(designed, frame_width(pagesize))
    toc = next((f for f in story if isinstance(f, Contents)), None)
    if toc is not None:
        toc.expect([(heading.plain, heading.key) for heading in headings(story) if heading.toc_level == 0])
    build_recording_icons(doc, story, icon_places, laid)
    return buffer.getvalue()


def headings(flowables: list):
    """Every Heading of the story, in order, those kept together with what follows them too."""
    for flowable in flowables:
        if isinstance(flowable, Heading):
            yield flowable
        yield from headings(getattr(flowable, "_content", None) or ())


def build_recording_icons(doc: BaseDocTemplate, story: list, icon_places: list | None,
                          laid: dict | None = None) -> None:
    """doc.multiBuild(story) on IconCanvases; the icon slots of its last pass (the printed one) go to
    `icon_places`, its page count ("pages"), the page of each chapter heading ("chapters"), with the file it
    was written in ("sources": (page, file)), and the glyphs it set ("glyphs": render.drawn_text.DrawnGlyphs,
    for the type and contrast preflight) to `laid`: what a check of the layout needs, known as it was placed,
    so no check reads the PDF back."""
    from pnpgen.documents.inline_icons import IconCanvas
    from pnpgen.render.drawn_text import DrawnGlyphs
    made = []

    def canvas(*args, **kwargs):
        made.append(IconCanvas(*args, **kwargs))
        if laid is not None:   # for the type and contrast preflight: a record per string is enough
            made[-1].drawn_glyphs = DrawnGlyphs()
            made[-1].drawn_glyphs.coarse = True
        return made[-1]
    doc.multiBuild(story, canvasmaker=canvas)
    if icon_places is not None and made:
        icon_places.extend(made[-1].icon_places)
    if laid is not None:
        laid.update(pages=doc.page, chapters=list(getattr(doc, "chapter_pages", ())),
                    sources=list(getattr(doc, "chapter_files", ())),
                    glyphs=made[-1].drawn_glyphs if made else DrawnGlyphs())


def frame_width(pagesize: tuple[float, float]) -> float:
    return pagesize[0] - MARGIN["left"] - MARGIN["right"]
