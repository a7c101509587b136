"""Preflight: glyphs measured as they are drawn, held against a minimum size and the piece's cut path.
A piece that breaks a rule stops the build, located; the kit may set its own limits."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pnpgen.cli import main
from pnpgen.preflight import Rules, check_face, clearance
from pnpgen.shapes import Shape
from tests.conftest import edit

MINI = Path(__file__).parent / "kits" / "mini"
MM = 72 / 25.4


def test_clearance_follows_each_shape():
    square = Shape("square", 36, 36)
    assert clearance((2, 2, 10, 10), square) == pytest.approx(2)
    circle = Shape("circle", 36, 36)
    assert clearance((2, 2, 10, 10), circle) < 0            # the corner of that box is outside the circle
    assert clearance((15, 15, 21, 21), circle) > 10
    hexagon = Shape("hex", 100, 86.6)
    assert clearance((1, 40, 5, 46), hexagon) < 0            # near the left point of a flat hex
    assert clearance((45, 40, 55, 46), hexagon) > 30
    card = Shape("rect", 180, 250, radius=12)
    assert clearance((1, 1, 4, 4), card) < 0                 # inside the box, outside the rounded corner


def test_small_text_and_text_near_the_cut_are_found():
    square = Shape("square", 36, 36)
    texts = [(5.0, 10, 10, 13, 14, "G"), (5.0, 13.3, 11, 16, 14, "o"), (8.0, 1, 20, 5, 26, "X")]
    findings = check_face(texts, square, 0, Rules())
    assert any("'Go' is 5 pt, below the 6 pt minimum" in f for f in findings)
    assert any("'X' comes within 0.35 mm of the cut line" in f for f in findings)
    assert check_face(texts, square, 0, Rules(min_text=4, cut_margin=0.5)) == []


@pytest.fixture
def mini_copy(tmp_path) -> Path:
    target = tmp_path / "mini"
    shutil.copytree(MINI, target)
    return target


def _build(kit: Path, *extra: str) -> int:
    return main(["build", "--data", str(kit), "--out", str(kit.parent / "out"), "-q", "--only", "components", *extra])


def test_a_piece_with_tiny_text_stops_the_build_located(mini_copy, capsys):
    assert _build(mini_copy) == 0
    out = mini_copy.parent / "out" / "mini"
    before = {p: p.read_bytes() for p in out.glob("*.pdf")}
    template = mini_copy / "templates" / "chit.svg.j2"
    template.write_text(template.read_text().replace("pt(12)", "pt(4)"))
    capsys.readouterr()
    assert _build(mini_copy) == 1
    err = capsys.readouterr().err
    assert "chits.yaml:10: chits row 1: chit.svg.j2 (front): text '1' is 4 pt, below the 6 pt minimum" in err
    assert before == {p: p.read_bytes() for p in out.glob("*.pdf")}


def test_text_on_the_cut_line_stops_the_build(mini_copy, capsys):
    template = mini_copy / "templates" / "tile-front.svg.j2"
    template.write_text(template.read_text() + '{{ p.text("EDGE", 0.2, piece.h / 2, pt(8)) }}\n')
    assert _build(mini_copy) == 1
    assert "text 'EDGE' comes within" in capsys.readouterr().err


def test_the_kit_sets_its_own_limits(mini_copy, capsys):
    template = mini_copy / "templates" / "chit.svg.j2"
    template.write_text(template.read_text().replace("pt(12)", "pt(5)"))
    assert _build(mini_copy) == 1
    edit(mini_copy / "kit.yaml", "paper: letter", "paper: letter\npreflight: {min_text: 5pt}")
    assert _build(mini_copy) == 0


def test_a_size_chosen_on_the_command_line_makes_findings_warnings(mini_copy, capsys):
    """A table printed smaller with --counter-size or --piece-size prints smaller text: the player asked for
    it, so its findings are warnings (errors with --strict); at the table's
    own size, even when the command line names it, they stop the build."""
    import json
    template = mini_copy / "templates" / "chit.svg.j2"
    template.write_text(template.read_text().replace("pt(12)", "pt(12 * piece.w / 12.7)"))  # text grows with the chit
    assert _build(mini_copy) == 0  # 12 pt on the chits' own 1/2 in
    finding = "chits.yaml:10: chits row 1: chit.svg.j2 (front): text '1' is 5.7 pt, below the 6 pt minimum"
    for size in (["--counter-size", "6mm"], ["--piece-size", "chits=6mm"]):
        capsys.readouterr()
        assert _build(mini_copy, *size) == 0
        assert re.search(r"warning: preflight: \S*" + re.escape(finding), capsys.readouterr().err)
        manifest = json.loads((mini_copy.parent / "out" / "mini" / "manifest.json").read_text())
        assert any(w.startswith("preflight: ") and w.endswith(finding) for w in manifest["parts"]["components"]["warnings"])
        assert _build(mini_copy, *size, "--strict") == 1
        assert "--strict: these warnings are errors" in capsys.readouterr().err
    edit(mini_copy / "components" / "chits.yaml", "size: 1/2in", "size: 6mm")  # the kit's own size now
    for size in ([], ["--piece-size", "chits=6mm"], ["--counter-size", "6mm"]):
        assert _build(mini_copy, *size) == 1
        err = capsys.readouterr().err
        assert "preflight: these pieces would print badly" in err and finding in err


def test_the_default_kit_s_counter_faces_are_measured(default_kit_build):
    """Counter faces are checked too: the measured glyphs of every stored face reach the preflight."""
    from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT
    from pnpgen.render.face_keys import kit_cache_files
    from pnpgen.render.face_store import PackedFaceStore
    cache = default_kit_build.parent / ".cache" / DEFAULT_KIT
    store, _ = kit_cache_files(BUILTIN_DATA / DEFAULT_KIT, cache)   # the user's, as the build kept: counters too
    records = list(PackedFaceStore(store).records.values())
    assert records and all("texts" in r for r in records)
    assert any(t[5].startswith("DD") and t[0] > 5 for r in records for t in r["texts"])  # "DD 1" on a unit front


def test_the_default_kit_s_counters_pass_and_a_stricter_kit_fails_located(kit_copy, default_kit_build, tmp_path,
                                                                           capsys):
    out = tmp_path / "out"
    # the default kit's counters pass: its --strict build (default_kit_build) stops at any preflight finding;
    # its drawn faces come along, as a second build in its folder would find them
    shutil.copytree(default_kit_build.parent / ".cache", out / ".cache")
    edit(kit_copy / "kit.yaml", "paper: letter", "paper: letter\npreflight: {min_text: 9pt}")
    assert main(["build", "--data", str(kit_copy), "--out", str(out), "-q", "--only", "counters"]) == 1
    err = capsys.readouterr().err
    assert "preflight: these pieces would print badly" in err and "below the 9 pt minimum" in err
    findings = err.splitlines()[1:-1]  # each says first where its piece comes from (data file and line)
    assert findings and all(re.match(r"\S+\.yaml:\d+: ", line) for line in findings), findings[:3]
    assert err.splitlines()[-1] == f"{len(findings)} error(s); nothing was built or changed."  # one per finding
    # a smaller size asked for on the command line: warnings, and --strict refuses
    assert main(["build", "--data", str(kit_copy), "--out", str(out), "-q", "--only", "counters",
                 "--counter-size", "1/2in"]) == 0
    assert "warning: preflight:" in capsys.readouterr().err


def _drawn(body: str, size_mm: str = "63x88") -> dict:
    """A face drawn by the SVG subset drawer (what a build stores): its texts, calls and fine print."""
    from pnpgen.render.svg_ops import record
    w, h = size_mm.split("x")
    return record(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">'
                  f'{body}</svg>', None)


def test_a_card_holds_its_text_to_7_pt_save_its_marked_fine_print():
    from pnpgen.preflight import piece_kind
    card, chit = Shape("rect", 63 * MM, 88 * MM), Shape("square", 16 * MM, 16 * MM)
    assert piece_kind(card) == "card" and piece_kind(chit) == "counter" and piece_kind(card, "counter") == "counter"
    assert piece_kind(Shape("hex", 90 * MM, 78 * MM)) == "counter"          # a tile, however large
    drawn = _drawn('<text x="10" y="20" font-size="2.3">Body</text>'
                   '<text class="fine-print" x="10" y="40" font-size="2.2">Credit</text>')
    findings = check_face(drawn["texts"], card, 0, Rules(), kind="card", fine=drawn.get("fine", ()))
    assert [f for f in findings if "minimum" in f] == ["text 'Body' is 6.5 pt, below a card's 7 pt minimum"]
    assert check_face(drawn["texts"], card, 0, Rules(), kind="counter") == []


def test_text_on_a_ground_of_too_little_contrast_or_on_a_bare_picture_is_found():
    from pnpgen.contrast import contrast_ratio
    from pnpgen.preflight import contrasts
    from pnpgen.render.ink_lines import read_ink
    assert contrast_ratio((0, 0, 0), (1, 1, 1)) == pytest.approx(21)
    assert contrast_ratio((1, 1, 1), (0x77 / 255,) * 3) == pytest.approx(4.48, abs=0.01)   # WCAG's own example
    drawn = _drawn('<rect width="63" height="20" fill="#3fa538"/><text x="5" y="10" font-size="4" fill="#ffffff">Move</text>'
                   '<rect y="30" width="63" height="20" fill="#1b5e20"/><text x="5" y="40" font-size="4" fill="#fff">Go</text>'
                   '<text x="5" y="70" font-size="3" fill="#999999">Footnote</text>')
    findings = contrasts(drawn["texts"], read_ink(drawn["ops"]), Rules())
    assert findings == ["text 'Move' (#ffffff on #3fa538) has a contrast of 3.2:1, below 4.5:1",
                        "text 'Footnote' (#999999 on #ffffff) has a contrast of 2.8:1, below 4.5:1"]


def test_text_over_a_picture_needs_an_opaque_backing(tmp_path):
    from pnpgen.preflight import contrasts
    from pnpgen.render.ink_lines import read_ink
    from pnpgen.render.svg_ops import record
    from PIL import Image
    Image.new("RGB", (8, 8), (230, 230, 240)).save(tmp_path / "pale.png")
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">'
           '<image href="pale.png" x="0" y="0" width="63" height="60"/>'
           '<text x="5" y="20" font-size="4">Bare</text>'
           '<rect x="2" y="30" width="50" height="10" fill="#ffffff"/><text x="5" y="37" font-size="4">Backed</text></svg>')
    drawn = record(svg, tmp_path)
    findings = contrasts(drawn["texts"], read_ink(drawn["ops"]), Rules())
    assert len(findings) == 1 and findings[0].startswith("text 'Bare' at (") and "pale.png with no backing" in findings[0]


def test_a_reportlab_page_finds_text_of_too_little_contrast_on_its_fill(tmp_path):
    """Aid cards and record sheets: the canvas notes each glyph's colour and the rectangles filled before it."""
    from reportlab.lib import colors
    from pnpgen.page_contrast import drawn_contrasts
    from pnpgen.render.drawn_text import DrawnGlyphs, GlyphCanvas
    canvas = GlyphCanvas(str(tmp_path / "p.pdf"), pagesize=(200, 200))
    canvas.drawn_glyphs = DrawnGlyphs()
    canvas.setFillColor(colors.HexColor("#f2f2f2"))
    canvas.rect(10, 100, 180, 40, stroke=0, fill=1)
    canvas.setFillColor(colors.HexColor("#8a8a8a"))
    canvas.setFont("Helvetica", 8)
    canvas.drawString(20, 110, "start 1")
    canvas.setFillColor(colors.HexColor("#333333"))
    canvas.drawString(20, 60, "plain")
    canvas.showPage()
    assert drawn_contrasts(canvas.drawn_glyphs) == [
        (1, "text 'start1' (#8a8a8a on #f2f2f2) has a contrast of 3.1:1, below 4.5:1")]


def test_a_booklet_figure_grows_until_its_text_reads_and_says_where_it_cannot():
    """Figures: the recorded sizes times the layout's scale, held to 6 pt (pnpgen.booklet.overlay)."""
    from types import SimpleNamespace
    from pnpgen.booklet.figure import Art, Figure
    from pnpgen.booklet.overlay import figure_text_sizes, readable
    from pnpgen.booklet.story import FigureBox
    from pnpgen.problems import BuildError
    card = Figure("cards.scout", (Art("<svg/>", "scout", "Front: Cards: Scout"),))
    drawn = {("cards.scout", 0): SimpleNamespace(width=180.0, height=250.0,
                                                 texts=((7.0, 0, 0, 10, 10, "Move"), (12.0, 0, 0, 9, 9, "Scout")))}
    wide = readable({"cards.scout": card}, drawn, FigureBox.default_width)["cards.scout"]
    assert FigureBox.default_width(card) == 118 and wide.width == pytest.approx(180 * 6 / 7 + 0.5, abs=0.1)
    figure_text_sizes({"cards.scout": wide}, drawn, {("cards.scout", 0): (6, 0, 0, wide.width, 0)})   # reads: no error
    with pytest.raises(BuildError, match=r"rules/01.md: figure cards.scout \(scout\) on page 6: text 'Move' at 4.6 pt"):
        figure_text_sizes({"cards.scout": card}, drawn, {("cards.scout", 0): (6, 0, 0, 118.0, 0)},
                          {"cards.scout": "rules/01.md"})
