"""Typesetting a generic kit's documents: Markdown chapters (Jinja over the kit's data) through the
booklet's story builder and page layout, in reading order, and 2-up for saddle stitching where asked."""
from __future__ import annotations

import io
import re
from pathlib import Path

from generator.documents.context import TableRegistry, render_chapter, text_context
from generator.paper import half_page_size, paper_size

TYPESETTING = ("document", "impose", "markdown", "story", "styles", "pdfforms")
PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")  # reportlab's page objects: a cached PDF is counted unparsed


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


def build_document(ctx, name: str, settings: dict, cache=None) -> list[dict]:
    """The document's PDF (and its imposed copy). The text is rendered first (cheap); when it, the tables it
    asks for and the page settings are what an earlier build typeset, the PDFs come from `cache`."""
    kit = ctx.kit
    pagesize = half_page_size(ctx.paper) if settings["page"] == "half" else paper_size(ctx.paper)
    context = text_context(kit)
    registry = TableRegistry(kit, context)
    context["table"] = registry
    sources = [(path, render_chapter(path, context)) for path in chapter_files(kit, settings["chapters"])]
    rel, imposed = f"{name}.pdf", f"{name}-imposed.pdf"
    targets = [ctx.stage.path(rel)] + ([ctx.stage.path(imposed)] if settings["impose"] else [])
    key = _key(ctx, name, settings, pagesize, sources, registry)
    if cache is not None and cache.fetch(key, targets):
        pages = len(PAGE.findall(targets[0].read_bytes()))
    else:
        from pypdf import PdfReader
        from generator.booklet.impose import impose
        pdf = _typeset(kit, name, settings, pagesize, sources, registry, ctx.cache_dir / f"{name}-contents.json")
        ctx.stage.write_bytes(rel, pdf)
        if settings["impose"]:
            ctx.stage.write_bytes(imposed, impose(pdf, paper_size(ctx.paper, landscape=True)))
        if cache is not None:
            cache.store(key, targets)
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
    files = [{"path": rel, "pages": pages, "page_size": [round(v, 3) for v in pagesize]}]
    if settings["impose"]:
        files.append({"path": imposed, "pages": -(-pages // 4) * 2,  # two sides a sheet, four pages a sheet
                      "page_size": list(paper_size(ctx.paper, landscape=True)),
                      "binding": "saddle-stitch, duplex flip on short edge"})
    return files


def _typeset(kit, name, settings, pagesize, sources, registry, contents_seed) -> bytes:
    from generator.booklet.document import frame_width, lay_out  # reportlab loads only when typesetting
    from generator.booklet.markdown import parse
    from generator.booklet.story import flowables
    width = frame_width(pagesize)
    tables = {key: (lambda data=data: data) for key, data in registry.made.items()}
    story = [flowables(parse(text), f"{name}{number}", width, tables, {}, {}, {}, {})
             for number, (_, text) in enumerate(sources)]
    return lay_out(kit, pagesize, story, contents_seed) if settings["cover"] else lay_out_plain(kit, pagesize, story)


def _key(ctx, name, settings, pagesize, sources, registry) -> str:
    """The rendered text, its tables, the page settings and the typesetting code (read as files: importing
    it would load reportlab, which a cache hit never needs)."""
    from generator.output_cache import content_key
    booklet = Path(__file__).resolve().parent.parent / "booklet"
    code = [(booklet / f"{m}.py").read_text(encoding="utf-8") for m in TYPESETTING]
    code.append((Path(__file__).resolve().parent / "table_flow.py").read_text(encoding="utf-8"))  # draws the tables
    kit = ctx.kit
    return content_key(*code, name, repr(settings), repr(pagesize), kit.title, kit.subtitle, repr(kit.players),
                       *(text for _, text in sources), repr(sorted(registry.made.items())))
