"""Typesetting a kit's documents: Markdown chapters (Jinja over the kit's data) through the booklet's story
builder and page layout, in reading order; figure art laid on the pages afterwards; 2-up for saddle
stitching where asked.

Two caches, so a rebuild does only what changed: the finished PDFs, keyed by everything that went into
them; and the laid-out pages before any figure art, keyed by everything but that art (the text, its
tables, each figure's captions, callouts and art sizes). An edit that only redraws a figure's art (a
counter's colour or number) then lays the new art on the last layout instead of typesetting again.
"""
from __future__ import annotations

import gc
import hashlib
import io
import json
import re
from contextlib import contextmanager
from pathlib import Path

from pnpgen import resources
from pnpgen.documents import imposed_copy
from pnpgen.duplex import build_setting, flip_said
from pnpgen.documents.context import chapter_context, render_chapter
from pnpgen.documents.cover_data import cover_of
from pnpgen.documents.load import chapter_files
from pnpgen.documents.map_figures import MapSvgs, map_figures
from pnpgen.documents.piece_figures import COVER, cover_figure
from pnpgen.kit_fonts import type_key
from pnpgen.paper import half_page_size, paper_size
from pnpgen.problems import BuildError, display_path
from pnpgen.text import read_text

TYPESETTING = ("document", "cover", "impose", "markdown", "story", "styles", "pdfcopy", "figure")
TEXT = ("table_flow", "paragraphs", "doc_fonts", "inline_icons")  # documents/ modules that set text
OVERLAY = ("overlay", "pdfcopy")  # what lays figure art on laid-out pages
PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
# The most one document may hold: typesetting costs a few ms a block, so a chapter of 100,000 headings would
# run for minutes (the bundled kits' longest booklet: 76 headings, about 500 blocks).
MAX_HEADINGS = 2000
MAX_BLOCKS = 10_000  # page objects: a cached PDF is counted unparsed
LAID_PAGES = ("laid:pages", 0)   # placements entries of what the layout placed: its page count,
LAID_CHAPTER = "laid:chapter"    # and (LAID_CHAPTER, n): the page of the n-th chapter heading,
LAID_WARNING = "laid:warning"    # (LAID_WARNING, n): the n-th style a paragraph asked for that no kit font has


def lay_out_plain(kit, pagesize, chapters: list, icon_places: list | None = None, laid: dict | None = None) -> bytes:
    """A document without cover and contents (a reference sheet): body pages from the first."""
    from reportlab.platypus import NextPageTemplate
    from pnpgen.booklet.document import BookletDoc, build_recording_icons
    buffer = io.BytesIO()
    doc = BookletDoc(buffer, kit, pagesize)
    doc.pageTemplates.sort(key=lambda t: t.id != "body")  # the first page is a body page
    build_recording_icons(doc, [NextPageTemplate("body")] + [f for chapter in chapters for f in chapter], icon_places,
                          laid)
    return buffer.getvalue()


def build_document(ctx, name: str, settings: dict, cache=None) -> dict:
    """The document's PDF (and its imposed copy), with what the manifest lists: its files, chapters and
    figures. The text is rendered and the figures' SVG drawn from the templates first (cheap); what an
    earlier build made from the same comes from `cache`."""
    with older_objects_frozen():
        return _build_document(ctx, name, settings, cache)


@contextmanager
def older_objects_frozen():
    """Python's cycle collector kept to the objects made while a document is built: those the process
    already held (the kit, its pieces, the libraries, what the parts before this one left) are frozen
    (gc.freeze) until it is done. Typesetting makes hundreds of thousands of small objects, which set off a
    full collection over the whole heap about once a document, though what the heap held before is not
    garbage the document makes: measured on SE4X's booklet, the collector's 0.04-0.09 s came down to
    0.02-0.04 s. The document's own cycles (reportlab's and pypdf's documents) are still collected."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _build_document(ctx, name: str, settings: dict, cache=None) -> dict:
    from pnpgen.booklet.markdown import parse, too_long
    kit = ctx.kit
    pagesize = half_page_size(ctx.paper) if settings["page"] == "half" else paper_size(ctx.paper)
    duplex, back_offset = build_setting(ctx)
    if settings["cover"]:  # the kit's designed covers (None: a plain title page), a part of the cache key
        settings = {**settings, "designed": cover_of(kit, name, settings, duplex)}
    svgs = MapSvgs(map_store(ctx), map_salt(ctx)) if kit.maps else None
    sources, registry, known = _rendered(ctx, name, settings, duplex, svgs)
    chapters = [(path, parse(text, read_text(path, kit.root))) for path, text in sources]  # lines as written
    check_extent(name, chapters)
    for path, blocks in chapters:
        if problem := too_long(blocks):
            raise BuildError(f"{display_path(path)}:{problem}")
    if settings.get("back_cover"):
        chapters[-1] = (chapters[-1][0], on_a_page_of_its_own(chapters[-1][1]))
    figures = draw_figures(ctx, name, chapters, known)
    if svgs is not None:
        svgs.save()
    if settings.get("designed") is not None and settings["designed"].pieces:
        figures[COVER] = cover_figure(kit, settings["designed"])
    rel = f"{name}.pdf"
    imposed = imposed_copy(rel)
    noted = ctx.cache_dir / f".document-{name}.json"   # what typesetting warned of, so a cached build says it too
    targets = [ctx.stage.path(rel)] + ([ctx.stage.path(imposed)] if settings["impose"] else []) + [noted]
    text_key = _key(ctx, name, {**settings, "duplex": duplex}, pagesize, sources, registry, figures)
    art_keys = _art_keys(figures, kit.root)
    key = content_key_of(_art_key(text_key, art_keys) if figures else text_key, repr(back_offset))
    if cache is not None and cache.fetch(key, targets):
        pages = len(PAGE.findall(targets[0].read_bytes()))
    else:
        from pnpgen.booklet.impose import impose
        from pnpgen.render.print_scaling import ask_print_at_full_size
        pdf, placements = _print(ctx, name, settings, pagesize, chapters, registry, figures, text_key, cache,
                                 art_keys)
        pages = placements[LAID_PAGES][0]
        if settings.get("back_cover") is not None:
            _check_back_cover(ctx, name, settings, placements, chapters[-1][1])
        ctx.stage.write_bytes(rel, ask_print_at_full_size(pdf))   # so the post-pass needs no pypdf
        if settings["impose"]:
            ctx.stage.write_bytes(imposed, ask_print_at_full_size(
                impose(pdf, paper_size(ctx.paper, landscape=True), kept_last(settings), duplex, back_offset)))
        noted.parent.mkdir(parents=True, exist_ok=True)
        noted.write_text(json.dumps([said[0] for key, said in sorted(placements.items()) if key[0] == LAID_WARNING]),
                         encoding="utf-8")
        if cache is not None:
            cache.store(key, targets)
    return {"files": _files(ctx, settings, rel, imposed, pages, pagesize),
            "chapters": [display_path(path) for path, _ in sources], "figures": sorted(set(figures) - {COVER}),
            "warnings": json.loads(noted.read_text(encoding="utf-8"))}


def _rendered(ctx, name: str, settings: dict, duplex: str, svgs=None) -> tuple:
    """([(chapter file, its text)], the tables they place, the figures they may place): the texts and tables
    as the kit's load rendered them for its check, when that was in this build's context
    (documents.rendered_chapters), else rendered now. `svgs`: the maps' pictures kept (map_figures.MapSvgs)."""
    from pnpgen.documents.extras import retell
    from pnpgen.documents.rendered_chapters import take
    kit = ctx.kit
    files = chapter_files(kit, settings["chapters"], settings.get("back_cover"))
    kept = take(kit, name, files, ctx.pieces, ctx.counter_size, duplex)
    context, registry, known = chapter_context(kit, ctx.pieces, ctx.counter_size, duplex, map_figures(kit, svgs))
    if kept is None:
        return [(path, render_chapter(path, context, kit.root)) for path in files], registry, known
    retell(known, kept.retold)
    return list(zip(kept.files, kept.texts)), kept.registry, known


def kept_last(settings: dict) -> int:
    """How many pages end the imposed booklet whatever its blanks: the designed back cover, and the chapter
    named as the back cover (with a designed back it is the inside back cover, on the same leaf)."""
    return (settings.get("designed") is not None) + (settings.get("back_cover") is not None)


def on_a_page_of_its_own(blocks: list) -> list:
    """The back cover's blocks, starting a new page unless the chapter already does ([[pagebreak]])."""
    from pnpgen.booklet.markdown import Block
    if blocks and blocks[0].kind == "directive" and blocks[0].text == "pagebreak":
        return blocks
    return [Block("directive", "pagebreak")] + blocks


def check_extent(name: str, chapters: list) -> None:
    """A document within MAX_HEADINGS headings and MAX_BLOCKS blocks (paragraphs, lists, tables...), else a
    BuildError at the chapter line past the limit, before anything is typeset."""
    headings = blocks = 0
    for path, parsed in chapters:
        for block in parsed:
            blocks += 1
            headings += block.kind == "heading"
            if headings > MAX_HEADINGS or blocks > MAX_BLOCKS:
                what = (f"{MAX_HEADINGS} headings" if headings > MAX_HEADINGS
                        else f"{MAX_BLOCKS} blocks (paragraphs, headings, lists, tables...)")
                raise BuildError(f"{display_path(path)}:{block.line}: the {name} document has more than {what} by "
                                 f"here, more than a build typesets in seconds: split it into several documents "
                                 f"or shorten it")


def _check_back_cover(ctx, name: str, settings: dict, placements: dict, blocks: list) -> None:
    """The named back cover (the last chapter file) must be the last page alone: its first chapter heading
    on the last page. A back cover that ran onto a second page would put its first page inside the
    booklet and its continuation on the outside. The pages are the ones the layout recorded as it placed
    the headings (the PDF outline's top level), not read back from the PDF."""
    chapters = [where[0] for key, where in sorted(placements.items()) if key[0] == LAID_CHAPTER]
    own = sum(1 for block in blocks if block.kind == "heading" and block.level == 1)
    last = placements[LAID_PAGES][0] - (settings.get("designed") is not None)  # the designed back comes after
    starts = chapters[-own] if 0 < own <= len(chapters) else None
    if starts != last:
        file, line = ctx.kit.locate("kit", f"documents.{name}.back_cover")
        found = f"it starts on page {starts}" if starts else "it has no chapter heading (# Title)"
        raise BuildError(f"{file}:{line}: documents.{name}.back_cover: {settings['back_cover']} must be one "
                         f"page, the booklet's last (page {last}), but {found}")


def _files(ctx, settings, rel, imposed, pages, pagesize) -> list[dict]:
    half = settings["page"] == "half"
    files = [{"path": rel, "pages": pages, "paper": f"half-{ctx.paper}" if half else ctx.paper,
              "page_size": [round(v, 3) for v in pagesize]}]
    if settings["impose"]:
        files.append({"path": imposed, "pages": -(-pages // 4) * 2,  # two sides a sheet, four pages a sheet
                      "paper": ctx.paper, "page_size": [round(v, 3) for v in paper_size(ctx.paper, landscape=True)],
                      "binding": f"saddle-stitch, duplex {flip_said(build_setting(ctx)[0])}"})
    return files


def draw_figures(ctx, name: str, chapters: list, known: dict) -> dict:
    """{figure name: Figure} of every figure the chapters place, each drawn once (its SVG, from templates)."""
    figures = {}
    for path, blocks in chapters:
        for block in blocks:
            if block.kind != "directive" or block.text != "figure" or block.arg in figures:
                continue
            where = f"{display_path(path)}: figure {block.arg}"
            if block.arg not in known:
                raise BuildError(f"{where}: unknown figure (known: {', '.join(sorted(known)) or 'none'})")
            try:
                figures[block.arg] = known[block.arg]()
            except BuildError as exc:
                raise BuildError(f"{where}: {exc}") from None
            for label in figures[block.arg].missing:
                ctx.log(f"{name}: figure {block.arg}: the template prints no text for the '{label}' callout; left out")
    return figures


def _figure_chapters(chapters: list) -> dict:
    """{figure name: the chapter file that first places it}, to say where a figure that prints badly is."""
    places = {COVER: "kit.yaml cover.pieces"}
    for path, blocks in chapters:
        for block in blocks:
            if block.kind == "directive" and block.text == "figure":
                places.setdefault(block.arg, display_path(path))
    return places


def _print(ctx, name, settings, pagesize, chapters, registry, figures, text_key, cache, art_keys) \
        -> tuple[bytes, dict]:
    """The finished PDF: the laid-out pages, with each figure's art (drawn by cairo) laid on them, and what
    the layout placed (see _typeset). Pages an earlier build laid out for the same text and figure sizes are
    reused."""
    if not figures:
        pdf, placements = _typeset(ctx.kit, name, settings, pagesize, chapters, registry, {}, {})
        return _laid_on(ctx.kit, name, pdf, placements), placements
    from pnpgen.booklet.overlay import KeptArtPages, figure_layer, figure_text_sizes, readable, render_arts
    from pnpgen.booklet.story import FigureBox
    rendered = render_arts(figures, ctx.kit.root, _figure_chapters(chapters), figures_store(ctx, name), art_keys)
    figures = readable(figures, rendered, FigureBox.default_width)
    sizes = {f.name: [(rendered[(f.name, i)].width, rendered[(f.name, i)].height) for i in range(len(f.arts))]
             for f in figures.values()}
    widths = sorted((f.name, f.width) for f in figures.values())   # (readable() may widen a figure)
    layout = Layouts(ctx, name, cache, content_key_of("layout", text_key, repr(sorted(sizes.items())), repr(widths)))
    pdf, placements = layout.fetch() or (None, None)
    if pdf is None:
        pdf, placements = _typeset(ctx.kit, name, settings, pagesize, chapters, registry, figures, sizes)
        layout.store(pdf, placements)
    else:
        ctx.log(f"{name}: only figure art changed: laid on the last layout")
    figure_text_sizes(figures, rendered, placements, _figure_chapters(chapters))
    kept = KeptArtPages(figures_store(ctx, name).with_suffix(".pdf.bin"), art_keys)
    return _laid_on(ctx.kit, name, pdf, placements, figure_layer(rendered, placements, {COVER}, kept)), placements


def figures_store(ctx, name: str) -> Path:
    """Where the document's figures' recorded cairo calls are kept (booklet.overlay.StoredArts, each under its
    drawing's content key): the user's cache (one file per kit folder and document), so a build into a new
    output folder replays the figures an earlier build drew instead of drawing them again; the output
    folder's cache where the user has none."""
    folder = resources.cache_folder("figure-arts")
    return ctx.cache_dir / f"{name}-figures.bin" if folder is None else folder / f"{_user_file(ctx, name)}.bin"


def map_store(ctx) -> Path | None:
    """Where the kit folder's map figures' SVG is kept (map_figures.MapSvgs): the user's cache, or nowhere."""
    folder = resources.cache_folder("map-figures")
    return None if folder is None else folder / f"{_user_file(ctx, 'maps')}.json"


def map_salt(ctx) -> str:
    """Everything a map figure's SVG is made of besides its map and counter size: the code (built-in templates
    among it), jinja's version, the language and budgets, and every kit file the maps part reads (all but
    those it ignores, parts.maps: the chapters, the component tables... unless the kit's map rules name
    them). '' when the build does not say what its inputs are: nothing is kept."""
    if not ctx.code_key or ctx.kit_files is None:
        return ""
    import jinja2

    from pnpgen import budgets
    from pnpgen.i18n.translator import language
    from pnpgen.parts.maps import PART
    ignored = tuple(p.rstrip("/") for p in PART.ignores + PART.ignores_of(ctx.kit))
    digest = hashlib.sha256(f"map-figures 1\0{ctx.code_key}\0{jinja2.__version__}\0{language()}\0"
                            f"{budgets.active()!r}\0".encode())
    for rel, content in ctx.kit_files:
        if not any(rel == p or rel.startswith(p + "/") for p in ignored):
            digest.update(f"{rel}\0{content}\0".encode())
    return digest.hexdigest()


def _user_file(ctx, name: str, *more) -> str:
    """The name of the user's cache file of this kit folder's document `name` (and `more`)."""
    return resources.cache_file_name(str(ctx.kit.root), ctx.kit.id, name, *more)


def _laid_on(kit, name: str, pdf: bytes, placements: dict, figures: tuple | None = None) -> bytes:
    """The laid-out pages with the figures' art (a layer of booklet.overlay.figure_layer) and the kit's icons
    drawn on them, in one copy of the file (booklet.pdfcopy): the icons in the slots the layout left for them
    (kept in `placements` as ('icon:NAME', n): (page, matrix...), so a cached layout keeps them too), above
    the page's own marks and the figures."""
    from pnpgen.booklet.pdfcopy import lay_on
    from pnpgen.documents.inline_icons import icon_layer
    places = [(key[0][len("icon:"):], where[0], tuple(where[1:])) for key, where in sorted(placements.items())
              if str(key[0]).startswith("icon:")]
    layers = [figures] if figures else []
    if places:
        layers.append(icon_layer(places, kit.icons, kit.root, f"{name}.pdf"))
    return lay_on(pdf, layers)


def _typeset(kit, name, settings, pagesize, chapters, registry, figures, sizes) -> tuple[bytes, dict]:
    """The laid-out PDF and where each figure's art goes on it ({(figure, index): (page, x, y, w, h)}), with
    its page count (LAID_PAGES: (pages,)) and each chapter heading's page ((LAID_CHAPTER, n): (page,))."""
    from pnpgen.documents.line_memo import LineMemo
    from pnpgen.documents.paragraphs import use_kit, use_line_memo
    use_kit(kit)  # its fonts registered and chosen (kit.yaml `fonts:`), its icons
    memo = LineMemo(kit, name)   # the lines of paragraphs an earlier build broke, unchanged since
    use_line_memo(memo)
    try:
        pdf, placements, laid = _lay_out(kit, settings, pagesize, chapters, registry, figures, sizes)
    finally:
        use_line_memo(None)
    memo.save()
    check_type(kit, name, laid)
    return pdf, placements


def _lay_out(kit, settings, pagesize, chapters, registry, figures, sizes) -> tuple[bytes, dict, dict]:
    """_typeset's PDF and placements, and what the layout placed (document.build_recording_icons)."""
    from pnpgen.booklet.document import frame_width, lay_out  # reportlab loads only when typesetting
    from pnpgen.booklet.story import flowables
    from pnpgen.documents.paragraphs import style_warnings
    width, placements, icons, laid = frame_width(pagesize), {}, [], {}
    if COVER in figures:  # known before the cover's picture draws their grounds
        placements.update(cover_places(kit, pagesize, settings["designed"]))
    tables = {key: (lambda data=data: data) for key, data in registry.made.items()}
    story = [flowables(list(blocks), f"c{number}", width, tables, figures, sizes, placements, {}, display_path(path))
             for number, (path, blocks) in enumerate(chapters)]
    pdf = (lay_out(kit, pagesize, story, icons, laid, settings.get("designed")) if settings["cover"]
           else lay_out_plain(kit, pagesize, story, icons, laid))
    placements.update({(f"icon:{icon}", number): (page, *matrix) for number, (icon, page, matrix) in enumerate(icons)})
    placements[LAID_PAGES] = (laid["pages"],)
    placements.update({(LAID_WARNING, number): (warning,) for number, warning in enumerate(style_warnings())})
    placements.update({(LAID_CHAPTER, number): (page,) for number, page in enumerate(laid["chapters"])})
    return pdf, placements, laid


def cover_places(kit, pagesize, designed) -> dict:
    """{(COVER, n): (1, x, y, w, h)}: where the front cover's pieces go on its first page, or a BuildError at
    kit.yaml `cover.pieces` when they do not fit its picture."""
    from pnpgen.booklet.cover import piece_places, piece_rows
    try:
        places = piece_places(pagesize, *piece_rows(designed))
    except ValueError as exc:
        file, line = kit.locate("kit", "cover.pieces")
        raise BuildError(f"{file}:{line}: cover.pieces: the pieces do not fit the front picture ({exc}): name "
                         f"fewer, or give them a smaller scale") from None
    return {(COVER, number): (1, *place) for number, place in enumerate(places)}


def check_type(kit, name: str, laid: dict) -> None:
    """Stop the build when the typeset pages set body text below 8 pt, small print (tables, captions,
    running headers) below the kit's counters' floor (6 pt), or text below the contrast ratio against its
    ground: from the glyphs and fills as the canvas set them (laid["glyphs"]), each finding named by the
    chapter file its page belongs to and the page."""
    from pnpgen.page_contrast import drawn_contrasts, drawn_sizes
    from pnpgen.preflight import BOOKLET_TEXT, preflight_rules
    rules, glyphs = preflight_rules(kit), laid.get("glyphs") or {}
    found = drawn_sizes(glyphs, max(BOOKLET_TEXT, rules.min_text), rules.min_text) \
        + drawn_contrasts(glyphs, rules.contrast)
    if not found:
        return
    starts = laid.get("sources", ())

    def where(page: int) -> str:
        source = next((file for first, file in reversed(starts) if first <= page), "the cover and contents")
        return f"{source}: {name} page {page}"
    raise BuildError(f"preflight: {name} would print text too small or too faint to read:\n"
                     + "\n".join(f"{where(page)}: {finding}" for page, finding in sorted(found, key=lambda f: f[0])))


class Layouts:
    """One laid-out PDF and its figure placements in the documents' OutputCache (two files beside the
    cache, copied in and out as the cache does)."""

    def __init__(self, ctx, name: str, cache, key: str):
        self.cache, self.key = cache, key
        self.files = [ctx.cache_dir / f"{name}-layout.pdf", ctx.cache_dir / f"{name}-layout.json"]

    def fetch(self) -> tuple[bytes, dict] | None:
        if self.cache is None or not self.cache.fetch(self.key, self.files):
            return None
        try:
            placed = json.loads(self.files[1].read_text(encoding="utf-8"))
            placements = {(f, i): tuple(where) for f, i, *where in placed}
            return (self.files[0].read_bytes(), placements) if LAID_PAGES in placements else None
        except (OSError, ValueError, TypeError):
            return None  # a broken entry only costs the typesetting

    def store(self, pdf: bytes, placements: dict) -> None:
        if self.cache is None:
            return
        self.files[0].parent.mkdir(parents=True, exist_ok=True)
        self.files[0].write_bytes(pdf)
        self.files[1].write_text(json.dumps([[f, i, *where] for (f, i), where in sorted(placements.items())]),
                                 encoding="utf-8")
        self.cache.store(self.key, self.files)


def content_key_of(*parts: str) -> str:
    from pnpgen.output_cache import content_key
    return content_key(*parts)


def _code(folder: str, modules) -> list[str]:
    base = resources.code() / folder
    return [(base / f"{m}.py").read_text(encoding="utf-8") for m in modules]


def _key(ctx, name, settings, pagesize, sources, registry, figures) -> str:
    """The rendered text, its tables, what the figures print beside their art (captions, callouts, widths),
    the page settings and the typesetting code (read as files: importing it would load reportlab, which a
    cache hit never needs)."""
    code = _code("booklet", TYPESETTING) + _code("documents", TEXT)
    figures_text = [repr((f.name, f.width, f.callouts, [a.caption for a in f.arts])) for f in figures.values()]
    kit = ctx.kit
    return content_key_of(*code, name, repr(settings), repr(pagesize), kit.title, kit.subtitle, repr(kit.players),
                          *(text for _, text in sources), repr(sorted(registry.made.items())), *figures_text,
                          *type_key(kit))


def _art_keys(figures: dict, root) -> dict:
    """{(figure, i): the content key of its i-th art}: its SVG with the bytes of each image it links to (a
    swapped picture keeps its SVG), the kit fonts it names and the renderer, in the figures' order (the key
    render_arts stores the art's drawing under: check_memo.drawing_key)."""
    from pnpgen.render.drawing_keys import svg_key
    images: dict = {}
    return {(f.name, index): svg_key(a.svg, root, images) for f in figures.values() for index, a in enumerate(f.arts)}


def _art_key(text_key: str, art_keys: dict) -> str:
    """The finished PDF's key: the layout's, every art's (_art_keys), and the code that lays the art on."""
    return content_key_of(text_key, *_code("booklet", OVERLAY), *art_keys.values())
