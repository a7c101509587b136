"""A small Markdown subset for rules chapters, parsed into plain blocks (no layout, no drawing).

Headings (#, ##, ###), paragraphs, bullet lists ("- "), **bold**, *italic*, and directive lines that the
Jinja helpers write: [[table:t0]], [[figure:counter-anatomy]], [[pagebreak]].
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

DIRECTIVE = re.compile(r"^\[\[([a-z-]+)(?::([A-Za-z0-9_.:-]+))?\]\]$")  # [[figure:cards.Explore]]


@dataclass(frozen=True)
class Block:
    kind: str            # heading, para, bullets, directive
    text: str = ""       # heading/para text as reportlab mini-markup; directive name
    level: int = 0       # heading level
    items: tuple = ()    # bullet items: (depth, mini-markup); depth 1 for "  - " sub-items
    arg: str = ""        # directive argument


def inline(text: str) -> str:
    """Escape XML, then **bold** -> <b>, *italic* -> <i> (reportlab Paragraph markup)."""
    text = escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    return re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", text)


def parse(source: str) -> list[Block]:
    """Blocks in reading order; a blank line ends a paragraph or a list."""
    blocks: list[Block] = []
    para: list[str] = []
    items: list[str] = []

    def flush():
        if para:
            blocks.append(Block("para", inline(" ".join(para))))
            para.clear()
        if items:
            blocks.append(Block("bullets", items=tuple((d, inline(t)) for d, t in items)))
            items.clear()

    for raw in source.splitlines():
        line = raw.strip()
        if not line:
            flush()
        elif match := DIRECTIVE.match(line):
            flush()
            blocks.append(Block("directive", match.group(1), arg=match.group(2) or ""))
        elif match := re.match(r"^(#{1,3})\s+(.*)$", line):
            flush()
            blocks.append(Block("heading", inline(match.group(2)), level=len(match.group(1))))
        elif line.startswith("- "):
            if para:
                flush()
            items.append((1 if raw.startswith("  ") else 0, line[2:]))
        elif items and raw.startswith(" "):
            items[-1] = (items[-1][0], items[-1][1] + " " + line)
        else:
            if items:
                flush()
            para.append(line)
    flush()
    return blocks
