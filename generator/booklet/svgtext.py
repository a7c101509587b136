"""Where a rendered counter SVG prints a given text: so callouts point at the real template's layout.

Only plain SVG is read: <text> x/y (or its first <tspan>'s), and translate/scale transforms of parents.
A text that cannot be found returns None and the caller leaves that callout out rather than guess.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _length(value: str | None) -> float:
    match = re.match(NUMBER, (value or "0").strip())
    return float(match.group(0)) if match else 0.0


def _transform(value: str | None) -> tuple[float, float, float]:
    """(scale, dx, dy) of a chain of translate()/scale(); anything else counts as identity."""
    scale, dx, dy = 1.0, 0.0, 0.0
    for name, args in re.findall(r"(translate|scale)\s*\(([^)]*)\)", value or ""):
        nums = [float(n) for n in re.findall(NUMBER, args)]
        if name == "translate" and nums:
            dx, dy = dx + scale * nums[0], dy + scale * (nums[1] if len(nums) > 1 else 0.0)
        elif name == "scale" and nums:
            scale *= nums[0]
    return scale, dx, dy


@dataclass(frozen=True)
class TextSpot:
    """One <text> of the SVG: its string, where its first character starts, its size (viewBox units)."""

    text: str
    x: float
    y: float           # the middle of the line (baseline raised by about a third of the size)
    size: float

    def point(self, start: int, end: int) -> tuple[float, float]:
        """The middle of characters start..end, estimating an average glyph at 0.62 of the size."""
        return self.x + (start + end) / 2 * 0.62 * self.size, self.y


def text_positions(svg: str) -> tuple[list[TextSpot], tuple[float, ...]]:
    """Every text element with its position, and the viewBox (x, y, w, h) they are measured in."""
    root = ET.fromstring(svg)
    box = tuple(float(n) for n in re.findall(NUMBER, root.get("viewBox", "")))
    if len(box) != 4 or not box[2] or not box[3]:
        return [], (0.0, 0.0, 1.0, 1.0)
    found: list[TextSpot] = []
    _walk(root, (1.0, 0.0, 0.0), found)
    return found, box


def _walk(element, transform, found) -> None:
    scale, dx, dy = transform
    s2, tx, ty = _transform(element.get("transform"))
    transform = (scale * s2, dx + scale * tx, dy + scale * ty)
    if _local(element.tag) == "text":
        found.append(_spot(element, transform))
        return
    for child in element:
        _walk(child, transform, found)


def _spot(element, transform) -> TextSpot:
    scale, dx, dy = transform
    text = " ".join("".join(element.itertext()).split())
    source = element
    if element.get("x") is None:
        source = next((c for c in element if _local(c.tag) == "tspan" and c.get("x") is not None), element)
    size = _length(element.get("font-size")) or _length(_style(element, "font-size")) or 1.0
    width = len(text) * 0.62 * size
    anchor = element.get("text-anchor") or _style(element, "text-anchor") or "start"
    x = _length(source.get("x")) - {"middle": width / 2, "end": width}.get(anchor, 0.0)
    y = _length(source.get("y")) - 0.35 * size
    return TextSpot(text, dx + scale * x, dy + scale * y, scale * size)


def _style(element, name: str) -> str | None:
    match = re.search(rf"{name}\s*:\s*([^;]+)", element.get("style", ""))
    return match.group(1).strip() if match else None


def find_text(found, wanted, used: set) -> tuple[float, float] | None:
    """Where the first unused text matching one of `wanted` (regexes, tried in order) prints the part named
    `at` in the regex (or the whole match), as a fraction of the viewBox.

    A pattern given as (regex, False) may match a text another callout already claimed ("DD 2" holds both
    the type and the group number); a plain regex claims the text it matches.
    """
    spots, box = found
    for entry in wanted:
        pattern, claim = entry if isinstance(entry, tuple) else (entry, True)
        for index, spot in enumerate(spots):
            match = re.fullmatch(pattern, spot.text)
            if match and (index not in used or not claim):
                used.add(index)
                span = match.span("at") if "at" in match.groupdict() else match.span()
                x, y = spot.point(*span)
                return (x - box[0]) / box[2], (y - box[1]) / box[3]
    return None
