"""Physical lengths: parsed once, at the edge, into PDF points (1/72 in); an unknown unit is an error."""
from __future__ import annotations

from fractions import Fraction

POINTS_PER = {"pt": Fraction(1), "in": Fraction(72), "mm": Fraction(720, 254), "cm": Fraction(7200, 254)}
LENGTH_PATTERN = r"\s*\d+(\.\d+)?(/\d+)?\s*(pt|in|mm|cm)\s*"


def parse_length(text: str) -> float:
    """'5/8in' -> 45.0, '16mm' -> 45.35..., '45pt' -> 45.0. Fractions keep 5/8 in exactly 45 pt."""
    raw = text.strip()
    unit = raw[-2:]
    if unit not in POINTS_PER:
        raise ValueError(f"unknown length unit in {text!r}: use pt, in, mm or cm")
    number = raw[:-2].strip()
    try:
        value = Fraction(number)
    except ValueError:
        raise ValueError(f"not a length: {text!r}") from None
    return float(value * POINTS_PER[unit])


def mm(points: float) -> float:
    return points * 25.4 / 72


def pt_from_mm(millimetres: float) -> float:
    return millimetres * 72 / 25.4
