"""Hex maps are a core board format: a kit of data only (tests/kits/hexes, no game module, no map template of
its own) prints its map as a poster and as Letter tiles. Hexes, marks and sizes are read back from the PDFs;
a broken map file is a located error that leaves the earlier output alone."""
from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from conftest import edit
from pnpgen import game_modules
from pnpgen.cli import main
from pnpgen.kit import load_kit

HEXES = Path(__file__).parent / "kits" / "hexes"
MAP = HEXES / "maps" / "island.yaml"


def _rows() -> list[str]:
    """The map's rows as written in the file, letters only."""
    text = MAP.read_text(encoding="utf-8")
    return ["".join(r.split()) for r in re.findall(r'^  - "(.*)"$', text, re.M)]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("hexes-out")
    assert main(["build", "--data", str(HEXES), "--out", str(out), "-q"]) == 0
    kit_out = out / "hexes"
    return kit_out, json.loads((kit_out / "manifest.json").read_text())


def poster_text(kit_out: Path) -> str:
    pdf = pdfium.PdfDocument(str(kit_out / "maps" / "island-poster.pdf"))
    return pdf[0].get_textpage().get_text_range()


def test_a_kit_of_data_only_has_its_maps_printed_by_the_core(built):
    kit, _ = load_kit(HEXES)
    assert kit.module is None and game_modules.of(kit) is None
    kit_out, manifest = built
    assert sorted(p.name for p in (kit_out / "maps").iterdir()) == ["island-poster.pdf", "island-tiles-letter.pdf"]
    assert [m["map"] for m in manifest["parts"]["maps"]["maps"]] == ["island"]


def test_every_hex_prints_its_coordinate_once(built):
    kit_out, manifest = built
    rows = _rows()
    on_map = sum(1 for row in rows for letter in row if letter != ".")
    labels = re.findall(r"\b\d{4}\b", poster_text(kit_out))
    assert len(labels) == len(set(labels)) == on_map == manifest["parts"]["maps"]["maps"][0]["hexes"] == 52
    expected = {f"{c + 1:02d}{r + 1:02d}" for r, row in enumerate(rows)
                for c, letter in enumerate(row) if letter != "."}
    assert set(labels) == expected


def test_marks_tracks_and_legend_print(built):
    text = poster_text(built[0])
    assert text.count("CAPITAL") == 2  # 'red capital' and 'blue capital': one hex each
    assert "Turn track" in text and "Phases of a turn" in text and "Supply" in text
    letters = "".join(_rows())
    for region, of in (("sea", "~"), ("forest", "f"), ("hills", "h"), ("Red", "rR"), ("Blue", "bB")):
        assert f"{region} ({sum(letters.count(c) for c in of)} hexes)" in text  # a player colour's name


def test_the_poster_is_the_board_at_full_size(built):
    """Pointy hexes 1 in across the flats, 10 columns by 6 rows; a track box is a 1/2 in counter + 1/8 in."""
    flats, cols, rows = 72.0, 10, 6
    grid_w, grid_h = flats * cols + flats / 2, flats / math.sqrt(3) * (1.5 * rows + 0.5)
    border, title, gap, caption, box, legend = 27.0, 45.0, 18.0, 13.5, 45.0, 27.0
    height = border + title + grid_h + gap + 2 * (caption + box + gap) + legend + border  # two one-row tracks
    page = PdfReader(built[0] / "maps" / "island-poster.pdf").pages[0].mediabox
    assert float(page.width) == pytest.approx(grid_w + 2 * border, abs=0.01)
    assert float(page.height) == pytest.approx(height, abs=0.01)


def test_the_tiles_are_letter_pages_after_an_assembly_page(built):
    kit_out, manifest = built
    entry = manifest["parts"]["maps"]["maps"][0]
    reader = PdfReader(kit_out / "maps" / "island-tiles-letter.pdf")
    rows, cols = entry["tile_grid"]
    assert len(reader.pages) == rows * cols + 1 == len(entry["pages"]) and rows * cols >= 2
    for page in reader.pages:
        assert sorted((round(float(page.mediabox.width)), round(float(page.mediabox.height)))) == [612, 792]
    assert "putting the" in reader.pages[0].extract_text()  # the assembly page
    shown = sum(p["hexes"] for p in entry["pages"] if p["kind"] == "tile")
    assert shown >= entry["hexes"]  # every hex on some tile (those on a seam on two)


def test_the_map_goes_to_the_digital_table_as_a_board_image(built, tmp_path):
    from PIL import Image
    assert main(["build", "--data", str(HEXES), "--out", str(tmp_path), "--only", "tts", "-q"]) == 0
    saved = json.loads((tmp_path / "hexes" / "tts" / "hexes.json").read_text())
    boards = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert [b["Nickname"] for b in boards] == ["Map: island"]
    poster = PdfReader(built[0] / "maps" / "island-poster.pdf").pages[0].mediabox
    with Image.open(tmp_path / "hexes" / "tts" / "map-island.png") as png:
        assert png.width / png.height == pytest.approx(float(poster.width) / float(poster.height), rel=0.01)


def snapshot(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}


@pytest.mark.parametrize("old, new, field, words", [
    ('  - "~ ~ r f h h f b ~ ~"', '  - "~ ~ r f h h x b ~ ~"', "rows[3]", "letter 'x' (hex 0704) is not in the legend"),
    ("hex_size: 1in", "hex_size: 1in\nhex_sise: 2in", "hex_sise", "unknown field (did you mean 'hex_size'?)"),
    ("hex_size: 1in", "hex_size: big", "hex_size", "must be a length such as 1.25in or 32mm, not 'big'"),
    ("hex_size: 1in", "hex_size: 0.5in", "hex_size", "0.5in across the flats cannot hold a 1/2in counter"),
    ('caption: "Turn track", boxes: 12', 'caption: "Turn track"', "tracks[0]", "give either `boxes`"),
    ("  h: hills", "  h: rolling green hills", "legend.h", "must be a region's name, then maybe a mark"),
    ('sea: "#d6eaf8"', "sea: blue", "fills.sea", "must be a colour written #rrggbb, not 'blue'"),
])
def test_a_broken_map_is_located_and_leaves_earlier_output_intact(tmp_path, capsys, old, new, field, words):
    kit = tmp_path / "hexes"
    shutil.copytree(HEXES, kit)
    out = tmp_path / "out"
    assert main(["build", "--data", str(kit), "--out", str(out), "-q"]) == 0
    before = snapshot(out)
    line = edit(kit / "maps" / "island.yaml", old, new) + new.count("\n")  # an added line holds the error
    assert main(["build", "--data", str(kit), "--out", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"island.yaml:{line}: {field}: {words}" in err, err
    assert "Traceback" not in err and snapshot(out) == before


def test_a_maps_folder_outside_the_kit_is_located(tmp_path, capsys):
    kit = tmp_path / "hexes"
    shutil.copytree(HEXES, kit)
    with (kit / "kit.yaml").open("a", encoding="utf-8") as f:
        f.write("maps: ../elsewhere\n")
    line = len((kit / "kit.yaml").read_text(encoding="utf-8").splitlines())
    assert main(["validate", "--data", str(kit)]) == 1
    assert f"kit.yaml:{line}: maps: '../elsewhere' is not a folder inside the kit" in capsys.readouterr().err


def test_a_map_template_sees_the_kit_by_name_only(tmp_path, capsys):
    """The maps part is keyed by the map files and kit.yaml, not the kit's tables: its template sees the kit's
    id, title and subtitle, and asking for more is a located error, not a poster left stale by a table edit."""
    kit = tmp_path / "hexes"
    shutil.copytree(HEXES, kit)
    (kit / "templates").mkdir()
    builtin = (Path(__file__).parent.parent / "templates" / "map.svg.j2").read_text(encoding="utf-8")
    (kit / "templates" / "map.svg.j2").write_text(builtin.replace("</svg>", "<!-- {{ kit.title }} -->\n</svg>"),
                                                  encoding="utf-8")
    assert main(["build", "--data", str(kit), "--out", str(tmp_path / "out"), "-q"]) == 0
    (kit / "templates" / "map.svg.j2").write_text(
        builtin.replace("</svg>", "{{ kit.tables.cards }}\n</svg>"), encoding="utf-8")
    assert main(["build", "--data", str(kit), "--out", str(tmp_path / "out"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "map.svg.j2:" in err and "no attribute 'tables'" in err and "Traceback" not in err, err
