"""A designer's own image on a Space Empires 4X counter: `<image href="art/...">` in a counter template resolves
inside the kit folder (not the folder pnpgen runs in), draws on the sheet, and a new image redraws it."""
from __future__ import annotations

from pathlib import Path

from PIL import Image

from counters_helpers import build_counters, counters_manifest, crop, render_page
from conftest import edit

SQUARE = '<image href="art/red.png" x="30" y="30" width="40" height="40"/>{%- endcall %}'


def paint(path: Path, rgb: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (120, 120), rgb).save(path)


def centre_of_first_unit(kit_out: Path) -> tuple[int, int, int]:
    placement = next(p for p in counters_manifest(kit_out)["placements"]
                     if p["file"] == "counters-red.pdf" and p["side"] == "front" and p["ref"] == "units.SC")
    piece = crop(render_page(kit_out / "counters-red.pdf", placement["page"]), placement)
    return piece.getpixel((piece.width // 2, piece.height // 2))


def test_kit_relative_image_draws_on_a_counter_and_follows_edits(kit_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a folder with no art/: the reference must resolve against the kit
    paint(kit_copy / "art" / "red.png", (0, 200, 0))
    edit(kit_copy / "templates" / "unit-front.svg.j2", "{%- endcall %}", SQUARE)
    out = tmp_path / "out"
    r, g, b = centre_of_first_unit(build_counters(kit_copy, out))
    assert g > 170 and r < 60 and b < 60, (r, g, b)
    paint(kit_copy / "art" / "red.png", (0, 0, 220))  # same name, new pixels: the cached face must not stay
    r, g, b = centre_of_first_unit(build_counters(kit_copy, out))
    assert b > 180 and r < 60 and g < 60, (r, g, b)


LEGACY_BACK = ('<svg xmlns="http://www.w3.org/2000/svg" width="{{ size }}mm" height="{{ size }}mm" '
               'viewBox="0 0 100 100"><rect width="100" height="100" fill="#00c800"/></svg>')


def test_a_counter_template_of_an_older_kit_that_writes_its_own_root_still_draws(kit_copy, tmp_path):
    """Kits copied before counters drew through piece.w wrote a sized <svg> root at `size` mm themselves."""
    (kit_copy / "templates" / "group-back.svg.j2").write_text(LEGACY_BACK, encoding="utf-8")
    kit_out = build_counters(kit_copy, tmp_path / "out")
    placement = next(p for p in counters_manifest(kit_out)["placements"]
                     if p["file"] == "counters-red.pdf" and p["side"] == "back" and p["ref"] == "units.SC")
    piece = crop(render_page(kit_out / "counters-red.pdf", placement["page"]), placement)
    assert piece.size[0] > 80   # 45 pt at 2 px a point, less the inset: drawn at the counter's size
    for spot in ((4, 4), (piece.width // 2, piece.height // 2), (piece.width - 5, piece.height - 5)):
        r, g, b = piece.getpixel(spot)
        assert g > 170 and r < 60 and b < 60, (spot, (r, g, b))


def test_the_faces_key_hashes_the_kit_s_images_but_not_the_build_s_own_output(tmp_path):
    """A build whose --out lies inside the kit writes previews there: they must not redraw every face. A face's
    key hashes the images its SVG shows, and no other file of the kit."""
    from pnpgen.render.drawing_keys import svg_key
    kit, out = tmp_path / "kit", tmp_path / "kit" / "build"
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><image href="art/red.png" width="4" height="4"/></svg>'
    paint(kit / "art" / "red.png", (200, 0, 0))
    paint(out / "previews" / "counters-red-p1.png", (1, 2, 3))
    before = svg_key(svg, kit)
    paint(out / "previews" / "counters-red-p1.png", (4, 5, 6))
    assert svg_key(svg, kit) == before
    paint(kit / "art" / "red.png", (0, 200, 0))
    assert svg_key(svg, kit) != before


def test_the_faces_key_follows_every_way_an_svg_names_an_image(tmp_path):
    """A single-quoted href, an entity in the name, an SVG image showing a PNG: the renderer draws each, so an
    edit to the file must change the key (it did not: a board kept its old picture in the same output folder)."""
    from pnpgen.render.drawing_keys import svg_key
    kit = tmp_path / "kit"
    (kit / "art").mkdir(parents=True)
    png = kit / "art" / "a.png"
    Image.new("RGB", (4, 4), (255, 0, 0)).save(png)
    (kit / "art" / "nest.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><image href="a.png"/>'
                                          '<image href="nest.svg"/><image href="nest.svg"/></svg>')
    for svg in ("<svg><image href='art/a.png'/></svg>", '<svg><image href = "art/a&#46;png"/></svg>',
                '<svg><image href="art/nest.svg"/></svg>'):
        before = svg_key(svg, kit)
        Image.new("RGB", (4, 4), (0, 0, 255)).save(png)
        assert svg_key(svg, kit) != before, svg
        Image.new("RGB", (4, 4), (255, 0, 0)).save(png)
