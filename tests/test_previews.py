"""PNG previews (`--previews`) serve every kit: each sheet page of pieces, components and counters alike, as a
60 dpi PNG drawn by the same code as its PDF page, designers' images included. Checked on the mini kit
(cards, hex tiles with an image back, chits with PNG and JPEG art) against pdfium's own render of the PDF."""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageStat

from pnpgen.cli import main

MINI = Path(__file__).parent / "kits" / "mini"
DPI = 60


def pdf_page(path: Path, number: int) -> Image.Image:
    document = pdfium.PdfDocument(str(path))
    try:
        return document[number - 1].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()


def test_every_components_page_has_a_preview_that_shows_the_page(tmp_path):
    out = tmp_path / "out"
    assert main(["build", "--data", str(MINI), "--out", str(out), "--only", "components", "--previews", "-q"]) == 0
    kit_out = out / "mini"
    files = json.loads((kit_out / "manifest.json").read_text())["parts"]["components"]["files"]
    assert {f["path"] for f in files} >= {"cards.pdf", "tiles.pdf", "chits.pdf", "tokens-red.pdf"}
    for entry in files:
        assert len(entry["previews"]) == entry["pages"] == len(pdfium.PdfDocument(str(kit_out / entry["path"])))
        for number, name in enumerate(entry["previews"], start=1):
            with Image.open(kit_out / name) as stored:
                preview = stored.convert("RGB")
                assert round(stored.info["dpi"][0]) == DPI
            printed = pdf_page(kit_out / entry["path"], number)
            assert preview.size == printed.size, name
            difference = sum(ImageStat.Stat(ImageChops.difference(preview, printed)).mean) / 3
            assert difference < 8.0, f"{name}: mean difference {difference:.2f} from its PDF page"
    # and it is that page: the red tokens' preview against the blue tokens' page is far off
    with Image.open(kit_out / "previews" / "tokens-red-p1.png") as red:
        other = ImageChops.difference(red.convert("RGB"), pdf_page(kit_out / "tokens-blue.pdf", 1))
    assert sum(ImageStat.Stat(other).mean) / 3 > 3.0
    # the tiles' backs are an image: the preview shows its pixels, not a blank stand-in
    tiles = next(f for f in files if f["path"] == "tiles.pdf")
    with Image.open(kit_out / tiles["previews"][1]) as back:
        colours = back.convert("RGB").getcolors(1 << 20)
    assert len(colours) > 50
    # without --previews none are drawn
    assert main(["build", "--data", str(MINI), "--out", str(tmp_path / "plain"), "--only", "components", "-q"]) == 0
    files = json.loads((tmp_path / "plain" / "mini" / "manifest.json").read_text())["parts"]["components"]["files"]
    assert all(f["previews"] == [] for f in files) and not (tmp_path / "plain" / "mini" / "previews").exists()
