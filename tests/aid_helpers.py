"""Helpers for the aid card and record sheet tests: build once, read text and pixels back out of the PDFs."""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2
from pypdf import PdfReader

from pnpgen.cli import main


def build(out: Path, *args: str) -> tuple[Path, dict]:
    """Build the cards and sheets parts into `out`; return the kit folder and its manifest."""
    code = main(["build", "--only", "cards,sheets", "--out", str(out), "--quiet", *args])
    assert code == 0
    kit_out = next(p for p in out.iterdir() if p.is_dir() and not p.name.startswith("."))
    return kit_out, json.loads((kit_out / "manifest.json").read_text())


def page_words(pdf: Path, pages=None) -> list[str]:
    """The text of the chosen pages (0-based), one string per page, whitespace folded to single spaces."""
    reader = PdfReader(pdf)
    chosen = range(len(reader.pages)) if pages is None else pages
    return [" ".join(reader.pages[i].extract_text().split()) for i in chosen]


def all_text(pdf: Path) -> str:
    return " ".join(page_words(pdf))


def embedded_font_problems(pdf: Path) -> list[str]:
    """Names of fonts used on any page that are not embedded (no FontFile stream)."""
    problems = []
    for page in PdfReader(pdf).pages:
        fonts = page["/Resources"].get("/Font", {})
        for name, ref in fonts.items():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor else None
            if not descriptor or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                problems.append(f"{name}={font.get('/BaseFont')}")
    return problems


def colour_box(pdf: Path, page: int, rgb: tuple[int, int, int], scale: float = 0.5, tol: int = 12):
    """Bounding box (x0, y0, x1, y1) in points, top-left origin, of the pixels painted in `rgb`."""
    image = pypdfium2.PdfDocument(str(pdf))[page].render(scale=scale).to_pil().convert("RGB")
    width, height = image.size
    pixels = image.load()
    xs, ys = [], []
    for y in range(0, height):
        for x in range(0, width):
            r, g, b = pixels[x, y]
            if abs(r - rgb[0]) <= tol and abs(g - rgb[1]) <= tol and abs(b - rgb[2]) <= tol:
                xs.append(x)
                ys.append(y)
    assert xs, f"no pixels of {rgb} on page {page + 1}"
    return min(xs) / scale, min(ys) / scale, (max(xs) + 1) / scale, (max(ys) + 1) / scale


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
