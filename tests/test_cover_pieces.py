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
