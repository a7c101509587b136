"""Typesetting a generic kit's documents: Markdown chapters (Jinja over the kit's data) through the
booklet's story builder and page layout, in reading order, and 2-up for saddle stitching where asked."""
from __future__ import annotations

import io

from pypdf import PdfReader

from generator.booklet.document import frame_width, lay_out
from generator.booklet.impose import impose, sheet_sides
from generator.booklet.markdown import parse
from generator.booklet.story import flowables
from generator.documents.context import TableRegistry, render_chapter, text_context
from generator.paper import half_page_size, paper_size


def lay_out_plain(kit, pagesize, chapters: list) -> bytes:
    """A document without cover and contents (a reference sheet): body pages from the first."""
    from reportlab.platypus import NextPageTemplate
    from generator.booklet.document import BookletDoc
    buffer = io.BytesIO()
    doc = BookletDoc(buffer, kit, pagesize)
    doc.pageTemplates.sort(key=lambda t: t.id != "body")  # the first page is a body page
    doc.multiBuild([NextPageTemplate("body")] + [f for chapter in chapters for f in chapter])
    return buffer.getvalue()


def chapter_files(kit, chapters: str) -> list:
    path = (kit.root / chapters)
    return sorted(path.glob("*.md")) if path.is_dir() else [path]


def build_document(ctx, name: str, settings: dict) -> list[dict]:
    kit = ctx.kit
    pagesize = half_page_size(ctx.paper) if settings["page"] == "half" else paper_size(ctx.paper)
    context = text_context(kit)
    registry = TableRegistry(kit, context)
    context["table"] = registry
    width = frame_width(pagesize)
    story = []
    for number, path in enumerate(chapter_files(kit, settings["chapters"])):
        blocks = parse(render_chapter(path, context))
        tables = {key: (lambda data=data: data) for key, data in registry.made.items()}
        story.append(flowables(blocks, f"{name}{number}", width, tables, {}, {}, {}, {}))
    pdf = lay_out(kit, pagesize, story) if settings["cover"] else lay_out_plain(kit, pagesize, story)
    rel = f"{name}.pdf"
    ctx.stage.write_bytes(rel, pdf)
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    files = [{"path": rel, "pages": pages, "page_size": [round(v, 3) for v in pagesize]}]
    if settings["impose"]:
        sheet = paper_size(ctx.paper, landscape=True)
        ctx.stage.write_bytes(f"{name}-imposed.pdf", impose(pdf, sheet))
        files.append({"path": f"{name}-imposed.pdf", "pages": len(sheet_sides(pages)), "page_size": list(sheet),
                      "binding": "saddle-stitch, duplex flip on short edge"})
    return files
