"""Shared helpers for the counter sheet tests: build once, read the manifest, render and crop pages."""
from __future__ import annotations

import json
from pathlib import Path

from pnpgen.build import build
from pnpgen.build_options import BuildOptions
from pnpgen.kit import load_kit


def build_counters(kit_dir: Path, out: Path, **extra) -> Path:
    """Build only the counters of the kit in `kit_dir` (and the core's duplex calibration sheet) into `out`;
    return the kit's output folder."""
    counter_size = extra.pop("counter_size", None)
    kit, _ = load_kit(kit_dir, counter_size=counter_size)  # --counter-size resizes the counter tables
    options = BuildOptions(out=out, paper=extra.pop("paper", None), counter_size=counter_size,
                           only="counters,calibration", extra={"gutter": 0.0, "duplex": "long", "back_offset": "0,0", **extra})
    return build(kit, options).kit_out


def counters_manifest(kit_out: Path) -> dict:
    return json.loads((kit_out / "manifest.json").read_text())["parts"]["components"]


def render_page(pdf: Path, page_number: int, scale: float = 2.0):
    """A page as a PIL image, `scale` pixels per point (2: 144 dpi)."""
    import pypdfium2
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return document[page_number - 1].render(scale=scale).to_pil().convert("RGB")
    finally:
        document.close()


def crop(image, placement: dict, scale: float = 2.0, inset: int = 3):
    """The pixels of one placed piece, inset a little so the cut lines stay out."""
    x, y = placement["x"] * scale, placement["y"] * scale
    w, h = placement["w"] * scale, placement["h"] * scale
    return image.crop((round(x) + inset, round(y) + inset, round(x + w) - inset, round(y + h) - inset))


def mean_difference(a, b) -> float:
    from PIL import ImageChops, ImageStat
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def face_forms(page) -> list:
    """The faces a pypdfium2 sheet page draws: its top-level form XObjects painted through a clip (cairo paints a
    face clipped to its box), not the home bleed's forms, which are painted unclipped just before their
    faces (pnpgen.render.home_bleed.paint_bleed), so a piece is one face, not two forms."""
    import pypdfium2.raw as pdfium_c
    return [obj for obj in page.get_objects(max_depth=1) if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM
            and (clip := pdfium_c.FPDFPageObj_GetClipPath(obj.raw)) and pdfium_c.FPDFClipPath_CountPaths(clip) > 0]
