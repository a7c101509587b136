"""`pnpgen proof`: one piece at print size, front and back, the same as the sheets print it."""
import json
import shutil

import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from pnpgen.cli import main
from pnpgen.layout.proof import PNG_MARGIN_MM, SAFE_INSET_MM
from pnpgen.lengths import parse_length, pt_from_mm
from tests.conftest import DEFAULT_KIT_DIR

XX_UNIT = """  - id: XX
    name: Experimental
    class: B
    attack: 5
    defence: 2
    hull: 2
    cost: 18
    ship_size: 4
    pays_maintenance: true
    movement: tech
    groups: true
    qty: 3
    rules: basic
"""


def proofs(out):
    return out / "space-empires-4x" / "proofs"


def png(path) -> Image.Image:
    return Image.open(path).convert("RGB")


@pytest.fixture(scope="module")
def proofed(tmp_path_factory):
    out = tmp_path_factory.mktemp("proof")
    assert main(["proof", "--only", "units.DD,units.Decoy,deep-space-markers.danger", "--dpi", "150", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("size, dpi", [("5/8in", 300), ("5/8in", 150), ("1/2in", 300), ("1/2in", 600)])
def test_proof_pngs_have_the_physical_size_asked_for(tmp_path, size, dpi):
    assert main(["proof", "--only", "units.CA", "--counter-size", size, "--dpi", str(dpi), "--out", str(tmp_path)]) == 0
    image = Image.open(proofs(tmp_path) / "units.CA-front.png")
    edge_in = (parse_length(size) + 2 * pt_from_mm(PNG_MARGIN_MM)) / 72  # the face plus its margin, in inches
    assert image.size == (round(edge_in * dpi),) * 2
    assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.03)  # PNG stores dots per metre


def test_the_proof_shows_what_the_counter_sheet_prints(proofed, tmp_path):
    """The DD 1 front of the proof matches DD 1 on the red counter sheet (rasterised at the same 150 dpi)
    better than it matches its neighbours DD 2, SC 1 and CA 1."""
    assert main(["build", "--only", "counters", "--out", str(tmp_path), "--quiet"]) == 0
    manifest = json.loads((tmp_path / "space-empires-4x" / "manifest.json").read_text())
    scale = 150 / 72
    proof = png(proofs(proofed) / "units.DD-front.png")
    distances = {label: _distance(proof, _sheet_face(tmp_path, manifest, label, scale), scale)
                 for label in ("DD 1", "DD 2", "SC 1", "CA 1")}
    assert min(distances, key=distances.get) == "DD 1", distances
    assert distances["DD 1"] < 8, distances  # the same art; only anti-aliasing differs


def _sheet_face(out, manifest, label, scale):
    spot = next(p for p in manifest["parts"]["components"]["placements"]
                if p["label"] == label and p["side"] == "front" and p["colour"] == "red")
    page = pypdfium2.PdfDocument(str(out / "space-empires-4x" / spot["file"]))[spot["page"] - 1]
    sheet = page.render(scale=scale).to_pil().convert("RGB")
    return sheet.crop([round(v * scale) for v in (spot["x"], spot["y"], spot["x"] + spot["w"],
                                                  spot["y"] + spot["h"])])


def _distance(proof, face, scale):
    """Mean pixel difference inside the safe zone, at the best of the nearby whole-pixel offsets."""
    inset = round(pt_from_mm(SAFE_INSET_MM) * scale) + 3  # inside the safe-zone line the proof draws
    inner = face.crop((inset, inset, face.width - inset, face.height - inset))
    left = round(pt_from_mm(PNG_MARGIN_MM) * scale)
    return min(max(ImageStat.Stat(ImageChops.difference(inner, proof.crop(
        (left + dx + inset, left + dy + inset, left + dx + face.width - inset,
         left + dy + face.height - inset)))).mean) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def test_a_decoy_back_is_a_group_back(proofed):
    assert ImageChops.difference(png(proofs(proofed) / "units.Decoy-back.png"),
                                 png(proofs(proofed) / "units.DD-back.png")).getbbox() is None
    assert ImageChops.difference(png(proofs(proofed) / "units.Decoy-front.png"),
                                 png(proofs(proofed) / "units.DD-front.png")).getbbox() is not None


def test_cut_line_and_safe_zone_are_drawn(proofed):
    image = png(proofs(proofed) / "deep-space-markers.danger-front.png")
    scale = 150 / 72
    margin, inset = pt_from_mm(PNG_MARGIN_MM) * scale, pt_from_mm(SAFE_INSET_MM) * scale
    middle = image.width // 2
    cut = image.getpixel((middle, round(margin) - 1))
    assert cut[0] > 180 and cut[1] < 80 and cut[2] > 180, cut            # magenta just outside the edge
    band = [image.getpixel((middle + dx, round(margin + inset) + dy)) for dx in range(-6, 7) for dy in (-1, 0, 1)]
    assert any(p[2] > 200 and p[0] < 80 for p in band), band              # dashed cyan at the inset


def test_the_proof_pdf_holds_every_face_at_exact_size(proofed):
    reader = PdfReader(proofs(proofed) / "proof.pdf")
    text = reader.pages[0].extract_text()
    for label in ("units.DD", "units.Decoy", "deep-space-markers.danger"):
        assert label in text
    assert [float(v) for v in reader.pages[0].mediabox] == [0, 0, 612, 792]


def test_an_unknown_ref_is_a_usage_error_with_close_matches(run_cli, tmp_path):
    result = run_cli("proof", "--only", "units.DX", "--out", tmp_path)
    assert result.code == 2 and "no piece 'units.DX'" in result.err and "units.DD" in result.err
    assert not (tmp_path / "space-empires-4x").exists()


def test_a_new_unit_goes_from_yaml_to_proof_sheets_chart_and_manifest(run_cli, tmp_path):
    kit = tmp_path / "mykit"
    assert run_cli("new", kit).code == 0
    with (kit / "components" / "units.yaml").open("a") as units:  # a row at the end of the table
        units.write(XX_UNIT)
    out = tmp_path / "out"
    assert run_cli("proof", "--data", kit, "--only", "units.XX", "--out", out).code == 0
    assert (out / "mykit" / "proofs" / "units.XX-front.png").exists()
    assert run_cli("build", "--data", kit, "--out", out, "--only", "counters,cards", "--quiet").code == 0
    sheet = "".join(p.extract_text() for p in PdfReader(out / "mykit" / "counters-red.pdf").pages).replace(" ", "")
    assert [n for n in (1, 2, 3, 4) if f"XX{n}" in sheet] == [1, 2, 3]
    cards = " ".join(p.extract_text() for p in PdfReader(out / "mykit" / "cards.pdf").pages)
    assert "XX Experimental B 5\u20132 2 18 4" in " ".join(cards.split())
    manifest = json.loads((out / "mykit" / "manifest.json").read_text())
    assert sorted(p["label"] for p in manifest["pieces"] if p["ref"] == "units.XX" and p["colour"] == "red") == \
        ["XX 1", "XX 2", "XX 3"]


def test_overriding_one_template_changes_only_that_face(run_cli, tmp_path):
    kit = tmp_path / "kit"
    shutil.copytree(DEFAULT_KIT_DIR, kit)
    before, after = tmp_path / "before", tmp_path / "after"
    assert run_cli("proof", "--data", kit, "--only", "units.DD", "--out", before).code == 0
    (kit / "templates").mkdir(exist_ok=True)
    (kit / "templates" / "group-back.svg.j2").write_text(  # a designer's own group back; macros still shared
        '{% import "_counter.svg.j2" as c %}{% call c.on_piece(piece) %}{{ c.colour_ground(colour) }}'
        '<circle cx="50" cy="50" r="20" fill="#00ff00"/>{% endcall %}')
    assert run_cli("proof", "--data", kit, "--only", "units.DD", "--out", after).code == 0
    front = [png(d / "space-empires-4x" / "proofs" / "units.DD-front.png") for d in (before, after)]
    back = [png(d / "space-empires-4x" / "proofs" / "units.DD-back.png") for d in (before, after)]
    assert ImageChops.difference(*front).getbbox() is None
    assert ImageChops.difference(*back).getbbox() is not None


# Any kit's pieces, in their own shapes ---------------------------------------------------------------------

MINI = DEFAULT_KIT_DIR.parent.parent / "tests" / "kits" / "mini"


@pytest.fixture(scope="module")
def mini_proofs(tmp_path_factory):
    out = tmp_path_factory.mktemp("mini-proof")
    assert main(["proof", "--data", str(MINI), "--only", "cards.Explore,tiles.plains,tokens.1,chits.1",
                 "--dpi", "150", "--out", str(out)]) == 0
    return out / "mini" / "proofs"


def test_a_card_proof_is_the_card_size_plus_its_margin(mini_proofs):
    from pnpgen.kit import load_kit
    shape = load_kit(MINI)[0].tables["cards"].shape
    image = Image.open(mini_proofs / "cards.Explore-front.png")
    margin = 2 * pt_from_mm(PNG_MARGIN_MM)
    assert image.size == (round((shape.w + margin) / 72 * 150), round((shape.h + margin) / 72 * 150))


def test_a_hex_tile_proof_cuts_along_the_hex(mini_proofs):
    """The magenta cut line follows the hex: on its slanted edge, and never across the bounding box's corner."""
    image = png(mini_proofs / "tiles.plains-front.png")
    left = pt_from_mm(PNG_MARGIN_MM) * 150 / 72
    w, h = image.width - 2 * left, image.height - 2 * left
    magenta = lambda p: p[0] > 170 and p[1] < 90 and p[2] > 170  # noqa: E731
    corner = [image.getpixel((round(left + dx), round(left + dy))) for dx in range(0, 6) for dy in range(0, 6)]
    assert not any(magenta(p) for p in corner), "the cut line crosses the box corner: not a hex"
    # the upper-left slanted edge of a flat hex runs from (0, h/2) to (w/4, 0): its middle is at (w/8, h/4)
    x, y = left + w / 8, left + h / 4
    near = [image.getpixel((round(x + dx), round(y + dy))) for dx in range(-4, 5) for dy in range(-4, 5)]
    assert any(magenta(p) for p in near), "no cut line on the hex's slanted edge"


def test_a_one_sided_piece_is_proofed_front_only(mini_proofs):
    assert (mini_proofs / "chits.1-front.png").exists() and not (mini_proofs / "chits.1-back.png").exists()
    text = PdfReader(mini_proofs / "proof.pdf").pages[0].extract_text()
    assert "no back" in text and "cards.Explore" in text and "tiles.plains" in text


def test_a_piece_too_wide_to_show_twice_across_has_its_back_under_its_front(run_cli, tmp_path):
    """Eclipse's 104 mm sector hexes do not fit front beside back on Letter: the back goes under the front
    (the proof stopped with 'does not fit twice across', exit 2), each face at its exact size."""
    from pnpgen.layout.proof import proof_rows
    from pnpgen.paper import PRINTABLE_MARGIN, paper_size
    assert run_cli("proof", "--data", MINI, "--only", "tiles.plains", "--piece-size", "tiles=4in",
                   "--dpi", "20", "--out", tmp_path).code == 0
    page = pypdfium2.PdfDocument(str(tmp_path / "mini" / "proofs" / "proof.pdf"))[0]
    faces = sorted(obj.get_bounds() for obj in page.get_objects(max_depth=1) if obj.type == 5)  # form XObjects
    (_, front_bottom, _, _), (_, _, _, back_top) = sorted(faces, key=lambda box: -box[3])
    assert len(faces) == 2 and back_top < front_bottom                 # one face above the other
    from pnpgen.kit import load_kit
    width = load_kit(MINI, sizes={"tiles": "4in"})[0].tables["tiles"].shape.w   # 4 in across the flats
    assert all(width - 1 < right - left < width + 6 for left, _, right, _ in faces)  # at size (art's own overdraw)
    side_by_side, stacked = proof_rows([(100.0, 100.0), (300.0, 260.0)], paper_size("letter"), PRINTABLE_MARGIN)
    assert side_by_side.back[1] == side_by_side.front[1] and stacked.back[0] == stacked.front[0]
