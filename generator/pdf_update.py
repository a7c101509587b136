"""Small changes to finished PDFs, written as PDF incremental updates: the original bytes stay as they are and
the changed objects, a cross-reference section for them and a trailer pointing back (/Prev) are appended.

Nothing here depends on the clock or the machine, so the same input gives the same bytes. Used for
`/ViewerPreferences << /PrintScaling /None >>` in every PDF a build writes (printers that "fit to page" are the
most common cause of wrong sizes), and for the TrimBox/BleedBox of print-shop pages (cairo cannot write them).
"""
from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: pypdf loads when a PDF is updated
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject


MARKED = b"/PrintScaling /None"
STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")


def _serialise(obj) -> bytes:
    buf = io.BytesIO()
    obj.write_to_stream(buf)
    return buf.getvalue()


def append_update(path: Path, reader: PdfReader, changed: dict) -> None:
    """Append new versions of objects {(number, generation): DictionaryObject} to the PDF at `path`."""
    from pypdf.generic import DictionaryObject, NameObject
    path = Path(path)
    data = path.read_bytes()
    match = STARTXREF.search(data[-64:])
    if match is None:
        raise ValueError(f"{path}: no startxref at the end of the file")
    prev = int(match.group(1))
    out = bytearray(data if data.endswith(b"\n") else data + b"\n")
    offsets = {}
    for (number, generation), obj in sorted(changed.items()):
        offsets[number] = (len(out), generation)
        out += f"{number} {generation} obj\n".encode() + _serialise(obj) + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n0 1\n0000000000 65535 f \n"  # object 0 heads the free list, as in every section
    for number, (offset, generation) in sorted(offsets.items()):
        out += f"{number} 1\n{offset:010d} {generation:05d} n \n".encode()
    trailer = DictionaryObject()
    for key in ("/Size", "/Root", "/Info", "/ID"):
        if key in reader.trailer:
            trailer[NameObject(key)] = reader.trailer.raw_get(key)
    trailer[NameObject("/Prev")] = _number(prev)
    out += b"trailer\n" + _serialise(trailer) + f"\nstartxref\n{xref_at}\n%%EOF\n".encode()
    temporary = path.with_name(f".{path.name}.{os.getpid()}.update")  # two parts naming one file (an error the
    # build reports once both are done) may both be here at once: each its own temporary
    temporary.write_bytes(bytes(out))
    os.replace(temporary, path)  # a new file, never the old one rewritten: a cached copy linked to it stays as it was


def _number(value: int):
    from pypdf.generic import NumberObject
    return NumberObject(value)


def _tail(path: Path, size: int) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(max(0, handle.seek(0, os.SEEK_END) - size))
        return handle.read()


def has_print_scaling_none(reader: PdfReader) -> bool:
    prefs = reader.trailer["/Root"].get("/ViewerPreferences")
    return prefs is not None and prefs.get_object().get("/PrintScaling") == "/None"


def add_print_scaling_none(path: Path) -> bool:
    """Ask viewers to print at 100 %; False when the PDF already asks it (nothing is written then)."""
    if MARKED in _tail(Path(path), 4096):  # our own update, at the end: no need to parse the file
        return False
    from pypdf import PdfReader
    from pypdf.generic import DictionaryObject, NameObject
    reader = PdfReader(str(path))
    if has_print_scaling_none(reader):
        return False
    root_ref = reader.trailer.raw_get("/Root")
    catalog = _copy(reader.trailer["/Root"])
    prefs = _copy(catalog.get("/ViewerPreferences", DictionaryObject()).get_object())
    prefs[NameObject("/PrintScaling")] = NameObject("/None")
    catalog[NameObject("/ViewerPreferences")] = prefs
    append_update(path, reader, {(root_ref.idnum, root_ref.generation): catalog})
    return True


def set_page_boxes(path: Path, boxes: list[tuple[tuple, tuple]]) -> None:
    """Set TrimBox and BleedBox (x0, y0, x1, y1 in points, PDF coordinates) of every page, in page order."""
    from pypdf import PdfReader
    from pypdf.generic import NameObject
    reader = PdfReader(str(path))
    if len(boxes) != len(reader.pages):
        raise ValueError(f"{path}: {len(reader.pages)} pages but {len(boxes)} page boxes")
    changed = {}
    for page, (trim, bleed) in zip(reader.pages, boxes):
        ref = page.indirect_reference
        new = _copy(page)
        new[NameObject("/TrimBox")] = _box(trim)
        new[NameObject("/BleedBox")] = _box(bleed)
        changed[(ref.idnum, ref.generation)] = new
    append_update(path, reader, changed)


def _copy(d) -> DictionaryObject:
    """A shallow copy that keeps indirect references as references."""
    from pypdf.generic import DictionaryObject, NameObject
    return DictionaryObject({NameObject(k): d.raw_get(k) for k in d})


def _box(values) -> ArrayObject:
    from pypdf.generic import ArrayObject, FloatObject
    return ArrayObject(FloatObject(round(v, 4)) for v in values)


def mark_print_scaling(paths) -> int:
    """The post-pass of a build: PrintScaling /None in every PDF among `paths`; how many were changed."""
    return sum(add_print_scaling_none(p) for p in paths if str(p).lower().endswith(".pdf"))
