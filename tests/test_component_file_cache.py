"""The components part redraws only the print files that show what changed (pnpgen.components.files.file_key,
cached_file): an edit of one table's row draws that row's file, the others are fetched from the output
folder's sealed cache with the entries a drawn build gives; an edit that changes a file's layout draws it;
a damaged or planted cache entry is never passed off as a build."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnpgen import signing
from pnpgen.cli import main
from pnpgen.components import files as component_files
from pnpgen.output_cache import SIGNED

from conftest import edit

MINI = Path(__file__).parent / "kits" / "mini"


@pytest.fixture
def mini(tmp_path, monkeypatch):
    """(a copy of the mini kit, build(out) -> (components entry, {PDF: bytes}), the files drawn by the last
    build): `--only components` is built whole in this process, so the drawing is counted here."""
    import shutil
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    drawn: list[str] = []
    monkeypatch.setattr(component_files, "draw_group", _counting(component_files.draw_group, drawn))
    plan = component_files.plan_group

    def planned(ctx, runs, *args):
        laid_out.append(runs[0][0].group)
        return plan(ctx, runs, *args)
    laid_out: list[str] = []
    monkeypatch.setattr(component_files, "plan_group", planned)

    def build(out: Path) -> tuple[dict, dict]:
        drawn.clear()
        laid_out.clear()
        assert main(["build", "--data", str(kit), "--out", str(out), "--only", "components", "--quiet"]) == 0
        manifest = json.loads((out / "mini" / "manifest.json").read_text(encoding="utf-8"))
        return manifest["parts"]["components"], {p.name: p.read_bytes() for p in sorted((out / "mini").glob("*.pdf"))}
    return kit, build, drawn, laid_out


def _without_count(entry: dict) -> dict:
    """A part's entry apart from how many faces this build rendered (a warm user cache renders none)."""
    return {key: value for key, value in entry.items() if key != "faces"}


def test_a_row_edit_draws_only_its_file_and_a_layout_edit_draws_its_file(tmp_path, mini):
    kit, build, drawn, laid_out = mini
    out = tmp_path / "out"
    _, first = build(out)
    assert sorted(drawn) == ["cards", "chits", "tiles", "tokens-blue", "tokens-red"]
    edit(kit / "components" / "cards.yaml", "Swap one of your tokens", "Trade one of your tokens")
    entry, second = build(out)
    assert drawn == ["cards"]          # the others fetched, their bytes as drawn before
    assert laid_out == ["cards"]       # ... with their entries: not laid out again either
    assert second["cards.pdf"] != first["cards.pdf"]
    assert {k: v for k, v in second.items() if k != "cards.pdf"} == {k: v for k, v in first.items() if k != "cards.pdf"}
    fresh, drawn_anew = build(tmp_path / "fresh")   # every file drawn: the same files and the same entry
    assert len(drawn) == 5 and drawn_anew == second and _without_count(fresh) == _without_count(entry)
    # the tiles' rows change their counts (the total kept): the pieces move, the file is laid out and drawn
    edit(kit / "components" / "tiles.yaml", "{terrain: plains, qty: 3}", "{terrain: plains, qty: 2}")
    edit(kit / "components" / "tiles.yaml", "{terrain: void, qty: 1}", "{terrain: void, qty: 2}")
    tiles = [p for p in entry["placements"] if p["file"] == "tiles.pdf"]
    entry, third = build(out)
    assert drawn == laid_out == ["tiles"] and third["tiles.pdf"] != second["tiles.pdf"]
    assert [p for p in entry["placements"] if p["file"] == "tiles.pdf"] != tiles
    fresh, drawn_anew = build(tmp_path / "fresh-2")
    assert drawn_anew == third and _without_count(fresh) == _without_count(entry)


def _entries(out: Path) -> list[Path]:
    return [entry for entry in (out / ".cache" / "mini" / "piece-sheets").iterdir() if (entry / SIGNED).is_file()]


def test_a_damaged_or_planted_cache_entry_is_not_used(tmp_path, mini, monkeypatch):
    """Each entry's first file changed by a byte, then each replaced by other bytes signed with another key
    (a kit shipping its own output/.cache): every file is drawn again, as it was."""
    kit, build, drawn, _ = mini
    out = tmp_path / "out"
    _, honest = build(out)
    entries = _entries(out)
    assert len(entries) >= 10     # each file's entry by what it prints, and its drawing by its drawing key
    for entry in entries:
        data = bytearray((entry / "0").read_bytes())
        data[len(data) // 2] ^= 1
        (entry / "0").write_bytes(bytes(data))
    edit(kit / "components" / "cards.yaml", "Swap one of your tokens", "Trade one of your tokens")
    _, damaged = build(out)
    assert sorted(drawn) == ["cards", "chits", "tiles", "tokens-blue", "tokens-red"]
    assert {k: v for k, v in damaged.items() if k != "cards.pdf"} == {k: v for k, v in honest.items() if k != "cards.pdf"}
    monkeypatch.setattr(signing, "user_key", lambda: b"another user's key, not ours....")
    for entry in _entries(out):
        planted = b"%PDF-1.4 planted" if (entry / "0").read_bytes().startswith(b"%PDF") else \
            json.dumps({"key": "0" * 32, "entry": {"path": "cards.pdf", "previews": [], "bare": []}}).encode()
        (entry / "0").write_bytes(planted)
        (entry / SIGNED).write_bytes(signing.seal(json.dumps([signing.file_digest(planted)]).encode()))
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.setattr(component_files, "draw_group", _counting(component_files.draw_group, drawn))
    edit(kit / "components" / "cards.yaml", "Trade one of your tokens", "Swap one of your tokens")
    _, planted = build(out)
    assert sorted(drawn) == ["cards", "chits", "tiles", "tokens-blue", "tokens-red"]
    assert planted == honest


def test_a_change_to_pnpgens_code_or_fonts_draws_every_file_again(tmp_path, mini, monkeypatch):
    """A file's entry and its drawing are kept under the whole of pnpgen's code, fonts and templates (the
    build's code_key), not a list of modules: keyed by a few drawing modules, a new pnpgen whose bleed cuts
    (render/bleed_cuts.py) or shipped header font changed handed out the sheets the old one drew."""
    from pnpgen import inputs
    kit, build, drawn, _ = mini
    out = tmp_path / "out"
    build(out)
    made = inputs.Inputs.__init__

    def another_pnpgen(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.shared = "0" * 64   # as after a change to a module the sheets' keys do not name
    monkeypatch.setattr(inputs.Inputs, "__init__", another_pnpgen)
    build(out)
    assert sorted(drawn) == ["cards", "chits", "tiles", "tokens-blue", "tokens-red"]


def _counting(draw, drawn: list):
    def counted(ctx, group, *args, **kwargs):
        drawn.append(group)
        return draw(ctx, group, *args, **kwargs)
    return counted


def test_sheet_facts_are_remembered_sealed_and_checked(tmp_path, monkeypatch):
    """The layouts the sharing of remainders tries are remembered in the user's cache (pnpgen.components.sheet_facts):
    a second build lays none out again; an entry that is no sheet count with slots of the file, or a memo
    signed by another key, is worked out again."""
    from dataclasses import dataclass
    from types import SimpleNamespace

    from pnpgen.components.sheet_facts import SheetFacts

    @dataclass(frozen=True)
    class FakeRun:
        count: int

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    page = lambda side, slots: SimpleNamespace(side=side, slots=[SimpleNamespace(index=i) for i in slots])
    pages = [page("front", range(0, 6)), page("back", range(0, 6)), page("front", range(6, 8)), page("back", [6, 7])]
    laid_out = []

    def plan():
        laid_out.append(1)
        return [], pages
    runs, kit = [FakeRun(8)], tmp_path / "kit"
    memo = SheetFacts(kit)
    assert memo.of(runs, plan) == (2, [6, 7]) and len(laid_out) == 1
    memo.save()
    assert SheetFacts(kit).of(runs, plan) == (2, [6, 7]) and len(laid_out) == 1   # remembered
    stored = json.loads(signing.read_sealed(memo.path))
    for bad in ([0, [6, 7]], [2, [6, 8]], [2, [6, 6]], [2, []], ["2", [6, 7]], {"sheets": 2}):
        stored["layouts"] = {key: bad for key in stored["layouts"]}
        memo.path.write_bytes(signing.seal(json.dumps(stored).encode()))
        assert SheetFacts(kit).of(runs, plan) == (2, [6, 7])
    assert len(laid_out) == 7
    stored["layouts"] = {key: [1, [0]] for key in stored["layouts"]}
    monkeypatch.setattr(signing, "user_key", lambda: b"another user's key, not ours....")
    memo.path.write_bytes(signing.seal(json.dumps(stored).encode()))
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    assert SheetFacts(kit).of(runs, plan) == (2, [6, 7]) and len(laid_out) == 8
