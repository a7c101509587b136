"""A small Markdown subset for rules chapters, parsed into plain blocks (no layout, no drawing).

Headings (#, ##, ###), paragraphs, bullet lists ("- "), numbered steps ("1. ", printed with their own
numbers, not a bullet), **bold**, *italic*, words in one of the kit's fonts (`[words]{font="Kit Sans"}`,
a bracketed span as Pandoc writes one), and directive lines that the
Jinja helpers write: [[table:t0]], [[figure:counter-anatomy]], [[pagebreak]]. Each block keeps the line
it starts on (of the written file, when parse is given it), so a problem found when it is typeset names it.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from pnpgen.xml_escape import escape

STEP = re.compile(r"^(\d{1,3})\.\s+(.*)$")  # "1. Put the board in the middle."
DIRECTIVE = re.compile(r"^\[\[([a-z-]+)(?::([A-Za-z0-9_.:-]+))?\]\]$")  # [[figure:cards.Explore]]
HELPER_BREAK = "\x1e"  # a line break a Jinja helper writes around its directive: it starts a line, is not one
ITALIC_OPENER = re.compile(r"(?<![\w*])\*(?=\S)")
ITALIC_CLOSER = re.compile(r"(?<!\s)\*(?![\w*])")
FONT_SPAN = re.compile(r'\[([^\[\]]+)\]\{font=(?:"([^"<>&]+)"|([^\s"}<>&]+))\}')  # [Orbitron words]{font=Orbitron}


@dataclass(frozen=True)
class Block:
    kind: str            # heading, para, bullets, steps, directive
    text: str = ""       # heading/para text as reportlab mini-markup; directive name
    level: int = 0       # heading level
    items: tuple = ()    # bullet items: (depth, mini-markup), depth 1 for "  - " sub-items; steps: (number, mini-markup)
    arg: str = ""        # directive argument
    line: int = 0        # the line the block starts on: of the written chapter, given it (parse), else rendered


def inline(text: str) -> str:
    """Escape XML, then **bold** -> <b>, *italic* -> <i> (reportlab Paragraph markup)."""
    text = escape(text)
    text = FONT_SPAN.sub(lambda m: f'<font face="{m.group(2) or m.group(3)}">{m.group(1)}</font>', text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    return italics(text)


def italics(text: str) -> str:
    r"""*italic* -> <i>italic</i>: an opening star not after a word character or a star and before a non-space,
    closed by the nearest star after it on the same line that follows a non-space and comes before no word
    character or star (the regex `(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])` says it, but tries every star
    against the rest of the line: a 900 KB paragraph of `*a ` never closed ran for hours). Here each opener
    finds its closer by bisection among the closers and the line ends, in time linear in the text."""
    closers = [found.start() for found in ITALIC_CLOSER.finditer(text)]
    if not closers:
        return text
    line_ends = [found.start() for found in re.finditer("\n", text)] + [len(text)]
    out, done, k = [], 0, 0
    for found in ITALIC_OPENER.finditer(text):
        start = found.start()
        if start < done:
            continue  # inside the italics just closed
        k = bisect.bisect_left(closers, start + 2, k)
        if k == len(closers):
            break
        end = closers[k]
        if end > line_ends[bisect.bisect_left(line_ends, start)]:
            continue  # the nearest closer is on a later line
        out += [text[done:start], "<i>", text[start + 1:end], "</i>"]
        done = end + 1
    return "".join(out) + text[done:]


def section_before_chapter(section: str) -> str:
    """Why a `##` met before a document's first `#` stops it (the build's layout and validate's reading of
    the chapters say it in the same words): the contents and the PDF outline hold sections in chapters."""
    return (f"the section '{section}' (##) comes before the document's first chapter heading (#): the contents "
            "and the PDF outline hold sections inside chapters; open the first chapter file with a # heading")


def first_section_before_chapter(blocks) -> Block | None:
    """The `##` heading among `blocks` (a document's, in reading order) that comes before any `#`, if one does."""
    for block in blocks:
        if block.kind == "heading" and block.level <= 2:
            return block if block.level == 2 else None
    return None


def directive_line(directive: str) -> str:
    """A helper's directive on a line of its own, without moving the lines after it (located problems name
    the chapter's own lines)."""
    return f"{HELPER_BREAK}{directive}{HELPER_BREAK}"


def source_lines(source: str):
    """(line number, text) of every line; a HELPER_BREAK splits a line without counting as one."""
    for number, physical in enumerate(source.split("\n"), start=1):
        for part in physical.splitlines() or [""]:
            yield number, part


def parse(source: str, written: str | None = None) -> list[Block]:
    """Blocks in reading order; a blank line ends a paragraph or a list. Given the `written` chapter (before
    Jinja), each block's line is the written file's line it came from (written_lines)."""
    blocks = _blocks(source)
    if written is None:
        return blocks
    lines = written_lines(source, written)
    return [replace(b, line=lines[b.line - 1]) if 0 < b.line <= len(lines) else b for b in blocks]


def too_long(blocks: list[Block]) -> str:
    """'LINE: why' of the first paragraph or list item longer than MAX_BLOCK_CHARS, or ''. reportlab wraps the
    rest of a paragraph again on every page it runs onto, so its time grows with the square of its length: a
    900 KB paragraph ran for minutes."""
    for block in blocks:
        longest = max([len(block.text)] + [len(text) for _, text in block.items])
        if longest > MAX_BLOCK_CHARS:
            return (f"{block.line}: a {'paragraph' if block.kind == 'para' else block.kind[:-1]} of {longest:,} "
                    f"characters (at most {MAX_BLOCK_CHARS:,}): break it into paragraphs with blank lines")
    return ""


MAX_BLOCK_CHARS = 50_000  # a paragraph or list item as typeset markup: a few pages of text
MATCHED_LINES = 5000  # past this many lines a chapter's blocks keep the rendered lines (difflib is quadratic)


def written_lines(rendered: str, written: str) -> list[int]:
    """For each line of the rendered chapter, the line of the written file it comes from: a line the template
    left as it was is matched to itself (difflib), a line a loop or an expression wrote to the first line of
    the template text that wrote it. So a problem a block meets in typesetting names the line the writer sees."""
    import difflib
    out, src = rendered.split("\n"), written.split("\n")
    if max(len(out), len(src)) > MATCHED_LINES:
        return list(range(1, len(out) + 1))
    lines = list(range(1, len(out) + 1))
    for tag, i1, _, j1, j2 in difflib.SequenceMatcher(None, src, out, autojunk=False).get_opcodes():
        for j in range(j1, j2):
            lines[j] = i1 + (j - j1) + 1 if tag == "equal" else min(i1 + 1, len(src))
    return lines


def _blocks(source: str) -> list[Block]:
    blocks: list[Block] = []
    para: list[str] = []
    items: list[str] = []
    kind = ["bullets"]        # what `items` holds: bullets or steps
    start = [0]               # the line the paragraph or list being read starts on

    def flush():
        if para:
            blocks.append(Block("para", inline(" ".join(para)), line=start[0]))
            para.clear()
        if items:
            blocks.append(Block(kind[0], items=tuple((d, inline(" ".join(t))) for d, t in items), line=start[0]))
            items.clear()

    def start_item(item_kind: str, key, text: str):
        if para or (items and kind[0] != item_kind):
            flush()
        if not items:
            start[0] = number
        kind[0] = item_kind
        items.append((key, [text]))

    for number, raw in source_lines(source):
        line = raw.strip()
        if not line:
            flush()
        elif match := DIRECTIVE.match(line):
            flush()
            blocks.append(Block("directive", match.group(1), arg=match.group(2) or "", line=number))
        elif match := re.match(r"^(#{1,3})\s+(.*)$", line):
            flush()
            blocks.append(Block("heading", inline(match.group(2)), level=len(match.group(1)), line=number))
        elif line.startswith("- "):
            start_item("bullets", 1 if raw.startswith("  ") else 0, line[2:])
        elif (step := STEP.match(line)) and not raw.startswith(" "):
            start_item("steps", int(step.group(1)), step.group(2))
        elif items and raw.startswith(" "):
            items[-1][1].append(line)  # joined once, at the end: adding to a text line by line is quadratic
        else:
            if items:
                flush()
            if not para:
                start[0] = number
            para.append(line)
    flush()
    return blocks
