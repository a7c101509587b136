"""The request to print at 100 % (`/PrintScaling /None`), added to a PDF cairo or reportlab has just written
while its bytes are still in memory: the very update pnpgen.pdf_update appends, byte for byte, without pypdf.

Every PDF of a build gets that request in a post-pass (pnpgen.pdf_update.mark_print_scaling, run in the
part's worker) that loads pypdf (about 0.1 s) and parses the file. A PDF that already carries it at its end
is skipped there, so a part whose PDFs all come through here never loads pypdf (the maps and boards from
cairo, the aid cards and record sheets from reportlab, the booklet and its imposed copy from
booklet.pdfcopy). Only each writer's own plain catalog and trailer are handled; anything else is left to
the post-pass. Tests compare the bytes with the post-pass's
(tests/test_print_scaling.py, tests/test_aid_full_size.py).
"""
from __future__ import annotations

import re

CAIRO_TRAILER = re.compile(rb"trailer\n<< /Size (\d+)\n   /Root (\d+) 0 R\n   /Info (\d+) 0 R\n>>\n"
                           rb"startxref\n(\d+)\n%%EOF\n\Z")
REPORTLAB_TRAILER = re.compile(rb"trailer\n<<\n/ID \n\[<([0-9a-f]+)><([0-9a-f]+)>\]\n"
                               rb"% ReportLab generated PDF document -- digest \(opensource\)\n\n"
                               rb"/Info (\d+) 0 R\n/Root (\d+) 0 R\n/Size (\d+)\n>>\nstartxref\n(\d+)\n%%EOF\n\Z")
PDFCOPY_TRAILER = re.compile(rb"trailer\n<< /Size (\d+) /Root (\d+) 0 R /Info (\d+) 0 R(?: /ID \[ <([0-9a-f]+)> <([0-9a-f]+)> \])? >>\n"
                             rb"startxref\n(\d+)\n%%EOF\n\Z")
UNDEFINED = frozenset(b"\x00\x16\x7f\x9f\xad")   # bytes PDFDocEncoding leaves undefined
ENTRY = re.compile(rb"(/[A-Za-z0-9]+) (/[A-Za-z0-9]+|\d+ 0 R)(?: |\n>>)")


def ask_print_at_full_size(data: bytes) -> bytes:
    """`data` with the catalog's new version appended (an incremental update), or unchanged when its
    catalog or trailer is not the plain kind cairo or reportlab writes."""
    for update in (_cairo, _reportlab, _pdfcopy):
        updated = update(data)
        if updated is not None:
            return updated
    return data


def _cairo(data: bytes) -> bytes | None:
    """The update of a PDF cairo wrote (its catalog of pages only, its trailer without an ID), or None."""
    trailer = CAIRO_TRAILER.search(data, max(0, len(data) - 200))
    if trailer is None:
        return None
    size, root, info, prev = (int(n) for n in trailer.groups())
    catalog = re.compile(rb"\n%d 0 obj\n<< /Type /Catalog\n   /Pages (\d+) 0 R\n>>\nendobj\n" % root)
    match = catalog.search(data, max(0, prev - 400), prev)
    if match is None:
        return None
    return _appended(data, root, f"/Type /Catalog\n/Pages {int(match.group(1))} 0 R\n", size, info, prev)


def _appended(data: bytes, root: int, entries: str, size: int, info: int, prev: int, file_id: str = "") -> bytes:
    """`data` and the catalog `root` again with `entries` and the request, its one-line cross-reference
    table and a trailer pointing back at the previous one (`prev`), as pypdf writes an incremental update."""
    update = f"{root} 0 obj\n<<\n{entries}/ViewerPreferences <<\n/PrintScaling /None\n>>\n>>\nendobj\n".encode()
    xref = len(data) + len(update)
    return data + update + (f"xref\n0 1\n0000000000 65535 f \n{root} 1\n{len(data):010d} 00000 n \n"
                            f"trailer\n<<\n/Size {size}\n/Root {root} 0 R\n/Info {info} 0 R\n{file_id}"
                            f"/Prev {prev}\n>>\nstartxref\n{xref}\n%%EOF\n").encode()


def _reportlab(data: bytes) -> bytes | None:
    """The update of a PDF reportlab wrote (its catalog of names and references, its trailer with an ID),
    or None."""
    trailer = REPORTLAB_TRAILER.search(data, max(0, len(data) - 400))
    if trailer is None:
        return None
    first, second = (_string(bytes.fromhex(group.decode())) for group in trailer.groups()[:2])
    info, root, size, prev = (int(n) for n in trailer.groups()[2:])
    match = _catalog(data, root, size, prev)
    if match is None:
        return None
    body = _plain_entries(match.group(1))
    if body is None:
        return None
    return _appended(data, root, body, size, info, prev, f"/ID [ {first} {second} ]\n")


def _pdfcopy(data: bytes) -> bytes | None:
    """The update of a PDF pnpgen.booklet.pdfcopy wrote (the booklet with its figures laid on, its imposed
    copy): its trailer on one line, its catalog reportlab's copied or its own one-line dictionary; or None."""
    trailer = PDFCOPY_TRAILER.search(data, max(0, len(data) - 400))
    if trailer is None:
        return None
    size, root, info = (int(n) for n in trailer.groups()[:3])
    prev = int(trailer.group(6))
    ids = [_string(bytes.fromhex(found.decode())) for found in trailer.groups()[3:5] if found is not None]
    file_id = f"/ID [ {' '.join(ids)} ]\n" if ids else ""
    match = _catalog(data, root, size, prev) or _catalog(data, root, size, prev, one_line=True)
    body = _plain_entries(match.group(1)) if match else None
    return None if body is None else _appended(data, root, body, size, info, prev, file_id)


def _plain_entries(entries: bytes) -> str | None:
    """A catalog's entries one to a line, as pypdf writes them back; None where it holds more than names and
    references, or already asks something of viewers."""
    found = ENTRY.findall(entries[:-1] + b"\n>>" if entries.endswith(b" ") else entries + b">>")
    if b"/ViewerPreferences" in (key for key, _ in found) or \
            sum(len(key) + len(value) + 2 for key, value in found) != len(entries):
        return None
    return "".join(f"{key.decode()} {value.decode()}\n" for key, value in found)


def _catalog(data: bytes, root: int, size: int, prev: int, one_line: bool = False):
    """The catalog object where the cross-reference table says it starts (its entries the match's group),
    or None."""
    entry = prev + len(b"xref\n0 %d\n" % size) + 20 * root
    line = re.compile(rb"(\d{10}) 00000 n \n").match(data, entry)
    if not data.startswith(b"xref\n0 %d\n" % size, prev) or line is None:
        return None
    opening = rb"<< " if one_line else rb"<<\n"   # pdfcopy's own dictionaries are on one line
    catalog = re.compile(rb"%d 0 obj\n%s((?:/[A-Za-z0-9]+ (?:/[A-Za-z0-9]+|\d+ 0 R)[ \n])+)>>\nendobj\n" % (root, opening))
    return catalog.match(data, int(line.group(1)))


def _string(value: bytes) -> str:
    """The file ID's string as pypdf reads it and writes it back: as a literal string (every byte but letters,
    digits and spaces escaped) where it reads as text, in hex where it does not (pypdf's create_string_object:
    UTF-8 or UTF-16 where the bytes are marked or look so, else PDFDocEncoding, which leaves a few undefined)."""
    return "(" + "".join(chr(byte) if chr(byte).isalnum() and byte < 128 or byte == 32 else f"\\{byte:03o}"
                         for byte in value) + ")" if _reads_as_text(value) else f"<{value.hex()}>"


def _reads_as_text(value: bytes) -> bool:
    if value.startswith(b"\xef\xbb\xbf") and _decodes(value[3:], "utf-8"):
        return True
    if value.startswith((b"\xfe\xff", b"\xff\xfe")):
        return _decodes(value, "utf-16")
    if value.startswith(b"\x00"):
        return _decodes(value, "utf-16be")
    if value[1:2] == b"\x00":
        return _decodes(value, "utf-16le")
    return not UNDEFINED.intersection(value)


def _decodes(value: bytes, encoding: str) -> bool:
    try:
        value.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True
