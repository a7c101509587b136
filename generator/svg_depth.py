"""How deep an SVG nests its elements, measured before any walker recurses into it.

cairosvg, pnpgen's own SVG subset drawer and its text walkers recurse once per level of nesting, so a face
of 3,000 nested <g> ended in "RecursionError: maximum recursion depth exceeded" with no place named. expat
counts the depth in one flat pass (C, linear in the text, no recursion) and stops at the first element past
MAX_DEPTH; the caller says where the SVG came from.
"""
from __future__ import annotations

from xml.parsers import expat

MAX_DEPTH = 100  # the kits' faces nest under 15 deep; an editor's art file a few dozen


class TooDeep(Exception):
    """An element nested past MAX_DEPTH, with the line of the SVG it starts on."""

    def __init__(self, line: int):
        super().__init__(f"its elements nest more than {MAX_DEPTH} deep (at line {line} of the SVG): "
                         f"flatten the groups")
        self.line = line


def check_depth(svg: str | bytes, fragment: bool = False) -> None:
    """Raise TooDeep when an element of `svg` is nested past MAX_DEPTH; XML errors are left to the renderer.
    A `fragment` (a template's content, many elements side by side) is measured inside one element."""
    if (svg.count("<") if isinstance(svg, str) else svg.count(b"<")) <= MAX_DEPTH:
        return  # too few tags to nest that deep: nothing to parse
    parser = expat.ParserCreate()
    depth = 0

    def start(name, attributes):
        nonlocal depth
        depth += 1
        if depth > MAX_DEPTH:
            raise TooDeep(parser.CurrentLineNumber)

    def end(name):
        nonlocal depth
        depth -= 1
    parser.StartElementHandler, parser.EndElementHandler = start, end
    try:
        if fragment:
            parser.Parse("<fragment>", False)
        parser.Parse(svg, not fragment)
        if fragment:
            parser.Parse("</fragment>", True)
    except expat.ExpatError:
        pass
