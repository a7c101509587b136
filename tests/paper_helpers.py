"""Reading a components build's paper back out of its PDFs: pages, sheets, and pieces that share pages
without touching each other or leaving the printable area."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from pypdf import PdfReader

from pnpgen.paper import PRINTABLE_MARGIN


def pdf_pages(path: Path) -> list[tuple[float, float]]:
    """Every page's size in points, read from the PDF."""
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in PdfReader(path).pages]


def sheets_of(root: Path, manifest: dict) -> dict:
    """{file: (pages, sheets of paper)} of every components file, pages counted in the PDF; a sheet is a
    front page (a back page is its other side)."""
    components = manifest["parts"]["components"]
    fronts = defaultdict(set)
    for p in components["placements"]:
        if p["side"] == "front":
            fronts[p["file"]].add(p["page"])
    return {f["path"]: (len(pdf_pages(root / f["path"])), len(fronts[f["path"]])) for f in components["files"]}


def assert_pieces_apart(root: Path, manifest: dict, gap: float = 0.0) -> None:
    """No two pieces of one page overlap (shared cut lines are allowed) and every piece lies inside the
    page's printable area, the page's size read from its PDF."""
    by_page = defaultdict(list)
    for p in manifest["parts"]["components"]["placements"]:
        by_page[(p["file"], p["page"])].append(p)
    sizes = {file: pdf_pages(root / file) for file, _ in by_page}
    for (file, page), placed in by_page.items():
        width, height = sizes[file][page - 1]
        for p in placed:
            assert PRINTABLE_MARGIN - 0.01 <= p["x"] and p["x"] + p["w"] <= width - PRINTABLE_MARGIN + 0.01, (file, page, p["ref"])
            assert PRINTABLE_MARGIN - 0.01 <= p["y"] and p["y"] + p["h"] <= height - PRINTABLE_MARGIN + 0.01, (file, page, p["ref"])
        boxes = sorted((p["x"], p["y"], p["x"] + p["w"], p["y"] + p["h"], p["ref"]) for p in placed)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                if b[0] >= a[2] - 0.01:
                    break
                apart = b[1] >= a[3] - 0.01 or a[1] >= b[3] - 0.01
                assert apart, f"{file} page {page}: {a[4]} overlaps {b[4]}"
