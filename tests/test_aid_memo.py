"""An aid part's rendered file and built charts kept in the user's cache (aids.aid_memo) come back as built:
the same table from a later process's memo, nothing worked out again; an entry of the wrong shape, a damaged
file or another load key is worked out again, never trusted."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from pnpgen import resources
from pnpgen.aids import aid_memo
from pnpgen.documents.table_data import TableData

TABLE = TableData(("Unit", "Attack"), (("<b>Ships</b>", ""), ("Destroyer", "5"), ("Cruiser", "4")), (2, 1.0),
                  total_row=False, align=("left", "centre"), sections=(0,), shaded=(2,), where="charts.yaml:3")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    cache = tmp_path / "user-cache"
    monkeypatch.setattr(resources, "cache_folder", lambda name: (cache / name).mkdir(parents=True, exist_ok=True)
                        or cache / name)
    return cache / "aid-work"


def _worked(memo, made: list):
    """The text and the chart through `memo`, counting what had to be worked out."""
    text = memo.text("aids/cards.yaml", lambda: made.append("text") or "cards: {}")
    table = memo.chart("combat", lambda: made.append("chart") or TABLE, TABLE.where)
    return text, table


def test_a_later_process_takes_text_and_chart_from_the_memo(tmp_path):
    kit, made = SimpleNamespace(root=tmp_path), []
    first = aid_memo.AidMemo(kit.root, "cards.pdf", "load-1")
    assert _worked(first, made) == ("cards: {}", TABLE) and made == ["text", "chart"]
    first.save()
    again = aid_memo.AidMemo(kit.root, "cards.pdf", "load-1")
    text, table = _worked(again, made)
    assert made == ["text", "chart"], "nothing worked out again"
    assert (text, table, table.where) == ("cards: {}", TABLE, TABLE.where)
    other = aid_memo.AidMemo(kit.root, "cards.pdf", "load-2")   # another load: its own entries
    _worked(other, made)
    assert made == ["text", "chart"] * 2


@pytest.mark.parametrize("junk", [None, "x", [], [1] * 9, [["a"], [["b", 3]], [1], 1, False, [], [], [], False],
                                  [["a"], [["b"]], ["1"], 1, False, [], [], [], False]])
def test_an_entry_of_the_wrong_shape_is_worked_out_again(tmp_path, junk):
    memo, made = aid_memo.AidMemo(tmp_path, "cards.pdf", "k"), []
    memo._known = {"k:chart:combat": junk, "k:text:aids/cards.yaml": ["not", "text"]}
    assert _worked(memo, made) == ("cards: {}", TABLE) and made == ["text", "chart"]


def test_a_damaged_memo_file_is_worked_out_again(tmp_path, own_cache):
    memo, made = aid_memo.AidMemo(tmp_path, "cards.pdf", "k"), []
    _worked(memo, made)
    memo.save()
    for path in own_cache.glob("*.json"):
        path.write_bytes(path.read_bytes()[:-5] + b"XXXXX")
    _worked(aid_memo.AidMemo(tmp_path, "cards.pdf", "k"), made)
    assert made == ["text", "chart"] * 2


def test_outside_a_part_build_nothing_is_kept():
    assert aid_memo.rendered("aids/cards.yaml", lambda: "worked") == "worked"
    assert aid_memo.chart("combat", lambda: TABLE, TABLE.where) is TABLE


def test_an_aid_file_read_cleanly_is_read_once_per_kit_object(default_kit, monkeypatch):
    """The part key (main process) and the part's build (its worker, forked after) read the same mapping: the
    file is rendered once; a read that found a problem is not kept, so its problem is said every time."""
    import dataclasses

    from pnpgen.aids import schema, sources
    from pnpgen.problems import Problems
    rendered = []
    real = sources.render_aid_text
    monkeypatch.setattr(sources, "render_aid_text", lambda *a: rendered.append(1) or real(*a))
    kit = dataclasses.replace(default_kit)   # an object of its own: nothing kept for it yet
    first = schema.check_aid_file(kit, sources.CARDS_FILE, Problems())
    assert first is not None and schema.check_aid_file(kit, sources.CARDS_FILE, Problems()) is first
    assert rendered == [1]
    broken = dataclasses.replace(default_kit, charts={})   # every chart block now names an unknown chart
    for _ in range(2):
        problems = Problems()
        schema.check_aid_file(broken, sources.CARDS_FILE, problems)
        assert problems.errors()
    assert rendered == [1, 1, 1]
