"""PNGs go into a PDF with their own compressed data (no decoding, no recompression), JPEGs with their own
bytes, and the page shows exactly the file's pixels; PNGs a PDF cannot show from their data (transparency,
16 bits, damaged) are decoded as before and still shown right."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from pnpgen.render.face_store import replay
from pnpgen.render.pdf import PdfDocument
from pnpgen.render.pdf_images import png_info

SIZE = 96


def picture(mode: str) -> Image.Image:
    image = Image.new("RGB", (SIZE, SIZE), (20, 90, 200))
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, 50, 80), fill=(240, 200, 30))
    draw.ellipse((40, 30, 90, 90), fill=(200, 30, 40))
    if mode == "P":
        return image.quantize(colors=4)
    if mode == "RGBA":
        image = image.convert("RGBA")
        image.putpixel((0, 0), (0, 0, 0, 0))
        return image
    return image.convert(mode)


def build(tmp_path: Path, files: list[Path], title: str = "images") -> Path:
    """A PDF with each file painted at 1 pt a pixel, through the face replay a components PDF uses."""
    out = tmp_path / "images.pdf"
    doc = PdfDocument(out, title, SIZE * len(files), SIZE)
    doc.new_page()
    for number, path in enumerate(files):
        key = hashlib.sha1(path.read_bytes()).hexdigest()
        ops = [["rectangle", 0, 0, SIZE, SIZE], ["clip"], ["paint_image", str(path), key, 1.0]]
        art = replay({"width": SIZE, "height": SIZE, "ops": ops}, for_pdf=True)
        doc.place(art, number * SIZE, 0)
    doc.close()
    return out


def image_streams(path: Path) -> list:
    reader = pypdf.PdfReader(str(path))
    found = {}

    def walk(resources):
        for ref in ((resources or {}).get("/XObject") or {}).values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                found[ref.idnum] = obj
            elif obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))

    walk(reader.pages[0].get("/Resources"))
    return [found[n] for n in sorted(found)]


def shown(path: Path, count: int) -> list:
    page = pdfium.PdfDocument(str(path))[0].render(scale=1).to_pil().convert("RGB")
    return [page.crop((n * SIZE, 0, (n + 1) * SIZE, SIZE)) for n in range(count)]


@pytest.mark.parametrize("mode", ["RGB", "L", "P"])
def test_a_png_keeps_its_own_data_and_shows_its_pixels(tmp_path, mode):
    path = tmp_path / f"art-{mode}.png"
    picture(mode).save(path)
    pdf = build(tmp_path, [path, path], title="pnpgen-png: a title that reads like a stand-in")
    assert pypdf.PdfReader(str(pdf)).metadata.title.startswith("pnpgen-png:")
    streams = image_streams(pdf)
    assert len(streams) == 1                                          # two uses, one image object
    assert streams[0]._data == png_info(path.read_bytes())["stream"]  # the file's IDAT bytes, not re-encoded
    assert streams[0]["/DecodeParms"]["/Predictor"] == 15
    expected = Image.open(path).convert("RGB")
    for tile in shown(pdf, 2):
        assert tile.tobytes() == expected.tobytes()


def test_pngs_a_pdf_cannot_take_as_they_are_are_decoded_and_shown(tmp_path):
    rgba, deep = tmp_path / "alpha.png", tmp_path / "deep.png"
    picture("RGBA").save(rgba)
    Image.new("I;16", (SIZE, SIZE), 30000).save(deep)
    assert png_info(rgba.read_bytes()) is None and png_info(deep.read_bytes()) is None
    pdf = build(tmp_path, [rgba, deep])
    assert all("/DecodeParms" not in s for s in image_streams(pdf))   # cairo's own encoding of the pixels
    alpha, grey = shown(pdf, 2)
    assert alpha.getpixel((60, 60)) == (200, 30, 40) and alpha.getpixel((0, 0)) == (255, 255, 255)
    assert grey.getpixel((50, 50)) == (117, 117, 117)


def test_a_damaged_png_is_left_to_the_decoder(tmp_path):
    data = bytearray((Path(__file__).parent / "kits" / "mini" / "art" / "red.png").read_bytes())
    assert png_info(bytes(data)) is not None
    data[data.index(b"IDAT") + 10] ^= 0xFF   # its checksum no longer matches
    assert png_info(bytes(data)) is None
    assert png_info(bytes(data[:-12])) is None   # no end chunk: cut short


def test_a_jpeg_keeps_its_bytes(tmp_path):
    path = tmp_path / "photo.jpg"
    picture("RGB").save(path, quality=90)
    pdf = build(tmp_path, [path])
    stream, = image_streams(pdf)
    assert stream["/Filter"] == "/DCTDecode" and stream._data == path.read_bytes()
    tile, = shown(pdf, 1)
    red = tile.getpixel((65, 60))
    assert red[0] > 170 and red[1] < 80
