"""A field's default is a fresh copy for every kit that leaves it out: a French edition that translates its
kit's neutral colour ('Neutre') must not rename the neutral colour of every kit read after it in the process
(a long-lived `serve` or `--watch`, or the reference page generated after a French build)."""
from __future__ import annotations

from pathlib import Path

from pnpgen.problems import Problems
from pnpgen.schema import Where
from pnpgen.schemas import KIT


def checked(tree: dict) -> dict:
    problems = Problems()
    out = KIT.check(tree, Where(Path("kit.yaml"), "", 1, problems))
    assert not problems.errors(), problems.items
    return out


def test_a_default_changed_by_one_kit_is_not_the_next_kits_default():
    first = checked({"kit": "one", "title": "One", "players": {"min": 1, "max": 4}})
    first["neutral"]["name"] = "Neutre"   # what an edition's translation does to the loaded kit, in place
    second = checked({"kit": "two", "title": "Two", "players": {"min": 2, "max": 2}})
    assert second["neutral"]["name"] == "Neutral"
