"""Incremental reprint (`pnpgen diff OLD_MANIFEST`) on a copy of tests/kits/mini: a changed row makes the diff
name exactly its pieces, and `--write` builds only the sheets (print groups) that hold them."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnpgen.export.reprint import diff_entries
from tests.conftest import edit
from tests.counters_helpers import face_forms

MINI = Path(__file__).parent / "kits" / "mini"


@pytest.fixture
def kit(tmp_path, run_cli):
    """A copy of the mini kit and the manifest of its build (manifest only: pieces need no drawing)."""
    folder = tmp_path / "kit"
    shutil.copytree(MINI, folder)
    out = tmp_path / "out"
    assert run_cli("build", "--data", folder, "--out", out, "--only", "manifest", "-q").code == 0
    old = tmp_path / "old-manifest.json"
    shutil.copyfile(out / "mini" / "manifest.json", old)
    return folder, out, old


def changes(result) -> list[str]:
    return [line.strip() for line in result.out.splitlines()[1:] if line.startswith("  ") and
            line.split()[0] in ("changed", "added", "removed", "count")]


def test_nothing_changed(kit, run_cli):
    folder, out, old = kit
    result = run_cli("diff", old, "--data", folder, "--out", out)
    assert result.code == 0 and "nothing changed" in result.out


def test_a_changed_row_names_exactly_its_pieces(kit, run_cli):
    folder, out, old = kit
    edit(folder / "components" / "cards.yaml", "Swap one of your tokens", "Swap a token")
    result = run_cli("diff", old, "--data", folder, "--out", out)
    assert result.code == 0, result.err
    assert changes(result) == ["changed  cards.Trade: front+back (4 piece(s))"]
    assert "4 piece(s) to reprint" in result.out
    assert not (out / "mini" / "reprint").exists()          # without --write nothing is written


def test_write_builds_only_the_sheets_that_hold_them(kit, run_cli):
    folder, out, old = kit
    edit(folder / "components" / "cards.yaml", "Swap one of your tokens", "Swap a token")
    result = run_cli("diff", old, "--data", folder, "--out", out, "--write")
    assert result.code == 0, result.err
    reprint = out / "mini" / "reprint"
    assert sorted(p.name for p in reprint.iterdir()) == [".pnpgen-build", "cards.pdf", "reprint.json"]  # marked
    report = json.loads((reprint / "reprint.json").read_text())
    assert report["groups"] == ["cards"] and report["pieces"] == ["cards.Trade:neutral"]
    pdf = pdfium.PdfDocument(str(reprint / "cards.pdf"))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Swapatoken" in "".join(text.split())
    prefs = PdfReader(str(reprint / "cards.pdf")).trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"


def test_a_per_colour_row_reprints_both_colours_and_only_their_sheets(kit, run_cli):
    folder, out, old = kit
    edit(folder / "components" / "tokens.csv", "5,1", "4,1")
    result = run_cli("diff", old, "--data", folder, "--out", out, "--write")
    assert result.code == 0, result.err
    assert sorted(changes(result)) == ["added    tokens.4 (blue) (1 piece(s))", "added    tokens.4 (red) (1 piece(s))",
                                       "removed  tokens.5 (blue)", "removed  tokens.5 (red)"]
    reprint = out / "mini" / "reprint"
    assert sorted(p.name for p in reprint.glob("*.pdf")) == ["tokens-blue.pdf", "tokens-red.pdf"]


def test_a_changed_count_is_listed(kit, run_cli):
    folder, out, old = kit
    edit(folder / "components" / "chits.yaml", "hits: 2, qty: 4", "hits: 2, qty: 5")
    edit(folder / "kit.yaml", "total: 44", "total: 45")
    edit(folder / "components" / "chits.yaml", "total: 10", "total: 11")
    result = run_cli("diff", old, "--data", folder, "--out", out)
    assert result.code == 0, result.err
    assert changes(result) == ["count    chits.2: 4 -> 5"]


def test_diff_entries_compare_faces_per_piece():
    def entry(ref, colour, text, count=1, back=None):
        return {"ref": ref, "colour": colour, "count": count,
                "front": {"template": "f", "params": {"row": {"text": text}}}, "back": back}
    old = [entry("a.1", "red", "x"), entry("a.1", "blue", "x"), entry("b.1", "neutral", "y", 2)]
    new = [entry("a.1", "red", "x"), entry("a.1", "blue", "z"), entry("b.1", "neutral", "y", 3)]
    diff = diff_entries(old, new)
    assert diff.changed == [(("a.1", "blue"), "front")]
    assert diff.count == [(("b.1", "neutral"), 2, 3)]
    assert diff.reprint_keys() == {("a.1", "blue"), ("b.1", "neutral")}


def test_not_a_manifest_is_a_usage_error(tmp_path, run_cli):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    result = run_cli("diff", bad, "--data", MINI, "--out", tmp_path)
    assert result.code == 2 and "not a pnpgen manifest" in result.err


def test_a_changed_unit_of_the_default_kit_names_exactly_its_counters(tmp_path, run_cli, kit_copy):
    out = tmp_path / "out"
    assert run_cli("build", "--data", kit_copy, "--out", out, "--only", "manifest", "-q").code == 0
    old = tmp_path / "old.json"
    shutil.copyfile(out / "space-empires-4x" / "manifest.json", old)
    text = (kit_copy / "components" / "units.yaml").read_text()
    start = text.index("\n  - id: DD")
    at = text.index("attack:", start)
    end = text.index("\n", at)
    (kit_copy / "components" / "units.yaml").write_text(text[:at] + "attack: 7" + text[end:])
    result = run_cli("diff", old, "--data", kit_copy, "--out", out, "--write")
    assert result.code == 0, result.err
    lines = changes(result)
    assert sorted(line.split(":")[0] for line in lines) == sorted(
        f"changed  units.DD ({c})" for c in ("red", "blue", "green", "yellow"))
    assert all(line.split(": ")[1].startswith("front") for line in lines)
    reprint = out / "space-empires-4x" / "reprint"
    assert sorted(p.name for p in reprint.glob("*.pdf")) == [f"counters-{c}.pdf" for c in
                                                             ("blue", "green", "red", "yellow")]


def test_reprint_uses_the_options_of_the_printed_build(tmp_path, run_cli):
    folder = tmp_path / "kit"
    shutil.copytree(MINI, folder)
    out = tmp_path / "out"
    assert run_cli("build", "--data", folder, "--out", out, "--only", "manifest", "--paper", "a4", "-q").code == 0
    old = tmp_path / "old.json"
    shutil.copyfile(out / "mini" / "manifest.json", old)
    edit(folder / "components" / "cards.yaml", "Swap one of your tokens", "Swap a token")
    assert run_cli("diff", old, "--data", folder, "--out", out, "--write").code == 0
    width, height = (float(v) for v in PdfReader(str(out / "mini" / "reprint" / "cards.pdf")).pages[0].mediabox[2:])
    assert sorted((round(width), round(height))) == [595, 842]     # A4, as printed


def test_a_build_at_chosen_sizes_is_compared_and_reprinted_at_those_sizes(tmp_path, run_cli):
    """A kit printed with --counter-size and --piece-size: the diff reads its tables at those sizes (the
    manifest's options), so only the edited row changes and its reprint is at the printed size."""
    folder, out, old = tmp_path / "kit", tmp_path / "out", tmp_path / "old.json"
    shutil.copytree(MINI, folder)
    sizes = ("--counter-size", "3/4in", "--piece-size", "cards=bridge")
    assert run_cli("build", "--data", folder, "--out", out, "--only", "manifest", *sizes, "-q").code == 0
    shutil.copyfile(out / "mini" / "manifest.json", old)
    result = run_cli("diff", old, "--data", folder, "--out", out)
    assert result.code == 0 and "nothing changed" in result.out, result.out
    edit(folder / "components" / "cards.yaml", "Swap one of your tokens", "Swap a token")
    result = run_cli("diff", old, "--data", folder, "--out", out, "--write")
    assert changes(result) == ["changed  cards.Trade: front+back (4 piece(s))"], result.out
    page = pdfium.PdfDocument(str(out / "mini" / "reprint" / "cards.pdf"))[0]
    faces = [obj.get_bounds() for obj in face_forms(page)]
    assert faces and all(abs((top - bottom) - (right - left) - (BRIDGE[1] - BRIDGE[0])) < 1
                         for left, bottom, right, top in faces)   # 57 x 89 mm, not poker's 63.5 x 88.9


BRIDGE = (57 * 72 / 25.4, 89 * 72 / 25.4)  # points


def _pitches(pdf: Path) -> list[float]:
    """The distances, in mm, from each piece to the next in the first row of the first page (the left edges
    of their faces: pdfium's form bounds, which reach past a face by the same amount for each)."""
    page = pdfium.PdfDocument(str(pdf))[0]
    faces = [obj.get_bounds() for obj in face_forms(page)]
    row = sorted(left for left, _, _, top in faces if abs(top - max(f[3] for f in faces)) < 1)
    return [round((right - left) * 25.4 / 72, 2) for left, right in zip(row, row[1:])]


def test_a_manifest_from_before_given_options_replays_no_default_gutter(kit, run_cli):
    """A manifest written before `given` was recorded holds `gutter: 0.0`, the default then ("the group's
    own"): the reprint of a token (circles, which set no gutter) keeps the circles' own 2 mm, not 0 mm."""
    folder, out, old = kit
    manifest = json.loads(old.read_text(encoding="utf-8"))
    assert manifest["given"] == {} and manifest["options"]["gutter"] is None
    manifest.pop("given")
    manifest["options"]["gutter"] = 0.0
    old.write_text(json.dumps(manifest), encoding="utf-8")
    edit(folder / "components" / "tokens.csv", "5,1", "4,1")
    assert run_cli("diff", old, "--data", folder, "--out", out, "--write").code == 0
    pitches = _pitches(out / "mini" / "reprint" / "tokens-red.pdf")
    assert pitches and all(abs(pitch - (19.05 + 2.0)) < 0.05 for pitch in pitches), pitches  # 3/4 in + 2 mm


def test_a_given_counter_size_is_told_from_the_kits_own(tmp_path, run_cli):
    """Two builds at the kit's own counter size, one given it with --counter-size: after kit.yaml's size
    changes, the diff of the one given it reads the counters at that size (nothing changed), the other at
    the kit's new size (every square counter changed, and reprinted at the new size)."""
    folder, out = tmp_path / "kit", tmp_path / "out"
    shutil.copytree(MINI, folder)
    edit(folder / "components" / "chits.yaml", "size: 1/2in\n", "")
    edit(folder / "kit.yaml", "paper: letter\n", "paper: letter\ncounter_size: 1/2in\n")
    manifests = {}
    for name, given in (("given", ("--counter-size", "1/2in")), ("own", ())):
        assert run_cli("build", "--data", folder, "--out", out, "--only", "manifest", *given, "-q").code == 0
        manifests[name] = tmp_path / f"{name}.json"
        shutil.copyfile(out / "mini" / "manifest.json", manifests[name])
    assert json.loads(manifests["given"].read_text())["given"] == {"counter_size": "1/2in"}
    assert json.loads(manifests["own"].read_text())["given"] == {}
    edit(folder / "kit.yaml", "counter_size: 1/2in", "counter_size: 3/4in")
    result = run_cli("diff", manifests["given"], "--data", folder, "--out", out)
    assert result.code == 0 and "nothing changed" in result.out, result.out
    result = run_cli("diff", manifests["own"], "--data", folder, "--out", out, "--write")
    assert changes(result) == ["changed  chits.1: front (6 piece(s))", "changed  chits.2: front (4 piece(s))"], \
        result.out
    pitches = _pitches(out / "mini" / "reprint" / "chits.pdf")
    assert pitches and all(abs(pitch - (19.05 + 3.0)) < 0.05 for pitch in pitches), pitches  # 3/4 in + their 3 mm
