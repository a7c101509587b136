"""Saddle-stitch imposition: page order for folding, padding, and what lands on the first sheet."""
from __future__ import annotations

import shutil

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnpgen.booklet.impose import padded, sheet_sides
from tests.test_booklet import BOOKLET, IMPOSED, built, page_texts  # noqa: F401  (module fixture reused)


def _reading_order(sides: list) -> list:
    """The pages of a folded saddle-stitched stack as a reader turns them: sheet k's front right half and
    back left half are pages 2k+1, 2k+2 of the first half; the back right and front left halves, from the
    innermost sheet out, the second half."""
    fronts, backs = sides[0::2], sides[1::2]
    first = [page for front, back in zip(fronts, backs) for page in (front[1], back[0])]
    second = [page for front, back in reversed(list(zip(fronts, backs))) for page in (back[1], front[0])]
    return first + second


@pytest.mark.parametrize("pages", range(1, 41))
def test_blanks_go_at_the_end_never_before_a_page_of_text(pages):
    """Folded, the booklet reads every page in order and then only blanks: no continuation page waits
    behind blanks on the back cover."""
    sides = sheet_sides(pages)
    order = _reading_order(sides)
    assert len(sides) % 2 == 0 and len(order) == -(-pages // 4) * 4
    assert order == list(range(pages)) + [None] * (len(order) - pages)


@pytest.mark.parametrize("pages", range(1, 41))
def test_a_named_back_cover_stays_last_with_the_blanks_before_it(pages):
    order = _reading_order(sheet_sides(pages, back_cover=True))
    blanks = [None] * (len(order) - pages)
    expected = list(range(pages)) + blanks if pages < 2 else list(range(pages - 1)) + blanks + [pages - 1]
    assert order == expected and order[-1] == (pages - 1 if pages > 1 else None)


@pytest.mark.parametrize("pages", range(2, 41))
def test_a_designed_back_and_an_inside_back_cover_stay_last_with_the_blanks_before_them(pages):
    order = _reading_order(sheet_sides(pages, back_cover=2))
    kept = min(2, pages - 1)
    blanks = [None] * (len(order) - pages)
    assert order == list(range(pages - kept)) + blanks + list(range(pages - kept, pages))


def test_folded_sheets_read_in_order():
    """Folding the stack: sheet fronts' right halves then backs' left halves... give pages 1, 2, 3, ..."""
    assert sheet_sides(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    assert sheet_sides(6) == [(None, 0), (1, None), (5, 2), (3, 4)]  # blanks where the reader ends


def _half_text(document, index, left: bool) -> str:
    page = document[index]
    width, height = page.get_size()
    x0, x1 = (0, width / 2) if left else (width / 2, width)
    return " ".join(page.get_textpage().get_text_bounded(x0, 0, x1, height).split())


def test_the_first_sheet_holds_the_last_and_the_first_page(built):
    pages = len(PdfReader(built / BOOKLET).pages)
    imposed = pdfium.PdfDocument(str(built / IMPOSED))
    assert len(imposed) == -(-pages // 4) * 2 and len(imposed) % 2 == 0
    texts = page_texts(built / BOOKLET)
    assert "In this kit" in _half_text(imposed, 0, left=True) and "In this kit" in texts[-1]  # designed back
    assert "Rules booklet" in _half_text(imposed, 0, left=False) and "Rules booklet" in texts[0]
    # the back of the first sheet starts with page 2: drawn half a turn round on the right half, where a
    # long-edge flip (the build's default) turns the sheet over top to bottom and brings it to the left, upright;
    # the kit's back-cover chapter is the inside back cover, on the same leaf as the designed back cover
    back = _half_text(imposed, 1, left=False)
    assert "Contents" in back and not _half_text(imposed, 1, left=True).startswith("Contents")
    assert "Quick reference" in _half_text(imposed, 1, left=True) and "Quick reference" in texts[-2]


def _four_pages() -> bytes:
    import io
    from reportlab.pdfgen.canvas import Canvas
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(396, 612), invariant=1)
    for number in range(1, 5):
        canvas.drawString(72, 500, f"page {number}")
        canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize("flip,turned", [("long", True), ("short", False)])
def test_back_sides_are_turned_for_a_long_edge_flip_only(flip, turned):
    """On a landscape sheet a long-edge flip stands the back side on its head, so its pages are drawn half a
    turn round (printing.md); a short-edge flip needs them as they are. Fronts are never turned."""
    from pnpgen.booklet.impose import impose
    reader = PdfReader(__import__("io").BytesIO(impose(_four_pages(), (792.0, 612.0), duplex=flip)))
    front, back = (page.get_contents().get_data().decode() for page in reader.pages)
    assert "-1 0 0 -1" not in front
    assert ("-1 0 0 -1" in back) == turned
    words = reader.pages[1].extract_text()
    assert "page 2" in words and "page 3" in words



@pytest.fixture
def mini_copy(tmp_path):
    from tests.test_components import MINI
    target = tmp_path / "mini"
    shutil.copytree(MINI, target)
    return target


def _name_back_cover(kit_dir, chapter: str) -> int:
    text = (kit_dir / "kit.yaml").read_text(encoding="utf-8")
    (kit_dir / "kit.yaml").write_text(text + f"documents:\n  booklet:\n    chapters: rules\n    back_cover: {chapter}\n",
                                      encoding="utf-8")
    return text.count("\n") + 4


def test_a_back_cover_that_is_not_a_chapter_is_located(run_cli, mini_copy):
    line = _name_back_cover(mini_copy, "00-cover.md")
    result = run_cli("validate", "--data", mini_copy)
    assert result.code == 1 and "Traceback" not in result.err
    assert f"kit.yaml:{line}: documents.booklet.back_cover: '00-cover.md' is not a chapter file" in result.err


def test_the_back_cover_chapter_prints_last_after_a_chapter_added_behind_it(mini_copy, tmp_path):
    """A designer adds 02-variants.md after naming 01-rules.md the back cover: the cover stays last."""
    (mini_copy / "rules" / "02-variants.md").write_text("# Variants\n\nPlay with one card fewer.\n", encoding="utf-8")
    _name_back_cover(mini_copy, "01-rules.md")
    from pnpgen.cli import main
    assert main(["build", "--data", str(mini_copy), "--out", str(tmp_path / "out"), "--only", "documents", "-q"]) == 0
    texts = page_texts(tmp_path / "out" / "mini" / BOOKLET)
    assert texts[-1].startswith("How to play") and any(t.startswith("Variants") for t in texts[:-1])


def test_a_back_cover_longer_than_one_page_stops_the_build(run_cli, mini_copy, tmp_path):
    line = _name_back_cover(mini_copy, "01-rules.md")
    rules = mini_copy / "rules" / "01-rules.md"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nA line of play that runs on.\n" * 60, encoding="utf-8")
    result = run_cli("build", "--data", mini_copy, "--out", tmp_path / "out", "--only", "documents", "--quiet")
    assert result.code == 1 and "Traceback" not in result.err
    assert f"kit.yaml:{line}: documents.booklet.back_cover: 01-rules.md must be one page" in result.err
    assert not (tmp_path / "out" / "mini" / "booklet-imposed.pdf").exists()


def _marked_pages(count: int) -> bytes:
    """A half-letter PDF whose page n holds the mark 'Pn' at one known place."""
    import io
    from reportlab.pdfgen import canvas
    buffer = io.BytesIO()
    sheet = canvas.Canvas(buffer, pagesize=(396, 612), invariant=1)
    for number in range(count):
        sheet.setFont("Helvetica", 12)
        sheet.drawString(100, 400, f"P{number}")
        sheet.showPage()
    sheet.save()
    return buffer.getvalue()


def _mark_places(pdf: bytes) -> list[tuple[float, float]]:
    """(left, bottom) in points of the first character on each side."""
    document = pdfium.PdfDocument(pdf)
    return [document[index].get_textpage().get_charbox(0)[:2] for index in range(len(document))]


@pytest.mark.parametrize("flip", ["long", "short"])
def test_the_back_offset_moves_the_imposed_backs_only(flip):
    """--back-offset 1,2 (mm, the portrait calibration sheet's x right, y down) moves every back side of the
    imposed booklet as it moves other landscape backs (x -2 mm, and 1 mm down: y -1 mm in PDF's frame);
    the fronts stay where they were."""
    from pnpgen.booklet.impose import impose
    from pnpgen.paper import paper_size
    mm = 72 / 25.4
    pages = _marked_pages(8)
    sheet = paper_size("letter", landscape=True)
    plain = _mark_places(impose(pages, sheet, duplex=flip))
    moved = _mark_places(impose(pages, sheet, duplex=flip, back_offset=(1 * mm, 2 * mm)))
    assert len(plain) == len(moved) == 4
    for side, (before, after) in enumerate(zip(plain, moved)):
        shift = ((after[0] - before[0]) / mm, (after[1] - before[1]) / mm)
        assert shift == pytest.approx((-2, -1) if side % 2 else (0, 0), abs=0.02), (side, shift)


def test_only_the_back_covers_how_to_print_says_how_to_print(built):
    """The print line that sat at the fold of the first side stayed on the folded booklet's covers (issue
    37): now the front cover says nothing about printing, and the designed back cover says it under its own
    heading, "How to print" (a booklet page is never cut, so the words stay with the reader, not on a piece)."""
    from print_words import print_phrase_boxes
    document = pdfium.PdfDocument(str(built / IMPOSED))
    width, height = document[0].get_size()
    heading = document[0].get_textpage().search("How to print").get_next()
    assert heading is not None
    top = document[0].get_textpage().get_charbox(heading[0])[3]
    found = print_phrase_boxes(built / IMPOSED, 0)
    assert found and all(box[2] < width / 2 and box[3] <= top for _, box in found), found


@pytest.mark.parametrize("length", [0, 1, 2, 3, 4, 5, 63, 64, 65, 1001])
def test_ascii85_decodes_as_base64_does_and_leaves_what_it_cannot_to_pypdf(length):
    """Imposing decodes reportlab's ASCII85 page streams itself (pdfforms.ascii85): the same bytes as
    base64.a85decode for every tail length, line breaks and the <~ ~> frame; None (pypdf decodes it) for
    a `z` group, a byte outside the digits, a group past 2**32 or a lone last digit."""
    import base64
    import random

    from pnpgen.booklet.pdfforms import ascii85
    raw = bytes(random.Random(length).randrange(1, 256) for _ in range(length))
    assert ascii85(base64.a85encode(raw, wrapcol=64)) == raw
    assert ascii85(base64.a85encode(raw, adobe=True)) == raw
    assert ascii85(b"z" + base64.a85encode(raw)) is None
    assert ascii85(base64.a85encode(raw) + b"x") is None
    assert ascii85(b"uuuuu") is None and ascii85(b"!!!!!!") is None


def test_pages_decoded_here_give_pypdf_the_same_contents(built):
    """Every page of the built booklet: its contents read after decode_ascii85_contents are pypdf's own."""
    import io

    from pnpgen.booklet.pdfforms import decode_ascii85_contents
    data = (built / BOOKLET).read_bytes()
    ours, theirs = PdfReader(io.BytesIO(data)), PdfReader(io.BytesIO(data))
    decoded = 0
    for mine, pypdf_page in zip(ours.pages, theirs.pages):
        decode_ascii85_contents(mine)
        contents = mine["/Contents"].get_object()
        decoded += sum(getattr(s.get_object(), "decoded_self", None) is not None
                       for s in (contents if isinstance(contents, list) else [contents]))
        assert mine.get_contents().get_data() == pypdf_page.get_contents().get_data()
    assert decoded >= len(ours.pages)   # every page's own stream decoded here, not by pypdf


def test_reportlab_pages_keep_their_compressed_content_as_flate_encode_would_make_it(built):
    """Imposing takes a reportlab page's one content stream as it is compressed (pdfforms.reportlab_deflated:
    no inflating and compressing again): for every such page of the built booklet those bytes are what
    pypdf's flate_encode makes of the page's decoded content, so the imposed copy keeps its bytes; a page
    of several streams (a figure laid on it) is left to flate_encode."""
    import io

    from pypdf.generic import DecodedStreamObject

    from pnpgen.booklet.pdfforms import reportlab_deflated
    reader = PdfReader(io.BytesIO((built / BOOKLET).read_bytes()))
    taken = 0
    for page in reader.pages:
        deflated = reportlab_deflated(page)
        several = isinstance(page["/Contents"].get_object(), list)
        assert (deflated is None) == several
        if deflated is not None:
            plain = DecodedStreamObject()
            plain.set_data(page.get_contents().get_data())
            assert deflated == plain.flate_encode()._data   # the bytes flate_encode writes
            taken += 1
    assert taken >= len(reader.pages) // 2


def test_the_figures_pdf_is_kept_for_the_same_arts_and_drawn_again_for_others(tmp_path, monkeypatch):
    """overlay's figures PDF (one page per art, cairo's) is read back from the user's cache when the same
    arts come again, in the same order (a build into a new output folder: no cairo drawing, the same bytes);
    other arts, another order, an art with no key, or a file not sealed with this user's key are drawn again."""
    from pnpgen.booklet import overlay
    from pnpgen.render.pdf import render_svg
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10">'
           '<rect x="1" y="1" width="{}" height="8" fill="#c33"/></svg>')
    arts = {("f", i): render_svg(svg.format(4 + i)) for i in range(2)}
    drawn, real = [], overlay.art_pages
    monkeypatch.setattr(overlay, "art_pages", lambda *a: drawn.append(1) or real(*a))

    def pages(art_keys, keys):
        kept = overlay.KeptArtPages(tmp_path / "figures.pdf.bin", art_keys)
        reader = kept.reader(keys, [arts[k] for k in keys], tmp_path)
        return [page.get_contents().get_data() for page in reader.pages]
    keys, art_keys = sorted(arts), {("f", 0): "a", ("f", 1): "b"}
    first = pages(art_keys, keys)
    assert pages(art_keys, keys) == first and len(drawn) == 1    # kept
    assert pages({**art_keys, ("f", 1): "c"}, keys) == first and len(drawn) == 2   # another art's key
    assert len(pages(art_keys, keys[::-1])) == 2 and len(drawn) == 3   # another order
    assert pages({("f", 0): "a"}, keys) == first and len(drawn) == 4   # an art with no key: drawn, not kept
    (tmp_path / "figures.pdf.bin").write_bytes((tmp_path / "figures.pdf.bin").read_bytes().replace(b"a", b"b", 1))
    assert pages(art_keys, keys[::-1]) and len(drawn) == 5   # not this user's seal: drawn again


def test_a_stored_figure_art_is_replayed_only_when_its_page_is_drawn(tmp_path):
    """StoredArts hands out a stored art with its size, texts and calls but no cairo recording; art_pages
    replays it when it draws the page, once for an art placed twice (one XObject, as an eagerly replayed
    art gives): the figures' PDF is byte for byte the one drawn from replayed arts."""
    from pnpgen.booklet.overlay import StoredArts, art_pages
    from pnpgen.render.face_store import replay
    from pnpgen.render.pdf import ArtCache
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10">'
           '<rect x="1" y="1" width="6" height="8" fill="#c33"/>'
           '<text x="10" y="6" font-family="DejaVu Sans" font-size="3">Hi</text></svg>')
    first = StoredArts(tmp_path / "arts.bin", tmp_path, ArtCache(tmp_path))
    art = first.get("k", svg, "test")
    first.save()
    stored = StoredArts(tmp_path / "arts.bin", tmp_path, ArtCache(tmp_path)).get("k", svg, "test")
    assert art.recording is None and stored.recording is None and stored.ops and stored.texts == art.texts
    eager = replay({"width": stored.width, "height": stored.height, "ops": stored.ops, "texts": stored.texts},
                   unbounded=True)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert art_pages([stored, stored], tmp_path / "a") == art_pages([eager, eager], tmp_path / "b")


def test_copied_objects_have_their_references_renumbered_and_their_strings_kept():
    """pdfcopy copies an object as its bytes: each `N G R` renumbered, text inside a (string) that only
    looks like a reference left as written (nested and escaped parentheses too)."""
    from pnpgen.booklet.pdfcopy import renumbered
    text = b"<< /Font 1 0 R /T (see 2 0 R \\( (3 0 R) ) /F12 4 0 R % 5 0 R\n /K [ 6 0 R ] >>"
    assert renumbered(text, lambda n: n + 100) == \
        b"<< /Font 101 0 R /T (see 2 0 R \\( (3 0 R) ) /F12 104 0 R % 5 0 R\n /K [ 106 0 R ] >>"


@pytest.mark.parametrize("title", ["Plain", "Ships (and bases) \\ back", "Règles: l’espace"])
def test_the_imposed_copy_keeps_the_title_with_what_it_is(title):
    """The imposed file's title is the booklet's, said as imposed, whatever characters it holds."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from pnpgen.booklet.impose import impose
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(396, 612), invariant=1)
    canvas.setTitle(title)
    canvas.drawString(72, 500, "page 1")
    canvas.showPage()
    canvas.save()
    imposed = PdfReader(io.BytesIO(impose(out.getvalue(), (792.0, 612.0))))
    assert imposed.metadata.title == f"{title} (imposed for saddle stitching)" and len(imposed.pages) == 2
