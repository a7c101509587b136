"""The request to print at 100 % (`/PrintScaling /None`), added to a PDF cairo has just written while its
bytes are still in memory: the very update pnpgen.pdf_update appends, byte for byte, without pypdf.

Every PDF of a build gets that request in a post-pass (pnpgen.pdf_update.mark_print_scaling) that loads
pypdf (about 0.1 s) and parses the file. A PDF that already carries it at its end is skipped there, so a
build whose PDFs all come from here never loads pypdf. Only cairo's own plain catalog and trailer are
handled; anything else is left to the post-pass. A test compares the bytes with the post-pass's.
"""
from __future__ import annotations

import re

TRAILER = re.compile(rb"trailer\n<< /Size (\d+)\n   /Root (\d+) 0 R\n   /Info (\d+) 0 R\n>>\nstartxref\n(\d+)\n%%EOF\n\Z")


def ask_print_at_full_size(data: bytes) -> bytes:
    """`data` with the catalog's new version appended (an incremental update), or unchanged when its
    catalog or trailer is not the plain kind cairo writes."""
    trailer = TRAILER.search(data, max(0, len(data) - 200))
    if trailer is None:
        return data
    size, root, info, prev = (int(n) for n in trailer.groups())
    catalog = re.compile(rb"\n%d 0 obj\n<< /Type /Catalog\n   /Pages (\d+) 0 R\n>>\nendobj\n" % root)
    match = catalog.search(data, max(0, prev - 400), prev)
    if match is None:
        return data
    update = (f"{root} 0 obj\n<<\n/Type /Catalog\n/Pages {int(match.group(1))} 0 R\n"
              f"/ViewerPreferences <<\n/PrintScaling /None\n>>\n>>\nendobj\n").encode()
    xref = len(data) + len(update)
    return data + update + (f"xref\n0 1\n0000000000 65535 f \n{root} 1\n{len(data):010d} 00000 n \n"
                            f"trailer\n<<\n/Size {size}\n/Root {root} 0 R\n/Info {info} 0 R\n/Prev {prev}\n>>\n"
                            f"startxref\n{xref}\n%%EOF\n").encode()
