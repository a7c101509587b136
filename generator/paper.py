"""Paper and card sizes in points, and the margin a home printer can be trusted to print into."""
from __future__ import annotations

from pnpgen.lengths import parse_length
from pnpgen.shapes import PAIR

PAPER = {  # portrait width, height in points: home paper first, then sizes for sheets and boards
    "letter": (612.0, 792.0),
    "a4": (parse_length("210mm"), parse_length("297mm")),
    "a3": (parse_length("297mm"), parse_length("420mm")),
    "a2": (parse_length("420mm"), parse_length("594mm")),
    "tabloid": (792.0, 1224.0),
}
HALF_PAGE = {  # the card / booklet page that goes with each paper: half-letter or A5
    "letter": (396.0, 612.0),
    "a4": (parse_length("148mm"), parse_length("210mm")),
}
PRINTABLE_MARGIN = parse_length("1/4in")  # most home printers cannot print closer to the edge


def paper_size(name: str, landscape: bool = False) -> tuple[float, float]:
    width, height = PAPER[name]
    return (height, width) if landscape else (width, height)


def half_page_size(name: str) -> tuple[float, float]:
    return HALF_PAGE[name]


def paper_points(name: str | None, default: str) -> tuple[float, float]:
    """letter, a4, a3 or WIDTHxHEIGHT with a unit, in points (portrait as written)."""
    name = (name or default).strip()
    if name in PAPER:
        return PAPER[name]
    match = PAIR.fullmatch(name)
    if not match:
        raise ValueError(f"unknown paper {name!r}: use letter, a4, a3 or WIDTHxHEIGHT such as 11x17in")
    unit = match.group(3)
    return parse_length(match.group(1) + unit), parse_length(match.group(2) + unit)
