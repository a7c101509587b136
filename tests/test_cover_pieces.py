"""The designed front cover shows the kit's own pieces (kit.yaml `cover.pieces`), drawn by the sheets'
templates over the picture, read back from the built booklet's pixels and words; a piece that is not the
kit's, a set too large for the picture and a piece whose text would print under 6 pt stop the build at
kit.yaml. The cover credits name only what the rules sources say. The default kit's booklet comes from the
session build; the error cases build the small test kit's documents only (about 1 s each)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

from pnpgen.booklet.cover import piece_places, piece_rows
from pnpgen.documents.cover_data import cover_of
from pnpgen.kit_folder import BUILTIN_DATA

MINI = Path(__file__).parent / "kits" / "mini"
SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"


def test_the_front_cover_shows_the_kits_own_pieces(default_kit_build, default_kit):
    """Each coloured piece the cover names is drawn where the layout placed it, over the sky (most of its box
    in its colour's print: a quarter at least), and the words the pieces print are on the front page."""
    cover = cover_of(default_kit, "booklet", {"title": None}, "long")
    assert len(cover.pieces) >= 4
    document = pdfium.PdfDocument(str(default_kit_build / "booklet.pdf"))
    page = document[0]
    size = (page.get_width(), page.get_height())
    scale = 2.0
    pixels = page.render(scale=scale).to_pil().convert("RGB")
    places = piece_places(size, *piece_rows(cover))
    coloured = [(p, place) for p, place in zip(cover.pieces, places) if p.colour != "neutral"]
    assert {p.colour for p, _ in coloured} == {c.id for c in default_kit.colours}
    for piece, (x, y, w, h) in coloured:
        want = tuple(int(default_kit.colour(piece.colour).print[i:i + 2], 16) for i in (1, 3, 5))
        box = pixels.crop((int(x * scale), int((size[1] - y - h) * scale), int((x + w) * scale),
                           int((size[1] - y) * scale)))
        near = sum(n for n, rgb in box.getcolors(box.width * box.height)
                   if sum(abs(a - b) for a, b in zip(rgb, want)) < 40)
        assert near > 0.25 * box.width * box.height, (piece.ref, piece.colour)  # the sky alone: none
    words = " ".join(page.get_textpage().get_text_range().split())
    for word in ("Homeworld", "Black Hole", "Supernova", "Minerals"):
        assert word in words


@pytest.fixture
def mini_with_cover(tmp_path) -> Path:
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    with (kit / "kit.yaml").open("a", encoding="utf-8") as out:
        out.write("\ncover:\n  pieces:\n    - {piece: cards.Explore, scale: 1.0}\n")
    return kit


@pytest.mark.parametrize("entry, said", [
    ("{piece: cards.Exploer}", r"kit\.yaml:\d+: cover\.pieces\[0\]: no piece 'cards\.Exploer' among the kit's pieces"),
    ("{piece: cards.Explore, colour: green}", r"kit\.yaml:\d+: cover\.pieces\[0\]: no piece 'cards\.Explore' in "
                                               r"colour 'green'"),
    ("{piece: cards.Explore, scale: 3}", r"kit\.yaml:\d+: cover\.pieces: the pieces do not fit the front picture"),
    ("{piece: cards.Explore, scale: 0.3}", r"figure kit\.yaml cover \(.*\) on page 1: text .* below the 6 pt"),
])
def test_a_cover_piece_the_picture_cannot_show_is_located(run_cli, mini_with_cover, tmp_path, entry, said):
    kit_file = mini_with_cover / "kit.yaml"
    kit_file.write_text(kit_file.read_text(encoding="utf-8").replace("{piece: cards.Explore, scale: 1.0}", entry),
                        encoding="utf-8")
    result = run_cli("build", "--data", mini_with_cover, "--out", tmp_path / "out", "--only", "documents")
    assert result.code == 1 and re.search(said, result.err), result.err


def test_a_cover_piece_at_print_size_builds(run_cli, mini_with_cover, tmp_path):
    assert run_cli("build", "--data", mini_with_cover, "--out", tmp_path / "out", "--only", "documents").code == 0


@pytest.mark.parametrize("kit", sorted(p.name for p in BUILTIN_DATA.iterdir() if (p / "kit.yaml").is_file()))
def test_cover_credits_name_only_what_the_sources_say(kit):
    """Each bundled kit's cover credits: every name (a capitalised word after a line's first) and every year
    occurs in the rules sources (../shared/seeds, its README naming each source's language), so no credit
    names a designer, publisher or date the sources do not give."""
    sources = " ".join(p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*")) if p.is_file())
    declared = yaml.safe_load((BUILTIN_DATA / kit / "kit.yaml").read_text(encoding="utf-8"))
    for line in (declared.get("cover") or {}).get("credits") or ():
        names = re.findall(r"(?<=[\s(])[A-Z][\w.]*|\b\d{4}\b", line)
        unsourced = [n.rstrip(".") for n in names if n.rstrip(".") not in sources]
        assert not unsourced, f"{kit}: credit {line!r} names {unsourced}, which no rules source says"


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def ruling_ids(kit: str) -> list[str]:
    """The kit's ruling ids in data/rules.yaml order (a mapping's keys, or a list's items' ids)."""
    path = BUILTIN_DATA / kit / "data" / "rules.yaml"
    rulings = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("rulings") if path.exists() else None
    return [r["id"] for r in rulings] if isinstance(rulings, list) else list(rulings or {})


def sources_of(title: str) -> list[str]:
    """The rules sources of the game a kit is titled after: the seeds README's rows whose game starts so."""
    rows = [line.split("|")[1:3] for line in (SEEDS / "README.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| 0")]
    found = [name.strip() for name, game in rows if game.strip().startswith(title)]
    assert found, title
    return found


@pytest.mark.parametrize("kit", sorted(p.name for p in BUILTIN_DATA.iterdir() if (p / "kit.yaml").is_file()))
def test_cover_facts_are_the_sources_or_marked_as_the_kits(kit):
    """Each bundled kit's cover facts (its player count, ages and time): a fact the rules sources state ("1 to 4
    players", "one to four players") is printed bare; one they do not state (4X Space Euro's source gives one
    quadrant per player, Eclipse's six player boards and a two-player game, neither a player count) names the
    kit ruling that decides it in kit.yaml `cover.rulings`, which the cover prints as "(kit ruling N)"."""
    declared = yaml.safe_load((BUILTIN_DATA / kit / "kit.yaml").read_text(encoding="utf-8"))
    sources = " ".join((SEEDS / name).read_text(encoding="utf-8") for name in sources_of(declared["title"])).lower()
    cover, low, high = declared["cover"], declared["players"]["min"], declared["players"]["max"]
    facts = {"players": {f"{low} to {high} players", f"{NUMBERS[low]} to {NUMBERS[high]} players"},
             "ages": {str(cover.get("ages")).lower()}, "time": {str(cover.get("time")).lower()}}
    marked = cover.get("rulings") or {}
    for fact, said in facts.items():
        if fact != "players" and not cover.get(fact):
            continue
        sourced = any(words in sources for words in said)
        assert sourced != bool(marked.get(fact)), (kit, fact, "sourced" if sourced else "unsourced", marked)
        if marked.get(fact):
            assert marked[fact] in ruling_ids(kit), (kit, fact)


def test_a_cover_ruling_the_kit_does_not_have_is_located(run_cli, mini_with_cover, tmp_path):
    with (mini_with_cover / "kit.yaml").open("a", encoding="utf-8") as out:
        out.write("  rulings: {players: two_players}\n")
    result = run_cli("build", "--data", mini_with_cover, "--out", tmp_path / "out", "--only", "documents")
    assert result.code == 1
    assert re.search(r"kit\.yaml:\d+: cover\.rulings\.players: no ruling 'two_players' in data/rules\.yaml",
                     result.err), result.err
