"""The printed maps: poster size, tiles, manifest, and hex edges that meet across a seam (rendered pixels)."""
from __future__ import annotations

import json

import pypdfium2
import pytest
from pypdf import PdfReader

from pnpgen.cli import main
from pnpgen.maps.draw import compose
from pnpgen.maps.tiling import OVERLAP

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


def test_tiles_pdf_has_an_assembly_page_and_one_labelled_page_per_tile(built, plan):
    kit_out, manifest = built
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
def test_hex_edges_meet_in_the_overlap_of_neighbouring_tiles(built, plan, first, second, side):
    """Render both tiles; the strip one shows at its right/bottom edge equals what the other shows first,
    but for the pink ticks across the GLUE strip (the tile glued over it hides them)."""
    kit_out, _ = built
    tiles = {t.label: t for t in plan.tiles}
    a, b = tiles[first], tiles[second]
    pdf = pypdfium2.PdfDocument(kit_out / "maps" / f"{MAP}-tiles-letter.pdf")
    image_a, image_b = (pdf[t.page].render(scale=SCALE).to_pil().convert("RGB") for t in (a, b))
    inset = 3  # keep clear of the dashed trim and glue lines drawn on the strip's edges
    if side == "right":
        box_a = (a.clip.x + a.clip.w - OVERLAP + inset, a.clip.y + inset, a.clip.x + a.clip.w - inset,
                 a.clip.y + a.clip.h - inset)
        box_b = (b.clip.x + inset, box_a[1], b.clip.x + OVERLAP - inset, box_a[3])
    else:
        box_a = (a.clip.x + inset, a.clip.y + a.clip.h - OVERLAP + inset, a.clip.x + a.clip.w - inset,
                 a.clip.y + a.clip.h - inset)
        box_b = (box_a[0], b.clip.y + inset, box_a[2], b.clip.y + OVERLAP - inset)
    strip_a, strip_b = (image.crop(tuple(round(v * SCALE) for v in box)) for image, box in ((image_a, box_a), (image_b, box_b)))
    assert strip_a.size == strip_b.size
    ticks = {xy for xy, p in zip(_pixels(strip_a), strip_a.get_flattened_data()) if _is_pink(p)}
    assert ticks and not any(_is_pink(p) for p in strip_b.get_flattened_data())
    near = {(x + dx, y + dy) for x, y in ticks for dx in range(-3, 4) for dy in range(-3, 4)}
    for xy in near & set(_pixels(strip_a)):   # under the ticks, what the other tile shows
        strip_a.putpixel(xy, strip_b.getpixel(xy))
    strip_a, strip_b = strip_a.convert("L"), strip_b.convert("L")
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


@pytest.fixture(scope="module")
def plan(built, board, default_kit):
    """The plan the build used (its seams follow the map's text): the manifest's tile regions are its."""
    from pnpgen.maps.files import plan_map_tiles
    from pnpgen.render.pdf import ArtCache
    from pnpgen.maps.draw import map_svg
    plan, cut = plan_map_tiles(board, ArtCache().get(map_svg(default_kit, board)), "letter")
    entry = built[1]["parts"]["maps"]["maps"][0]
    assert cut == entry["seams_cut"] == []
    regions = [p["region_pt"] for p in entry["pages"] if p["kind"] == "tile"]
    assert regions == [[round(v, 2) for v in (t.source.x, t.source.y, t.source.w, t.source.h)] for t in plan.tiles]
    return plan


def _kept(tile, plan) -> tuple:
    """The page area of a tile that stays in view once the tiles are glued: its clip less its GLUE strips."""
    right = tile.clip.x + tile.clip.w - (OVERLAP if "right" in tile.neighbours else 0)
    bottom = tile.clip.y + tile.clip.h - (OVERLAP if "bottom" in tile.neighbours else 0)
    return tile.clip.x, tile.clip.y, right, bottom


def _is_pink(pixel) -> bool:
    """The ticks' #c00060: the red player's inks have as much blue as green, the pink far more."""
    r, g, b = pixel[:3]
    return r > 150 and g < 110 and b - g > 40


def test_alignment_ticks_print_only_where_the_assembled_map_hides_them(built, board, plan):
    """Render every tile, paste what each keeps where it goes on the board (the map assembled): no pink tick
    pixel is left on it, while each tile carries its ticks in its GLUE strips and cut-off margins, and the
    assembled map's ink matches the poster's."""
    from PIL import Image
    kit_out, _ = built
    pdf = pypdfium2.PdfDocument(kit_out / "maps" / f"{MAP}-tiles-letter.pdf")
    assembled = Image.new("RGB", (round(board.width), round(board.height)), "white")
    for tile in plan.tiles:
        image = pdf[tile.page].render(scale=1).to_pil().convert("RGB")
        pink = sum(_is_pink(p) for p in image.get_flattened_data())
        assert pink >= 10 * len(tile.neighbours), tile.label   # a few ticks per seam side, ~1 pt wide
        x0, y0, x1, y1 = (round(v) for v in _kept(tile, plan))
        assembled.paste(image.crop((x0, y0, x1, y1)), (round(tile.source.x), round(tile.source.y)))
    assert not [xy for xy, p in zip(_pixels(assembled), assembled.get_flattened_data()) if _is_pink(p)]
    poster = pypdfium2.PdfDocument(kit_out / "maps" / f"{MAP}-poster.pdf")[0].render(scale=1).to_pil().convert("L")
    dark_poster = sum(v < 100 for v in poster.get_flattened_data())
    dark_assembled = sum(v < 100 for v in assembled.convert("L").get_flattened_data())
    assert abs(dark_assembled - dark_poster) <= 0.02 * dark_poster


def test_no_text_crosses_a_seam_on_any_tile(built, plan):
    """Each tile page's text layer (the whole map's text, clipped): no line of text runs across the tile's
    seams, the cut edge on its left/top and the edge of its GLUE strip on its right/bottom; the legend
    prints whole on the tiles."""
    kit_out, _ = built
    pdf = pypdfium2.PdfDocument(kit_out / "maps" / f"{MAP}-tiles-letter.pdf")
    whole_legend = set()
    for tile in plan.tiles:
        page = pdf[tile.page]
        height = page.get_size()[1]
        x0, y0, x1, y1 = _kept(tile, plan)
        seams_x = [x for x, side in ((x0, "left"), (x1, "right")) if side in tile.neighbours]
        seams_y = [y for y, side in ((y0, "top"), (y1, "bottom")) if side in tile.neighbours]
        for text, (left, top, right, bottom) in _lines(page.get_textpage(), height):
            assert not any(left < x < right for x in seams_x), (tile.label, text, "vertical seam")
            assert not any(top < y < bottom for y in seams_y), (tile.label, text, "horizontal seam")
            if "homesystem(26hexes)" in text and x0 <= left and right <= x1 and y0 <= top and bottom <= y1:
                whole_legend.add(text)
    assert len(whole_legend) == 4


def _lines(textpage, height):
    """(text, box in page points from the top) of each line of characters on a page."""
    lines, last = [], None
    for index in range(textpage.count_chars()):
        left, low, right, high = textpage.get_charbox(index)
        char = textpage.get_text_range(index, 1)
        if char.strip() == "" or right <= left:
            continue
        box = (left, height - high, right, height - low)
        size = box[3] - box[1]
        if last and abs(box[3] - last[1][3]) < size * 0.6 and -1 <= box[0] - last[1][2] <= size * 1.2:
            text, prev = last
            last = (text + char, (prev[0], min(prev[1], box[1]), box[2], max(prev[3], box[3])))
            lines[-1] = last
        else:
            last = (char, box)
            lines.append(last)
    return lines


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


def test_space_empires_map_draws_terrain_per_hex_kind(built, board):
    """The poster, rendered: every deep-space hex shows its starfield (star-grey pixels), no home-system hex
    does; each Homeworld shows its planet (a white disc on the tinted hex), no other home hex does; the
    legend names the starfield, so colour is never the only cue."""
    kit_out, _ = built
    page = pypdfium2.PdfDocument(kit_out / "maps" / f"{MAP}-poster.pdf")[0]
    image = page.render(scale=1).to_pil().convert("RGB")
    flats = board.hexmap.hex_size
    for cell in board.hexes:
        x, y = cell.centre
        box = tuple(round(v) for v in (x - 0.32 * flats, y - 0.22 * flats, x + 0.32 * flats, y + 0.36 * flats))
        pixels = list(image.crop(box).get_flattened_data())
        stars = sum(abs(r - 125) < 30 and abs(g - 136) < 30 and abs(b - 168) < 30 and b > r + 20 for r, g, b in pixels)
        white = sum(min(p) > 245 for p in pixels)
        if cell.region == "deep-space":
            assert stars >= 20 and white == 0, (cell.label, stars, white)
        else:
            assert stars <= 3 or cell.mark == "homeworld", (cell.label, stars)   # blue dots, blue rings: near the grey
            assert (white >= 40) == (cell.mark == "homeworld"), (cell.label, white)
    assert "starfield, no emblem" in PdfReader(kit_out / "maps" / f"{MAP}-poster.pdf").pages[0].extract_text()
