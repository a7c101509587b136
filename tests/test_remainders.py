"""Remainders that share a sheet (kit.yaml sheets.<group>.remainders): laid out in numbers only (no drawing),
so these tests take about a second. The PDFs themselves (backs behind fronts on the shared sheets, decks
read back across files) are checked by the kits' own tests on their builds."""
from __future__ import annotations

import shutil
from collections import Counter

import pytest

from pnpgen.components.entry import shared_words
from pnpgen.components.files import batches, plan_group, printed_files
from pnpgen.kit import load_kit
from pnpgen.paper_use import shared_said
from pnpgen.problems import BuildError
from tests.conftest import edit

from pnpgen.kit_folder import BUILTIN_DATA

SE4 = BUILTIN_DATA / "se4-board-game"


class Plan:
    """What plan_group reads of a build: the kit, the paper and the (default) options."""

    def __init__(self, kit, paper: str):
        self.kit, self.paper = kit, paper

    def option(self, name, default=None):
        return default


def _sheets(ctx, files) -> dict[str, int]:
    return {group: sum(1 for p in plan_group(ctx, runs)[1] if p.side == "front") for group, runs in files.items()}


@pytest.fixture(scope="module")
def se4():
    return load_kit(SE4)[0]


@pytest.mark.parametrize("paper,saved,moved", [("letter", 3, 3), ("a4", 1, 3)])
def test_the_decks_last_sheets_join_the_shared_cards_and_save_paper(se4, paper, saved, moved):
    """SE4 on Letter: each colour's cards end on a sheet of two (four sheets of two); three of them now fill
    the last sheet of cards.pdf and the fourth keeps its own: three sheets fewer. On A4 (eight each) three
    decks' last eight join the three cards of cards.pdf's last sheet: one sheet fewer."""
    ctx = Plan(se4, paper)
    before = _sheets(ctx, batches(se4))
    files, went = printed_files(ctx)
    after = _sheets(ctx, files)
    assert sum(before.values()) - sum(after.values()) == saved
    assert len(went) == moved and {target for target, _ in went.values()} == {"cards"}
    for source, (_, count) in went.items():
        assert after[source] == before[source] - 1 and count > 0
    printed = Counter(p for runs in files.values() for _, pieces in runs for p in pieces)
    assert printed == Counter(se4.component_pieces)  # every piece once, none lost or doubled


def test_the_manifest_and_summary_say_which_file_holds_them():
    said = shared_words({"cards-red": ("cards", 2), "cards-blue": ("cards", 2)})
    assert said["cards-red.pdf"] == {"last_pieces_in": {"file": "cards.pdf", "pieces": 2}}
    assert said["cards.pdf"]["holds"] == [{"file": "cards-red.pdf", "pieces": 2}, {"file": "cards-blue.pdf", "pieces": 2}]
    assert shared_said(said["cards-red.pdf"]) == "; its last 2 pieces print in cards.pdf"
    assert shared_said(said["cards.pdf"]) == "; also holds the last pieces of cards-red.pdf (2), cards-blue.pdf (2)"
    assert shared_said({}) == ""


def test_a_one_sided_file_never_takes_two_sided_remainders(tmp_path):
    """Eclipse's technology tiles (two-sided) named to share tokens.pdf (one-sided: printed double-sided it
    would ruin them): a build error at the setting's line."""
    kit_dir = tmp_path / "eclipse"
    shutil.copytree(BUILTIN_DATA / "eclipse", kit_dir)
    line = edit(kit_dir / "kit.yaml", "remainders: tiles}", "remainders: tokens}")
    kit = load_kit(kit_dir)[0]
    with pytest.raises(BuildError) as caught:
        printed_files(Plan(kit, "letter"))
    assert f"kit.yaml:{line}: sheets.technology.remainders:" in str(caught.value)
    assert "one-sided" in str(caught.value) and "two-sided" in str(caught.value)


def test_remainders_that_name_no_file_are_found_at_validation(tmp_path, run_cli):
    kit_dir = tmp_path / "se4"
    shutil.copytree(SE4, kit_dir)
    line = edit(kit_dir / "kit.yaml", "remainders: cards}", "remainders: cardz}")
    result = run_cli("validate", "--data", kit_dir)
    assert result.code == 1 and "Traceback" not in result.err
    assert f"kit.yaml:{line}: sheets.cards.remainders: no print file named 'cardz'" in result.err
