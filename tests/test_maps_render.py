"""The printed maps: poster size, tiles, manifest, and hex edges that meet across a seam (rendered pixels)."""
from __future__ import annotations

import json

import pypdfium2
import pytest
from pypdf import PdfReader

from pnpgen.cli import main
from pnpgen.maps.draw import compose
from pnpgen.maps.tiling import OVERLAP, plan_tiles

MAP = "four-player"
SCALE = 2  # render at 144 dpi: one point is two pixels


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("maps")
    assert main(["build", "--only", "map", "--map", MAP, "--out", str(out), "--quiet"]) == 0
    kit_out = out / "space-empires-4x"
    return kit_out, json.loads((kit_out / "manifest.json").read_text())


@pytest.fixture(scope="module")
def board(default_kit):
    layout = next(m for m in default_kit.maps if m.id == MAP)
    return compose(default_kit, layout, "45pt")


def test_only_the_named_map_is_built(built):
    kit_out, manifest = built
    files = sorted(p.name for p in (kit_out / "maps").iterdir())
    assert files == [f"{MAP}-poster.pdf", f"{MAP}-tiles-letter.pdf"]
    assert [m["map"] for m in manifest["parts"]["maps"]["maps"]] == [MAP]


def test_poster_is_one_page_at_the_boards_physical_size(built, board):
    kit_out, _ = built
    reader = PdfReader(kit_out / "maps" / f"{MAP}-poster.pdf")
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert float(box.width) == pytest.approx(board.width, abs=0.01)
    assert float(box.height) == pytest.approx(board.height, abs=0.01)
    # the hexes print at their size: coordinates one row apart sit one hex (1.25 in = 90 pt) apart
    positions = _text_positions(reader.pages[0])
    assert abs(positions["0406"][1] - positions["0405"][1]) == pytest.approx(90.0, abs=0.01)
    assert positions["0405"][0] == pytest.approx(positions["0406"][0], abs=1)  # centred text, glyph widths vary


def test_poster_holds_the_scenario_legend_and_every_coordinate(built, board):
    kit_out, _ = built
    text = PdfReader(kit_out / "maps" / f"{MAP}-poster.pdf").pages[0].extract_text()
    assert "Four empires" in text and "Economic Phase" in text
    assert "Deep space (46 hexes)" in text and "Red home system (26 hexes" in text
    assert all(cell.label in text for cell in board.hexes)
    assert text.count("HOMEWORLD") == 4


def test_tiles_pdf_has_an_assembly_page_and_one_labelled_page_per_tile(built, board):
    kit_out, manifest = built
    plan = plan_tiles(board.width, board.height, "letter")
    reader = PdfReader(kit_out / "maps" / f"{MAP}-tiles-letter.pdf")
    assert len(reader.pages) == plan.count + 1 == 9
    assert "putting the 8 tiles together" in reader.pages[0].extract_text()
    entry = manifest["parts"]["maps"]["maps"][0]
    labels = [p["label"] for p in entry["pages"] if p["kind"] == "tile"]
    assert labels == ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2"]
    for page in entry["pages"][1:]:
        text = "".join(reader.pages[page["page"] - 1].extract_text().split())
        assert f"tile{page['label']}of8" in text
        size = reader.pages[page["page"] - 1].mediabox
        assert (float(size.width), float(size.height)) == pytest.approx(plan.page)
    assert entry["pages"][1]["region_pt"] == [0.0, 0.0, round(plan.tiles[0].source.w, 2),
                                              round(plan.tiles[0].source.h, 2)]


@pytest.mark.parametrize("first, second, side", [("A1", "A2", "right"), ("B1", "C1", "bottom")])
def test_hex_edges_meet_in_the_overlap_of_neighbouring_tiles(built, board, first, second, side):
    """Render both tiles; the strip one shows at its right/bottom edge equals what the other shows first."""
    kit_out, _ = built
    plan = plan_tiles(board.width, board.height, "letter")
    tiles = {t.label: t for t in plan.tiles}
    a, b = tiles[first], tiles[second]
    pdf = pypdfium2.PdfDocument(kit_out / "maps" / f"{MAP}-tiles-letter.pdf")
    image_a, image_b = (pdf[t.page].render(scale=SCALE).to_pil().convert("L") for t in (a, b))
    inset = 3  # keep clear of the dashed trim and glue lines drawn on the strip's edges
    if side == "right":
        box_a = (a.clip.x + a.clip.w - OVERLAP + inset, a.clip.y + inset, a.clip.x + a.clip.w - inset,
                 a.clip.y + a.clip.h - inset)
        box_b = (b.clip.x + inset, box_a[1], b.clip.x + OVERLAP - inset, box_a[3])
    else:
        box_a = (a.clip.x + inset, a.clip.y + a.clip.h - OVERLAP + inset, a.clip.x + a.clip.w - inset,
                 a.clip.y + a.clip.h - inset)
        box_b = (box_a[0], b.clip.y + inset, box_a[2], b.clip.y + OVERLAP - inset)
    strip_a = image_a.crop(tuple(round(v * SCALE) for v in box_a))
    strip_b = image_b.crop(tuple(round(v * SCALE) for v in box_b))
    assert strip_a.size == strip_b.size
    dark_a = {xy for xy in _pixels(strip_a) if strip_a.getpixel(xy) < 100}
    dark_b = {xy for xy in _pixels(strip_b) if strip_b.getpixel(xy) < 100}
    assert len(dark_a) > 200  # hex edges (and coordinates) really cross this seam
    assert len(dark_a ^ dark_b) <= 0.02 * len(dark_a)
    differing = sum(abs(p - q) > 40 for p, q in zip(strip_a.tobytes(), strip_b.tobytes()))
    assert differing <= 0.01 * strip_a.size[0] * strip_a.size[1]


def test_unknown_map_name_is_a_usage_error(run_cli, tmp_path):
    result = run_cli("build", "--only", "maps", "--map", "nowhere", "--out", tmp_path)
    assert result.code == 2
    assert "unknown map 'nowhere' for --map (known: duel-large" in result.err


def test_maps_build_byte_identical(tmp_path):
    poster = []
    for run in ("one", "two"):
        assert main(["build", "--only", "map", "--map", "duel-small", "--out", str(tmp_path / run), "-q"]) == 0
        poster.append((tmp_path / run / "space-empires-4x" / "maps" / "duel-small-tiles-letter.pdf").read_bytes())
    assert poster[0] == poster[1]


def _pixels(image):
    width, height = image.size
    return ((x, y) for y in range(height) for x in range(width))


def _text_positions(page) -> dict:
    """text -> (x, y) in PDF user space, for the hex coordinates printed on a page."""
    found = {}

    def visit(text, cm, tm, font, size):
        if text.strip().isdigit() and len(text.strip()) == 4:
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.setdefault(text.strip(), (x, y))
    page.extract_text(visitor_text=visit)
    return found


def test_every_tile_shows_the_alignment_marks_on_its_seams(built, board):
    """Each mark crossing a tile's seam is printed on that tile (cairo would drop all but the first tile's
    marks from the shared art if the first use were clipped)."""
    kit_out, _ = built
    plan = plan_tiles(board.width, board.height, "letter")
    pdf = pypdfium2.PdfDocument(kit_out / "maps" / f"{MAP}-tiles-letter.pdf")
    for tile in plan.tiles:
        image = pdf[tile.page].render(scale=SCALE).to_pil().convert("RGB")
        checked = 0
        for x1, y1, x2, y2 in plan.marks:
            for t in (0.25, 0.75):
                x, y = tile.at[0] + x1 + (x2 - x1) * t, tile.at[1] + y1 + (y2 - y1) * t
                if tile.clip.x + 2 < x < tile.clip.x + tile.clip.w - 2 and tile.clip.y + 2 < y < tile.clip.y + tile.clip.h - 2:
                    assert _pink_near(image, x * SCALE, y * SCALE), (tile.label, (x1, y1))
                    checked += 1
        assert checked >= 2 * len(tile.neighbours)


def _pink_near(image, x: float, y: float) -> bool:
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            r, g, b = image.getpixel((round(x) + dx, round(y) + dy))
            if r > 150 and g < 110 and b > 50:
                return True
    return False


def test_pointy_orientation_and_hex_size_are_configurable(run_cli, kit_copy, tmp_path):
    """The duel-small board transposed into pointy-topped rows at 1.5 in: same regions, same rules pass,
    and the poster's hexes sit 1.5 in apart along a row."""
    path = kit_copy / "maps" / "duel-small.yaml"
    text = path.read_text()
    rows = [line.split('"')[1].split() for line in text.splitlines() if line.startswith('  - "')]
    transposed = ['  - "' + " ".join(r[c] for r in rows) + '"' for c in range(len(rows[0]))]
    head = text[: text.index("rows:")].replace("orientation: flat", "orientation: pointy")
    path.write_text(head.replace("hex_size: 1.25in", "hex_size: 1.5in") + "rows:\n" + "\n".join(transposed) + "\n")
    assert run_cli("validate", "--quick", "--data", kit_copy).code == 0  # the data; the build below draws
    result = run_cli("build", "--data", kit_copy, "--only", "map", "--map", "duel-small", "--out", tmp_path)
    assert result.code == 0, result.err
    reader = PdfReader(tmp_path / "space-empires-4x" / "maps" / "duel-small-poster.pdf")
    positions = _text_positions(reader.pages[0])
    assert abs(positions["0203"][0] - positions["0103"][0]) == pytest.approx(108.0, abs=1)
    assert positions["0203"][1] == pytest.approx(positions["0103"][1], abs=0.01)


def test_counters_too_big_for_the_hexes_stop_the_build(run_cli, tmp_path):
    result = run_cli("build", "--only", "map", "--map", "duel-small", "--counter-size", "1in", "--out", tmp_path)
    assert result.code == 1
    assert "maps/duel-small.yaml:7: hex_size: 1.25in across the flats cannot hold a 1in counter" in result.err
    assert not (tmp_path / "space-empires-4x" / "maps").exists()
