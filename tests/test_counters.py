"""Counter sheets parsed back out of the PDFs: every counter at its rule count, exact page and counter
sizes, fonts embedded, deterministic bytes."""
import re
from collections import Counter
from functools import lru_cache

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from tests.conftest import DEFAULT_KIT_DIR
from tests.counters_helpers import build_counters, counters_manifest


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    out = tmp_path_factory.mktemp("counters")
    return build_counters(DEFAULT_KIT_DIR, out)


@pytest.fixture(scope="module")
def manifest(sheets):
    return counters_manifest(sheets)


@lru_cache(maxsize=None)
def page_text(pdf, page_number):
    """pypdf's text of a page (its lines are the tests' units), read once: the module's sheets never change."""
    return PdfReader(pdf).pages[page_number - 1].extract_text()


def pages_words(pdf) -> list[str]:
    """Each page's text, white space folded, by pdfium: pypdf took ~12 s CPU to read every counter page."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        return [" ".join(page.get_textpage().get_text_range().split()) for page in document]
    finally:
        document.close()


def squeezed(text):
    """Text with all white space removed: glyphs are placed one by one, so extraction splits words oddly."""
    return re.sub(r"\s+", "", text)


def test_one_file_per_print_group_and_a_calibration_sheet(sheets, manifest, default_kit):
    paths = [f["path"] for f in manifest["files"]]
    groups = [c.id for c in default_kit.colours] + ["deep-space", "neutral"]
    assert paths == [f"counters-{g}.pdf" for g in groups]
    assert (sheets / "duplex-calibration.pdf").is_file()  # the core's sheet, beside the counters
    for entry in manifest["files"]:
        reader = PdfReader(sheets / entry["path"])
        assert len(reader.pages) == entry["pages"] and entry["pages"] % 2 == 0
        for page in reader.pages:
            assert [float(v) for v in page.mediabox] == [0, 0, 612, 792]  # US Letter, the kit's paper
        assert entry["previews"] == []  # drawn only with --previews (tests/test_counters_sheets.py)


def test_five_eighths_inch_counters_are_45_points(manifest):
    assert {t["w"] for t in manifest["tables"].values()} == {t["h"] for t in manifest["tables"].values()} == {45.0}
    assert {(p["w"], p["h"]) for p in manifest["placements"]} == {(45.0, 45.0)}


def test_every_piece_is_printed_once_front_and_back(manifest, default_kit):
    pieces = list(default_kit.component_pieces)
    for face in ("front", "back"):
        printed = Counter((p["label"], p["ref"], p["group"]) for p in manifest["placements"] if p["side"] == face)
        assert printed == Counter((p.label, p.ref, p.group) for p in pieces)
    assert len(manifest["placements"]) == 2 * len(pieces) == 2 * 796


HOME_TOKENS = {"5CPMinerals": 11, "Planet": 8, "Nebula": 2, "Asteroids": 2, "BarrenPlanet": 1, "BlackHole": 1,
               "Homeworld": 1}


def test_each_colour_has_its_25_home_markers_in_the_rule_mix(sheets, default_kit):
    for colour in default_kit.colours:
        text = squeezed(page_text(sheets / f"counters-{colour.id}.pdf", 1))
        counts = {token: text.count(token) for token in HOME_TOKENS}
        counts["Planet"] -= counts["BarrenPlanet"]        # "Barren Planet" holds the word too
        assert counts == HOME_TOKENS
        assert sum(v for k, v in counts.items() if k != "Homeworld") == default_kit.home_system.total == 25


DEEP_TOKENS = {"Danger": 26, "10CPMinerals": 14, "BarrenPlanet": 12, "Nebula": 10, "Asteroids": 10,
               "BlackHole": 10, "LostinSpace": 5, "Supernova": 3, "SpaceWreck": 3, "1WarpPoint": 3, "2WarpPoint": 3,
               "DoomsdayMachine1": 1, "DoomsdayMachine2": 1, "DoomsdayMachine3": 1}


def test_deep_space_holds_its_102_markers_in_the_rule_mix(sheets, default_kit):
    text = squeezed(page_text(sheets / "counters-deep-space.pdf", 1))
    assert {token: text.count(token) for token in DEEP_TOKENS} == DEEP_TOKENS
    assert sum(DEEP_TOKENS.values()) == default_kit.deep_space.total == 102
    stats = default_kit.marker_kinds["doomsday_machine"].stats
    assert text.count(f"{stats['class']}{stats['attack']}-{stats['defence']}{stats['hull']}x") == 3


def test_unit_counters_reach_their_limits_with_group_numbers_1_to_n(sheets, default_kit):
    for colour in default_kit.colours:
        lines = Counter(page_text(sheets / f"counters-{colour.id}.pdf", 1).split("\n"))
        for unit in default_kit.units.values():
            if unit.groups:
                assert all(lines[f"{unit.code} {n}"] == 1 for n in range(1, unit.counters + 1)), unit.code
                assert lines[f"{unit.code} {unit.counters + 1}"] == 0
                stats = f"{unit.cls}{unit.attack}-{unit.defence} {unit.hull}x"
                assert lines[stats] >= unit.counters, (unit.code, stats)
            else:
                named_twice = unit.attack is None and unit.name == unit.code  # non-combat units print their name
                assert lines[unit.code] == unit.counters * (2 if named_twice else 1), unit.code


def test_pages_name_the_kit_the_group_and_the_sheet(sheets, manifest):
    for entry in manifest["files"][:-1]:
        pages = pages_words(sheets / entry["path"])
        sheets_in_file = entry["pages"] // 2
        assert len(pages) == entry["pages"]
        for number, text in enumerate(pages, start=1):
            assert "Space Empires 4X" in text
            assert f"sheet {(number + 1) // 2} of {sheets_in_file}" in text
        first = pages[0]
        assert "100%" in first and "long edge" in first and "1 in" in first and "25 mm" in first
    assert "Red" in page_text(sheets / "counters-red.pdf", 1)
    assert "Deep space" in page_text(sheets / "counters-deep-space.pdf", 2)


def test_calibration_sheet_tells_which_offset_to_enter(sheets):
    reader = PdfReader(sheets / "duplex-calibration.pdf")
    assert len(reader.pages) == 4         # the portrait sheet, and the landscape one for the booklet and aid cards
    assert reader.pages[2].mediabox.width > reader.pages[2].mediabox.height
    back = reader.pages[1].extract_text()
    assert "--back-offset X,Y" in back and "X (mm)" in back and "Y (mm)" in back  # the option to pass
    assert "pnpgen" not in back and "Rebuild" not in back  # the reader holds paper, not the tool
    assert "+5" in back and "-10" in back and "+20" in back and "flip check" in back


def pdf_fonts(pdf) -> list[tuple[str, bool]]:
    """(base font name, embedded?) for every font a page uses, read with pypdf alone (no pdffonts): the
    pages' /Resources /Font, recursing into form XObjects, patterns and Type 3 glyph resources."""
    fonts, seen = {}, {}  # keyed by id(); the values keep those objects alive so no id is reused

    def walk(resources):
        resources = resources.get_object() if resources is not None else None
        if not resources or id(resources) in seen:
            return
        seen[id(resources)] = resources
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":  # composite font: the descriptor sits on its descendant
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            name = str(font.get("/BaseFont", descriptor.get("/FontName", "[none]")))
            fonts[id(font)] = (name.lstrip("/"), embedded, font)
            walk(font.get("/Resources"))  # Type 3 glyph procedures may use fonts of their own
        for kind in ("/XObject", "/Pattern"):
            for child in (resources.get(kind) or {}).values():
                walk(child.get_object().get("/Resources"))

    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return [(name, embedded) for name, embedded, _ in fonts.values()]


def test_fonts_are_embedded(sheets):
    for pdf in sorted(sheets.glob("counters-*.pdf")):
        fonts = pdf_fonts(pdf)
        assert fonts, pdf.name
        assert all("DejaVuSans" in name for name, _ in fonts), (pdf.name, fonts)
        assert all(embedded for _, embedded in fonts), (pdf.name, [name for name, emb in fonts if not emb])


def test_the_font_check_sees_a_font_that_is_not_embedded(tmp_path):
    from reportlab.pdfgen.canvas import Canvas
    canvas = Canvas(str(tmp_path / "helvetica.pdf"))
    canvas.setFont("Helvetica", 12)  # one of the standard 14: named in the PDF, never embedded
    canvas.drawString(72, 720, "not embedded")
    canvas.save()
    assert pdf_fonts(tmp_path / "helvetica.pdf") == [("Helvetica", False)]


def test_two_builds_give_identical_bytes(sheets, tmp_path):
    again = build_counters(DEFAULT_KIT_DIR, tmp_path)  # a fresh output folder: nothing comes from a cache
    for pdf in sorted(sheets.glob("counters-*.pdf")):
        assert (again / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name


def test_millimetres_convert_exactly():
    from pnpgen.lengths import parse_length
    assert parse_length("25.4mm") == pytest.approx(72.0)
    assert parse_length("210mm") == pytest.approx(595.2756, abs=1e-4)  # A4 width
    assert parse_length("2.54cm") == pytest.approx(72.0)
