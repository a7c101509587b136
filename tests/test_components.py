"""The generic component layer on a small kit with no Space Empires file (tests/kits/mini): cards, round
tokens (rows from CSV), hex tiles, one-sided square chits, a place-and-link board and a booklet.

Everything is read back from the PDFs and the manifest: page sizes, piece sizes in points, counts, text,
mirrored backs and pixels of each shape's cut path."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
from pypdf import PdfReader
import pytest

from pnpgen.cli import main
from tests.conftest import edit
from tests.duplex_printer import lands_on, page_size

MINI = Path(__file__).parent / "kits" / "mini"
MM = 72 / 25.4


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("mini-out")
    assert main(["build", "--data", str(MINI), "--out", str(out), "-q"]) == 0
    kit_out = out / "mini"
    return kit_out, json.loads((kit_out / "manifest.json").read_text())


def page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    return ["".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf))]


def placements(manifest, file=None, side=None):
    rows = manifest["parts"]["components"]["placements"]
    return [p for p in rows if (file is None or p["file"] == file) and (side is None or p["side"] == side)]


def test_every_piece_is_printed_once_on_a_front(built):
    _, manifest = built
    fronts = Counter(p["ref"].split(".")[0] for p in placements(manifest, side="front"))
    assert fronts == {"cards": 12, "tokens": 16, "tiles": 6, "chits": 10}


def test_piece_sizes_are_exact_in_points(built):
    _, manifest = built
    sizes = {(p["ref"].split(".")[0], round(p["w"], 2), round(p["h"], 2)) for p in placements(manifest)}
    assert sizes == {("cards", round(63.5 * MM, 2), round(88.9 * MM, 2)), ("tokens", 54.0, 54.0),
                     ("tiles", round(144 * 2 / 3 ** 0.5, 2), 144.0), ("chits", 36.0, 36.0)}


def test_crop_marked_poker_cards_go_eight_to_a_letter_page(built):
    """Nine would fill the printable height and leave their crop marks no room (tests/test_printable_marks)."""
    _, manifest = built
    first = [p for p in placements(manifest, "cards.pdf", "front") if p["page"] == 1]
    assert len(first) == 8 and len({p["y"] for p in first}) == 2


def test_texts_print_on_the_cards_and_counts_read_back(built):
    kit_out, _ = built
    fronts = "".join(page_texts(kit_out / "cards.pdf")[0::2])
    assert fronts.count("Explore") == 4 and fronts.count("Build") == 4 and fronts.count("Trade") == 4
    tokens = "".join(page_texts(kit_out / "tokens-red.pdf")[0::2])
    assert Counter(c for c in tokens if c in "125") >= Counter({"1": 4, "2": 3, "5": 1})


def test_backs_land_on_their_fronts_for_long_edge_duplex(built):
    """Each back sits on the page after its front where a long-edge flip lands it: mirrored left-right on a
    portrait page, top-bottom (and turned half a turn) on a landscape one."""
    kit_out, manifest = built
    for file in ("cards.pdf", "tiles.pdf", "tokens-red.pdf"):
        fronts = placements(manifest, file, "front")
        backs = placements(manifest, file, "back")
        assert backs, file
        for b in backs:
            page = page_size(kit_out / file, b["page"])
            assert any(f["page"] == b["page"] - 1 and f["ref"] == b["ref"] and lands_on(b, f, page, "long")
                       for f in fronts), (file, b)


def test_one_sided_pieces_get_no_back_pages(built):
    kit_out, manifest = built
    assert not placements(manifest, "chits.pdf", "back")
    assert len(pdfium.PdfDocument(str(kit_out / "chits.pdf"))) == 1


def _render(path: Path, page: int, scale: float = 2.0):
    pdf = pdfium.PdfDocument(str(path))
    return pdf[page].render(scale=scale).to_pil().convert("RGB"), scale


def test_circle_and_hex_art_is_clipped_to_the_shape(built):
    kit_out, manifest = built
    for file, inside_colour in (("tokens-red.pdf", (198, 40, 40)), ("tiles.pdf", None)):
        image, scale = _render(kit_out / file, 0)
        p = placements(manifest, file, "front")[0]
        cx, cy = (p["x"] + p["w"] / 2) * scale, (p["y"] + p["h"] / 2) * scale
        corner = (p["x"] + 2) * scale, (p["y"] + 2) * scale   # inside the bounding box, outside the shape
        assert image.getpixel((int(corner[0]), int(corner[1]))) == (255, 255, 255), file
        centre = image.getpixel((int(cx - p["w"] * scale * 0.3), int(cy)))
        assert centre != (255, 255, 255), file


def test_board_is_a_poster_at_its_size_and_tiles(built):
    kit_out, manifest = built
    poster = pdfium.PdfDocument(str(kit_out / "boards" / "board-poster.pdf"))
    w, h = poster[0].get_size()
    assert (round(w, 1), round(h, 1)) == (792.0, 612.0)
    assert "Centre" in page_texts(kit_out / "boards" / "board-poster.pdf")[0]
    tiles = manifest["parts"]["boards"]["files"][1]
    assert tiles["pages"] == len(tiles["tiles"]) + 1 >= 3


def test_booklet_quotes_the_tables(built):
    kit_out, _ = built
    text = "".join(page_texts(kit_out / "booklet.pdf"))
    assert "shufflethe12cards" in text.lower()
    assert "Copies" in text


def test_booklet_prints_the_kits_declared_charts(built):
    """charts.yaml: a chart from a table's rows with a total, one picked by columns, sections with titles."""
    kit_out, _ = built
    text = "".join(page_texts(kit_out / "booklet.pdf"))
    assert "CardCopiesExplore4Build4Trade4Allcards12" in text
    assert "TerrainPointsTilesTilesthatscoreHills12TilesthatdonotPlains03Void01" in text
    assert "Onlythehillsscore:TerrainPointsHills1Winning" in text


def test_list_prints_the_inventory(capsys):
    assert main(["list", "--data", str(MINI)]) == 0
    out = capsys.readouterr().out
    assert "Action cards: 12" in out and "Player tokens: 16 (8 per colour)" in out and "Total: 44 pieces" in out


def test_blank_kit_builds_as_written(tmp_path, capsys):
    assert main(["new", "--blank", str(tmp_path / "my-game")]) == 0
    assert main(["build", "--data", str(tmp_path / "my-game"), "--out", str(tmp_path / "out"), "-q"]) == 0
    kit_out = tmp_path / "out" / "my-game"
    files = {p.name for p in kit_out.iterdir()}
    assert {"cards.pdf", "tiles.pdf", "tokens.pdf", "booklet.pdf", "manifest.json"} <= files
    assert not any(name.startswith("tokens-") for name in files)  # small tokens: every colour on shared sheets
    placed = [p for p in json.loads((kit_out / "manifest.json").read_text())["parts"]["components"]["placements"]
              if p["file"] == "tokens.pdf" and p["side"] == "front"]
    assert len(PdfReader(kit_out / "tokens.pdf").pages) == 2 and {p["colour"] for p in placed} == {"red", "blue"}


def test_blank_kit_s_declared_rule_finds_a_repeated_title(tmp_path, capsys):
    """The starting kit's example rule (kit.yaml `checks:`) reads its cards' table and names the row."""
    kit = tmp_path / "my-game"
    assert main(["new", "--blank", str(kit)]) == 0
    cards = kit / "components" / "cards.yaml"
    lines = cards.read_text().splitlines()
    first, again = (next(n for n, line in enumerate(lines, 1) if f"{{title: {t}," in line) for t in ("Build", "Trade"))
    cards.write_text(cards.read_text().replace("{title: Trade,", "{title: Build,"))
    assert main(["validate", "--quick", "--data", str(kit)]) == 1
    assert (f"cards.yaml:{again}: rows[2].title: no two cards share a title: 'Build' is given twice (first at "
            f"rows[1].title, line {first})") in capsys.readouterr().err


# Bad input: each problem located at file:line, exit 1, the earlier output untouched --------------------

@pytest.fixture
def mini_copy(tmp_path) -> Path:
    target = tmp_path / "mini"
    shutil.copytree(MINI, target)
    return target


BAD = [
    ("components/cards.yaml", "{title: Explore, cost: 1", "{title: Explore, cots: 1",
     "rows[0].cots: unknown field (did you mean 'cost'?)"),
    ("components/cards.yaml", "cost: 2, qty: 4", "cost: 2, qty: -4", "rows[1].qty: must be a whole number >= 0"),
    ("components/cards.yaml", "shape: rect", "shape: oval", "shape: must be one of"),
    ("components/cards.yaml", "front: card-front", "front: card-frnt", "front: template card-frnt.svg.j2 not found"),
    ("components/cards.yaml", "by: {cost: {0: 4, 1: 4, 2: 4}}", "by: {cost: {0: 4, 1: 5, 2: 4}}",
     "counts.by.cost.1: Action cards with cost 1: the rule asks for 5, the rows make 4"),
    ("components/tokens.csv", "2,3", "two,3", "rows[1].value: must be a whole number"),
    ("components/tokens.csv", "value,qty", "valeu,qty", "valeu: unknown column (did you mean 'value'?)"),
    ("components/tiles.yaml", "size: 2in", "size: 50in", "larger than any sheet"),
    ("components/tiles.yaml", "size: 2in", "size: 0mm", "larger than zero"),
    ("components/chits.yaml", "qty: 6}", "qty: 1000000000}", "rows[0].qty: must be a whole number >= 0 and <= 10000"),
    ("components/chits.yaml", "front: chit\n", "colour_files: true\nfront: chit\n",
     "colour_files: only a per_colour table has colours"),
    ("kit.yaml", "total: 44", "total: 45", "counts[0]: every piece of the game: the rule asks for 45"),
    ("boards/board.yaml", "{from: centre, to: rim", "{from: centre, to: rimm", "links[2].to: no place with id 'rimm'"),
    ("charts.yaml", 'cell: "{{ row.qty }}"', 'cell: "{{ row.qtty }}"', "charts.deck.columns[2].cell: "),
    ("charts.yaml", "header: Terrain,", "heading: Terrain,", "charts.tiles.columns[0].heading: unknown field"),
    ("charts.yaml", 'where: "row.points > 0"', 'where: "row.points >"', "charts.tiles.sections.scoring.where: "
                                                                          "template syntax error"),
    ("rules/01-rules.md", "section='scoring'", "section='scorin'", "chart 'tiles' has no section 'scorin'"),
    ("rules/01-rules.md", "columns=['card', 'copies']", "columns=['card', 'copy']", "chart 'deck' has no column 'copy'"),
    ("kit.yaml", "components", "components", None),
]


@pytest.mark.parametrize("file,old,new,message", [b for b in BAD if b[3]])
def test_bad_input_is_located_and_leaves_output_intact(mini_copy, tmp_path, capsys, file, old, new, message):
    out = tmp_path / "out"
    assert main(["build", "--data", str(mini_copy), "--out", str(out), "-q", "--only", "components"]) == 0
    before = {p: p.read_bytes() for p in (out / "mini").rglob("*.pdf")}
    line = edit(mini_copy / file, old, new)
    capsys.readouterr()
    assert main(["build", "--data", str(mini_copy), "--out", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert message in err, err
    assert Path(file).name in err, err
    if not file.endswith(".csv") or "unknown column" not in message:
        assert f":{line}:" in err or "kit.yaml" in file, err
    assert before == {p: p.read_bytes() for p in (out / "mini").rglob("*.pdf")}


def test_text_that_does_not_fit_names_the_row_and_template(mini_copy, capsys):
    line = edit(mini_copy / "components/cards.yaml", "text: \"Swap one", "text: \"" + "Swap words " * 80 + "one")
    assert main(["build", "--data", str(mini_copy), "--out", str(mini_copy / "out"), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"cards.yaml:{line}: cards row Trade" in err and "card-front.svg.j2" in err and "does not fit" in err


def test_a_drawing_cairo_refuses_names_the_row(mini_copy, capsys):
    """Found by the long fuzz run: a template that computes a NaN size drew nothing and said no file."""
    back = mini_copy / "templates" / "card-back.svg.j2"
    back.write_text(back.read_text() + '<rect x="1" y="1" width="nan" height="4.2" rx="0.6" fill="#000"/>\n')
    assert main(["build", "--data", str(mini_copy), "--out", str(mini_copy / "out"), "-q", "--only", "components"]) == 1
    err = capsys.readouterr().err
    assert "cards.yaml:" in err.splitlines()[0] and "cards row" in err and "cairo" in err, err


def test_text_too_large_for_freetype_names_the_row(mini_copy):
    """Found by the long fuzz run: a computed font size of 10^9 pt made FreeType fail, said with no file. In a
    process of its own: cairo keeps the failed font in its caches, and every later text in the process fails."""
    import subprocess
    import sys
    back = mini_copy / "templates" / "card-back.svg.j2"
    back.write_text(back.read_text() + '<text x="1" y="9" font-family="DejaVu Sans" font-size="1000000000">x</text>\n')
    run = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--data", str(mini_copy), "--out",
                          str(mini_copy / "out"), "-q", "--only", "components"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "cards.yaml:" in run.stderr.splitlines()[0] and "cards row" in run.stderr, run.stderr


def test_kit_templates_are_sandboxed(mini_copy, capsys):
    (mini_copy / "templates" / "chit.svg.j2").write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}")
    assert main(["build", "--data", str(mini_copy), "--out", str(mini_copy / "out"), "-q"]) == 1
    assert "chit.svg.j2" in capsys.readouterr().err


def test_textbox_centres_lines_with_bold_runs_as_a_whole():
    """SVG would centre each bold run of a line on its own: every line is placed from its measured width."""
    from pnpgen.render.textbox import textbox, width_mm
    svg = str(textbox("Pay **2** coins now", 0, 0, 60, 20, size=10, min_size=10, align="middle"))
    assert "text-anchor" not in svg
    x = float(svg.split('<tspan x="')[1].split('"')[0])
    used = (width_mm("Pay", "DejaVu Sans", False, 10) + width_mm("2", "DejaVu Sans", True, 10)
            + width_mm("coins", "DejaVu Sans", False, 10) + width_mm("now", "DejaVu Sans", False, 10)
            + 3 * width_mm(" ", "DejaVu Sans", False, 10))
    assert x == pytest.approx((60 - used) / 2, abs=0.01)


def test_left_header_moves_right_on_long_edge_backs():
    """9 poker cards with cut lines on Letter turn the header along the left edge; the mirrored backs leave
    room on the right, where the back's title goes."""
    from pnpgen.layout.packing import Run, impose
    from pnpgen.layout.sheets import settings_for
    from pnpgen.shapes import Shape
    poker = Shape("rect", 180.0, 252.0)
    front, back = impose([Run(poker, 9, settings_for(poker, {"marks": "lines"}, "letter"), True)])
    assert front.header_side == "left" and back.header_side == "right" and len(back.slots) == 9
    assert min(s.x for s in back.slots) < 30            # mirrored backs start near the left margin
    assert max(s.x + 180 for s in back.slots) < 612 - 18 - 30 + 0.01  # the right band is free for the header
    assert back.header[0] >= max(s.x + 180 for s in back.slots) - 0.01


def test_piece_size_option_reprints_a_table_at_another_size(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["build", "--data", str(MINI), "--out", str(out), "-q", "--only", "components",
                 "--piece-size", "tiles=40mm"]) == 0
    manifest = json.loads((out / "mini" / "manifest.json").read_text())
    assert round(manifest["parts"]["components"]["tables"]["tiles"]["h"], 2) == round(40 * MM, 2)
    assert main(["validate", "--data", str(MINI), "--piece-size", "tilez=40mm"]) == 1
    assert "no component table named 'tilez'" in capsys.readouterr().err


def test_text_columns_may_require_a_pattern(mini_copy, capsys):
    edit(mini_copy / "components/cards.yaml", "  title: {type: text,", "  title: {type: text, pattern: '[A-Z][a-z]+',")
    assert main(["validate", "--data", str(mini_copy)]) == 0
    line = edit(mini_copy / "components/cards.yaml", "{title: Trade,", "{title: trade,")
    assert main(["validate", "--data", str(mini_copy)]) == 1
    assert f"cards.yaml:{line}: rows[2].title: must be a text matching [A-Z][a-z]+, not 'trade'" in capsys.readouterr().err


def test_data_keys_win_over_dict_methods_in_templates(mini_copy):
    (mini_copy / "data").mkdir()
    (mini_copy / "data" / "trade.yaml").write_text("get: 3\nitems: 2\n")
    template = mini_copy / "templates" / "chit.svg.j2"
    template.write_text(template.read_text() + '<rect x="1.5" y="3.5" width="7" height="3.2" fill="#ffffff"/>'  # its backing
                        '<text x="2" y="6" font-size="2.5">{{ data.trade.get }}+{{ data.trade.items }}</text>\n')
    out = mini_copy.parent / "out"
    assert main(["build", "--data", str(mini_copy), "--out", str(out), "-q", "--only", "components"]) == 0
    assert "3+2" in "".join(page_texts(out / "mini" / "chits.pdf"))


def test_board_counts_are_checked_located(mini_copy, capsys):
    board = mini_copy / "boards" / "board.yaml"
    board.write_text(board.read_text() + "counts:\n  - {rule: \"two home systems\", match: {shape: circle}, total: 2}\n")
    line = len(board.read_text().splitlines())
    assert main(["validate", "--data", str(mini_copy)]) == 1
    assert f"board.yaml:{line}: counts[0]: two home systems: the rule asks for 2, the board has 3" in capsys.readouterr().err


@pytest.mark.parametrize("expression, message", [
    ("{{ lipsum(100000) }}", "lipsum"),
    ("{{ 'x' * 1000000000 }}", "too large"),
    ("{{ 2 ** 1000000 }}", "too large"),
])
def test_kit_templates_cannot_exhaust_the_memory(mini_copy, capsys, expression, message):
    template = mini_copy / "templates" / "chit.svg.j2"
    template.write_text(template.read_text() + expression + "\n")
    assert main(["build", "--data", str(mini_copy), "--out", str(mini_copy / "out"), "-q"]) == 1
    assert message in capsys.readouterr().err


def test_every_tile_page_carries_the_scale_check(built):
    """Tiles must print at exact size: each tile page has a 1 in and a 25 mm bar, labelled."""
    kit_out, _ = built
    pdf = pdfium.PdfDocument(str(kit_out / "boards" / "board-tiles-letter.pdf"))
    for index in range(1, len(pdf)):  # page 1 is the assembly page
        page = pdf[index].get_textpage()
        text = page.get_text_range()
        assert "1 in" in text and "25 mm" in text, index
        inch = page.search("1 in").get_next()
        mm25 = page.search("25 mm").get_next()
        x_inch = page.get_charbox(inch[0])[0]
        x_mm = page.get_charbox(mm25[0])[0]
        assert abs((x_mm - x_inch) - (94 + 25 * 72 / 25.4 - 72)) < 1.0   # the bars between the labels are exact


def test_nested_hex_tiles_share_their_edges(mini_copy):
    """`nest: true` alone (no gutter given) packs flat hexes in columns 3/4 of a hex apart, every other column
    half a hex lower: neighbours share their edges."""
    edit(mini_copy / "kit.yaml", "  chits: {gutter: 3mm}", "  chits: {gutter: 3mm}\n  tiles: {nest: true}")
    out = mini_copy.parent / "out"
    assert main(["build", "--data", str(mini_copy), "--out", str(out), "-q", "--only", "components"]) == 0
    manifest = json.loads((out / "mini" / "manifest.json").read_text())
    tiles = [p for p in placements(manifest, "tiles.pdf", "front")]
    w, h = tiles[0]["w"], tiles[0]["h"]
    xs = sorted({p["x"] for p in tiles})
    assert len(xs) >= 3 and all(abs((b - a) - 0.75 * w) < 0.01 for a, b in zip(xs, xs[1:]))
    first, second = ([p["y"] for p in tiles if p["x"] == x] for x in xs[:2])
    assert abs(min(second) - min(first) - h / 2) < 0.01


def test_short_edge_duplex_lands_the_backs_and_shifts_them_by_the_offset(tmp_path):
    """--duplex short: each back lands behind its front when flipped on the short edge (portrait: top-bottom
    and turned; landscape: left-right). --back-offset 1,2 (mm, the portrait calibration sheet's frame) moves
    portrait backs 1 mm right and 2 mm down, landscape ones (fed turned a quarter) 2 mm left and 1 mm down."""
    out = tmp_path / "out"
    for offset in ("0,0", "1,2"):
        assert main(["build", "--data", str(MINI), "--out", str(out), "-q", "--only", "components", "--duplex",
                     "short", "--back-offset", offset]) == 0
        manifest = json.loads((out / "mini" / "manifest.json").read_text())
        for file in ("tiles.pdf", "cards.pdf", "tokens-red.pdf"):
            fronts = placements(manifest, file, "front")
            for back in placements(manifest, file, "back"):
                page = page_size(out / "mini" / file, back["page"])
                dx, dy = (0, 0) if offset == "0,0" else ((-2, 1) if page[0] > page[1] else (1, 2))
                moved = {**back, "x": back["x"] - dx * 72 / 25.4, "y": back["y"] - dy * 72 / 25.4}
                assert any(f["page"] == back["page"] - 1 and f["ref"] == back["ref"] and lands_on(moved, f, page, "short")
                           for f in fronts), (offset, file, back)


def test_validate_reads_a_data_kits_templates_and_chapters(mini_copy, run_cli):
    """A template tag typo and a chapter's unknown table are found by `validate`, located, before any build;
    a missing field reads in the kit's words, with the nearest name."""
    assert run_cli("validate", "--data", mini_copy).code == 0
    front = mini_copy / "templates" / "card-front.svg.j2"
    front.write_text("{% imprt x %}\n" + front.read_text(encoding="utf-8"), encoding="utf-8")
    chapter = mini_copy / "rules" / "01-rules.md"
    lines = chapter.read_text(encoding="utf-8").count("\n")
    with chapter.open("a", encoding="utf-8") as handle:
        handle.write("{{ tables.card.count }}\n")
    result = run_cli("validate", "--data", mini_copy)
    assert result.code == 1
    assert "templates/card-front.svg.j2:1: template syntax error: Encountered unknown tag 'imprt'" in result.err
    assert (f"rules/01-rules.md:{lines + 1}: no 'card' in tables (there: cards, chits, tiles, tokens); "
            "did you mean 'cards'?") in result.err, result.err


def test_a_count_by_a_column_the_table_lacks_names_the_column(mini_copy, run_cli):
    tiles = mini_copy / "components" / "tiles.yaml"
    line = edit(tiles, "counts:\n", "counts:\n  by: {pionts: {1: 2}}\n") + 1
    result = run_cli("validate", "--data", mini_copy)
    assert result.code == 1
    assert f"tiles.yaml:{line}: counts.by.pionts: no column 'pionts' to count by" in result.err, result.err
    assert "did you mean 'points'?" in result.err and "the rule asks for" not in result.err
