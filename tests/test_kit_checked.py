"""A kit's texts checked once per set of inputs (pnpgen.kit_checked): a build that reads the same files the same
way skips them, an edit checks again and finds what it broke, a damaged memo only costs the checks."""
from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from pnpgen import kit as kit_module
from pnpgen.cli_common import load_quietly
from pnpgen.inputs import Inputs
from pnpgen.kit_checked import CheckedKits
from pnpgen.problems import KitError


def _args(root: Path, **given) -> argparse.Namespace:
    return argparse.Namespace(**{"kit": None, "data": str(root), "strict": False, "counter_size": None,
                                 "piece_size": None, "lang": None, "command": "build", **given})


def _load(root: Path, **given):
    return load_quietly(_args(root, **given), root, inputs=Inputs(root, root.parent / "out" / "kit"))


@pytest.fixture
def checks_run(monkeypatch) -> list:
    runs, real = [], kit_module._check_all_texts
    monkeypatch.setattr(kit_module, "_check_all_texts", lambda *a, **k: runs.append(1) or real(*a, **k))
    return runs


def test_unchanged_inputs_skip_the_texts_checks_and_an_edit_finds_its_error(kit_copy, checks_run, tmp_path,
                                                                              monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    _load(kit_copy)
    _load(kit_copy)
    assert len(checks_run) == 1  # the second load found the first one's clean record
    _load(kit_copy, strict=True)
    assert len(checks_run) == 2  # read another way: checked again
    chapter = kit_copy / "rules" / "03-setup.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\n{{ no_such_name }}\n", encoding="utf-8")
    with pytest.raises(KitError) as caught:
        _load(kit_copy)
    assert any("03-setup.md" in str(p.file) for p in caught.value.problems)


def test_a_damaged_or_foreign_memo_only_costs_the_checks(kit_copy, checks_run, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    _load(kit_copy)
    memo = CheckedKits(kit_copy).path
    assert memo.is_file()
    memo.write_bytes(memo.read_bytes().replace(b"true", b"1"))  # the seal no longer matches
    _load(kit_copy)
    assert len(checks_run) == 2


def test_a_data_edit_that_breaks_a_text_is_found_on_the_next_build(kit_copy, checks_run, tmp_path, monkeypatch):
    """A text's check reads the kit's data (every chart, chapter and aid file is rendered with it), so a data
    file's edit alone checks them again: a name the texts quote, renamed, is an error at each text quoting it,
    though no text changed."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    _load(kit_copy)
    _load(kit_copy)
    assert len(checks_run) == 1
    rules = kit_copy / "data" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("  one_shipyard: >-", "  one_shipyard_x: >-", 1),
                     encoding="utf-8")
    with pytest.raises(KitError) as caught:
        _load(kit_copy)
    found = {(Path(p.file).name, p.line) for p in caught.value.problems}
    for quoting in (kit_copy / "aids" / "cards.yaml", kit_copy / "rules" / "08-economy.md"):
        lines = quoting.read_text(encoding="utf-8").splitlines()
        line = next(n for n, text in enumerate(lines, 1) if "say.one_shipyard" in text)
        assert (quoting.name, line) in found, found


def test_the_aid_parts_keys_are_remembered_per_load_and_a_damaged_memo_is_worked_out(kit_copy, tmp_path, monkeypatch):
    """The aid cards' key builds every chart the cards show; a second load of the same inputs (a build into a new
    output folder) takes it from the user's cache instead, equal; a damaged memo, or an edit, builds them again."""
    from types import SimpleNamespace

    from pnpgen.documents import charts
    from pnpgen.kit_checked import AidKeys
    from pnpgen.parts import cards
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    built, real = [], charts.build_chart
    monkeypatch.setattr(charts, "build_chart", lambda *a, **k: built.append(1) or real(*a, **k))

    def key():
        built.clear()
        return cards.printed(SimpleNamespace(kit=_load(kit_copy)[0]))

    first = key()
    assert built  # worked out: the cards' charts built for their key
    assert key() == first and not built
    memo = AidKeys(kit_copy).path
    memo.write_bytes(memo.read_bytes().replace(b'"printed"', b'"printex"'))  # the seal no longer matches
    assert key() == first and built
    units = kit_copy / "components" / "units.yaml"
    units.write_text(units.read_text(encoding="utf-8").replace("class: D\n    attack: 4", "class: D\n    attack: 5", 1),
                     encoding="utf-8")
    assert key()["cards_charts"] != first["cards_charts"] and built
