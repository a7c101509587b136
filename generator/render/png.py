"""Rasterising one page to a PNG (previews, proofs, the calibration sheet's preview): the page drawn by the
same cairo calls as its PDF page, onto a white image at a set dpi, with fixed font options so the pixels
never depend on what else the process drew before."""
from __future__ import annotations

from pathlib import Path

PREVIEW_DPI = 60


def fixed_font_options(cairocffi):
    """Explicit hinting and antialiasing: left to defaults, text rasterised differently once other surfaces
    (PDF pages, map art) had used the same font in the process, so previews were not byte-stable."""
    options = cairocffi.FontOptions()
    options.set_antialias(cairocffi.ANTIALIAS_GRAY)
    options.set_hint_style(cairocffi.HINT_STYLE_NONE)
    options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)
    return options


def save_png(path: str, size: tuple[float, float], draw, dpi: float = PREVIEW_DPI) -> None:
    """Rasterise one page (size in points) at `dpi` with `draw(context)`; PNG written by Pillow at light
    compression (cairo's own PNG writer spent more time compressing than drawing), the dpi stored in it so
    it prints at its real size."""
    import cairocffi
    from PIL import Image
    scale = dpi / 72
    width, height = round(size[0] * scale), round(size[1] * scale)
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, width, height)
    cr = cairocffi.Context(surface)
    cr.set_font_options(fixed_font_options(cairocffi))
    cr.set_source_rgb(1, 1, 1)
    cr.paint()
    cr.scale(scale, scale)
    draw(cr)
    surface.flush()
    image = Image.frombuffer("RGB", (width, height), bytes(surface.get_data()), "raw", "BGRX",
                             surface.get_stride(), 1)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="PNG", compress_level=1, dpi=(dpi, dpi))
    surface.finish()
