"""The overprint check's findings remembered per drawing in the user's cache (pnpgen.render.check_memo): a
build into a new output folder says what the first build found without reading the drawing's calls again,
and a change to the checking code checks every drawing anew."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnpgen.cli import main
from pnpgen.render import check_memo, ink_lines

MINI = Path(__file__).parent / "kits" / "mini"


@pytest.fixture
def struck_kit(tmp_path, monkeypatch) -> Path:
    """The mini kit with a line across a tile's text, and a user cache of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    template = kit / "templates" / "tile-front.svg.j2"
    template.write_text(template.read_text() + '{{ p.text("STRUCK", 4, piece.h / 2, pt(9)) }}'
                        '<line x1="2" y1="{{ piece.h / 2 - 1 }}" x2="{{ piece.w - 2 }}" y2="{{ piece.h / 2 - 1 }}" '
                        'stroke="#000000" stroke-width="0.4"/>\n')
    return kit


def _components(kit: Path, out: str) -> int:
    return main(["build", "--data", str(kit), "--out", str(kit.parent / out), "-q", "--only", "components"])


def test_a_new_output_folder_takes_the_findings_without_reading_the_drawings_again(struck_kit, capsys, monkeypatch):
    assert _components(struck_kit, "first") == 1
    first = capsys.readouterr().err
    assert "text 'STRUCK' at" in first and "crossed by a line" in first
    reads = []
    real = ink_lines.read_ink
    monkeypatch.setattr(ink_lines, "read_ink", lambda ops: reads.append(1) or real(ops))
    assert _components(struck_kit, "second") == 1
    assert capsys.readouterr().err == first and reads == []   # the same words, no drawing read
    monkeypatch.setattr(check_memo, "checker_salt", lambda: "the checking code changed")
    assert _components(struck_kit, "third") == 1
    assert capsys.readouterr().err == first and reads   # read again, found again


def test_a_memo_not_signed_by_this_user_is_not_believed(struck_kit, capsys):
    """A memo saying "nothing found" for every drawing, written by someone else (unsigned): checked anew."""
    import json
    assert _components(struck_kit, "first") == 1
    first = capsys.readouterr().err
    for stored in (struck_kit.parent / "user-cache").rglob("checked-drawings/*.json"):
        memo = json.loads(stored.read_bytes().split(b"\n", 1)[1])
        memo["findings"] = {key: [] for key in memo["findings"]}
        stored.write_text(json.dumps(memo))
    assert _components(struck_kit, "second") == 1
    assert capsys.readouterr().err == first



def test_a_new_output_folder_takes_the_bare_edge_findings_of_each_group_drawn_before(tmp_path, monkeypatch):
    """The home bleed's bare-edge findings of a group are remembered by the group's drawing key: a new output
    folder says them without sampling a side; an entry that is not a list of strings is worked out again."""
    import json

    from pnpgen.components import files
    from pnpgen.signing import seal
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    checked = []
    monkeypatch.setattr(files, "bare_edge_findings", lambda group, plan, arts: checked.append(group) or
                        [f"preflight: {group}.pdf: art runs to a probe"])

    def warnings(out: str) -> list:
        assert _components(kit, out) == 0
        manifest = json.loads((tmp_path / out / "mini" / "manifest.json").read_text())
        return [w for w in manifest["parts"]["components"]["warnings"] if "a probe" in w]
    first = warnings("first")
    assert first and checked
    groups, checked[:] = list(checked), []
    assert warnings("second") == first and checked == []
    memo = check_memo.CheckMemo("piece-sheets-bare", kit)
    assert memo.known
    memo.path.write_bytes(seal(memo.encode({key: [1, 2] for key in memo.known})))
    assert warnings("third") == first and checked == groups
