"""What the translated-edition tests read back: every PDF's page sizes and text, and a source string's words
as a PDF would show them."""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium


def read_pdfs(folder: Path) -> dict:
    """{PDF: {"sizes": [(w, h) in points], "text": every page's text, whitespace made single spaces}}."""
    found = {}
    for path in sorted(folder.rglob("*.pdf")):
        document = pdfium.PdfDocument(str(path))
        found[path.relative_to(folder).as_posix()] = {
            "sizes": [[round(v, 2) for v in page.get_size()] for page in document],
            "text": " ".join(" ".join(page.get_textpage().get_text_range() for page in document).split())}
    return found


def printed(msgid: str) -> str:
    """The words of a source string as a PDF shows them: up to its first placeholder, without markup."""
    words = re.split(r"\{\{|\{%|\{[a-z]|%\(|%s", msgid)[0]
    words = re.sub(r"<[^>]+>|\*\*|\*", "", words)
    return " ".join(words.split()).rstrip(" :(")
