"""Overprint preflight: text over text, text under a line or across a shape's edge, found in a face's
recorded drawing calls; a kit that overprints stops the build, located; the four kits' fixed cases stay
fixed, read back out of their PDFs."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
import yaml

from pnpgen.cli import main
from pnpgen.kit_folder import BUILTIN_DATA
from pnpgen.preflight import overprints
from pnpgen.render.ink_lines import read_ink
from pnpgen.render.svg_ops import record
from tests.overprint_helpers import MM, page_lines, placement_lines, touching

MINI = Path(__file__).parent / "kits" / "mini"


def findings(body: str) -> list[str]:
    """overprints() of a 40 x 30 mm drawing with `body` inside."""
    drawing = record(f'<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="30mm" viewBox="0 0 40 30">'
                     f'{body}</svg>', None)
    return overprints(drawing["texts"], read_ink(drawing["ops"]))


TEXT = '<text x="5" y="12" font-family="DejaVu Sans" font-size="4">{}</text>'


def test_text_crossed_by_a_line_is_found_and_a_clear_line_is_not():
    assert findings(TEXT.format("Cost") + '<line x1="0" y1="12.6" x2="40" y2="12.6" stroke="#000" stroke-width="0.3"/>') \
        == []  # an underline just clear of the round letters' overshoot below the baseline
    found = findings(TEXT.format("Cost") + '<line x1="0" y1="10.5" x2="40" y2="10.5" stroke="#000" stroke-width="0.3"/>')
    assert len(found) == 1 and "text 'Cost'" in found[0] and "crossed by a line from (0.0, 10.5) mm" in found[0]
    assert findings(TEXT.format("Cost") + '<line x1="0" y1="14" x2="40" y2="14" stroke="#000" stroke-width="0.3"/>') == []


def test_text_over_text_is_found():
    found = findings(TEXT.format("Upkeep") + '<text x="9" y="13" font-family="DejaVu Sans" font-size="4">VP</text>')
    assert found and "text 'Upkeep' overprints text 'VP'" in found[0]


def test_text_inside_a_box_passes_and_text_across_its_edge_does_not():
    box = '<rect x="2" y="6" width="30" height="9" fill="#dddddd" stroke="#333333" stroke-width="0.4"/>'
    assert findings(box + TEXT.format("Inside")) == []
    across = findings(box + '<text x="24" y="12" font-family="DejaVu Sans" font-size="4">Across</text>')
    assert across and "text 'Across'" in across[0]
    filled = '<circle cx="5" cy="11" r="3" fill="#ffffff"/>'  # no outline: its edge still cuts the text's ground
    on_dark = '<rect x="0" y="0" width="40" height="30" fill="#222222"/>'
    assert "edge of a filled shape" in findings(on_dark + filled + TEXT.format("Edge"))[0]


def test_a_line_hidden_under_an_opaque_panel_or_faint_as_a_tint_is_not_a_crossing():
    line = '<line x1="0" y1="10.5" x2="40" y2="10.5" stroke="#000" stroke-width="0.3"/>'
    panel = '<rect x="3" y="7" width="20" height="7" fill="#ffffff"/>'
    assert findings(line + panel + TEXT.format("Cost")) == []
    assert findings(f'<g opacity="0.15">{line}</g>' + TEXT.format("Cost")) == []
    assert findings(line.replace("#000", "#f4f4f4") + TEXT.format("Cost")) == []   # a watermark on white paper


@pytest.fixture
def mini_copy(tmp_path) -> Path:
    target = tmp_path / "mini"
    shutil.copytree(MINI, target)
    return target


def _build(kit: Path, part: str = "components") -> int:
    return main(["build", "--data", str(kit), "--out", str(kit.parent / "out"), "-q", "--only", part])


def test_a_piece_whose_text_a_line_crosses_stops_the_build_located(mini_copy, capsys):
    template = mini_copy / "templates" / "tile-front.svg.j2"
    template.write_text(template.read_text() + '{{ p.text("STRUCK", 4, piece.h / 2, pt(9)) }}'
                        '<line x1="2" y1="{{ piece.h / 2 - 1 }}" x2="{{ piece.w - 2 }}" y2="{{ piece.h / 2 - 1 }}" '
                        'stroke="#000000" stroke-width="0.4"/>\n')
    assert _build(mini_copy) == 1
    err = capsys.readouterr().err
    assert "preflight: these pieces would print badly" in err
    assert "tiles.yaml:" in err and "tile-front.svg.j2 (front): text 'STRUCK' at" in err and "crossed by a line" in err
    assert "Traceback" not in err


def test_a_piece_whose_texts_overlap_stops_the_build(mini_copy, capsys):
    template = mini_copy / "templates" / "tile-front.svg.j2"
    template.write_text(template.read_text() + '{{ p.text("ONE", 4, piece.h / 2, pt(9)) }}'
                        '{{ p.text("TWO", 5, piece.h / 2 + 0.5, pt(9)) }}\n')
    assert _build(mini_copy) == 1
    assert "text 'ONE' overprints text 'TWO'" in capsys.readouterr().err


def test_a_board_that_overprints_stops_the_boards_part_located(mini_copy, capsys):
    board = yaml.safe_load((mini_copy / "boards" / "board.yaml").read_text())
    template = mini_copy / "templates" / f"{board.get('template', 'board')}.svg.j2"
    if not template.exists():
        template = Path(__file__).parents[1] / "templates" / "board.svg.j2"
        shutil.copy(template, mini_copy / "templates" / "board.svg.j2")
        template = mini_copy / "templates" / "board.svg.j2"
    text = template.read_text()
    template.write_text(text + '\n<text x="20" y="20" font-family="DejaVu Sans" font-size="5">OVER</text>'
                        '<text x="22" y="21" font-family="DejaVu Sans" font-size="5">LAID</text>\n')
    assert _build(mini_copy, "boards") == 1
    err = capsys.readouterr().err
    assert "preflight: these boards would print badly" in err and "board.yaml: board" in err
    assert "text 'OVER' overprints text 'LAID'" in err


# The four kits' fixed cases, read back out of their PDFs -------------------------------------------------

def _kit_build(kit_build, kit: str) -> tuple[Path, dict]:
    root = kit_build(kit)   # its full build: the components and boards parts as `--only components,boards` makes them
    return root, json.loads((root / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def eclipse(kit_build):
    # flipped on the long edge (the default), the backs of Eclipse's portrait card sheet stand upright on the
    # page (a short flip turns them half a turn), which is how these tests read a face's lines
    return _kit_build(kit_build, "eclipse")


@pytest.fixture(scope="module")
def se4(kit_build):
    return _kit_build(kit_build, "se4-board-game")


@pytest.fixture(scope="module")
def euro(kit_build):
    return _kit_build(kit_build, "4x-space-euro")


def _placed(manifest: dict, face: str, ref: str | None = None) -> list[dict]:
    found = [p for p in manifest["parts"]["components"]["placements"]
             if p["face"] == face and not p["turned"] and (ref is None or p["ref"] == ref)]
    assert found, (face, ref)
    return found


def test_eclipse_passed_side_keeps_its_closing_sentence_below_the_reaction_boxes(eclipse):
    root, manifest = eclipse
    for placement in _placed(manifest, "summary-back"):
        width = placement["w"] / MM
        lines = placement_lines(root, placement)
        closing = next(line for line in lines if line.text.startswith("Whenevery"))
        assert closing.top > 31.5 + 2 * 13 + 12 + 0.3            # under the third box's bottom edge
        for line in lines:
            if "singlestep" in line.text:                        # inside its box's right border
                assert line.x1 < width - 3.5 - 0.3, line


def test_eclipse_hypergrid_source_keeps_its_number_off_the_bolt(eclipse):
    root, manifest = eclipse
    for placement in _placed(manifest, "discovery-front", "discovery.Hypergrid Source"):
        number = next(line for line in placement_lines(root, placement) if line.text == "+11")
        assert number.x0 > placement["w"] / MM / 2 - 7.2 + 8 * 0.55 + 0.2   # the bolt's right tip


def test_eclipse_boards_have_no_two_texts_touching(eclipse):
    root, _ = eclipse
    for name in ("player-red-poster.pdf", "supply-poster.pdf"):
        lines = page_lines(root / "boards" / name, 1)
        assert any(line.text.startswith("1VP") for line in lines) or name == "supply-poster.pdf"
        assert touching(lines, 0.3) == [], name


def test_euro_wormhole_text_stays_inside_the_inner_hex_border(euro):
    root, manifest = euro
    for placement in _placed(manifest, "anomaly-front", "anomalies.wormhole"):
        w, h = placement["w"] / MM, placement["h"] / MM
        radius = w / 2 - 1.2 - 0.3 / 2                            # the border's inner edge
        for line in placement_lines(root, placement):
            for x, y in ((line.x0, line.top), (line.x1, line.top), (line.x0, line.bottom), (line.x1, line.bottom)):
                assert _inside_flat_hex(x - w / 2, y - h / 2, radius) > 0.3, line


def _inside_flat_hex(dx: float, dy: float, radius: float) -> float:
    """How far (mm) a point lies inside a flat-topped hexagon of circumradius `radius`."""
    apothem = radius * math.sqrt(3) / 2
    return min(apothem - abs(dy), apothem - (abs(dx) * math.sqrt(3) / 2 + abs(dy) / 2))


def test_se4_damage_steps_share_one_size_and_sit_beside_their_numbers(se4):
    root, manifest = se4
    placement = _placed(manifest, "reference-back")[0]
    lines = placement_lines(root, placement)
    numbers = [line for line in lines if line.text in "123456" and line.x0 < 10]
    assert [line.text for line in numbers] == list("123456")
    for number in numbers:
        row_top = 20.5 + (int(number.text) - 1) * 9.6
        texts = [line for line in lines if line.x0 > 10 and line.x1 < 95 and row_top < line.top < row_top + 9]
        assert texts and {round(line.size, 1) for line in texts} == {7.0}, number
        middle = (min(t.top for t in texts) + max(t.bottom for t in texts)) / 2
        assert abs((number.top + number.bottom) / 2 - middle) < 1.0, number


def test_se4_galaxy_sector_ids_stand_outside_their_circles(se4):
    root, _ = se4
    board = yaml.safe_load((BUILTIN_DATA / "se4-board-game" / "boards" / "galaxy.yaml").read_text())
    lines = page_lines(root / "boards" / "galaxy-poster.pdf", 1)
    assert touching(lines, 0.3) == []
    for place in board["places"]:
        label = next(line for line in lines if line.text == place["id"])
        corners = ((label.x0, label.top), (label.x1, label.top), (label.x0, label.bottom), (label.x1, label.bottom))
        nearest = min(math.hypot(x - place["x"], y - place["y"]) for x, y in corners)
        assert nearest > place["size"] / 2 + 0.5, place["id"]


# Pieces on board spaces ----------------------------------------------------------------------------------

def test_a_place_and_a_track_that_hold_too_big_a_piece_stop_the_build_located(mini_copy, capsys):
    board = mini_copy / "boards" / "board.yaml"
    text = board.read_text()
    text = text.replace("label: Red}", "label: Red, holds: tiles}")                 # a 2 in hex (58.7 mm corner to corner) on a 30 mm place
    text = text.replace("cell: 11, label: Score", "cell: 11, holds: chits, label: Score")  # 1/2 in chits: 12.7 mm
    board.write_text(text)
    assert main(["validate", "--data", str(mini_copy)]) == 1
    err = capsys.readouterr().err
    assert "board.yaml:6: places[0] (home-red).holds: tiles (58.7 mm) is larger than the place (30 mm)" in err
    assert "tracks[0] (score).holds: chits (12.7 mm) is larger than a space (11 mm)" in err
    assert "Traceback" not in err


def test_a_piece_that_fits_its_space_but_reaches_over_the_next_one_is_found(mini_copy, capsys):
    board = mini_copy / "boards" / "board.yaml"
    text = board.read_text().replace("cell: 11, label: Score", "cell: 14, pitch: 13, holds: chits, label: Score")
    text = text.replace("label: Red}", "label: Red, holds: tokens}")                 # 19 mm token, 30 mm place: fits
    board.write_text(text)
    assert main(["validate", "--data", str(mini_copy)]) == 1
    err = capsys.readouterr().err
    assert "tracks[0] (score).holds: chits (12.7 mm) on a space reaches over the next one" in err
    assert "home-red" not in err
    board.write_text(text.replace("pitch: 13", "pitch: 14"))
    assert main(["validate", "--data", str(mini_copy)]) == 0


def _track_numbers(lines, values: list, near_y: float | None = None) -> list:
    """The lines that print `values` in order along one row (the first such row, or the one at near_y)."""
    rows: dict = {}
    for line in lines:
        if line.text in values:
            rows.setdefault(round(line.top), []).append(line)
    for top, row in sorted(rows.items()):
        texts = [line.text for line in sorted(row, key=lambda line: line.x0)]
        if texts[:len(values)] == values and (near_y is None or abs(top - near_y) < 3):
            return sorted(row, key=lambda line: line.x0)[:len(values)]
    raise AssertionError(f"no row printing {values}")


def test_eclipse_influence_discs_fit_their_circles_read_from_the_pdfs(eclipse):
    root, manifest = eclipse
    disc = next(p for p in manifest["parts"]["components"]["placements"] if p["ref"] == "player-discs.influence-disc")
    diameter = disc["w"] / MM
    track = yaml.safe_load((BUILTIN_DATA / "eclipse" / "data" / "game.yaml").read_text())["influence_track"]
    lines = page_lines(root / "boards" / "player-red-poster.pdf", 1)
    numbers = _track_numbers(lines, [str(n) for n in track[:11]])
    centres = [(line.x0 + line.x1) / 2 for line in numbers]
    assert min(b - a for a, b in zip(centres, centres[1:])) >= diameter + 0.5   # a disc never covers the next number


def test_eclipse_storage_markers_fit_one_storage_square_read_from_the_pdfs(eclipse):
    root, manifest = eclipse
    marker = next(p for p in manifest["parts"]["components"]["placements"] if p["ref"] == "storage-markers.money-marker")
    lines = page_lines(root / "boards" / "player-red-poster.pdf", 1)
    numbers = _track_numbers(lines, [str(n) for n in range(10)])
    centres = [(line.x0 + line.x1) / 2 for line in numbers]
    pitch = min(b - a for a, b in zip(centres, centres[1:]))
    assert marker["w"] / MM / 2 + pitch / 2 <= pitch + 0.05    # centred on a square, it stays off the next one


# Pages set straight onto a PDF (aid cards, record sheets) ------------------------------------------------

def test_text_over_text_on_a_written_page_is_found_with_its_page(tmp_path):
    from reportlab.pdfgen.canvas import Canvas
    from pnpgen.page_overprint import pdf_overprints
    path = tmp_path / "page.pdf"
    canvas = Canvas(str(path), pagesize=(300, 200))
    canvas.setFont("Helvetica", 10)
    canvas.drawString(20, 150, "Clear heading")
    canvas.drawString(20, 130, "A line of text")
    canvas.drawString(20, 115, "The next line")        # 15 pt below: clear of the one above
    canvas.showPage()
    canvas.drawString(20, 100, "Production")
    canvas.drawString(40, 96, "Upkeep")                 # 4 pt lower and to the right: over the first
    canvas.save()
    assert pdf_overprints(path) == [(2, pdf_overprints(path)[0][1])]
    assert "text 'Production' overprints text 'Upkeep'" in pdf_overprints(path)[0][1]


# A second cue beside colour -------------------------------------------------------------------------------

def test_eclipse_population_squares_carry_their_resource_letter(eclipse):
    """Every money, science and materials square of a sector prints $, S or M, as many as the sector has."""
    import csv
    root, manifest = eclipse
    rows = {row["id"]: row for row in csv.DictReader((BUILTIN_DATA / "eclipse" / "components" / "sectors.csv").open())}
    checked = 0
    for placement in _placed(manifest, "sector-front"):
        row = rows[placement["ref"].split(".", 1)[1]]
        letters = [line.text for line in placement_lines(root, placement) if line.text in ("$", "S", "M")]
        for letter, res in (("$", "money"), ("S", "science"), ("M", "materials")):
            assert letters.count(letter) == int(row[res] or 0) + int(row["adv_" + res] or 0), (row["id"], letter)
        checked += 1
    assert checked >= 30


def test_euro_goods_carry_their_initial_on_the_board_and_the_markets(euro):
    root, manifest = euro
    board = yaml.safe_load((BUILTIN_DATA / "4x-space-euro" / "boards" / "main.yaml").read_text())
    initials = {"pink": "P", "teal": "T", "orange": "O"}
    lines = page_lines(root / "boards" / "main-poster.pdf", 1)
    for place in board["places"]:
        if place.get("goods", "none") != "none":
            near = [line.text for line in lines if abs((line.x0 + line.x1) / 2 - place["x"]) < place["size"] / 2
                    and abs((line.top + line.bottom) / 2 - place["y"]) < place["size"] / 2]
            assert initials[place["goods"]] in near, place["id"]
    for placement in _placed(manifest, "market-front"):
        foot = [line.text for line in placement_lines(root, placement) if line.top > placement["h"] / MM - 13]
        assert foot == ["P", "T", "O"], foot


def test_euro_outposts_fit_the_shuffle_track_read_from_the_pdfs(euro):
    root, manifest = euro
    outpost = next(p for p in manifest["parts"]["components"]["placements"] if p["ref"] == "pieces.outpost")
    numbers = _track_numbers(page_lines(root / "boards" / "main-poster.pdf", 1), [str(n) for n in range(1, 25)])
    centres = [(line.x0 + line.x1) / 2 for line in numbers]
    assert min(b - a for a, b in zip(centres, centres[1:])) >= outpost["w"] / MM   # one outpost a space
