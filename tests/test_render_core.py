"""The shared render core: templates looked up kit-first with located errors; SVG art placed on PDF pages."""
import pytest
from pypdf import PdfReader

from pnpgen.problems import BuildError
from pnpgen.render.pdf import ArtCache, PdfDocument
from pnpgen.render.templates import render_template, template_env

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{w}mm" viewBox="0 0 {w} {w}">'
       '<rect width="{w}" height="{w}" fill="#1e5bb8"/>'
       '<text x="1" y="6" font-family="DejaVu Sans" font-size="4">{label}</text></svg>')


def write_doc(path, labels, size_mm=15.875):
    cache = ArtCache()
    doc = PdfDocument(path, "test", 612, 792)
    doc.new_page()
    for i, label in enumerate(labels):
        doc.place(cache.get(SVG.format(w=size_mm, label=label)), 36 + 50 * i, 36)
    doc.close()
    return cache


def test_art_keeps_its_physical_size_and_text_stays_text(tmp_path):
    cache = ArtCache()
    art = cache.get(SVG.format(w=15.875, label="DD 3"))
    assert art.width == pytest.approx(45.0) and art.height == pytest.approx(45.0)  # 5/8 in
    write_doc(tmp_path / "a.pdf", ["DD 3", "CA 1"])
    page = PdfReader(tmp_path / "a.pdf").pages[0]
    assert [float(v) for v in page.mediabox] == [0, 0, 612, 792]
    assert "DD 3" in page.extract_text() and "CA 1" in page.extract_text()


def test_identical_art_is_rendered_once_and_builds_are_byte_identical(tmp_path):
    cache = write_doc(tmp_path / "a.pdf", ["X"] * 6 + ["Y"])
    write_doc(tmp_path / "b.pdf", ["X"] * 6 + ["Y"])
    assert cache.rendered == 2
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_the_shipped_font_is_embedded(tmp_path):
    write_doc(tmp_path / "a.pdf", ["Font"])
    fonts = []
    for page in PdfReader(tmp_path / "a.pdf").pages:
        for xobject in page["/Resources"]["/XObject"].values():
            fonts += [f["/BaseFont"] for f in xobject.get_object()["/Resources"]["/Font"].values()]
    assert fonts and all("DejaVuSans" in str(f) for f in fonts)


def test_kit_templates_override_built_ins_and_user_text_is_escaped(kit_copy):
    (kit_copy / "templates").mkdir(exist_ok=True)
    (kit_copy / "templates" / "probe.svg.j2").write_text('<text>{{ name }}</text>')
    template_env.cache_clear()
    assert render_template(kit_copy, "probe", {"name": "R&D <1>"}) == "<text>R&amp;D &lt;1&gt;</text>"


def test_missing_variable_and_missing_template_are_located_errors(kit_copy):
    (kit_copy / "templates").mkdir(exist_ok=True)
    (kit_copy / "templates" / "probe.svg.j2").write_text('<svg>\n<text>{{ code }}</text>\n<text>{{ nmae }}</text>\n</svg>')
    template_env.cache_clear()
    with pytest.raises(BuildError, match=r"probe\.svg\.j2:3: 'nmae' is undefined \(needed by units\.DD\)"):
        render_template(kit_copy, "probe", {"code": "DD"}, needed_by="units.DD")
    with pytest.raises(BuildError, match=r"template nothing\.svg\.j2 not found"):
        render_template(kit_copy, "nothing", {})


def test_a_clipped_first_use_does_not_crop_later_uses(tmp_path):
    """cairo writes a shared recording once; a clipped first placement must not cut it for later pages."""
    import pypdfium2

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="100mm" viewBox="0 0 100 100">'
           '<rect width="50" height="50" fill="#ff0000"/><rect x="50" y="50" width="50" height="50" fill="#0000ff"/></svg>')
    art = ArtCache().get(svg)
    doc = PdfDocument(tmp_path / "clip.pdf", "clip", 300, 300)
    doc.new_page()
    doc.place(art, -150, -150, clip=(0, 0, 100, 100))  # shows only a corner of the blue square
    doc.new_page()
    doc.place(art, 0, 0)                                # the whole art
    doc.close()
    page = pypdfium2.PdfDocument(str(tmp_path / "clip.pdf"))[1].render(scale=1).to_pil().convert("RGB")
    assert page.getpixel((20, 20)) == (255, 0, 0)
    assert page.getpixel((200, 200)) == (0, 0, 255)


def test_reused_art_leaves_no_duplicate_resource_entries(tmp_path, caplog):
    """cairo lists a reused XObject once per use; PdfDocument blanks the repeats so readers do not warn."""
    write_doc(tmp_path / "a.pdf", ["X"] * 5)
    with caplog.at_level("WARNING"):
        PdfReader(tmp_path / "a.pdf").pages[0].extract_text()
    assert not [r for r in caplog.records if "Multiple definitions" in r.getMessage()]
