"""What designers coming from Squib, nanDECK or protograf try first (issue 27): a column named like a template
name, hex sizes across the corners, a score track around the board, nested hexes, the blank kit's own words.
One copy of the blank kit, edited to use them all, is built once for the module; bad inputs edit a copy."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pnpgen import resources
from pnpgen.cli import main
from tests.conftest import edit

MM = 72 / 25.4
EDGE_TRACK = "  - {id: score, layout: edge, inset: 5, spaces: 50, first: 0, cell: 10, label: Score, ink: \"#ffffff\"}\n"


TOKEN_ROWS = [["value", "qty"], [1, 3], [2.0, 3], [4, 2]]   # Excel keeps every number as a float: 2.0 is 2


def write_workbook(path: Path, sheets: dict) -> None:
    import openpyxl
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)


ICON_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
            '<rect width="10" height="10" fill="#00c853"/></svg>')
BUILD_TEXT = "Pay **2** :credit: and put a new token on a tile you hold; gain 1 :credit: per tile, :credit::credit: at most."


def studio_font(path: Path) -> None:
    """A font of a family no system has: the shipped DejaVu Sans with its names changed to 'Studio Sans'
    (same length, so every table keeps its place)."""
    data = (resources.fonts() / "DejaVuSans.ttf").read_bytes()
    for old, new in (("DejaVu Sans", "Studio Sans"), ("DejaVuSans", "StudioSans")):
        data = data.replace(old.encode(), new.encode()).replace(old.encode("utf-16-be"), new.encode("utf-16-be"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def studio_kit(folder: Path) -> Path:
    """The blank kit with a score track around its board, hex tiles 2 in across their corners, its tokens
    from the second sheet of a spreadsheet and an icon in a card's text."""
    assert main(["new", "--blank", str(folder)]) == 0
    (folder / "art").mkdir()
    (folder / "art" / "credit.svg").write_text(ICON_SVG, encoding="utf-8")
    with (folder / "kit.yaml").open("a", encoding="utf-8") as kit_file:
        kit_file.write("icons:\n  credit: art/credit.svg\n")
    edit(folder / "components" / "cards.yaml", "Pay **2** and put a new token on a tile you hold.", BUILD_TEXT)
    studio_font(folder / "fonts" / "StudioSans.ttf")
    edit(folder / "templates" / "card-front.svg.j2", "min_size=7)", 'min_size=7, family="Studio Sans")')
    with (folder / "templates" / "card-front.svg.j2").open("a", encoding="utf-8") as template:
        template.write('<text x="6" y="84" font-family="Studio Sans" font-size="3">{{ title }}, a studio card</text>\n')
    write_workbook(folder / "components" / "tokens.xlsx", {"Notes": [["what", "why"]], "Tokens": TOKEN_ROWS})
    (folder / "components" / "tokens.csv").unlink()
    edit(folder / "components" / "tokens.yaml", "rows: tokens.csv", "rows: tokens.xlsx#Tokens")
    board = folder / "boards" / "board.yaml"
    text = board.read_text(encoding="utf-8")
    start = text.index("  - {id: score")
    board.write_text(text[:start] + EDGE_TRACK + text[text.index("\n", start) + 1:], encoding="utf-8")
    edit(board, "{x: 140, y: 14, text:", "{x: 140, y: 26, text:")
    edit(folder / "components" / "tiles.yaml", "size: 2in\n", "size: 2in\nacross: corners\n")
    edit(folder / "kit.yaml", "  cards: {marks: crop}", "  cards: {marks: crop}\n  tiles: {nest: true}")
    return folder


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    """(kit folder, its output folder, manifest): built once."""
    root = tmp_path_factory.mktemp("studio")
    kit = studio_kit(root / "studio")
    assert main(["build", "--data", str(kit), "--out", str(root / "out"), "-q", "--only", "components,boards"]) == 0
    kit_out = root / "out" / "studio"
    return kit, kit_out, json.loads((kit_out / "manifest.json").read_text())


@pytest.fixture
def kit_to_break(studio, tmp_path) -> Path:
    target = tmp_path / "studio"
    shutil.copytree(studio[0], target)
    return target


def _validate(run_cli, kit: Path):
    result = run_cli("validate", "--data", kit)
    return result.code, result.err


def _placed(manifest, file: str, side: str = "front") -> list[dict]:
    return [p for p in manifest["parts"]["components"]["placements"] if p["file"] == file and p["side"] == side]


# Item 6: names, sizes, tracks, nesting, the blank kit's words -----------------------------------------------

@pytest.mark.parametrize("name", ["colour", "piece", "textbox"])
def test_a_column_a_template_name_would_hide_is_a_located_error(kit_to_break, run_cli, name):
    line = edit(kit_to_break / "components" / "cards.yaml", "  text:  {type: text,",
                f"  {name}: {{type: text, default: x}}\n  text:  {{type: text,") 
    code, err = _validate(run_cli, kit_to_break)
    assert code == 1
    assert f"cards.yaml:{line}: columns.{name}: a column named '{name}' would be hidden" in err, err


def test_hex_tiles_measured_across_the_corners(studio):
    """`across: corners`, 2 in: a flat hex 144 pt wide (corner to corner) and 144 * sqrt(3) / 2 pt high."""
    tiles = _placed(studio[2], "tiles.pdf")
    assert len(tiles) == 6
    assert {(round(p["w"], 2), round(p["h"], 2)) for p in tiles} == {(144.0, round(72 * math.sqrt(3), 2))}


def test_nest_alone_shares_the_edges(studio):
    """`nest: true` without a gutter: columns 3/4 of a hex apart, each column's hexes touching."""
    tiles = _placed(studio[2], "tiles.pdf")
    w, h = tiles[0]["w"], tiles[0]["h"]
    xs = sorted({p["x"] for p in tiles})
    assert len(xs) >= 2 and all(abs((b - a) - 0.75 * w) < 0.01 for a, b in zip(xs, xs[1:]))
    column = sorted(p["y"] for p in tiles if p["x"] == xs[0])
    assert len(column) >= 2 and all(abs((b - a) - h) < 0.01 for a, b in zip(column, column[1:]))


def _word_centres(page, word: str) -> list[tuple[float, float]]:
    """Centres (pt, from the top-left) of every whole-word occurrence of `word` on a pdfium page."""
    text, height = page.get_textpage(), page.get_size()[1]
    found, search = [], text.search(word, match_whole_word=True)
    while (hit := search.get_next()) is not None:
        boxes = [text.get_charbox(i) for i in range(hit[0], hit[0] + hit[1])]
        left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
        bottom, top = min(b[1] for b in boxes), max(b[3] for b in boxes)
        found.append(((left + right) / 2, height - (bottom + top) / 2))
    return found


def test_a_score_track_runs_around_the_board_edge(studio):
    """50 spaces, 0 to 49, clockwise from the top-left corner in a ring 5 mm inside the edge, 10 mm deep."""
    page = pdfium.PdfDocument(str(studio[1] / "boards" / "board-poster.pdf"))[0]
    w, h = page.get_size()
    inset, depth = 5 * MM, 10 * MM

    def in_ring(x, y):
        inside = inset < x < w - inset and inset < y < h - inset
        return inside and (x < inset + depth or x > w - inset - depth or y < inset + depth or y > h - inset - depth)

    spots = {}
    for number in range(50):
        ring = [c for c in _word_centres(page, str(number)) if in_ring(*c)]
        assert len(ring) == 1, (number, _word_centres(page, str(number)))
        spots[number] = ring[0]
    assert spots[0][0] < inset + depth and spots[0][1] < inset + depth            # the top-left corner
    top = [n for n in spots if spots[n][1] < inset + depth]
    assert top == sorted(top, key=lambda n: spots[n][0]) and top[0] == 0         # left to right along the top
    assert spots[49][0] < inset + depth and spots[49][1] > spots[0][1]            # back up the left side
    right = [n for n in spots if spots[n][0] > w - inset - depth]
    assert right == sorted(right, key=lambda n: spots[n][1])                       # down the right side
    assert len({(round(x), round(y)) for x, y in spots.values()}) == 50


@pytest.mark.parametrize("old, new, message", [
    ("layout: edge,", "layout: edgy,", "tracks[0].layout: must be one of 'grid', 'edge'"),
    ("layout: edge,", "layuot: edge,", "tracks[0].layuot: unknown field (did you mean 'layout'?)"),
    ("inset: 5,", "inset: 5, x: 20,", "tracks[0]: x: only a grid track has it"),
    ("spaces: 50,", "spaces: 400,", "tracks[0]: 400 spaces make spaces"),
])
def test_a_track_key_the_format_does_not_know_is_refused(kit_to_break, run_cli, old, new, message):
    """A misspelt key, an unknown layout, a key of the other layout: each located, with --strict or without."""
    line = edit(kit_to_break / "boards" / "board.yaml", old, new)
    for strict in ((), ("--strict",)):
        result = run_cli("validate", "--data", kit_to_break, *strict)
        assert result.code == 1 and f"board.yaml:{line}: {message}" in result.err, result.err


def test_the_blank_kits_texts_are_true(tmp_path, studio):
    """templates/README.txt promises no copies that are not there; a board without hexes has no hex ruler."""
    readme = (studio[0] / "templates" / "README.txt").read_text(encoding="utf-8")
    assert "are not copied here" in readme and "are here too" not in readme
    folder = Path(readme.strip().splitlines()[-1])
    assert folder == resources.builtin_templates() and (folder / "_pieces.svg.j2").is_file()
    assert not (studio[0] / "templates" / "_pieces.svg.j2").exists()
    assert main(["new", "--from", str(studio[0]), str(tmp_path / "copy")]) == 0
    copied = (tmp_path / "copy" / "templates" / "README.txt").read_text(encoding="utf-8")
    assert "are here too" in copied and (tmp_path / "copy" / "templates" / "_pieces.svg.j2").is_file()
    assembly = pdfium.PdfDocument(str(studio[1] / "boards" / "board-tiles-letter.pdf"))[0]
    text = assembly.get_textpage().get_text_range()
    assert "this bar is 1 in" in text and "hex" not in text


def test_a_hex_maps_size_across_the_corners(kit_to_break):
    """A map's `across: corners`: its grid is laid out from the same hex 2 in across the corners."""
    from pnpgen.kit import load_kit
    (kit_to_break / "maps").mkdir()
    (kit_to_break / "maps" / "island.yaml").write_text(
        'hex_size: 2in\nacross: corners\nlegend: {".": off-map, "~": sea}\nrows: ["~ ~ ~", "~ ~ ."]\n',
        encoding="utf-8")
    kit, _ = load_kit(kit_to_break)
    assert [round(m.hex_size, 4) for m in kit.maps] == [round(72 * math.sqrt(3), 4)]


# Item 5: validate finds what build would, and writes nothing ----------------------------------------------

@pytest.mark.parametrize("file, old, new, words", [
    ("components/cards.yaml", 'text: "Swap one', 'text: "' + "Swap words " * 60 + "one",
     ["cards.yaml:", "cards row Trade", "card-front.svg.j2", "does not fit"]),
    ("templates/tile-front.svg.j2", "piece.h - 8, pt(10)", "piece.h - 1, pt(10)",
     ["preflight", "tiles", "'1 pt'", "of the cut line"]),
    ("templates/tile-front.svg.j2", "pt(10)", "pt(4)", ["preflight", "'1 pt'", "below the 6 pt minimum"]),
    ("templates/token.svg.j2", "{{", "{{ no_such_name }}{{", ["token.svg.j2:", "'no_such_name' is undefined"]),
])
def test_validate_finds_what_only_a_build_would(kit_to_break, run_cli, tmp_path, monkeypatch, file, old, new, words):
    """Text that does not fit, text too small or near the cut, a name a template cannot find: `validate`
    stops on each (exit 1, the problem located) and leaves no folder behind in the working folder."""
    assert run_cli("validate", "--data", kit_to_break).code == 0
    edit(kit_to_break / file, old, new)
    monkeypatch.chdir(tmp_path)
    result = run_cli("validate", "--data", kit_to_break)
    assert result.code == 1 and all(w in result.err for w in words), result.err
    assert not (tmp_path / "output").exists() and not (kit_to_break / "output").exists()
    assert run_cli("validate", "--quick", "--data", kit_to_break).code == 0  # the data alone is valid


# Item 4: rows from a spreadsheet ------------------------------------------------------------------------------

def test_a_tables_rows_come_from_a_spreadsheets_sheet(studio):
    """tokens.xlsx#Tokens (its second sheet): 3 ones, 3 twos and 2 fours per colour, printed on the tokens."""
    pieces = [p for p in studio[2]["pieces"] if p["ref"].startswith("tokens.")]
    made = {(p["colour"], p["front"]["params"]["row"]["value"]): p["count"] for p in pieces}
    assert made == {(c, v): n for c in ("red", "blue") for v, n in ((1, 3), (2, 3), (4, 2))}
    assert all(isinstance(value, int) for _, value in made)
    pdf = pdfium.PdfDocument(str(studio[1] / "tokens.pdf"))
    fronts = [pdf[i] for i in range(0, len(pdf), 2)]
    printed = {v: sum(len(_word_centres(page, str(v))) for page in fronts) for v in (2, 4)}
    assert printed == {2: 6, 4: 4}


def _zip_bomb(path: Path) -> None:
    import zipfile
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bomb:
        bomb.writestr("xl/worksheets/sheet1.xml", b"0" * 5_000_000)


@pytest.mark.parametrize("change, message", [
    (lambda p: write_workbook(p, {"Tokens": [["value", "qty"], [1, 3], ["two", 3], [4, 2]]}),
     "tokens.xlsx:Tokens:3: rows[1].value: must be a whole number"),
    (lambda p: write_workbook(p, {"Tokens": [["valeu", "qty"], [1, 8]]}),
     "tokens.xlsx:Tokens:1: valeu: unknown column (did you mean 'value'?)"),
    (lambda p: write_workbook(p, {"Tokns": TOKEN_ROWS}), "has no sheet 'Tokens' (did you mean 'Tokns'?"),
    (lambda p: p.write_bytes(b"value,qty\n1,8\n"), "is not a spreadsheet pnpgen reads: not an .xlsx file"),
    (_zip_bomb, "unpacks 1"),
    (lambda p: (p.unlink(), p.symlink_to("/etc/hostname")), "links to a file outside the kit folder"),
])
def test_a_broken_spreadsheet_is_a_located_error(kit_to_break, run_cli, change, message):
    """A bad cell at its sheet and row; a wrong sheet or a file that is no spreadsheet (or a zip bomb, found
    before anything is unpacked) at the table's `rows:` line."""
    change(kit_to_break / "components" / "tokens.xlsx")
    result = run_cli("validate", "--quick", "--data", kit_to_break)
    assert result.code == 1 and message in result.err, result.err


# Item 3: icons in text ----------------------------------------------------------------------------------------

def test_an_icon_stands_in_the_text_one_em_square(studio):
    """The Build card's four :credit: icons print as green squares inside its text box, none as text."""
    pdf = pdfium.PdfDocument(str(studio[1] / "cards.pdf"))
    build = [p for p in _placed(studio[2], "cards.pdf") if p["ref"] == "cards.Build"][0]
    page = pdf[build["page"] - 1]
    assert ":credit:" not in page.get_textpage().get_text_range()
    scale = 2
    image = page.render(scale=scale).to_pil().convert("RGB")
    x0, y0 = int(build["x"] * scale), int(build["y"] * scale)
    card = image.crop((x0, y0, x0 + int(build["w"] * scale), y0 + int(build["h"] * scale)))
    pixels = card.load()
    green = [(x, y) for x in range(card.width) for y in range(card.height)
             if (lambda r, g, b: r < 60 and g > 170 and b < 120)(*pixels[x, y])]
    em = 11 * scale                                  # the text's size (11 pt, or less where it shrank)
    assert 4 * (0.45 * em) ** 2 < len(green) <= 4 * em ** 2
    xs, ys = [x for x, _ in green], [y for _, y in green]
    assert 6 * MM * scale - 2 <= min(xs) and max(xs) <= card.width - 6 * MM * scale + 2   # inside the text box
    assert 22 * MM * scale - 2 <= min(ys)


def test_icons_wrap_with_their_words():
    """textbox's own output: the icon sits where its word's measured width puts it, and goes to the next
    line with that word."""
    import re
    from pnpgen.render.textbox import PT_IN_MM, icons_in_text, textbox, width_mm
    with icons_in_text({"credit": "art/credit.svg"}):
        wide = str(textbox("Gain 2:credit: now", 0, 0, 60, 20, size=10, min_size=10))
        narrow = str(textbox("Gain 2:credit: now", 0, 0, width_mm("Gain", "DejaVu Sans", False, 10) + 1, 20,
                             size=10, min_size=10))
    em, space = 10 * PT_IN_MM, width_mm(" ", "DejaVu Sans", False, 10)
    x, y, w, h = (float(v) for v in re.search(r'<image href="art/credit.svg" x="([\d.]+)" y="([\d.-]+)" '
                                                r'width="([\d.]+)" height="([\d.]+)"', wide).groups())
    assert abs(w - em) < 0.002 and abs(h - em) < 0.002
    assert abs(x - (width_mm("Gain", "DejaVu Sans", False, 10) + space + width_mm("2", "DejaVu Sans", False, 10))) < 0.002
    y_narrow = float(re.search(r'<image [^>]*y="([\d.-]+)"', narrow).group(1))
    assert abs((y_narrow - y) - 10 * 1.2 * PT_IN_MM) < 0.002        # one line lower
    assert ":credit:" not in wide and ">now<" in wide


def test_an_unknown_icon_is_located_with_a_did_you_mean(kit_to_break, run_cli):
    line = edit(kit_to_break / "components" / "cards.yaml", "gain 1 :credit:", "gain 1 :credt:")
    result = run_cli("validate", "--data", kit_to_break)
    assert result.code == 1, result.err
    assert f"cards.yaml:{line}: cards row Build" in result.err
    assert "unknown icon :credt: (did you mean :credit:?" in result.err
    line = edit(kit_to_break / "kit.yaml", "credit: art/credit.svg", "credit: art/credits.svg")
    result = run_cli("validate", "--quick", "--data", kit_to_break)
    assert result.code == 1 and f"kit.yaml:{line}: icons.credit: " in result.err, result.err


def test_text_too_small_inside_an_icon_names_the_icon(kit_to_break, run_cli):
    """An SVG icon whose own words print below the minimum size (a 5 mm word on a 10 mm icon set one em of
    11 pt or less): the finding names the icon by its name and file, where the template shows no such word."""
    (kit_to_break / "art" / "credit.svg").write_text(ICON_SVG.replace(
        "</svg>", '<text x="1" y="7" font-family="DejaVu Sans" font-size="5">CR</text></svg>'), encoding="utf-8")
    result = run_cli("build", "--data", kit_to_break, "--out", kit_to_break.parent / "out", "-q",
                     "--only", "components")
    assert result.code == 1, result.err
    finding = next(line for line in result.err.splitlines() if "'CR'" in line)
    assert "cards.yaml:" in finding and "cards row Build" in finding and "card-front.svg.j2 (front)" in finding
    assert "text 'CR' in the icon :credit: (art/credit.svg) is " in finding and "below a card's 7 pt minimum" in finding


# Item 2: a kit's own fonts --------------------------------------------------------------------------------------

def _embedded_fonts(path: Path) -> dict:
    """BaseFont -> whether its file is embedded, for every font of every page and form of a PDF."""
    from tests.font_helpers import pdf_fonts
    found = {}
    for name, font in pdf_fonts(path).items():
        descriptor = font.get("/FontDescriptor")
        found[name] = bool(descriptor and "/FontFile2" in descriptor.get_object())
    return found


def test_a_kit_font_is_used_by_name_and_embedded_as_a_subset(studio):
    fonts = _embedded_fonts(studio[1] / "cards.pdf")
    studio_fonts = [name for name in fonts if name.endswith("+StudioSans")]
    assert studio_fonts and all(fonts[name] for name in studio_fonts), fonts   # a subset (XXXXXX+), embedded
    text = "".join(pdfium.PdfDocument(str(studio[1] / "cards.pdf"))[0].get_textpage().get_text_range().split())
    assert "Lookatthetoptile" in text and "Explore,astudiocard" in text


@pytest.mark.parametrize("file, old, new, words", [
    ("components/cards.yaml", "Swap one", "Swap \u6f22 one", ["cards.yaml:", "cards row Trade", "card-front.svg.j2:",
                                                               "has no '\u6f22' (U+6F22)"]),
    ("components/cards.yaml", "{title: Explore,", "{title: Expl\u00f8re\u4e2d,", ["cards row Expl\u00f8re\u4e2d",
                                                                               "has no '\u4e2d' (U+4E2D)"]),
])
def test_a_character_the_font_lacks_is_a_located_error(kit_to_break, run_cli, file, old, new, words):
    """In a textbox or in a template's own <text>: the row, the template, the font and the character."""
    edit(kit_to_break / file, old, new)
    result = run_cli("validate", "--data", kit_to_break)
    assert result.code == 1 and all(w in result.err for w in words), result.err
    assert "Studio Sans" in result.err and "StudioSans.ttf" in result.err


@pytest.mark.parametrize("old, new, family", [
    ('min_size=7, family="Studio Sans")', 'min_size=7, family="Studio")', "Studio"),
    ('<text x="6" y="84" font-family="Studio Sans"', '<text x="6" y="84" font-family="Stdio Sans, sans-serif"',
     "Stdio Sans"),
])
def test_a_family_the_kit_has_no_font_of_is_a_located_error(kit_to_break, run_cli, old, new, family):
    """A misspelt family in a textbox or a template's <text> would print in DejaVu Sans without a word (cairo's
    fallback): it stops validate at the row and the template, with the nearest family."""
    edit(kit_to_break / "templates" / "card-front.svg.j2", old, new)
    result = run_cli("validate", "--data", kit_to_break)
    assert result.code == 1 and "cards row Explore" in result.err and "card-front.svg.j2: " in result.err, result.err
    assert f"no font of the family {family!r} (did you mean 'Studio Sans'?" in result.err, result.err


def test_a_file_that_is_no_font_is_a_located_error(kit_to_break, run_cli):
    """A file that is no font, and one that links out of the kit (read through the one kit reader)."""
    (kit_to_break / "fonts" / "Broken.ttf").write_bytes(b"not a font at all" * 10)
    (kit_to_break / "fonts" / "Out.ttf").symlink_to("/etc/hostname")
    result = run_cli("validate", "--quick", "--data", kit_to_break)
    assert result.code == 1 and "Broken.ttf: not a TrueType or OpenType font pnpgen can embed" in result.err, result.err
    assert "Out.ttf: links to a file outside the kit folder" in result.err, result.err


def test_two_copies_of_a_kit_validate_apart(tmp_path, run_cli):
    """Stored faces name the kit's images by path: validate keeps its caches per kit folder, so a copy of a
    kit (the same id) validated after the first copy is gone reads its own pictures, not the gone ones."""
    mini = Path(__file__).parent / "kits" / "mini"
    first, second = tmp_path / "first" / "mini", tmp_path / "second" / "mini"
    shutil.copytree(mini, first)
    shutil.copytree(mini, second)
    assert run_cli("validate", "--data", first).code == 0
    shutil.rmtree(first)
    edit(second / "kit.yaml", "chits: {gutter: 3mm}", "chits: {gutter: 4mm}")  # the chits' sheets drawn again
    result = run_cli("validate", "--data", second)
    assert result.code == 0, result.err
