"""Counter sheet geometry and pixels: backs behind their fronts, margins kept, cut lines where pieces meet,
the right face on each back; and bad templates end the build with a located error and no output touched."""
import io
from collections import defaultdict

import pytest
from pypdf import PdfReader

from pnpgen.paper import PRINTABLE_MARGIN
from pnpgen.problems import BuildError
from pnpgen.render.templates import template_env
from tests.conftest import DEFAULT_KIT_DIR, edit
from tests.counters_helpers import build_counters, counters_manifest, crop, mean_difference, render_page


@pytest.fixture(scope="module")
def letter(tmp_path_factory):
    kit_out = build_counters(DEFAULT_KIT_DIR, tmp_path_factory.mktemp("letter"))
    return kit_out, counters_manifest(kit_out)


@pytest.fixture(scope="module")
def a4_short(tmp_path_factory):
    """A4, 1/2 in counters, 1 mm gutters, short-edge duplex and a back offset: every option at once."""
    kit_out = build_counters(DEFAULT_KIT_DIR, tmp_path_factory.mktemp("a4"), paper="a4", counter_size="1/2in",
                             gutter=1.0, duplex="short", back_offset="1.5,-0.5", previews=True)
    return kit_out, counters_manifest(kit_out)


def front_back_pairs(manifest):
    """(front, back) placements of the same piece: slot k of page 2n-1 and slot k of page 2n."""
    by_page = defaultdict(list)
    for p in manifest["placements"]:
        by_page[(p["file"], p["page"])].append(p)
    for (path, page), fronts in by_page.items():
        if page % 2:
            yield from zip(fronts, by_page[(path, page + 1)])


def page_size(manifest, path):
    return next(f["page_size"] for f in manifest["files"] if f["path"] == path)


def test_every_back_sits_at_the_mirrored_position_of_its_front(letter):
    _, manifest = letter
    pairs = list(front_back_pairs(manifest))
    assert len(pairs) == 796
    for front, back in pairs:
        width, _ = page_size(manifest, front["file"])
        assert (front["side"], back["side"]) == ("front", "back") and front["label"] == back["label"]
        assert back["x"] == pytest.approx(width - front["x"] - front["w"])
        assert back["y"] == pytest.approx(front["y"])


def test_short_edge_backs_mirror_top_to_bottom_and_take_the_offset(a4_short):
    _, manifest = a4_short
    assert {(p["w"], p["h"]) for p in manifest["placements"]} == {(36.0, 36.0)}  # 1/2 in
    for front, back in front_back_pairs(manifest):
        width, height = page_size(manifest, front["file"])
        assert (width, height) == pytest.approx((595.276, 841.89), abs=0.01)  # A4
        assert back["x"] == pytest.approx(front["x"] + 1.5 * 72 / 25.4, abs=0.002)
        assert back["y"] == pytest.approx(height - front["y"] - front["h"] - 0.5 * 72 / 25.4, abs=0.002)
        assert back["turned"] and not front["turned"]


@pytest.mark.parametrize("which", ["letter", "a4_short"])
def test_no_piece_crosses_the_printable_margin(which, request):
    _, manifest = request.getfixturevalue(which)
    for p in manifest["placements"]:
        if p["side"] == "front":
            width, height = page_size(manifest, p["file"])
            assert PRINTABLE_MARGIN <= p["x"] and p["x"] + p["w"] <= width - PRINTABLE_MARGIN
            assert PRINTABLE_MARGIN <= p["y"] and p["y"] + p["h"] <= height - PRINTABLE_MARGIN


def covered(segments, x1, y1, x2, y2):
    """Whether one cut segment runs along the whole edge (x1, y1)-(x2, y2)."""
    eps = 1e-3
    for a, b, c, d in segments:
        if x1 == x2 and abs(a - x1) < eps and abs(c - x1) < eps and min(b, d) <= y1 + eps and max(b, d) >= y2 - eps:
            return True
        if y1 == y2 and abs(b - y1) < eps and abs(d - y1) < eps and min(a, c) <= x1 + eps and max(a, c) >= x2 - eps:
            return True
    return False


def test_cut_lines_run_where_pieces_meet(letter):
    _, manifest = letter
    cuts = {(c["file"], c["page"]): c["segments"] for c in manifest["cuts"]}
    shared = 0
    for p in manifest["placements"]:
        segments = cuts[(p["file"], p["page"])]
        x, y, w, h = p["x"], p["y"], p["w"], p["h"]
        for edge in ((x, y, x, y + h), (x + w, y, x + w, y + h), (x, y, x + w, y), (x, y + h, x + w, y + h)):
            assert covered(segments, *edge), (p, edge)
        shared += any(q["x"] == x + w and q["y"] == y for q in manifest["placements"]
                      if (q["file"], q["page"]) == (p["file"], p["page"]))
    assert shared > 600  # counters abut: most right edges are also a neighbour's left edge


def placement(manifest, path, piece, face, nth=0):
    return [p for p in manifest["placements"] if p["file"] == path and p["label"] == piece and p["side"] == face][nth]


def test_group_backs_hide_the_type_and_decoys_bluff_with_them(letter):
    kit_out, manifest = letter
    path = "counters-red.pdf"
    fronts, backs = render_page(kit_out / path, 1), render_page(kit_out / path, 2)
    dd3_back = crop(backs, placement(manifest, path, "DD 3", "back"))
    sc1_back = crop(backs, placement(manifest, path, "SC 1", "back"))
    decoy_back = crop(backs, placement(manifest, path, "Decoy 1", "back"))
    dd3_front = crop(fronts, placement(manifest, path, "DD 3", "front"))
    assert mean_difference(dd3_back, sc1_back) < 1.0       # the same generic back, whatever the type
    assert mean_difference(decoy_back, sc1_back) < 1.0     # a decoy cannot be told from a real group
    assert mean_difference(dd3_back, dd3_front) > 5.0      # and the back is not just the front again
    red = dd3_back.resize((1, 1)).getpixel((0, 0))
    assert red[0] > 150 and red[1] < 100 and red[2] < 100  # the player's colour (#c62828) dominates


def test_marker_backs_cannot_be_told_apart(letter):
    kit_out, manifest = letter
    path = "counters-deep-space.pdf"
    backs = render_page(kit_out / path, 2)
    danger = crop(backs, placement(manifest, path, "danger", "back"))
    for label in ("minerals", "doomsday-machine-3", "warp-point-1", "black_hole"):
        assert mean_difference(crop(backs, placement(manifest, path, label, "back")), danger) < 1.0, label
    fronts = render_page(kit_out / path, 1)
    assert mean_difference(crop(fronts, placement(manifest, path, "danger", "front")), danger) > 5.0


def test_previews_are_drawn_only_when_asked_one_per_page_showing_the_page(letter, a4_short):
    from PIL import Image
    kit_out, manifest = letter
    assert all(entry["previews"] == [] for entry in manifest["files"]) and not (kit_out / "previews").exists()
    kit_out, manifest = a4_short
    entry = manifest["files"][0]
    assert len(entry["previews"]) == entry["pages"] == len(PdfReader(kit_out / entry["path"]).pages)
    for number, preview in enumerate(entry["previews"], start=1):
        image = Image.open(kit_out / preview).convert("RGB")
        assert image.size == (round(595.276 * 60 / 72), round(841.89 * 60 / 72))  # A4 at 60 dpi
        page = render_page(kit_out / entry["path"], number, scale=60 / 72).resize(image.size)
        assert mean_difference(image, page) < 15.0, preview  # two rasterisers; another colour's page: ~29
    assert all(len(e["previews"]) == e["pages"] for e in manifest["files"])


def pdf_bytes(kit_out):
    return {p.name: p.read_bytes() for p in kit_out.glob("*.pdf")}


def test_a_template_with_a_missing_variable_is_a_located_error_and_output_stays(kit_copy, tmp_path, run_cli):
    kit_out = build_counters(kit_copy, tmp_path)
    before = pdf_bytes(kit_out)
    (kit_copy / "templates").mkdir(exist_ok=True)
    (kit_copy / "templates" / "group-back.svg.j2").write_text(
        '{% import "_counter.svg.j2" as c %}\n{% call c.on_piece(piece) %}\n<rect fill="{{ colour.prnit }}"/>\n{% endcall %}\n')
    template_env.cache_clear()
    result = run_cli("build", "--data", kit_copy, "--out", tmp_path, "--only", "counters", "--quiet")
    assert result.code == 1
    assert "group-back.svg.j2:3:" in result.err and "prnit" in result.err and "units." in result.err
    assert pdf_bytes(kit_out) == before


def test_a_missing_template_is_a_located_error_and_output_stays(kit_copy, tmp_path, run_cli):
    kit_out = build_counters(kit_copy, tmp_path)
    before = pdf_bytes(kit_out)
    (kit_copy / "templates").mkdir(exist_ok=True)  # the kit's own group back includes a part nobody wrote
    (kit_copy / "templates" / "group-back.svg.j2").write_text('{% include "no-such-part.svg.j2" %}')
    template_env.cache_clear()
    with pytest.raises(BuildError, match=r"group-back\.svg\.j2:1: template no-such-part\.svg\.j2 not found"):
        build_counters(kit_copy, tmp_path)
    assert pdf_bytes(kit_out) == before


def test_a_deleted_marker_template_names_the_marker_file_within_seconds(kit_copy, tmp_path, run_cli):
    """Found by the long fuzz run: the message named no file, and the kit's `locate` of a marker looped for
    ever. A marker kind names its front's template (data/markers.yaml, drawn by marker-front), and kit.yaml's
    rules check that it is one of the kit's templates: validate --quick finds a deleted one at the kind's line,
    drawing nothing, and so does the build before it draws; a kind that names none is found there too."""
    (kit_copy / "templates" / "marker-black-hole.svg.j2").unlink()
    template_env.cache_clear()
    line = edit(kit_copy / "data" / "markers.yaml", "    template: marker-nebula\n", "") - 2   # `nebula:`
    black_hole = edit(kit_copy / "data" / "markers.yaml", "template: marker-black-hole", "template: marker-black-hole")
    for command in (("validate", "--quick"), ("build", "--out", tmp_path, "--only", "counters", "--quiet")):
        result = run_cli(*command, "--data", kit_copy)
        assert result.code == 1 and "Traceback" not in result.err, result.err
        assert (f"data/markers.yaml:{black_hole}: kinds.black_hole.template: a marker kind's template is a template "
                "of the kit: 'marker-black-hole' is not one of them") in result.err, result.err
        assert f"data/markers.yaml:{line}: kinds.nebula.template: every marker kind names the template" in result.err
    assert not (tmp_path / "space-empires-4x").exists()


def test_an_edit_redraws_only_changed_faces_and_matches_a_fresh_build(kit_copy, tmp_path, monkeypatch):
    """Replayed faces must give the very bytes a fresh render gives, or the cache would change the output.
    A data edit renders only the templates of the faces whose row changed (the others' drawing keys are
    remembered: pnpgen.render.face_keys), and the print groups it leaves alone keep their files and their
    bare-edge findings from the cache: the edited build says what a fresh build of the same data says."""
    from pnpgen.build import build
    from pnpgen.build_options import BuildOptions
    from pnpgen.components import files
    from pnpgen.kit import load_kit
    from pnpgen.progress import Progress
    from pnpgen.render import piece_faces
    checked = []  # the groups whose bare edges were checked (each says a finding naming itself)
    monkeypatch.setattr(files, "bare_edge_findings", lambda group, plan, arts: checked.append(group) or
                        [f"preflight: {group}.pdf: art runs to a probe"])
    before = build_counters(kit_copy, tmp_path / "a")
    edit(kit_copy / "components/units.yaml", "class: D\n    attack: 4", "class: D\n    attack: 5")
    checked.clear()
    rendered = []
    render = piece_faces.face_document
    monkeypatch.setattr(piece_faces, "face_document", lambda kit, face, *a, **k: rendered.append(face) or
                        render(kit, face, *a, **k))
    kit, _ = load_kit(kit_copy)
    said = io.StringIO()
    edited = build(kit, BuildOptions(out=tmp_path / "a", only="counters,calibration",
                                     extra={"gutter": 0.0, "duplex": "long", "back_offset": "0,0"}),
                   Progress(verbose=True, stream=said))
    messages = said.getvalue().splitlines()
    summary = next(m for m in messages if "components: " in m and "rendered" in m)
    colours = len(kit.colours)
    dd_fronts = colours * kit.units['DD'].counters
    assert f" {dd_fronts} rendered, the rest replayed" in summary  # DD 1..4 fronts
    # the DD row's fronts and backs: a back holds its row too (it renders to the drawing it had)
    assert len(rendered) == 2 * dd_fronts and {f.params["row"]["class"] for f in rendered} == {"D"}
    kit_out = edited.kit_out
    assert kit_out == before
    assert sorted(checked) == sorted(f"counters-{c.id}" for c in kit.colours)  # the groups holding a DD
    monkeypatch.setattr(piece_faces, "face_document", render)
    fresh = build(kit, BuildOptions(out=tmp_path / "b", only="counters,calibration",
                                    extra={"gutter": 0.0, "duplex": "long", "back_offset": "0,0"}))
    assert pdf_bytes(kit_out) == pdf_bytes(fresh.kit_out)
    assert edited.warnings == fresh.warnings and len(fresh.warnings) == 6  # every group's, fetched or found
    assert "D5-0 1x" in PdfReader(kit_out / "counters-red.pdf").pages[0].extract_text()


def column_green(image, x: int, top: int, bottom: int) -> float:
    return sum(image.getpixel((x, y))[1] for y in range(top, bottom)) / (bottom - top)


def test_cut_lines_are_drawn_between_abutting_counters(letter):
    kit_out, manifest = letter
    path = "counters-red.pdf"
    left, right = placement(manifest, path, "DD 3", "front"), placement(manifest, path, "DD 4", "front")
    assert right["x"] == left["x"] + left["w"] and right["y"] == left["y"]
    scale = 4
    page = render_page(kit_out / path, 1, scale=scale)
    edge = round(right["x"] * scale)
    top, bottom = round(left["y"] * scale) + 8, round((left["y"] + left["h"]) * scale) - 8
    on_line = max(column_green(page, edge - 1, top, bottom), column_green(page, edge, top, bottom))
    beside = max(column_green(page, edge - 4, top, bottom), column_green(page, edge + 3, top, bottom))
    assert on_line > beside + 20  # the grey cut line lifts the green channel of the red counters
