"""The home bleed remembered per drawing in the user's cache (pnpgen.render.bleed_memo): a build into a new
output folder paints the same bands without rendering a face to sample its edges or cutting a band, and a
memo that is damaged, hostile or not this user's is not believed."""
from __future__ import annotations

import json
import shutil
import zlib
from pathlib import Path

import pytest

from pnpgen.cli import main
from pnpgen.render import bleed_memo, home_bleed

MINI = Path(__file__).parent / "kits" / "mini"


@pytest.fixture
def kit(tmp_path, monkeypatch) -> Path:
    """The mini kit with a user cache of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    shutil.copytree(MINI, tmp_path / "mini")
    return tmp_path / "mini"


def _components(kit: Path, out: str) -> dict:
    """{file name: bytes} of the components' PDFs built into a new output folder."""
    assert main(["build", "--data", str(kit), "--out", str(kit.parent / out), "-q", "--only", "components"]) == 0
    return {pdf.name: pdf.read_bytes() for pdf in (kit.parent / out).rglob("*.pdf") if ".cache" not in pdf.parts}


def _counting(monkeypatch) -> list:
    """A list that grows by one for each face sampled and each face's bands cut to a room."""
    work = []
    sampler, clipped = home_bleed._sampler, home_bleed._clipped
    monkeypatch.setattr(home_bleed, "_sampler", lambda art: work.append("sample") or sampler(art))
    monkeypatch.setattr(home_bleed, "_clipped", lambda *room: work.append("cut") or clipped(*room))
    return work


def _memo_files(kit: Path) -> list[Path]:
    return list((kit.parent / "user-cache").rglob("bleed-bands/*.json"))


def test_a_new_output_folder_paints_the_same_bleed_without_sampling_or_cutting(kit, monkeypatch):
    work = _counting(monkeypatch)
    first = _components(kit, "first")
    assert "sample" in work and "cut" in work and _memo_files(kit)
    work.clear()
    assert _components(kit, "second") == first and work == []   # byte-identical, nothing worked out
    monkeypatch.setattr(bleed_memo, "bleed_salt", lambda: "the bleed's code changed")
    assert _components(kit, "third") == first and "sample" in work and "cut" in work


def _rewrite(path: Path, change) -> None:
    """The memo at `path` read, changed by change(entries) and sealed again as this user's pnpgen would."""
    from pnpgen.signing import read_sealed, seal
    data = json.loads(zlib.decompress(read_sealed(path)))
    change(data["findings"])
    path.write_bytes(seal(zlib.compress(json.dumps(data).encode())))


def _hostile(entries: dict) -> None:
    """Every cut made to cover a whole page in black, every colour list out of range."""
    import base64
    from array import array
    for key, packed in entries.items():
        numbers = [0.0, 0.0, 0.0, 4, -500.0, -500.0, 900.0, -500.0, 900.0, 900.0, -500.0, 900.0] \
            if key.startswith("k:") else [7.0] * len(array("d", base64.b64decode(packed)))
        entries[key] = base64.b64encode(array("d", numbers).tobytes()).decode()


@pytest.mark.parametrize("damage", ["hostile", "garbled", "unsigned", "truncated"])
def test_a_memo_damaged_or_not_this_users_is_not_believed(kit, monkeypatch, damage):
    first = _components(kit, "first")
    for path in _memo_files(kit):
        if damage == "hostile":
            _rewrite(path, _hostile)
        elif damage == "garbled":
            _rewrite(path, lambda entries: entries.update({key: "not base64!" for key in entries}))
        elif damage == "unsigned":   # someone else's memo, painting every band black: never read
            path.write_bytes(zlib.compress(json.dumps({"salt": bleed_memo.bleed_salt(), "findings": {}}).encode()))
        else:
            path.write_bytes(path.read_bytes()[:-40])
    work = _counting(monkeypatch)
    assert _components(kit, "second") == first and "sample" in work and "cut" in work
    assert _components(kit, "third") == first   # and the memo written again is good
