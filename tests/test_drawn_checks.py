"""Checks from what was drawn: the glyphs a reportlab canvas records as it sets them find the same overprints,
at the same places, as reading the written PDF back with pdfium; the overlap check's cost grows with the
lines and the cards, not with their pairs."""
from __future__ import annotations

import time
from pathlib import Path

from pnpgen.fonts import register_reportlab_fonts
from pnpgen.page_overprint import drawn_overprints, join_lines, page_lines, pdf_overprints
from pnpgen.render.drawn_text import GlyphCanvas


def _canvas(path: Path, size=(300, 200)) -> GlyphCanvas:
    register_reportlab_fonts()
    canvas = GlyphCanvas(str(path), pagesize=size, invariant=1)
    canvas.drawn_glyphs = {}
    return canvas


def test_recorded_glyphs_find_what_the_written_pdf_shows_at_the_same_place(tmp_path):
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph
    path = tmp_path / "page.pdf"
    canvas = _canvas(path)
    canvas.setFont("DejaVuSansCondensed", 10)
    canvas.drawString(20, 150, "Clear heading")
    canvas.drawRightString(280, 130, "Right words")
    canvas.showPage()
    canvas.setFont("DejaVuSansCondensed", 10)
    canvas.drawString(20, 100, "Production")
    canvas.drawString(40, 96, "Upkeep")                  # 4 pt lower and to the right: over the first
    style = ParagraphStyle("p", fontName="DejaVuSans", fontSize=9, leading=8)   # lines set too close
    text = Paragraph("Every ship pays its <b>upkeep</b> each economic phase, before it builds anything new", style)
    text.wrap(120, 100)
    text.drawOn(canvas, 150, 40)
    canvas.save()
    drawn, written = drawn_overprints(canvas.drawn_glyphs), pdf_overprints(path)
    assert [page for page, _ in drawn] == [page for page, _ in written] and len(drawn) >= 2
    assert [finding for _, finding in drawn] == [finding for _, finding in written]
    assert "text 'Production' overprints text 'Upkeep' at" in drawn[0][1]


def test_recorded_lines_match_pdfium_lines_within_a_fraction_of_a_point(tmp_path):
    path = tmp_path / "page.pdf"
    canvas = _canvas(path)
    canvas.setFont("DejaVuSans-Bold", 12)
    canvas.drawString(20, 150, "Ship Yards 12")
    canvas.setFont("DejaVuSansCondensed", 7)
    canvas.drawCentredString(150, 100, "Attack 4 · Defence 1")
    canvas.save()
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(path))
    read = page_lines(document[0])
    document.close()
    drawn = join_lines(canvas.drawn_glyphs[1])
    assert [line[0] for line in drawn] == [line[0] for line in read]
    for (_, box, size), (_, read_box, read_size) in zip(drawn, read):
        assert max(abs(a - b) for a, b in zip(box, read_box)) < 0.6 and abs(size - read_size) < 0.01


def test_text_turned_half_a_turn_is_checked_as_lines_not_letters(tmp_path):
    canvas = _canvas(tmp_path / "page.pdf")
    canvas.setFont("DejaVuSans", 10)
    canvas.translate(300, 200)
    canvas.rotate(180)                                    # a card back behind a top-bottom flip
    canvas.drawString(20, 60, "Turned words")
    canvas.drawString(30, 57, "Over them")
    canvas.save()
    assert [line[0] for line in join_lines(canvas.drawn_glyphs[1])] == ["Turnedwords", "Overthem"]
    assert [f for _, f in drawn_overprints(canvas.drawn_glyphs)] == [
        f for _, f in drawn_overprints(canvas.drawn_glyphs) if "'Overthem' overprints text 'Turnedwords'" in f]


def _page_of_lines(path: Path, count: int) -> dict:
    """`count` lines in a table-like grid, ten to a row, none touching, on one tall page."""
    rows = count // 10
    canvas = _canvas(path, (800, 14 * rows + 40))
    canvas.setFont("DejaVuSansCondensed", 8)
    for n in range(count):
        canvas.drawString(20 + 75 * (n % 10), 20 + 14 * (n // 10), f"Cell {n:04d}")
    canvas.save()
    return canvas.drawn_glyphs


def _seconds(check, *args, repeat: int = 3, loops: int = 1) -> float:
    """The best CPU seconds of `repeat` timings of `loops` calls, per call (other work on a shared machine
    only ever adds time)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(loops):
            check(*args)
        best = min(best, (time.process_time() - start) / loops)
    return best


def test_the_page_overlap_check_costs_per_line_what_it_costs_for_few(tmp_path):
    small, large = _page_of_lines(tmp_path / "small.pdf", 200), _page_of_lines(tmp_path / "large.pdf", 2000)
    assert drawn_overprints(large) == []
    # enough calls a timing that the CPU clock reads them (a 200-line page now checks in ~0.2 ms)
    ratio = _seconds(drawn_overprints, large, repeat=7, loops=5) / _seconds(drawn_overprints, small, repeat=7, loops=50)
    # measured 10-12x on a quiet machine, 22x once under a load of 13; every pair compared would be ~100x
    assert ratio < 35, f"2,000 lines cost {ratio:.1f}x 200 lines: the check grows faster than the lines"


def deck_faces(count: int) -> list[dict]:
    """The recorded drawings of `count` distinct poker cards: a framed face, a title, a cost and a rule."""
    from pnpgen.render.svg_ops import record
    return [record(f'<svg xmlns="http://www.w3.org/2000/svg" width="63.5mm" height="88.9mm" '
                   f'viewBox="0 0 63.5 88.9"><rect x="3" y="3" width="57.5" height="82.9" fill="#eee" '
                   f'stroke="#333" stroke-width="0.4"/><text x="6" y="12" font-family="DejaVu Sans" '
                   f'font-size="4">Card {n}</text><text x="6" y="40" font-family="DejaVu Sans" '
                   f'font-size="3">Cost {n % 7}</text><line x1="5" y1="20" x2="58" y2="20" stroke="#000" '
                   f'stroke-width="0.3"/></svg>', None) for n in range(count)]


def face_checks(faces: list[dict]) -> list[str]:
    """Every face's checks as a build runs them: text size and margins, then text over text or under a line."""
    from pnpgen.preflight import Rules, check_face, overprints
    from pnpgen.render.ink_lines import read_ink
    from pnpgen.shapes import Shape
    shape, found = Shape("rect", 180.0, 252.0, radius=8.0), []
    for drawing in faces:
        found += check_face(drawing["texts"], shape, 0.0, Rules())
        found += overprints(drawing["texts"], read_ink(drawing["ops"]))
    return found


def test_the_face_checks_cost_per_card_what_they_cost_for_few():
    """A deck of 2,000 distinct cards against 200: each face's glyph and ink checks."""
    faces = deck_faces(2000)
    assert face_checks(faces[:20]) == []
    ratio = _seconds(face_checks, faces, repeat=2) / _seconds(face_checks, faces[:200], repeat=3, loops=3)
    assert ratio < 20, f"2,000 cards cost {ratio:.1f}x 200: the checks grow faster than the cards"


def test_the_contrast_check_finds_each_glyphs_ground_on_the_grid_as_by_scanning_every_fill():
    """pnpgen.page_contrast looks a glyph's grounds up on a grid (pnpgen.overlaps.BoxGrid) instead of holding
    it against every fill of its page: the same ground, the same picture verdict, for glyphs inside, across
    and outside fills of every size (a sheet-sized one, tiny ones, one drawn after the glyph)."""
    import random

    from pnpgen.page_contrast import ground_under, ground_grid
    pick = random.Random(7)
    grounds = [(0, (-50.0, -50.0, 700.0, 900.0), (0.9, 0.9, 0.9), 1.0)]
    for order in range(1, 400):
        x, y = pick.uniform(0, 600), pick.uniform(0, 780)
        w, h = pick.choice((2.0, 20.0, 80.0, 300.0)), pick.choice((2.0, 12.0, 60.0))
        rgb = None if order % 37 == 0 else (pick.random(), pick.random(), pick.random())
        grounds.append((order, (x, y, x + w, y + h), rgb, pick.choice((1.0, 0.5))))
    glyphs = []
    for _ in range(1500):
        x, y = pick.uniform(-10, 610), pick.uniform(-10, 790)
        glyphs.append(("a", (x, y, x + pick.uniform(1, 8), y + pick.uniform(2, 9))))
    grid = ground_grid(glyphs, grounds)
    for index, (_, box) in enumerate(glyphs):
        assert ground_under(box, index // 4, grounds, grid) == ground_under(box, index // 4, grounds)


def test_the_sweep_down_the_page_finds_the_grids_pairs_in_its_order():
    """page_overprint sweeps down a page's lines instead of filing them on the grid (pnpgen.overlaps): the
    same pairs, the same order, the same shared boxes, on pages of ties, overlaps of every size and tall
    boxes (where the sweep gives way to the grid)."""
    import random

    from pnpgen.overlaps import OVERLAP, overlapping_pairs
    from pnpgen.page_overprint import overlapping_lines
    rng, found = random.Random(3), 0
    for page in range(60):
        tall = page % 3 == 0
        lines = []
        for n in range(rng.choice([5, 60, 250])):
            x0, y0 = rng.choice([rng.uniform(0, 500), float(rng.randrange(500))]), rng.choice([rng.uniform(0, 700), 100.0])
            high = rng.uniform(0, 400 if tall and rng.random() < 0.5 else 14)
            lines.append((f"line {n}", (x0, y0, x0 + rng.uniform(0, 80), y0 + high), 8.0))
        ordered = sorted(lines, key=lambda line: line[1][1])
        by_grid = [(ordered[a][0], ordered[b][0], shared)
                   for a, b, shared in overlapping_pairs([line[1] for line in ordered], OVERLAP)]
        assert overlapping_lines(lines) == by_grid
        found += len(by_grid)
    assert found > 1000
