"""The studio shows what will print (issue 35): in a real headless Chromium, every piece picture the studio's
page shows equals the same piece rendered from the PDF the build wrote, for a kit with fonts of its own
(TrueType and CFF; regular, bold, italic; a bold file fontconfig passes over), at start and after a data
edit and a template edit; and the faces in each PDF embed only the kit's fonts."""
from __future__ import annotations

import base64
import functools
import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

from pnpgen.studio.pictures import FACE_DPI
from tests.browser import Browser, chromium_path
from tests.font_helpers import studio_font_kit
from tests.studio_helpers import ALL_LOADED, ServeProcess, write_cell

NO_CHROMIUM = "no Chromium on this machine: apt-get install -y chromium (.ci/run installs it)"
KIT_FONTS = {"TestSans", "TestSans-Italic", "TestTitle-Bold"}   # what the faces print in (the Bold is passed over)
TOLERANCE = 3.0   # mean difference per channel, 0-255, inside the shape: 2.0 at most; drawn without the kit's fonts 3.9-5.8
SUPERSAMPLE = 2   # times the studio's resolution a piece is rendered at from the PDF (4 under an inch square)

# JavaScript: every piece picture as the page shows it, decoded by the browser and read back through a canvas
SHOWN = """Promise.all([...document.querySelectorAll('figure.piece img')].map(async img => {
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  canvas.getContext('2d').drawImage(img, 0, 0);
  const figure = img.closest('figure.piece');
  return {ref: figure.dataset.ref, colour: figure.dataset.colour, label: figure.dataset.label,
          side: img.classList.contains('back') ? 'back' : 'front', png: canvas.toDataURL('image/png')};
}))"""


def shown_pictures(browser) -> list[dict]:
    pictures = browser.evaluate(SHOWN)
    for picture in pictures:
        data = base64.b64decode(picture.pop("png").split(",", 1)[1])
        picture["image"] = Image.open(io.BytesIO(data)).convert("RGB")
    return pictures


def printed(out: Path, placement: dict) -> Image.Image:
    """The piece as the PDF prints it: its place on its sheet alone, rendered at SUPERSAMPLE times the
    studio's resolution (twice that for a small piece) and brought down to it (a piece's place on the sheet is no whole number of pixels;
    pdfium's tiling patterns seam at tile edges, cairo's do not: both blur away at the finer resolution)."""
    import pypdfium2
    document = pypdfium2.PdfDocument(str(out / placement["file"]))
    try:
        page = document[placement["page"] - 1]
        width, height = page.get_size()
        x, y, w, h = (placement[k] for k in ("x", "y", "w", "h"))
        finer = SUPERSAMPLE * (2 if w * h < 72 * 72 else 1)   # a token's fine patterns: a finer look, still cheap
        piece = page.render(scale=FACE_DPI / 72 * finer,
                            crop=(x, height - y - h, width - x - w, y)).to_pil().convert("RGB")
    finally:
        document.close()
    piece = piece.resize((round(w * FACE_DPI / 72), round(h * FACE_DPI / 72)), Image.LANCZOS)
    return piece.rotate(180) if placement.get("turned") else piece


@functools.lru_cache(maxsize=None)
def inside(shape: str, size: tuple) -> Image.Image:
    """The mask of the piece's shape, 6 px in from its cut edge (which the sheet outlines, the picture not)."""
    mask, (w, h) = Image.new("L", size, 0), size
    draw = ImageDraw.Draw(mask)
    if shape == "circle":
        draw.ellipse((0, 0, w - 1, h - 1), fill=255)
    elif shape == "hex":
        draw.polygon([(0, h / 2), (w / 4, 0), (3 * w / 4, 0), (w, h / 2), (3 * w / 4, h), (w / 4, h)], fill=255)
    else:
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=20, fill=255)
    return mask.filter(ImageFilter.MinFilter(13))


def distance(shown: Image.Image, print_: Image.Image, shape: str) -> float:
    """The mean difference of the two pictures inside the piece's shape, both blurred by a pixel (edges
    anti-aliased by two renderers), the largest of the three channels, 0-255."""
    shown, print_ = (image.convert("RGB").filter(ImageFilter.GaussianBlur(1)) for image in (shown, print_))
    return max(ImageStat.Stat(ImageChops.difference(shown, print_), mask=inside(shape, shown.size)).mean)


def compare_all(served, browser) -> list[dict]:
    """Every picture the page shows against the piece the build printed; the pictures compared."""
    manifest = json.loads((served.out / "manifest.json").read_text())
    placements = {(p["ref"], p["colour"], p["side"]): p for p in manifest["parts"]["components"]["placements"]}
    far = []
    pictures = shown_pictures(browser)
    for picture in pictures:
        placement = placements[picture["ref"], picture["colour"], picture["side"]]
        printed_piece = printed(served.out, placement)
        shown = picture["image"]
        assert abs(shown.width - printed_piece.width) <= 1 and abs(shown.height - printed_piece.height) <= 1
        gap = distance(shown, printed_piece.resize(shown.size), placement["shape"])
        if gap > TOLERANCE:
            far.append((picture["ref"], picture["colour"], picture["side"], round(gap, 2)))
    assert not far, far
    return pictures


def face_fonts(pdf: Path) -> set[str]:
    """The fonts the pieces' faces (the PDF's forms) embed, subset tags dropped; the sheets' own captions aside."""
    from pypdf import PdfReader
    found = set()

    def visit(xobjects):
        for xobject in (xobjects or {}).values():
            resources = xobject.get_object().get("/Resources") or {}
            found.update(str(f.get_object()["/BaseFont"]).split("+")[-1] for f in (resources.get("/Font") or {}).values())
            visit(resources.get("/XObject"))

    for page in PdfReader(pdf).pages:
        visit((page.get("/Resources") or {}).get("/XObject"))
    return found


def test_every_studio_picture_is_the_piece_the_pdf_prints_in_the_kits_fonts(tmp_path):
    if chromium_path() is None:
        pytest.skip(NO_CHROMIUM)
    kit = studio_font_kit(tmp_path / "kit")
    built = "document.getElementById('status').dataset.status === 'built'"
    with ServeProcess(kit, tmp_path / "out", "--only", "components") as served, Browser() as browser:
        served.out = tmp_path / "out" / "kit"
        served.wait_for_view(lambda view: view["status"] == "built")
        browser.open(served.url)
        browser.wait_for(f"{built} && {ALL_LOADED}", seconds=60)
        pictures = compare_all(served, browser)
        assert len(pictures) == 24   # 3 cards, 3 tiles, 3 token values in 2 colours; a front and a back each
        fonts = [face_fonts(pdf) for pdf in sorted(served.out.glob("*.pdf"))]
        assert set().union(*fonts) == KIT_FONTS and all(f and f <= KIT_FONTS for f in fonts), fonts
        problems = served.view()["problems"]
        assert problems and all("TestSans-Bold.otf holds only 97 characters" in p["message"] for p in problems)

        write_cell(kit / "components" / "cards.yaml", "title: Explore", "title: Éxplore Ŵide")   # a data edit
        label = "document.querySelectorAll('figure.piece[data-label=\"Éxplore Ŵide\"] img').length === 2"
        browser.wait_for(f"{label} && {built} && {ALL_LOADED}", seconds=60)
        compare_all(served, browser)
        backs = lambda view: {p["back"] for p in view["pieces"] if p["ref"].startswith("cards.")}
        before = backs(served.view())
        write_cell(kit / "templates" / "card-back.svg.j2", "pt(16)", "pt(19)")   # a template edit
        view = served.wait_for_view(lambda view: view["status"] == "built" and backs(view) != before)
        browser.wait_for(f"{built} && {ALL_LOADED} && document.body.dataset.version >= {view['version']}", seconds=60)
        compare_all(served, browser)
