"""Where a rendered counter SVG prints a given text: so callouts point at the real template's layout.

Only plain SVG is read: <text> x/y (or its first <tspan>'s), and translate/scale transforms of parents.
A text that cannot be found returns None and the caller leaves that callout out rather than guess.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

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


def text_positions(svg: str) -> list[tuple[str, float, float]]:
    """(text, fx, fy): every text element and its anchor as a fraction of the SVG's viewBox."""
    root = ET.fromstring(svg)
    box = [float(n) for n in re.findall(NUMBER, root.get("viewBox", ""))]
    if len(box) != 4 or not box[2] or not box[3]:
        return []
    found: list[tuple[str, float, float]] = []
    _walk(root, (1.0, 0.0, 0.0), found)
    return [(text, (x - box[0]) / box[2], (y - box[1]) / box[3]) for text, x, y in found]


def _walk(element, transform, found) -> None:
    scale, dx, dy = transform
    s2, tx, ty = _transform(element.get("transform"))
    transform = (scale * s2, dx + scale * tx, dy + scale * ty)
    if _local(element.tag) == "text":
        found.append(_text_anchor(element, transform))
        return
    for child in element:
        _walk(child, transform, found)


def _text_anchor(element, transform) -> tuple[str, float, float]:
    scale, dx, dy = transform
    text = " ".join("".join(element.itertext()).split())
    source = element
    if element.get("x") is None:
        source = next((c for c in element if _local(c.tag) == "tspan" and c.get("x") is not None), element)
    size = _length(element.get("font-size")) or _length(_style(element, "font-size"))
    x, y = _length(source.get("x")), _length(source.get("y")) - 0.35 * size  # baseline -> middle
    return text, dx + scale * x, dy + scale * y


def _style(element, name: str) -> str | None:
    match = re.search(rf"{name}\s*:\s*([^;]+)", element.get("style", ""))
    return match.group(1) if match else None


def find_text(positions, wanted, used: set) -> tuple[float, float] | None:
    """The first unused position whose text matches one of `wanted` (regexes, tried in order).

    A pattern given as (regex, False) may match a text another callout already claimed ("DD 3" holds
    both the type and the group number); a plain regex claims the text it matches.
    """
    for entry in wanted:
        pattern, claim = entry if isinstance(entry, tuple) else (entry, True)
        for index, (text, fx, fy) in enumerate(positions):
            if (index not in used or not claim) and re.fullmatch(pattern, text):
                used.add(index)
                return fx, fy
    return None
