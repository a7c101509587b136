"""Physical lengths: parsed once, at the edge, into PDF points (1/72 in); an unknown unit is an error."""
from __future__ import annotations

from fractions import Fraction

from pnpgen.problems import UsageError

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
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not a length: {text!r}") from None
    return float(value * POINTS_PER[unit])


def describe_range(min_pt: float, max_pt: float | None, positive: bool = True) -> str:
    """'more than 0 and at most 3 in (76.2 mm)': the bounds of a length, for messages."""
    low = f"more than {_words(min_pt)}" if positive else f"at least {_words(min_pt)}"
    return low + (f" and at most {_words(max_pt)}" if max_pt is not None else "")


def _words(points: float) -> str:
    if not points:
        return "0"
    return f"{points / 72:g} in ({points * 25.4 / 72:.4g} mm)"



def mm(points: float) -> float:
    return points * 25.4 / 72


def pt_from_mm(millimetres: float) -> float:
    return millimetres * 72 / 25.4


def parse_offset(text: str) -> tuple[float, float]:
    """'X,Y' in mm -> points; the shift that puts the backs on top of their fronts."""
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"--back-offset wants two numbers in mm like 1.5,-0.5, not {text!r}") from None
    return pt_from_mm(x), pt_from_mm(y)
