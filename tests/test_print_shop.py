"""Print-shop mode (`pnpgen build --for print-shop`) on tests/kits/mini, and PrintScaling /None in every PDF.

Read back with pypdf and pypdfium2: every page's TrimBox is the piece and its BleedBox 1/8 in larger on every
side, pages go back 1, front 1, back 2 ..., the PNGs are 300 dpi at trim + bleed with the art extended into
the bleed (not stretched), and the home-print files are the same bytes as a build without --for.
"""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from pnpgen.cli import main
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT

MINI = Path(__file__).parent / "kits" / "mini"
BLEED = 9.0                      # 1/8 in, in points
MM = 72 / 25.4


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    out = tmp_path_factory.mktemp("shop-out")
    assert main(["build", "--data", str(MINI), "--out", str(out), "--for", "print-shop", "-q"]) == 0
    kit_out = out / "mini"
    return kit_out, json.loads((kit_out / "manifest.json").read_text())


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    out = tmp_path_factory.mktemp("home-out")
    assert main(["build", "--data", str(MINI), "--out", str(out), "-q"]) == 0
    return out / "mini"


def sizes(manifest) -> dict:
    return {t: (v["w"], v["h"]) for t, v in manifest["parts"]["components"]["tables"].items()}


def test_one_pdf_per_deck_and_per_colour(shop):
    kit_out, manifest = shop
    names = sorted(p.name for p in (kit_out / "print-shop").glob("*.pdf"))
    assert names == ["cards.pdf", "chits.pdf", "tiles.pdf", "tokens-blue.pdf", "tokens-red.pdf"]
    pages = {f["deck"]: f["pages"] for f in manifest["parts"]["print-shop"]["files"]}
    # one page a side of every piece: 12 cards and 6 tiles and 8 tokens a colour two-sided, 10 chits one-sided
    assert pages == {"cards": 24, "tiles": 12, "tokens-red": 16, "tokens-blue": 16, "chits": 10}
    for name, count in pages.items():
        assert len(PdfReader(str(kit_out / "print-shop" / f"{name}.pdf")).pages) == count


def test_trim_is_the_piece_and_bleed_an_eighth_inch_larger(shop):
    kit_out, manifest = shop
    table_size = sizes(manifest)
    for entry in manifest["parts"]["print-shop"]["files"]:
        w, h = table_size[entry["table"]]
        path = str(kit_out / entry["path"])
        for page in PdfReader(path).pages:
            trim, bleed, media = ([float(v) for v in box] for box in (page.trimbox, page.bleedbox, page.mediabox))
            assert trim == pytest.approx([BLEED, BLEED, BLEED + w, BLEED + h], abs=0.01)
            assert bleed == pytest.approx([trim[0] - BLEED, trim[1] - BLEED, trim[2] + BLEED, trim[3] + BLEED],
                                          abs=0.01)
            assert media == pytest.approx(bleed, abs=0.01)
        pdf = pdfium.PdfDocument(path)   # a second reader agrees
        for i in range(len(pdf)):
            assert pdf[i].get_trimbox() == pytest.approx((BLEED, BLEED, BLEED + w, BLEED + h), abs=0.01)
            assert pdf[i].get_bleedbox() == pytest.approx((0, 0, w + 2 * BLEED, h + 2 * BLEED), abs=0.01)
    w, h = table_size["cards"]   # a poker card: 2.5 x 3.5 in trim, 2.75 x 3.75 in with bleed
    assert (w, h) == pytest.approx((63.5 * MM, 88.9 * MM), abs=0.01)


def page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    return ["".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf))]


def test_pages_go_back_then_front_piece_by_piece(shop):
    kit_out, _ = shop
    texts = page_texts(kit_out / "print-shop" / "cards.pdf")
    backs, fronts = texts[0::2], texts[1::2]
    assert all(t == "MiniTestKit" for t in backs)                 # the card back prints the kit title
    titles = [t.split("Look")[0].split("Pay")[0].split("Swap")[0] for t in fronts]
    assert [t.rstrip("0123456789") for t in titles] == ["Explore"] * 4 + ["Build"] * 4 + ["Trade"] * 4
    chits = page_texts(kit_out / "print-shop" / "chits.pdf")      # one-sided: fronts only
    assert chits == ["1"] * 6 + ["2"] * 4


def test_pngs_of_every_distinct_face_at_300_dpi_with_bleed(shop):
    kit_out, manifest = shop
    images = manifest["parts"]["print-shop"]["images"]
    names = sorted(Path(i["path"]).name for i in images)
    assert names == sorted(p.name for p in (kit_out / "print-shop" / "png").glob("*.png"))
    by_deck = {}
    for i in images:
        by_deck.setdefault((i["deck"], i["side"]), []).append(i)
    # 3 card fronts and one common back; 2 chit fronts; 3 tiles and a back; 3 tokens and a back per colour
    assert {k: len(v) for k, v in by_deck.items()} == {
        ("cards", "front"): 3, ("cards", "back"): 1, ("chits", "front"): 2, ("tiles", "front"): 3,
        ("tiles", "back"): 1, ("tokens-red", "front"): 3, ("tokens-red", "back"): 1, ("tokens-blue", "front"): 3,
        ("tokens-blue", "back"): 1}
    for i in images:
        with Image.open(kit_out / i["path"]) as im:
            assert im.mode == "RGB"
            assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
            assert list(im.size) == i["px"]
    with Image.open(kit_out / "print-shop" / "png" / "cards-back.png") as back:
        assert back.size == (825, 1125)          # 2.75 x 3.75 in at 300 dpi
        navy = (0x1E, 0x3A, 0x5F)                # the back's ground, drawn from -piece.bleed
        for xy in ((2, 2), (822, 2), (2, 1122), (822, 1122), (412, 3)):
            assert max(abs(a - b) for a, b in zip(back.getpixel(xy), navy)) <= 2, xy


def test_bleed_extends_the_art_without_stretching_it(shop, home):
    """The trim area of a print-shop page shows the same picture as the card on the home sheet."""
    kit_out, manifest = shop
    scale = 2.0   # 144 dpi: the 9 pt bleed is 18 px
    shop_page = pdfium.PdfDocument(str(kit_out / "print-shop" / "cards.pdf"))[1].render(scale=scale).to_pil()
    placed = [p for p in manifest["parts"]["components"]["placements"]
              if p["file"] == "cards.pdf" and p["side"] == "front" and p["ref"] == "cards.Explore"][0]
    sheet = pdfium.PdfDocument(str(home / "cards.pdf"))[placed["page"] - 1].render(scale=scale).to_pil()
    x, y, w, h = (round(v * scale) for v in (placed["x"], placed["y"], placed["w"], placed["h"]))
    inset = 12   # away from the cut lines and round corners of the home sheet
    home_card = sheet.crop((x + inset, y + inset, x + w - inset, y + h - inset)).convert("L")
    b = round(BLEED * scale)
    shop_card = shop_page.crop((b + inset, b + inset, b + w - inset, b + h - inset)).convert("L")
    diff = ImageStat.Stat(ImageChops.difference(home_card, shop_card)).mean[0]
    assert diff < 3.0


def test_home_files_are_the_same_bytes(shop, home):
    kit_out, _ = shop
    home_files = sorted(p.relative_to(home) for p in home.rglob("*.pdf"))
    assert home_files and not any(p.parts[0] in ("print-shop", "tts") for p in home_files)
    for rel in home_files:
        assert (kit_out / rel).read_bytes() == (home / rel).read_bytes(), rel


def prints_at_actual_size(path: Path) -> bool:
    prefs = PdfReader(str(path)).trailer["/Root"].get("/ViewerPreferences")
    return prefs is not None and prefs.get_object().get("/PrintScaling") == "/None"


def test_print_scaling_none_in_every_pdf_of_the_mini_kit(shop, home):
    kit_out, _ = shop
    pdfs = list(kit_out.rglob("*.pdf")) + list(home.rglob("*.pdf"))
    assert len(pdfs) >= 14
    assert [p.name for p in pdfs if not prints_at_actual_size(p)] == []


def test_print_scaling_none_in_every_pdf_of_the_default_kit(tmp_path):
    out = tmp_path / "out"
    assert main(["build", DEFAULT_KIT, "--out", str(out), "-q"]) == 0
    pdfs = list((out / DEFAULT_KIT).rglob("*.pdf"))
    assert len(pdfs) >= 10
    assert [p.name for p in pdfs if not prints_at_actual_size(p)] == []
    first = pdfs[0].read_bytes()   # a second build from the cache gives the same bytes (marked once)
    assert main(["build", DEFAULT_KIT, "--out", str(out), "-q"]) == 0
    assert pdfs[0].read_bytes() == first and first.count(b"/PrintScaling") == 1


def test_unknown_target_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["build", "--data", str(MINI), "--out", str(tmp_path), "--for", "printshop"])
    assert exc.value.code == 2
    assert "unknown target printshop" in capsys.readouterr().err


def test_print_scaling_none_in_the_proof_pdf(tmp_path):
    assert main(["proof", DEFAULT_KIT, "--only", "units.DD", "--out", str(tmp_path)]) == 0
    assert prints_at_actual_size(tmp_path / DEFAULT_KIT / "proofs" / "proof.pdf")


def test_bleed_can_be_set(tmp_path):
    assert main(["build", "--data", str(MINI), "--out", str(tmp_path), "--for", "print-shop", "--bleed", "3mm",
                 "--only", "print-shop", "-q"]) == 0
    bleed = 3 * MM
    page = PdfReader(str(tmp_path / "mini" / "print-shop" / "cards.pdf")).pages[0]
    w, h = 63.5 * MM, 88.9 * MM
    assert [float(v) for v in page.trimbox] == pytest.approx([bleed, bleed, bleed + w, bleed + h], abs=0.01)
    assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, w + 2 * bleed, h + 2 * bleed], abs=0.01)
    with Image.open(tmp_path / "mini" / "print-shop" / "png" / "cards-back.png") as back:
        assert back.size == (round(69.5 / 25.4 * 300), round(94.9 / 25.4 * 300))


def test_bleed_out_of_range_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["build", "--data", str(MINI), "--out", str(tmp_path), "--for", "print-shop", "--bleed", "1in"])
    assert exc.value.code == 2 and "--bleed must be between 0 and 1/4in" in capsys.readouterr().err


def test_the_space_empires_counters_go_to_the_print_shop_with_mirrored_bleed(tmp_path):
    """A deck per table and colour, as every kit's (units-red ...), back then front for every counter, trim =
    the counter, bleed 1/8 in larger, and the bleed band printed (the face's edges mirrored: the tables say
    mirror_bleed), not left white; at the size the build prints (--counter-size), not the kit's default."""
    from pnpgen.kit import load_kit
    assert main(["build", "--out", str(tmp_path), "--for", "print-shop", "--only", "print-shop", "-q",
                 "--counter-size", "1/2in"]) == 0
    kit, _ = load_kit(BUILTIN_DATA / DEFAULT_KIT)
    shop_dir = tmp_path / DEFAULT_KIT / "print-shop"
    assert {p.name for p in shop_dir.glob("*.pdf")} == {
        *(f"{table}-{c.id}.pdf" for table in ("units", "home-system-markers", "colour-counters") for c in kit.colours),
        "deep-space-markers.pdf", "neutral-counters.pdf"}
    red = PdfReader(str(shop_dir / "units-red.pdf"))
    red_pieces = [p for p in list(kit.component_pieces) if p.ref.startswith("units.") and p.colour == "red"]
    assert len(red.pages) == 2 * len(red_pieces)
    page = red.pages[0]
    assert [round(float(v), 2) for v in page.trimbox] == [9.0, 9.0, 45.0, 45.0]     # 1/2 in = 36 pt
    assert [round(float(v), 2) for v in page.bleedbox] == [0.0, 0.0, 54.0, 54.0]
    picture = pdfium.PdfDocument(str(shop_dir / "units-red.pdf"))[1].render(scale=4).to_pil().convert("RGB")
    corner = picture.crop((0, 0, 9 * 4 - 2, 9 * 4 - 2))           # the bleed band at the top left
    assert ImageStat.Stat(corner).mean[0] > 120 and ImageStat.Stat(corner).mean[2] < 120   # red, not paper white
