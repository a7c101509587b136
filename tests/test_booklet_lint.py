"""A lint over the rules chapters: every number that states a rule comes from the data, never typed by hand."""
from __future__ import annotations

import re

import pytest

from pnpgen.booklet.markdown import inline, parse
from tests.conftest import DEFAULT_KIT_DIR

RULES = sorted((DEFAULT_KIT_DIR / "rules").glob("*.md"))
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
ALLOWED = [r"\bTurn 1\b", r"\bd10\b"]   # names, not rule values: the first turn, the ten-sided die


def hand_typed_digits(source: str) -> list[tuple[int, str]]:
    """(line, text) of each digit outside Jinja expressions and the allowed names."""
    blanked = JINJA.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)
    found = []
    for number, line in enumerate(blanked.splitlines(), 1):
        for allowed in ALLOWED:
            line = re.sub(allowed, "", line)
        if re.search(r"\d", line):
            found.append((number, line.strip()))
    return found


def test_there_are_rules_chapters():
    assert len(RULES) >= 10


@pytest.mark.parametrize("path", RULES, ids=[p.name for p in RULES])
def test_no_rule_number_is_typed_by_hand(path):
    found = hand_typed_digits(path.read_text(encoding="utf-8"))
    assert not found, "\n".join(f"{path.name}:{line}: {text}" for line, text in found)


def test_the_lint_catches_a_typed_number():
    assert hand_typed_digits("A Cruiser costs {{ units.CA.cost }} CP.\nKeep at most 30 CP.\n") == [(2, "Keep at most 30 CP.")]
    assert hand_typed_digits("Roll a d10 in Turn 1; {% if x > 2 %}ok{% endif %}") == []


def test_markdown_subset_parses_what_the_chapters_use():
    blocks = parse("# Title\n\nSome *it* and **bold** & more.\n\n- one\n  - sub\n- two\n  continued\n\n[[table:units]]\n")
    assert [b.kind for b in blocks] == ["heading", "para", "bullets", "directive"]
    assert blocks[1].text == "Some <i>it</i> and <b>bold</b> &amp; more."
    assert blocks[2].items == ((0, "one"), (1, "sub"), (0, "two continued"))
    assert (blocks[3].text, blocks[3].arg) == ("table", "units")
    assert inline("a < b") == "a &lt; b"


def test_numbered_steps_keep_their_numbers():
    """"1. " lines are steps printed with their own numbers (a bullet list no longer swallows them), wrapped
    lines go on the step, and a bullet list after them starts a list of its own."""
    blocks = parse("1. Put the board\n   in the middle.\n2. **Mix** the tiles.\n- a bullet\n\n10. Ten.\n")
    assert [b.kind for b in blocks] == ["steps", "bullets", "steps"]
    assert blocks[0].items == ((1, "Put the board in the middle."), (2, "<b>Mix</b> the tiles."))
    assert blocks[1].items == ((0, "a bullet"),) and blocks[2].items == ((10, "Ten."),)
    assert [b.kind for b in parse("In 2026. Then more.\n")] == ["para"]
