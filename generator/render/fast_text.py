"""Simple SVG text drawn as one cairo show_text call per string, instead of cairosvg's one per letter.

cairosvg lays text out letter by letter (text_extents and show_text for each, plus a second pass that traces
every letter as a path for a stroke that is usually none): on text-heavy cards that is most of a build.
Text with one position, no stroke, no letter spacing, rotation, text path or baseline tricks is drawn here
in one call: the same glyphs at the same advances, still vector text with embedded fonts. Anything else
goes to cairosvg's own drawer.
"""
from __future__ import annotations

_COMPLEX = ("letter-spacing", "rotate", "display-anchor", "dominant-baseline", "alignment-baseline",
            "{http://www.w3.org/1999/xlink}href", "href", "textLength", "lengthAdjust")


def is_simple(node) -> bool:
    if node.tag == "textPath" or any(node.get(key) for key in _COMPLEX):
        return False
    if (node.get("stroke") or "none") != "none" or (node.get("fill") or "").startswith("url("):
        return False
    return all(len((node.get(key) or "").replace(",", " ").split()) <= 1 for key in ("x", "y", "dx", "dy"))


def draw_text(surface, node, draw_as_text=False, original=None):
    """cairosvg's `text` drawer, with a fast path for simple text (see the module docstring)."""
    if not is_simple(node):
        return original(surface, node, draw_as_text)
    import cairocffi as cairo
    from cairosvg.helpers import size
    context = surface.context
    family = (node.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
    slant = getattr(cairo, f'font_slant_{node.get("font-style")}'.upper(), cairo.FONT_SLANT_NORMAL)
    weight = node.get("font-weight")
    if weight and weight.isdigit() and int(weight) >= 550:
        weight = "bold"
    weight = getattr(cairo, f"font_weight_{weight}".upper(), cairo.FONT_WEIGHT_NORMAL)
    context.select_font_face(family, slant, weight)
    context.set_font_size(surface.font_size)
    options = context.get_font_options()
    if options.get_hint_metrics() != cairo.HINT_METRICS_OFF:  # design advances: what the fit checks measured
        options.set_hint_metrics(cairo.HINT_METRICS_OFF)
        options.set_hint_style(cairo.HINT_STYLE_NONE)
        context.set_font_options(options)
    text = node.text or ""
    x_bearing, _, width, _, x_advance, _ = context.text_extents(text)
    x = size(surface, node["x"], "x") if node.get("x") else surface.cursor_position[0]
    y = size(surface, node["y"], "y") if node.get("y") else surface.cursor_position[1]
    x += size(surface, node.get("dx"), "x") if node.get("dx") else 0
    y += size(surface, node.get("dy"), "y") if node.get("dy") else 0
    anchor = node.get("text-anchor")
    align = -(width / 2 + x_bearing) if anchor == "middle" else -(width + x_bearing) if anchor == "end" else 0
    if draw_as_text and text.strip():
        context.move_to(x + align, y)
        context.show_text(text)
    surface.cursor_position = (x + x_advance, y)
    surface.cursor_d_position = [0, 0]


def install() -> None:
    """Route cairosvg's text, tspan (and the identity check its fill pass makes) through draw_text."""
    import cairosvg.surface
    current = cairosvg.surface.text
    if getattr(current, "pnpgen", False):
        return
    original = current

    def handler(surface, node, draw_as_text=False):
        return draw_text(surface, node, draw_as_text, original)

    handler.pnpgen = True
    cairosvg.surface.text = handler
    for tag, drawer in list(cairosvg.surface.TAGS.items()):
        if drawer is original:
            cairosvg.surface.TAGS[tag] = handler
