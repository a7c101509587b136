"""What `validate` reads in a kit's texts before any build: each template parsed, each document chapter
rendered with the kit's data. A typo in a template tag or a table's name is then a located problem at
validation, with exit 1, not a surprise halfway through a build."""
from __future__ import annotations

from pathlib import Path

from pnpgen.problems import Problems


def check_template_files(root: Path, problems: Problems) -> None:
    """The kit's own templates/*.svg.j2 are read and parsed: a syntax error, a NUL byte, a file that is not
    UTF-8 or a link out of the kit is located now (what a template does when it runs is checked when it is
    drawn). A template parsed before with the same text is not parsed again; one parsed now is compiled as
    the build's environment compiles it (kept there, and in the user's code folder), so the build that
    follows does not parse it a second time."""
    import jinja2

    from pnpgen.known_good import KnownGood
    from pnpgen.render.templates import template_env
    from pnpgen.template_files import SUFFIX
    from pnpgen.text import TextError, read_text

    folder = root / "templates"
    if not folder.is_dir():
        return
    parsed = KnownGood("templates-ok.txt", f"jinja-{jinja2.__version__}")
    env = template_env(root)
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        try:
            source = read_text(path, root)
            if "\0" in source:
                raise TextError(str(path), source[: source.index("\0")].count("\n") + 1, "a NUL byte: not text")
            digest = parsed.digest(source)
            if digest not in parsed:
                _compile(env, path, source)
                parsed.add(digest)
        except TextError as exc:
            problems.error(path, exc.line, "", exc.message)
        except jinja2.TemplateSyntaxError as exc:
            problems.error(path, exc.lineno, "", f"template syntax error: {exc.message}")


def _compile(env, path: Path, source: str) -> None:
    """The template compiled under the name a build looks it up by, when the kit's loader gives this very
    text for that name; else only parsed."""
    try:
        found = env.loader.get_source(env, path.name)[0]
    except Exception:  # noqa: BLE001 - the loader refuses it: the parse below says why, located
        found = None
    if found == source:
        import jinja2
        try:
            env.get_template(path.name)
            return
        except jinja2.TemplateAssertionError:  # an unknown filter, say: said where the template is drawn, as before
            pass
    env.parse(source, path.name, str(path))


def check_chapters(kit, problems: Problems) -> None:
    """Every chapter of every document rendered as a build renders it (text only: no figure drawn, nothing
    typeset): an unknown name, table, chart, section, column or figure is located at the chapter's line, and
    so is a section (##) before the document's first chapter heading (#), which would stop the layout."""
    from pnpgen.documents.context import chapter_context, render_chapter
    from pnpgen.text import TextError
    from pnpgen.documents.load import chapter_files

    for document, settings in (kit.documents or {}).items():
        context, registry, figures = chapter_context(kit, kit.component_pieces, kit.counter_size)
        headings_sound = True  # every chapter rendered so far: the reading order of its headings is whole
        opened = False         # a chapter heading (#) met, so sections may follow
        files, texts = chapter_files(kit, settings["chapters"], settings.get("back_cover")), []
        for path in files:
            try:
                texts.append(text := render_chapter(path, context, kit.root))
            except TextError as exc:
                problems.error(path, exc.line, "", exc.message)
                headings_sound = False
                continue
            for line, name in chapter_icons(text):
                if name not in kit.icons:
                    from pnpgen.icon_names import unknown_icon
                    problems.error(path, line, "", unknown_icon(name, kit.icons))
            if headings_sound and not opened:
                opened = _opens_with_a_chapter(path, text, kit.root, problems)
        if len(texts) == len(files):   # all rendered: the build of this kit need not render them again
            _hand_on(kit, document, files, texts, (context, registry, figures))


def _hand_on(kit, name: str, files: list, texts: list, made: tuple) -> None:
    """The document's rendered chapters, and what their rendering left (the tables placed, the figures
    retold), kept for the build (pnpgen.documents.rendered_chapters)."""
    from pnpgen.documents.rendered_chapters import Rendered, keep
    context, registry, _ = made
    keep(kit, name, Rendered(list(files), texts, registry, list(context["figure"].retold), kit.component_pieces,
                             kit.counter_size, "long"))


def _opens_with_a_chapter(path: Path, text: str, root: Path, problems: Problems) -> bool:
    """True when the chapter's first heading of level 1 or 2 is a chapter heading (#); a section (##) there
    is a problem at its line as written. False when the chapter has neither (the next one decides)."""
    import re

    from pnpgen.booklet.markdown import first_section_before_chapter, parse, section_before_chapter
    from pnpgen.xml_escape import unescape
    from pnpgen.text import read_text
    blocks = parse(text, read_text(path, root))
    section = first_section_before_chapter(blocks)
    if section is not None:
        problems.error(path, section.line, "", section_before_chapter(unescape(re.sub(r"<[^>]+>", "", section.text))))
        return True  # said once: the sections after it follow from the same missing chapter heading
    return any(b.kind == "heading" and b.level == 1 for b in blocks)


def chapter_icons(text: str):
    """(line, name) of every `:name:` a rendered chapter places (the lines of the chapter file)."""
    from pnpgen.booklet.markdown import DIRECTIVE, source_lines
    from pnpgen.icon_names import ICON
    for line, part in source_lines(text):
        if not DIRECTIVE.match(part.strip()):  # [[figure:scenario-map:two-player]] names a figure
            yield from ((line, match.group(1)) for match in ICON.finditer(part))
