"""Lengths parse into exact points: a wrong factor here would misprint every page and counter."""
import pytest

from pnpgen.lengths import parse_length
from pnpgen.paper import half_page_size, paper_size


@pytest.mark.parametrize("text, points", [
    ("5/8in", 45.0), ("1/2in", 36.0), ("1in", 72.0), ("25.4mm", 72.0), ("2.54cm", 72.0), ("45pt", 45.0),
    ("1.25in", 90.0),
])
def test_lengths_in_points(text, points):
    assert parse_length(text) == pytest.approx(points, abs=1e-9)


def test_paper_sizes_are_the_iso_and_us_sizes():
    assert paper_size("letter") == (612.0, 792.0)
    assert paper_size("a4") == pytest.approx((595.2756, 841.8898), abs=1e-3)
    assert paper_size("a4", landscape=True) == pytest.approx((841.8898, 595.2756), abs=1e-3)
    assert half_page_size("a4") == pytest.approx((419.5276, 595.2756), abs=1e-3)  # A5


def test_unknown_units_are_refused():
    with pytest.raises(ValueError, match="unknown length unit"):
        parse_length("3ft")
