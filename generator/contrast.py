"""Colour arithmetic the contrast checks share: WCAG 2's relative luminance and contrast ratio, and the colour
that translucent fills make over white paper. Pure numbers, below both the drawing's record (render.ink_lines)
and the preflight that reads it."""
from __future__ import annotations


def contrast_ratio(first, second) -> float:
    """WCAG 2's contrast ratio of two sRGB colours (0-1 each): 1 (the same) to 21 (black on white)."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def relative_luminance(rgb) -> float:
    """WCAG 2's relative luminance of an sRGB colour: each channel made linear, then weighted."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def hex_colour(rgb) -> str:
    """An (r, g, b) of 0-1 as #rrggbb, for messages."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in rgb)


def over_paper(layers) -> tuple:
    """The colour of fills laid over the white paper, each (rgb, alpha), the topmost first."""
    colour = (1.0, 1.0, 1.0)
    for paint, alpha in reversed(layers):
        colour = tuple(alpha * p + (1 - alpha) * c for p, c in zip(paint, colour))
    return colour


DARK_INK, LIGHT_INK = "#1a1a1a", "#ffffff"


def ink_on(fill) -> str:
    """The ink that reads better on a #rrggbb fill: near-black or white (a template's `ink_on(p.fill)`, so a
    label on a place of the kit's colour passes the contrast preflight whatever the colour). Anything but a
    #rrggbb or #rgb colour takes the dark ink, as on paper."""
    text = str(fill).strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    try:
        rgb = tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4)) if len(text) == 6 else None
    except ValueError:
        rgb = None
    if rgb is None:
        return DARK_INK
    dark, light = ((0x1a / 255,) * 3), (1.0, 1.0, 1.0)
    return DARK_INK if contrast_ratio(dark, rgb) >= contrast_ratio(light, rgb) else LIGHT_INK
