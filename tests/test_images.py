"""A designer's own images (tests/kits/mini/art): drawn where the template puts them, clipped to the
piece's shape, embedded once per distinct file per PDF at native resolution (JPEG bytes as they are),
refused when they leave the kit or are not images, warned about below 300 dpi, re-rendered only where used."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import Image

from pnpgen.cli import main
from tests.conftest import edit

MINI = Path(__file__).parent / "kits" / "mini"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("images-out")
    assert main(["build", "--data", str(MINI), "--out", str(out), "-q", "--only", "components"]) == 0
    return out / "mini", json.loads((out / "mini" / "manifest.json").read_text())


def image_objects(path: Path) -> dict:
    """Every image XObject reachable from the pages (forms followed): object number -> stream object."""
    reader, found = pypdf.PdfReader(str(path)), {}

    def walk(resources, depth=0):
        xobjects = (resources or {}).get("/XObject") if resources else None
        if not xobjects or depth > 8:
            return
        for ref in xobjects.get_object().values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                found[ref.idnum] = obj
            elif obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"), depth + 1)

    for page in reader.pages:
        walk(page.get("/Resources"))
    return found


def test_each_image_file_is_embedded_once_per_pdf(built):
    kit_out, _ = built
    assert len(image_objects(kit_out / "chits.pdf")) == 2      # blue.jpg on 6 chits, red.png on 4
    assert len(image_objects(kit_out / "tiles.pdf")) == 1      # hex.png on 6 tile backs


def test_rasters_keep_their_pixels_and_jpeg_its_bytes(built):
    kit_out, _ = built
    images = list(image_objects(kit_out / "chits.pdf").values())
    sizes = sorted((int(i["/Width"]), int(i["/Height"])) for i in images)
    assert sizes == [(300, 300), (600, 600)]
    jpeg = next(i for i in images if i.get("/Filter") == "/DCTDecode")
    assert jpeg._data == (MINI / "art" / "blue.jpg").read_bytes()


def _page(path: Path, index: int, scale: float = 3.0):
    return pdfium.PdfDocument(str(path))[index].render(scale=scale).to_pil().convert("RGB"), scale


def test_image_is_drawn_where_the_template_puts_it(built):
    kit_out, manifest = built
    image, scale = _page(kit_out / "chits.pdf", 0)
    chits = [p for p in manifest["parts"]["components"]["placements"] if p["file"] == "chits.pdf"]
    for chit in chits:
        x, y = (chit["x"] + chit["w"] * 0.08) * scale, (chit["y"] + chit["h"] * 0.08) * scale
        r, g, b = image.getpixel((int(x), int(y)))
        if chit["ref"].startswith("chits.2"):
            assert r > 180 and g < 80 and b < 80, (chit["ref"], (r, g, b))    # red.png
        else:
            assert b > 150 and r < 80, (chit["ref"], (r, g, b))             # blue.jpg
        below = image.getpixel((int(x), int((chit["y"] + chit["h"] * 0.7) * scale)))
        assert below[0] > 200 and below[1] > 200 and below[2] < 120            # the yellow ground below


def test_image_is_clipped_to_a_hex(built):
    kit_out, manifest = built
    image, scale = _page(kit_out / "tiles.pdf", 1)
    for back in [p for p in manifest["parts"]["components"]["placements"] if p["file"] == "tiles.pdf"
                 and p["side"] == "back"]:
        corner = image.getpixel((int((back["x"] + 3) * scale), int((back["y"] + 3) * scale)))
        inside = image.getpixel((int((back["x"] + back["w"] * 0.2) * scale), int((back["y"] + back["h"] / 2) * scale)))
        assert corner == (255, 255, 255) and inside[0] > 180 and inside[1] < 80


@pytest.fixture
def mini_copy(tmp_path) -> Path:
    target = tmp_path / "mini"
    shutil.copytree(MINI, target)
    return target


def _build(kit: Path, *extra) -> int:
    return main(["build", "--data", str(kit), "--out", str(kit.parent / "out"), "-q", "--only", "components", *extra])


REFUSED = [
    ("../outside.png", "leads outside the kit folder"),
    ("/etc/passwd", "an absolute path"),
    ("file:///etc/passwd", "not URLs (file:)"),
    ("http://example.com/x.png", "not URLs (http:)"),
    ("art/blu.jpg", "no such file (did you mean 'art/blue.jpg'?)"),
    ("kit.yaml", "not an image file"),
    ("art/fake.png", "is not a readable image"),
    ("art/huge.png", "over the limit of"),
    ("art/link.png", "links to a file outside the kit folder"),
]


@pytest.mark.parametrize("ref,message", REFUSED)
def test_bad_image_references_are_refused_located(mini_copy, capsys, ref, message):
    assert _build(mini_copy) == 0
    out = mini_copy.parent / "out" / "mini"
    before = {p: p.read_bytes() for p in out.glob("*.pdf")}
    (mini_copy.parent / "outside.png").write_bytes((MINI / "art" / "red.png").read_bytes())
    (mini_copy / "art" / "fake.png").write_text("not a picture")
    Image.new("1", (8000, 7000)).save(mini_copy / "art" / "huge.png")
    (mini_copy / "art" / "link.png").symlink_to(mini_copy.parent / "outside.png")
    line = edit(mini_copy / "components" / "chits.yaml", "art: art/red.png", f"art: {json.dumps(ref)}")
    capsys.readouterr()
    assert _build(mini_copy) == 1
    err = capsys.readouterr().err
    assert f"chits.yaml:{line}: rows[1].art: " in err and message in err, err
    assert before == {p: p.read_bytes() for p in out.glob("*.pdf")}


def test_an_svg_that_does_not_parse_is_refused_at_load(tmp_path):
    """Found by the reference check (so at the kit.yaml `icons:` line, or the row, with validate --quick), not
    when a build draws it."""
    from pnpgen.images import check_image
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "bad.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"</svg>')
    (tmp_path / "art" / "good.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>')
    assert check_image(tmp_path, "art/good.svg") is None
    assert check_image(tmp_path, "art/bad.svg") == ("'art/bad.svg' is not a well-formed SVG file (line 1, column 53: "
                                                    "not well-formed (invalid token))")


def test_template_href_outside_the_kit_is_refused_at_its_line(mini_copy, capsys):
    template = mini_copy / "templates" / "chit.svg.j2"
    template.write_text(template.read_text() + '<image href="file:///etc/passwd" width="1" height="1"/>\n')
    line = len(template.read_text().splitlines())
    assert _build(mini_copy) == 1
    assert f"chit.svg.j2:{line}: href: 'file:///etc/passwd': only paths inside the kit folder" in capsys.readouterr().err


def test_a_reference_built_by_jinja_is_refused_when_drawn(mini_copy, capsys):
    template = mini_copy / "templates" / "chit.svg.j2"
    template.write_text(template.read_text() + '<image href="{{ "file:///etc/" ~ "hostname" }}" width="1" height="1"/>\n')
    assert _build(mini_copy) == 1
    assert "reference outside the kit folder refused: /etc/hostname" in capsys.readouterr().err


def test_low_resolution_is_a_warning_and_strict_makes_it_an_error(mini_copy, capsys):
    Image.new("RGB", (40, 40), (0, 200, 0)).save(mini_copy / "art" / "small.png")
    edit(mini_copy / "components" / "chits.yaml", "art: art/red.png", "art: art/small.png")
    assert _build(mini_copy) == 0
    err = capsys.readouterr().err
    assert "chits.yaml:11: chits row 2: chit.svg.j2: image art/small.png prints at 80 dpi (below 300)" in err
    out = mini_copy.parent / "out" / "mini"
    before = {p: p.read_bytes() for p in out.glob("*.pdf")}
    assert _build(mini_copy, "--strict") == 1
    assert "--strict" in capsys.readouterr().err
    assert before == {p: p.read_bytes() for p in out.glob("*.pdf")}


def test_editing_an_image_re_renders_only_the_faces_that_show_it(mini_copy):
    manifest = mini_copy.parent / "out" / "mini" / "manifest.json"
    assert _build(mini_copy) == 0
    first = json.loads(manifest.read_text())["parts"]["components"]["faces"]
    assert first["rendered"] == first["distinct"]
    Image.new("RGB", (300, 300), (10, 200, 10)).save(mini_copy / "art" / "red.png")
    assert _build(mini_copy) == 0
    again = json.loads(manifest.read_text())["parts"]["components"]["faces"]
    assert again == {"distinct": first["distinct"], "rendered": 1}   # the front of the two-hit chit
