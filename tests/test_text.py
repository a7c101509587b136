"""Prose with Jinja: numbers come from the data, and a wrong name is a located error."""
import pytest

from pnpgen.problems import BuildError
from pnpgen.games.space_empires_4x.text import render_text


def test_numbers_come_from_the_data(default_kit):
    text = render_text(default_kit, "A Cruiser costs {{ units.CA.cost }} CP; keep at most {{ economy.carry_over_cap }}.", "x.md")
    assert text == "A Cruiser costs 12 CP; keep at most 30."


def test_undefined_names_are_located(default_kit):
    with pytest.raises(BuildError, match=r"rules/combat\.md:2: .*'types.SimpleNamespace object' has no attribute 'XX'"):
        render_text(default_kit, "line one\nA {{ units.XX.cost }} here\n", "rules/combat.md")


def test_markup_mode_escapes_quoted_data_but_not_the_writers_markup(default_kit):
    text = render_text(default_kit, "<b>Name:</b> {{ name }}", "x.md", {"name": "R&D <1>"}, markup=True)
    assert text == "<b>Name:</b> R&amp;D &lt;1&gt;"
