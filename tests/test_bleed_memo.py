"""The home bleed remembered per drawing in the user's cache (pnpgen.render.bleed_memo): a build into a new
output folder paints the same bands without rendering a face to sample its edges or cutting a band, and a
memo that is damaged, hostile or not this user's is not believed."""
from __future__ import annotations

import shutil
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
    """A list that grows by one for each face sampled, each face's bands cut to a room and each page layout's
    rooms weighed."""
    work = []
    sampler, clipped, allowances = home_bleed._sampler, home_bleed._clipped, home_bleed._allowances
    monkeypatch.setattr(home_bleed, "_sampler", lambda art: work.append("sample") or sampler(art))
    monkeypatch.setattr(home_bleed, "_clipped", lambda *room: work.append("cut") or clipped(*room))
    monkeypatch.setattr(home_bleed, "_allowances", lambda *page: work.append("rooms") or allowances(*page))
    return work


def _memo_files(kit: Path) -> list[Path]:
    return list((kit.parent / "user-cache").rglob("bleed-bands/*.bin"))


def test_a_new_output_folder_paints_the_same_bleed_without_sampling_or_cutting(kit, monkeypatch):
    work = _counting(monkeypatch)
    first = _components(kit, "first")
    assert "sample" in work and "cut" in work and "rooms" in work and _memo_files(kit)
    work.clear()
    assert _components(kit, "second") == first and work == []   # byte-identical, nothing worked out
    monkeypatch.setattr(bleed_memo, "bleed_salt", lambda: "the bleed's code changed")
    assert _components(kit, "third") == first and "sample" in work and "cut" in work


def _rewrite(kit: Path, path: Path, change) -> None:
    """The memo at `path` read, changed by change(entries) and sealed again as this user's pnpgen would."""
    from pnpgen.signing import seal
    memo = bleed_memo.BleedMemo(kit)
    assert memo.path == path and memo.known
    entries = dict(memo.known)
    change(entries)
    path.write_bytes(seal(memo.encode(entries)))


def _hostile(entries: dict) -> None:
    """Every cut made to cover a whole page in black, every colour made out of range."""
    from array import array
    for key, numbers in entries.items():
        entries[key] = array("d", [0.0, 0.0, 0.0, 4, -500.0, -500.0, 900.0, -500.0, 900.0, 900.0, -500.0, 900.0]
                             if key.startswith(b"k") else [7.0] * (len(numbers) // 8)).tobytes()


def _black(key: bytes, numbers) -> bytes:
    """An entry's colours made black, its points kept: as good an entry as any, but not this face's."""
    from array import array
    values = array("d", bytes(numbers))
    if key.startswith(b"r"):     # a layout's rooms: every side given no room, the half-planes kept
        at = 0
        while at < len(values):
            values[at:at + 4] = array("d", [0.0] * 4)
            at += 5 + 3 * int(values[at + 4])
        return values.tobytes()
    if key.startswith(b"c"):
        return array("d", [0.0 if v >= 0 else v for v in values]).tobytes()
    at = 0
    while at < len(values):
        values[at:at + 3] = array("d", [0.0] * 3)
        at += 4 + 2 * int(values[at + 3])
    return values.tobytes()


@pytest.mark.parametrize("damage", ["hostile", "garbled", "unsigned", "truncated"])
def test_a_memo_damaged_or_not_this_users_is_not_believed(kit, monkeypatch, damage):
    first = _components(kit, "first")
    for path in _memo_files(kit):
        if damage == "hostile":
            _rewrite(kit, path, _hostile)
        elif damage == "garbled":
            _rewrite(kit, path, lambda entries: entries.update({key: b"\xff" * 16 for key in entries}))   # NaNs
        elif damage == "unsigned":   # someone else's memo, well formed, every face's bleed black: never read
            memo = bleed_memo.BleedMemo(kit)
            path.write_bytes(memo.encode({key: _black(key, numbers) for key, numbers in memo.known.items()}))
        else:
            path.write_bytes(path.read_bytes()[:-40])
    work = _counting(monkeypatch)
    assert _components(kit, "second") == first and "sample" in work and "cut" in work
    assert _components(kit, "third") == first   # and the memo written again is good


def test_a_remembered_layouts_rooms_are_read_back_exactly_and_checked_before_use():
    """A page layout's rooms come back as the doubles they were (the cuts' keys and the PDF's bytes hang on
    them); rooms wider than the most bleed, a half-plane that is not one of _mitre's diagonals, a count of
    pieces not the layout's or a cut-off entry are not believed."""
    from array import array
    room = home_bleed.Room(1.25, 0.1 + 0.2, 0.0, home_bleed.HOME_BLEED, ((1.0, -1.0, 30.5 / 3),))
    rooms = [room, home_bleed.Room(0.0, 0.0, 0.0, 0.0, ())]
    packed = bleed_memo._pack_rooms(rooms)
    assert bleed_memo._rooms(packed, 2) == [tuple(room) for room in rooms]
    assert bleed_memo._rooms(packed, 3) is None and bleed_memo._rooms(packed[:-8], 2) is None
    for bad in (room._replace(left=2 * home_bleed.HOME_BLEED), room._replace(top=-1.0),
                room._replace(apart=((0.5, -1.0, 3.0),))):
        assert bleed_memo._rooms(bleed_memo._pack_rooms([bad, rooms[1]]), 2) is None
    assert bleed_memo._rooms(array("d", [0.0] * 4 + [1.5]).tobytes(), 1) is None   # half a half-plane


def test_a_pages_bare_edges_are_remembered_by_its_side_colours_and_checked_before_use(tmp_path, monkeypatch):
    """A page's bare-edge findings depend on its rects, which sides have no room and the slots' side colours
    only: a page whose faces changed in their middle (same side colours) is not weighed again, one whose
    colours changed is; a remembered slot past the page's count, an unknown side or reason is not believed."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    rects = [(0, 0, 36, 36), (36, 0, 36, 36), (72, 0, 36, 36)]
    rooms = home_bleed.slot_allowances(rects, (-99, -99, 999, 999), home_bleed.HOME_BLEED)
    red, blue = (0.8, 0.1, 0.1), (0.1, 0.1, 0.8)
    colours = [(red,) * 4, (red,) * 4, (blue,) * 4]
    memo, weighed = bleed_memo.BleedMemo(tmp_path / "kit"), []
    monkeypatch.setattr(home_bleed, "bare_edges", lambda *page, bare=home_bleed.bare_edges: weighed.append(1) or bare(*page))
    found = home_bleed.page_bare_edges(rects, rooms, colours, memo)
    assert found == [(1, "right", "neighbour"), (2, "left", "neighbour")] and weighed == [1]
    assert home_bleed.page_bare_edges(rects, rooms, list(colours), memo) == found and weighed == [1]
    assert home_bleed.page_bare_edges(rects, rooms, [(red,) * 4] * 3, memo) == [] and weighed == [1, 1]
    assert bleed_memo._bare(bleed_memo._pack_bare(found), 3) == found
    for bad in ([(3, "left", "edge")], [(0.5, "left", "edge")]):
        assert bleed_memo._bare(bleed_memo._pack([n for s, side, why in bad for n in (s, 0, 1)]), 3) is None
    assert bleed_memo._bare(bleed_memo._pack([0, 4, 0]), 3) is None and bleed_memo._bare(bleed_memo._pack([0, 0, 2]), 3) is None
    means = {0: red, 3: (0.0, 1.0, 0.5)}
    assert bleed_memo._means(bleed_memo._pack_means(means)) == means
    assert bleed_memo._means(bleed_memo._pack([4, *red])) is None and bleed_memo._means(bleed_memo._pack([0, 1.5, 0, 0])) is None
