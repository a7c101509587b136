"""A kit's own fonts and icons in its typeset documents (issue 27): tests/kits/typeset prints its chapter, chart,
aid card and record sheet in Kit Sans (TrueType) and Kit Display (OpenType with CFF outlines), with its icons
inline. Read back from the PDFs: the fonts in the pages' resources (embedded subsets), each icon a form
XObject on its text line, within its line height and clear of every glyph, the text as extracted. Bad input
(an unknown icon, a character a font lacks, an unknown face, a broken or oversized font) is a located error.
The kit is built once for the module; bad inputs edit a copy."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnpgen.cli import main
from tests.conftest import edit

KIT = Path(__file__).parent / "kits" / "typeset"
BELOW = 0.2     # an icon's foot below the baseline, in ems (pnpgen.documents.inline_icons)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(kit copy, output folder) of the typeset kit, built once (documents, aid cards, record sheets)."""
    root = tmp_path_factory.mktemp("typeset")
    kit = root / "typeset"
    shutil.copytree(KIT, kit)
    assert main(["build", "--data", str(kit), "--out", str(root / "out"), "-q"]) == 0
    return kit, root / "out" / "typeset"


@pytest.fixture
def kit_to_break(built, tmp_path) -> Path:
    target = tmp_path / "typeset"
    shutil.copytree(built[0], target)
    return target


def _fonts(page) -> dict:
    """BaseFont -> the font file key of its descriptor, for a page's fonts."""
    found = {}
    for font in page["/Resources"]["/Font"].values():
        font = font.get_object()
        descriptor = font["/FontDescriptor"].get_object()
        found[str(font["/BaseFont"])] = next(k for k in ("/FontFile2", "/FontFile3", "/FontFile") if k in descriptor)
    return found


def _icons(page) -> list[tuple[str, tuple]]:
    """(form name, (a, b, c, d, e, f)) of every form XObject the page's own content draws."""
    data = page.get_contents().get_data().decode("latin-1")
    return [(name, tuple(float(v) for v in numbers.split()))
            for numbers, name in re.findall(r"q ([-\d. ]+) cm (/PnpForm\d+) Do Q", data)]


def _form_kinds(form) -> set:
    """The subtypes of what a form draws beneath it (Image for a raster icon; Form for an SVG's groups)."""
    kinds = set()
    for xobject in ((form.get("/Resources") or {}).get("/XObject") or {}).values():
        xobject = xobject.get_object()
        kinds.add(str(xobject["/Subtype"]))
        if xobject["/Subtype"] == "/Form":
            kinds |= _form_kinds(xobject)
    return kinds


def _glyphs(path: Path, index: int) -> list[tuple[str, tuple, float, float]]:
    """(char, (left, bottom, right, top), baseline y, size) of every glyph on a page, PDF points, y up."""
    import ctypes
    import pypdfium2.raw as raw
    page = pdfium.PdfDocument(str(path))[index]
    text = page.get_textpage()
    edges = [ctypes.c_double() for _ in range(4)]
    ox, oy = ctypes.c_double(), ctypes.c_double()
    out = []
    for i in range(text.count_chars()):
        char = chr(raw.FPDFText_GetUnicode(text.raw, i))
        if char.isspace():
            continue
        raw.FPDFText_GetCharBox(text.raw, i, *(ctypes.byref(e) for e in edges))
        raw.FPDFText_GetCharOrigin(text.raw, i, ctypes.byref(ox), ctypes.byref(oy))
        left, right, bottom, top = (e.value for e in edges)
        out.append((char, (left, bottom, right, top), oy.value, raw.FPDFText_GetFontSize(text.raw, i)))
    return out


def _text(path: Path, index: int) -> str:
    return "".join(pdfium.PdfDocument(str(path))[index].get_textpage().get_text_range().split())


def _assert_on_their_lines(path: Path, index: int, icons: list, upright: bool = True) -> None:
    """Each icon one em square (the size of the glyphs on its line), its foot a fifth of an em below their
    baseline, its top within the line, and no glyph's ink under it."""
    glyphs = _glyphs(path, index)
    for name, (a, b, c, d, e, f) in icons:
        size = abs(a) * 28.346457                   # the form is ART_MM (10 mm) square
        assert abs(b) < 1e-6 and abs(c) < 1e-6 and (a > 0) == upright and abs(abs(d) - abs(a)) < 1e-6
        x0, x1 = sorted((e, e + a * 28.346457))
        y0, y1 = sorted((f, f + d * 28.346457))
        foot = y0 if upright else y1                # a turned face: its foot is at the top of the page
        baseline = foot + BELOW * size if upright else foot - BELOW * size
        line = [g for g in glyphs if abs(g[2] - baseline) < 0.05 and g[0] not in "\u2022\u2013"]  # not a bullet
        assert line, (name, baseline)                 # there is text on the icon's baseline
        assert all(abs(g[3] - size) < 0.05 for g in line), (size, {g[3] for g in line})
        overlapping = [g[0] for g in glyphs if g[1][0] < x1 - 0.1 and g[1][2] > x0 + 0.1
                       and g[1][1] < y1 - 0.1 and g[1][3] > y0 + 0.1]
        assert not overlapping, (name, overlapping)
        assert abs((y1 - y0) - size) < 0.01


def test_the_chapter_prints_in_the_kits_fonts_embedded_as_subsets(built):
    reader = PdfReader(built[1] / "booklet.pdf")
    chapter = reader.pages[2]
    fonts = _fonts(chapter)
    for name in ("KitSans", "KitSans-Bold", "KitDisplay"):     # body, <b>, headings (the CFF font, as TrueType)
        subset = [f for f in fonts if f.endswith(f"+{name}")]
        assert subset and re.fullmatch(r"/[A-Z]{6}\+" + name, subset[0]) and fonts[subset[0]] == "/FontFile2", fonts
    text = _text(built[1] / "booklet.pdf", 2)
    assert "Eachturnyoumaysellonegoodforitsprice:gain2" in text and "Scoring" in text and ":credit:" not in text
    assert "Awordinthedisplayface" in text
    cover = _fonts(reader.pages[0])
    assert any(f.endswith("+KitDisplay") for f in cover)      # the cover's title is a heading


def test_the_chapters_icons_sit_on_their_lines_as_vector_forms(built):
    """Five icons in the text and lists, three in the chart's price column: each on its text line."""
    path = built[1] / "booklet.pdf"
    page = PdfReader(path).pages[2]
    icons = _icons(page)
    assert len(icons) == 8
    _assert_on_their_lines(path, 2, icons)
    forms = page["/Resources"]["/XObject"]
    kinds = {_form_kinds(forms[name].get_object()).__contains__("/Image") for name, _ in icons}
    assert kinds == {True, False}    # the PNG star holds its image; the SVG credit draws paths, no image
    first = min(icons, key=lambda icon: (-icon[1][5], icon[1][4]))   # "gain 2 :credit:" on the first line
    two = [g for g in _glyphs(path, 2) if g[0] == "2" and abs(g[2] - (first[1][5] + BELOW * 8.6)) < 0.05][0]
    assert 0 < first[1][4] - two[1][2] < 8.6 * 0.5   # right after the "2" and its space


def test_an_aid_card_and_a_record_sheet_use_the_kits_fonts_and_icons(built):
    cards = built[1] / "aid-cards.pdf"
    reader = PdfReader(cards)
    assert any(f.endswith("+KitSans") for f in _fonts(reader.pages[0]))
    assert any(f.endswith("+KitDisplay") for f in _fonts(reader.pages[0]))   # the band's title, the heading
    front, back = _icons(reader.pages[0]), _icons(reader.pages[1])
    assert len(front) == 5 and len(back) == 2          # the title's, the text's and the chart's; the back's star
    words = [g for g in _glyphs(cards, 0) if g[3] == 8 and g[0] == "T"]       # the band's words on the right
    title = [g for g in _glyphs(cards, 0) if g[3] == 11 and g[0] == "T"]      # "Trade" on the band's baseline
    assert title and abs(title[0][2] - (words[0][2] - 0.6)) < 0.01            # as a title without icons sits
    _assert_on_their_lines(cards, 0, front)
    _assert_on_their_lines(cards, 1, back, upright=False)   # a long-edge flip turns the back half a turn
    assert "Sellonegood;gainitspricein." in _text(cards, 0)
    sheet = built[1] / "ledger-sheet.pdf"
    page = PdfReader(sheet).pages[0]
    assert {"KitSans", "KitSans-Bold", "KitDisplay"} <= {f.split("+")[1] for f in _fonts(page)}
    icons = _icons(page)
    assert len(icons) == 2                   # in the text, and heading the form's last column
    _assert_on_their_lines(sheet, 0, icons)
    manifest = json.loads((built[1] / "manifest.json").read_text())
    assert manifest["parts"]["sheets"]["files"][0]["path"] == "ledger-sheet.pdf"


def test_a_second_build_is_byte_identical(built, tmp_path):
    assert main(["build", "--data", str(built[0]), "--out", str(tmp_path), "-q", "--only", "documents,cards"]) == 0
    for name in ("booklet.pdf", "booklet-imposed.pdf", "aid-cards.pdf"):
        assert (tmp_path / "typeset" / name).read_bytes() == (built[1] / name).read_bytes(), name


@pytest.mark.parametrize("file, old, new, words", [
    ("rules/01-trade.md", "gain 2 :credit:", "gain 2 :credt:",
     ["rules/01-trade.md:3: unknown icon :credt: (did you mean :credit:?"]),
    ("rules/01-trade.md", "gain 2 :credit:", "gain 2 :Credit:",
     ["rules/01-trade.md:3: unknown icon :Credit: (did you mean :credit:? icon names are lower case;"]),
    ("rules/01-trade.md", "for spice.", "for sp\u6f22ce.",
     ["rules/01-trade.md:3: the font 'Kit Sans' (", "KitSans-Regular.ttf) has no '\u6f22' (U+6F22)"]),
    ("rules/01-trade.md", "## Scoring", "## Sc\u00f8ring", ["rules/01-trade.md:10: the font 'Kit Display'",
                                                           "has no '\u00f8' (U+00F8)"]),
    ("rules/01-trade.md", '{font="Kit Display"}', '{font="Kit Dispay"}',
     ["rules/01-trade.md:6: unknown font 'Kit Dispay' (fonts: DejaVu Sans, DejaVu Sans Condensed, Kit Display"]),
    ("data/goods.yaml", "name: Spice", "name: Sp\u6f22ce", ["charts.yaml:2: charts.goods: the font 'Kit Sans'"]),
    ("aids/cards.yaml", "its price in :credit:", "its price in :credits:",
     ["aids/cards.yaml:7: cards.trade.front[1].text: unknown icon :credits: (did you mean :credit:?"]),
    ("charts.yaml", "{{ row.price }} :credit:", "{{ row.price }} :credi:",
     ["charts.yaml:7: charts.goods.columns[1].cell: unknown icon :credi: (did you mean :credit:?"]),
    ("aids/cards.yaml", '<font face="Kit Display">', '<font face="Kit Dispaly">',
     ["aids/cards.yaml:11: cards.trade.back[1]: unknown font 'Kit Dispaly' (fonts: DejaVu Sans"]),
    ("aids/cards.yaml", '<font face="Kit Display">', '<font face="Courier">',
     ["cards.trade.back[1]: the font 'Courier' is one of the PDF's standard fonts"]),
    ("aids/cards.yaml", "- heading: Scoring", '- text: <img src="/etc/hostname" width="9" height="9"/> is out',
     ["aids/cards.yaml:10: cards.trade.back[0].text: the text's markup does not parse: <img> is not a markup tag"]),
    ("charts.yaml", '"<b>{{ row.name }}</b>"', '"<img src=\'/etc/hostname\'/>{{ row.name }}"',
     ["charts.yaml:2: charts.goods: an <img> tag: a kit's text places its images as icons"]),
    ("aids/sheets.yaml", "title: Ledger", "title: Ledger\u6f22", ["aids/sheets.yaml:2: sheets.ledger.title:",
                                                                     "has no '\u6f22'"]),
])
def test_bad_text_is_a_located_error(kit_to_break, run_cli, file, old, new, words):
    edit(kit_to_break / file, old, new)
    result = run_cli("validate", "--data", kit_to_break)
    assert result.code == 1 and all(w in result.err for w in words), result.err
    assert "Traceback" not in result.err


def test_validate_quick_finds_unknown_icons_in_chapters_and_aid_texts(kit_to_break, run_cli):
    """Before any typesetting: the chapter's line (as written, a table's directive before it or not) and
    the aid file's block."""
    edit(kit_to_break / "rules" / "01-trade.md", "- Unspent :credit:", "- Unspent :credits:")
    edit(kit_to_break / "aids" / "sheets.yaml", "Write the :credit:", "Write the :star: and :moon:")
    result = run_cli("validate", "--quick", "--data", kit_to_break)
    assert result.code == 1, result.err
    assert "rules/01-trade.md:13: unknown icon :credits: (did you mean :credit:?" in result.err
    assert "aids/sheets.yaml:7: sheets.ledger.pages[0][1].text: unknown icon :moon: (icons: :credit:, :star:)" \
        in result.err


def test_validate_quick_finds_unknown_icons_in_a_charts_own_text(kit_to_break, run_cli):
    """A header or cell as charts.yaml writes it (its Jinja code aside), at that field's line."""
    line = edit(kit_to_break / "charts.yaml", "header: Price,", "header: \"Price :cash: {{ '{:x}' }}\",")
    result = run_cli("validate", "--quick", "--data", kit_to_break)
    assert result.code == 1, result.err
    assert f"charts.yaml:{line}: charts.goods.columns[1].header: unknown icon :cash: (icons: :credit:, :star:)" \
        in result.err and ":x:" not in result.err, result.err


def test_a_font_the_kit_does_not_have_is_located_in_kit_yaml(kit_to_break, run_cli):
    line = edit(kit_to_break / "kit.yaml", "headings: Kit Display", "headings: Kit Dispaly")
    result = run_cli("validate", "--quick", "--data", kit_to_break)
    assert result.code == 1, result.err
    assert f"kit.yaml:{line}: fonts.headings: no font of the family 'Kit Dispaly' (did you mean 'Kit Display'?" \
        in result.err


def test_broken_and_oversized_fonts_are_located_errors(kit_to_break, run_cli):
    """A file that claims CFF outlines and holds none, and a font past the kit's font_file_kb budget."""
    (kit_to_break / "fonts" / "Broken.otf").write_bytes(b"OTTO" + b"\0\x05" + b"not a font at all" * 20)
    with (kit_to_break / "kit.yaml").open("a", encoding="utf-8") as kit_file:
        kit_file.write("budgets: {font_file_kb: 16}\n")
    result = run_cli("validate", "--quick", "--data", kit_to_break)
    assert result.code == 1 and "Traceback" not in result.err, result.err
    assert "Broken.otf: an OpenType font with PostScript (CFF) outlines pnpgen cannot use: " in result.err
    assert "KitSans-Regular.ttf: is larger than 16 KB, the most a font file may have (the font_file_kb budget)" \
        in result.err
    assert "KitDisplay-Regular.otf" not in result.err      # 10 KB: within the budget, and converted


def test_a_cff_font_converts_to_truetype_with_the_same_advances():
    """The TrueType copy reportlab embeds measures as the CFF font cairo draws: a line wraps alike in both."""
    import io

    from fontTools.ttLib import TTFont

    from pnpgen.font_outlines import is_cff, truetype_of
    data = (KIT / "fonts" / "KitDisplay-Regular.otf").read_bytes()
    assert is_cff(data)
    made = truetype_of(data)
    original, copy = TTFont(io.BytesIO(data)), TTFont(io.BytesIO(made))
    assert "CFF " in original and "glyf" in copy and "CFF " not in copy
    cmap = original.getBestCmap()
    assert cmap == copy.getBestCmap()
    assert all(original["hmtx"][g][0] == copy["hmtx"][g][0] for g in cmap.values())
    assert copy["head"].modified == original["head"].modified   # no clock in it: the same PDF bytes anywhere
    assert truetype_of(data) is truetype_of(data)   # converted once a process (and cached on disk by hash)


def test_a_section_before_the_first_chapter_is_a_located_error(kit_to_break, run_cli, tmp_path):
    """Found by the long fuzz run (4x-space-euro's first chapter with two lines swapped): a `##` before any `#`
    stopped reportlab's outline ("can't jump from outline level -1 to level 1"), naming no file."""
    line = edit(kit_to_break / "rules" / "01-trade.md", "# Trading\n", "## Trading\n")
    result = run_cli("build", "--data", kit_to_break, "--out", tmp_path / "out", "--only", "documents", "-q")
    assert result.code == 1 and "outline level" not in result.err, result.err
    said = f"rules/01-trade.md:{line}: the section 'Trading' (##) comes before the document's first chapter heading (#)"
    assert said in result.err, result.err
    quick = run_cli("validate", "--quick", "--data", kit_to_break)  # found without typesetting, at the same line
    assert quick.code == 1 and said in quick.err and "Traceback" not in quick.err, quick.err


def test_bold_the_body_font_lacks_is_a_warning_at_its_paragraph_even_from_the_cache(kit_to_break, run_cli, tmp_path):
    """Kit Sans with its Regular only: a chapter's **bold** prints in the Regular. A located warning at the
    paragraph's line names the file it prints in, on the cached second build too; --strict refuses in a
    sentence. The headings in Kit Display, a one-face display font, ask for nothing and say nothing."""
    (kit_to_break / "fonts" / "KitSans-Bold.ttf").unlink()
    with (kit_to_break / "rules" / "01-trade.md").open("a", encoding="utf-8") as chapter:
        chapter.write("\nA **sold** good leaves the market.\n")
    said = (f"{kit_to_break}/rules/01-trade.md:15: the text asks for 'Kit Sans' bold, but the kit's fonts/ has no "
            f"bold file of it: it prints in {kit_to_break}/fonts/KitSans-Regular.ttf (regular)")
    out = tmp_path / "out"
    for build in ("first", "cached"):
        result = run_cli("build", "--data", kit_to_break, "--out", out, "--only", "documents")
        warned = [line for line in result.err.splitlines() if "asks for" in line and "01-trade.md" in line]
        assert result.code == 0 and warned == [f"warning: {said}"], (build, result.err)
        assert "Kit Display" not in result.err, result.err
    strict = run_cli("build", "--strict", "--data", kit_to_break, "--out", tmp_path / "strict", "--only", "documents")
    assert strict.code == 1 and said in strict.err and "Traceback" not in strict.err, strict.err
