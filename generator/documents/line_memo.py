"""Paragraph lines broken in an earlier build of the same document, kept in the user's cache.

Breaking a paragraph's lines (reportlab's Paragraph.breakLines: measuring every word in its font) is the
largest part of laying a booklet out (SE4X: 472 breaks, 0.08 s of the 0.21 s layout). After a data edit the
booklet is typeset again because its text changed, but most paragraphs did not: a destroyer's attack changes
one table cell, not the 500 other paragraphs. The lines of each paragraph depend only on what it is made of
(its parsed fragments: text, fonts, sizes, colours, inline icons), its style, its bullet, the widths it is
broken for, the fonts' metrics and reportlab's code; the entry is kept under all of that (the fonts and code
in the memo's salt), so a paragraph that changed, or moved to another width, is broken again.

One sealed file per kit folder and document (pnpgen.signing: this user's pnpgen's only), written at the end
of the layout when a paragraph was broken anew; an entry is unpickled with only the classes reportlab's
lines are made of (ALLOWED), so not even a sealed entry can build another object, and a damaged one is broken
again. What is kept is worked out on the way, never the finished PDF: a cold build lays its pages out and
draws them as before, only the measuring of unchanged paragraphs is skipped.
"""
from __future__ import annotations

import hashlib
import marshal
import pickle
import sys
from functools import lru_cache

from pnpgen import allowed_pickle
from pnpgen.render.check_memo import SealedMemo

FOLDER = "typeset-lines"
VERSION = 1
KEEP = 1500   # paragraphs kept per document: this build's (SE4X: about 450), then those of earlier states
# what the lines of a paragraph hold: reportlab's line and fragment bags, its word and fragment lists that
# note a hyphenation or split, the colours of the text
ALLOWED = {("reportlab.platypus.paragraph", name) for name in (
    "ParaLines", "FragLine", "_HSFrag", "_InjectedFrag", "_SplitFrag", "_SplitFragH", "_SplitFragHY",
    "_SplitFragHS", "_SplitFragLL", "_SHYIndexedStr", "_SHYWord", "_SplitFragSHY", "_SHYWordHS", "_SplitWord",
    "_SplitWordEnd", "_SplitWordH", "_SplitWordHY", "_SplitWordLL", "_SHYStr", "_SHYSplitHY", "_SHYSplit",
    "BidiList")} | {("reportlab.platypus.paraparser", "ParaFrag"), ("reportlab.lib.abag", "ABag"),
                    ("reportlab.lib.colors", "Color"), ("reportlab.lib.colors", "CMYKColor"),
                    ("reportlab.lib.colors", "PCMYKColor"), ("reportlab.lib.colors", "CMYKColorSep"),
                    ("reportlab.lib.colors", "PCMYKColorSep"), ("reportlab.lib.colors", "_PCMYK_black")}


@lru_cache(maxsize=1)
def _code_salt() -> str:
    """reportlab's version, the code that breaks and keeps the lines, and the shipped fonts (the metrics every
    width is measured with: their files' names, sizes and change times, as git's index tells a file changed;
    a font replaced by another of the same size is told by its times)."""
    import reportlab

    from pnpgen import fonts, resources
    from pnpgen.output_cache import source_fingerprint
    shipped = sorted((p.name, *_stamp(p.stat())) for p in resources.fonts().rglob("*") if p.is_file())
    paragraphs = sys.modules["pnpgen.documents.paragraphs"]
    code = source_fingerprint(paragraphs, sys.modules[__name__], fonts)
    return f"{VERSION}:{sys.version_info[:2]}:{reportlab.Version}:{code}:{shipped}".replace("\n", " ")


def _stamp(stat) -> tuple:
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino


class LineMemo(SealedMemo):
    """{paragraph key: its pickled lines, the widths and state breaking them left} of one document."""

    KEEP = KEEP
    FIELD = "lines"

    def __init__(self, kit, name: str):
        from pnpgen.kit_fonts import type_key
        from pnpgen.resources import cache_file_name, cache_folder
        folder = cache_folder(FOLDER)
        file = cache_file_name(str(kit.root), kit.id, name)
        super().__init__(folder / f"{file}.bin" if folder is not None else None)
        self._salt = f"{_code_salt()}:{type_key(kit)!r}".replace("\n", " ")   # the kit's own fonts, `fonts:`
        self._styles: dict = {}

    def salt(self) -> str:
        return self._salt

    def decode(self, stored: bytes) -> dict:
        head = self._salt.encode("utf-8") + b"\n"
        if not stored.startswith(head):   # another code's, or another Python's (its marshal format)
            return {}
        try:
            entries = marshal.loads(stored[len(head):])
        except (ValueError, EOFError, TypeError):
            return {}
        return entries if isinstance(entries, dict) else {}

    def encode(self, entries: dict) -> bytes:
        return self._salt.encode("utf-8") + b"\n" + marshal.dumps(entries)

    def key(self, paragraph, asked) -> str | None:
        """What a paragraph's lines depend on, hashed: its markup (its fragments are parsed from it with its
        style, in the fonts the salt names) or, for the part of a paragraph split at a page's foot, the
        fragments it was made with; its style, bullet and widths. None when it cannot be said the same way in
        another process (a fragment naming an object by its address)."""
        style = paragraph.style
        said = self._styles.get(id(style))
        if said is None or said[0] is not style:
            said = repr(sorted((k, v) for k, v in style.__dict__.items() if k != "parent"))
            if " at 0x" not in said:   # hashed once a style: a paragraph's key then hashes 64 characters of it
                said = hashlib.sha256(said.encode("utf-8", "surrogatepass")).hexdigest()
            said = self._styles[id(style)] = (style, said)
        source = paragraph.text if isinstance(paragraph.text, str) else paragraph.frags   # its markup makes them
        text = repr((asked, source, said[1], paragraph.bulletText,
                     getattr(paragraph, "autoLeading", None), paragraph.encoding,
                     getattr(paragraph, "caseSensitive", None)))
        if " at 0x" in text:
            return None
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def lines(self, key: str):
        """(lines, widths, state) kept under `key`, else None."""
        pickled = self.known.get(key)
        if not isinstance(pickled, bytes):
            return None
        try:
            found = allowed_pickle.loads(pickled, ALLOWED, "a paragraph's lines")
        except Exception:  # noqa: BLE001 - a damaged entry only costs breaking the lines again
            return None
        if not (isinstance(found, tuple) and len(found) == 3 and isinstance(found[2], dict)):
            return None
        self.used[key] = pickled
        return found

    def keep(self, key: str, found: tuple) -> None:
        try:
            self.used[key] = pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - lines holding something that cannot be kept are broken next time
            return
        self.dirty = True
