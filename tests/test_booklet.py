"""The rules booklet as a reader gets it: text, tables, figures, pages, fonts, rebuilds, and the data it follows."""
from __future__ import annotations

import json
import shutil
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnpgen.games.space_empires_4x.figures import counter_anatomy
from pnpgen.build import build
from pnpgen.build_options import BuildOptions
from pnpgen.kit import load_kit
from tests.conftest import DEFAULT_KIT_DIR, edit

BOOKLET, IMPOSED = "booklet.pdf", "booklet-imposed.pdf"


def build_booklet(kit_dir: Path, out: Path, paper: str | None = None) -> Path:
    kit, _ = load_kit(kit_dir)
    result = build(kit, BuildOptions(out=out, only="booklet", paper=paper))
    return result.kit_out


def page_texts(path: Path) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(path).pages]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_booklet(DEFAULT_KIT_DIR, tmp_path_factory.mktemp("booklet"))


@pytest.fixture(scope="module")
def texts(built):
    return page_texts(built / BOOKLET)


def test_every_unit_marker_kind_and_technology_is_named(built, texts, default_kit):
    text = " ".join(texts)
    names = [u.name for u in default_kit.units.values()] + [m.name for m in default_kit.marker_kinds.values()]
    names += [t.name for t in default_kit.technologies.values()]
    missing = [n for n in names if n not in text]
    assert not missing, f"not named in the booklet: {missing}"


def test_rule_numbers_in_the_text_come_from_the_data(texts, default_kit):
    text = " ".join(texts)
    economy = default_kit.game.economy
    assert f"keep at most {economy['carry_over_cap']} CP" in text
    assert f"{economy['homeworld']['cp']}, 15, 10 or 5 CP" in text  # Homeworld steps on the quick reference
    ca, dd = default_kit.units["CA"], default_kit.units["DD"]
    need = ca.attack + 1 + default_kit.game.combat["fleet_size_bonus"] - dd.defence
    assert f"minus the Destroyer's defence {dd.defence}: {need} or less" in text


def test_the_counter_size_quoted_is_the_one_printed(texts, tmp_path):
    assert "The counters of this print are 5/8in square." in " ".join(texts)
    kit, _ = load_kit(DEFAULT_KIT_DIR)
    out = build(kit, BuildOptions(out=tmp_path, only="booklet", counter_size="1/2in")).kit_out
    assert "The counters of this print are 1/2in square." in " ".join(page_texts(out / BOOKLET))


def test_pages_are_half_letter_and_sheets_letter_landscape(built):
    assert {tuple(map(float, p.mediabox[2:])) for p in PdfReader(built / BOOKLET).pages} == {(396.0, 612.0)}
    assert {tuple(map(float, p.mediabox[2:])) for p in PdfReader(built / IMPOSED).pages} == {(792.0, 612.0)}


def test_a4_gives_a5_pages_on_a4_landscape_sheets(tmp_path):
    out = build_booklet(DEFAULT_KIT_DIR, tmp_path, paper="a4")
    a5 = {tuple(round(float(v), 1) for v in p.mediabox[2:]) for p in PdfReader(out / BOOKLET).pages}
    a4 = {tuple(round(float(v), 1) for v in p.mediabox[2:]) for p in PdfReader(out / IMPOSED).pages}
    assert a5 == {(419.5, 595.3)} and a4 == {(841.9, 595.3)}


def _fonts(resources, seen):
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        for descendant in font.get("/DescendantFonts", [font]):
            yield descendant.get_object()
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if "/Resources" in xobject and id(xobject) not in seen:
            seen.add(id(xobject))
            yield from _fonts(xobject["/Resources"].get_object(), seen)


@pytest.mark.parametrize("name", [BOOKLET, IMPOSED])
def test_every_font_is_embedded(built, name):
    fonts = {}
    for page in PdfReader(built / name).pages:
        for font in _fonts(page["/Resources"].get_object(), set()):
            fonts[font["/BaseFont"]] = font
    assert fonts
    not_embedded = [n for n, f in fonts.items() if "/FontDescriptor" not in f or not any(
        k in f["/FontDescriptor"].get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))]
    assert not not_embedded


def test_contents_give_the_page_each_chapter_starts_on(texts, default_kit):
    """The page the contents name holds the chapter's heading. Its running header names the chapter current
    at the top of that page: this one when its heading opens the page, else the one running on from the page
    before (and then the next page names it)."""
    contents = texts[1]
    assert contents.startswith("Contents")
    chapters = ("Combat", "Economy", "Advanced rules", "Teams and solo play", "Glossary", "Quick reference")
    for chapter in chapters:
        page = int(re.search(rf"(\d+) {chapter}\b", contents).group(1))  # leaders + number draw first
        text = texts[page - 1]
        assert f" {chapter} " in f" {text} ", (chapter, page)
        assert not texts[page - 2].endswith(f" {chapter} {page - 1}")
        if text.startswith(f"{chapter} "):
            assert text.endswith(f"{default_kit.title} {chapter} {page}"), (chapter, page)
        else:
            assert not text.endswith(f" {chapter} {page}"), (chapter, page)
            if not any(texts[page].startswith(f"{other} ") for other in chapters):  # else it ended on its page
                assert texts[page].endswith(f" {chapter} {page + 1}"), (chapter, page)


def test_tables_repeat_their_header_when_they_break(texts):
    """The inventory is longer than a page: its continuation starts with the header row again."""
    pages = [i for i, t in enumerate(texts) if "Item Set Each colour Total" in t]
    assert len(pages) >= 2 and pages[1] == pages[0] + 1


def test_figure_page_shows_the_real_counter_art(built, texts, default_kit):
    """The DD counter front is laid on the page: its print colour covers the art box, in vector."""
    index = next(i for i, t in enumerate(texts) if "Reading a ship counter" in t and "Group number" in t)
    page = pdfium.PdfDocument(str(built / BOOKLET))[index]
    image = page.render(scale=1).to_pil().convert("RGB")
    red = tuple(int(default_kit.colours[0].print[i:i + 2], 16) for i in (1, 3, 5))
    raw = image.tobytes()
    close = sum(1 for i in range(0, len(raw), 3) if all(abs(raw[i + k] - red[k]) < 12 for k in range(3)))
    assert close > 0.5 * 118 * 118  # the art is 118 pt square at 72 dpi, mostly the colour's fill


def test_counter_anatomy_callouts_point_at_the_template_text(default_kit):
    figure = counter_anatomy(default_kit, list(default_kit.component_pieces), 15.875)
    spots = {c.label: (c.fx, c.fy) for c in figure.callouts}
    assert not figure.missing and set(spots) == {"Type", "Group number", "Class", "Attack–defence", "Hull size"}
    assert spots["Type"][0] < 0.5 > spots["Type"][1] and spots["Hull size"][0] > 0.5 < spots["Hull size"][1]


def test_manifest_lists_both_files_with_their_pages(built, texts):
    files = json.loads((built / "manifest.json").read_text())["parts"]["booklet"]["files"]
    assert [(f["path"], f["pages"]) for f in files] == [(BOOKLET, len(texts)), (IMPOSED, -(-len(texts) // 4) * 2)]


def test_rebuilds_are_byte_identical(built, tmp_path):
    again = build_booklet(DEFAULT_KIT_DIR, tmp_path)
    for name in (BOOKLET, IMPOSED):
        assert (again / name).read_bytes() == (built / name).read_bytes(), name


def test_the_booklet_follows_the_data(kit_copy, tmp_path):
    edit(kit_copy / "data/game.yaml", "carry_over_cap: 30", "carry_over_cap: 35")
    edit(kit_copy / "data/game.yaml", "homeworld: {cp: 20, loses_per_hit: 5}", "homeworld: {cp: 24, loses_per_hit: 6}")
    # the Homeworld damage counters' steps follow (a declared check ties them to the Homeworld's numbers)
    edit(kit_copy / "components/colour-counters.yaml", "value: 20, back_value: 15", "value: 24, back_value: 18")
    edit(kit_copy / "components/colour-counters.yaml", "value: 10, back_value: 5", "value: 12, back_value: 6")
    edit(kit_copy / "components/units.yaml", "    hull: 2\n    cost: 12", "    hull: 2\n    cost: 13")
    text = " ".join(page_texts(build_booklet(kit_copy, tmp_path) / BOOKLET))
    assert "keep at most 35 CP" in text and "keep at most 30 CP" not in text
    assert "24, 18, 12 or 6 CP" in text and "20, 15, 10 or 5 CP" not in text
    assert "CA Cruiser C 4–1 2 13 3 2 4" in text and "CA Cruiser C 4–1 2 12" not in text


def test_a_missing_counter_template_is_a_located_error(run_cli, kit_copy, tmp_path):
    (kit_copy / "templates").mkdir(exist_ok=True)  # a kit's own unit front that includes a part nobody wrote
    (kit_copy / "templates" / "unit-front.svg.j2").write_text('{% include "no-such-part.svg.j2" %}')
    result = run_cli("build", "--data", kit_copy, "--out", tmp_path, "--only", "booklet")
    assert result.code == 1
    assert re.search(r"rules/02-the-kit\.md: figure counter-anatomy: \S*unit-front\.svg\.j2:1: template "
                     r"no-such-part\.svg\.j2 not found \(for booklet figure counter-anatomy, DD \d;",
                     result.err), result.err
    assert not (tmp_path / "space-empires-4x" / BOOKLET).exists()


def test_an_unknown_table_is_located_at_its_chapter_line(run_cli, kit_copy, tmp_path):
    (kit_copy / "rules" / "99-extra.md").write_text("# Extra\n\n{{ table('nope') }}\n", encoding="utf-8")
    result = run_cli("build", "--data", kit_copy, "--out", tmp_path, "--only", "booklet")
    assert result.code == 1 and re.search(r"rules/99-extra\.md:3: .*unknown table 'nope'", result.err), result.err


def test_scenario_maps_come_from_the_kits_boards_and_numbers_stand_in_without_them(kit_copy, tmp_path):
    """Each scenario with a board shows that board; a kit without boards shows the scenario's numbers."""
    out = build_booklet(kit_copy, tmp_path / "with")
    scenarios = load_kit(kit_copy)[0].game.scenarios
    figures = json.loads((out / "manifest.json").read_text())["parts"]["booklet"]["figures"]
    assert {f"scenario-map:{s.id}" for s in scenarios} <= set(figures)
    assert "Hexes in each Home System" not in " ".join(page_texts(out / BOOKLET))

    edit(kit_copy / "kit.yaml", "  maps: maps                 # folder of hex-map layouts, one file per board\n", "")
    out = build_booklet(kit_copy, tmp_path / "without")
    figures = json.loads((out / "manifest.json").read_text())["parts"]["booklet"]["figures"]
    assert not [f for f in figures if f.startswith("scenario-map:")]
    assert "Hexes in each Home System" in " ".join(page_texts(out / BOOKLET))


def test_a_long_name_wraps_inside_its_table_cell(kit_copy, tmp_path):
    """Designers rename freely: a name wider than its column wraps instead of running into the next one."""
    edit(kit_copy / "components/units.yaml", "  name: Scout\n", "  name: Scout of the Far Reaches and Beyond the Rim\n")
    out = build_booklet(kit_copy, tmp_path)
    index = next(i for i, t in enumerate(page_texts(out / BOOKLET)) if "Upkeep Limit" in t)
    text = pdfium.PdfDocument(str(out / BOOKLET))[index].get_textpage()

    def boxes(word):  # (left, bottom, right, top) of the first and last character of every match
        found, searcher = [], text.search(word, match_case=True)
        while (hit := searcher.get_next()) is not None:
            found.append((text.get_charbox(hit[0]), text.get_charbox(hit[0] + hit[1] - 1)))
        return found

    (start, _), = boxes("SC Scout")                         # the table cell, not the Ship Size sentence
    rim_end = next(end for _, end in boxes("Rim") if start[1] - 20 < end[1] < start[1])  # its last line
    header = min((b[0] for b in boxes("Class") if b[0][1] > rim_end[3]), key=lambda c: c[1] - rim_end[3])
    assert rim_end[2] < header[0]                           # the name ends left of the Class column
    assert rim_end[3] < start[1]                            # it wrapped: the name ends a line below its start


def test_a_template_that_prints_no_class_gets_no_class_callout(kit_copy, run_cli, tmp_path):
    """Callouts point only at texts the kit's own template prints; a missing one is left out and logged."""
    source = (kit_copy / "templates" / "unit-front.svg.j2").read_text(encoding="utf-8")
    without_class = source.replace('(row["class"] or "") ~ attack', 'attack')
    assert without_class != source
    (kit_copy / "templates" / "unit-front.svg.j2").write_text(without_class, encoding="utf-8")
    kit, _ = load_kit(kit_copy)
    figure = counter_anatomy(kit, list(kit.component_pieces), 15.875)
    assert figure.missing == ("Class",) and "Class" not in {c.label for c in figure.callouts}
    result = run_cli("build", "--data", kit_copy, "--out", tmp_path, "--only", "booklet", "--verbose")
    assert result.code == 0 and "figure counter-anatomy: the template prints no text for the 'Class' callout" in result.err


def test_the_booklet_is_laid_out_once_with_an_empty_or_a_warm_user_cache(run_cli, tmp_path, monkeypatch):
    """The contents know the chapters' titles before the pass and draw their page numbers once it has placed
    the chapters (story.Contents): one pass, every paragraph drawn once, whether the user's cache is empty or
    not, to the same bytes."""
    from reportlab.platypus import Paragraph
    from reportlab.platypus.doctemplate import BaseDocTemplate
    mini = Path(__file__).parent / "kits" / "mini"
    drawn, build_pass, draw = [], BaseDocTemplate.build, Paragraph.draw

    def counted(self, *args, **kwargs):
        drawn.append(0)
        return build_pass(self, *args, **kwargs)

    def draw_counted(self):
        drawn[-1] += 1
        return draw(self)
    monkeypatch.setattr(BaseDocTemplate, "build", counted)
    monkeypatch.setattr(Paragraph, "draw", draw_counted)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    booklets = []
    for out in ("empty", "warm"):
        drawn.clear()
        assert run_cli("build", "--data", mini, "--out", tmp_path / out, "--only", "documents", "--quiet").code == 0
        booklets.append((tmp_path / out / "mini" / "booklet.pdf").read_bytes())
        assert len(drawn) == 1 and drawn[0] > 0, (out, drawn)
    assert booklets[0] == booklets[1]


def test_chapters_the_contents_did_not_expect_cost_a_pass_and_change_nothing(monkeypatch):
    """A chapter heading the contents were not told of (a heading nested where headings() does not look)
    only costs reportlab's second pass: the contents then say every chapter's page as before."""
    from pnpgen.booklet import document
    from pnpgen.booklet.story import Contents
    expected, expect = [], Contents.expect
    monkeypatch.setattr(Contents, "expect", lambda self, titles: expected.append(titles) or expect(self, titles[1:]))
    from tests.test_components import MINI
    kit, _ = load_kit(MINI)
    from pnpgen.booklet.story import flowables
    from pnpgen.booklet.markdown import parse
    from pnpgen.documents.paragraphs import use_kit
    use_kit(kit)
    chapters = [flowables(parse(f"# Chapter {n}\n\nSome text.\n"), f"c{n}", 300, {}, {}, {}, {}, {})
                for n in range(3)]
    from reportlab.platypus.doctemplate import BaseDocTemplate
    passes, build_pass = [], BaseDocTemplate.build
    monkeypatch.setattr(BaseDocTemplate, "build", lambda self, *a, **k: passes.append(1) or build_pass(self, *a, **k))
    pdf = document.lay_out(kit, (396, 612), chapters)
    import io
    contents = " ".join(PdfReader(io.BytesIO(pdf)).pages[1].extract_text().split())
    assert len(passes) == 2 and len(expected[0]) == 3
    assert all(re.search(rf"\d+ Chapter {n}\b", contents) for n in range(3)), contents


def test_an_edit_to_figure_art_alone_redraws_the_figure_on_the_last_layout(kit_copy, run_cli, tmp_path,
                                                                         monkeypatch):
    """A template edit that changes a figure's art and no text: the booklet's text stays, the figure's pixels
    change, the pages laid out before are reused (only the art is laid on again), the figures whose art did
    not change are replayed from their stored recordings, and the result is the booklet a build from nothing
    makes."""
    from pnpgen.render import svg_ops
    recorded = []
    record = svg_ops.record
    monkeypatch.setattr(svg_ops, "record", lambda svg, base: recorded.append(svg) or record(svg, base))

    def booklet(out, *flags):
        recorded.clear()
        result = run_cli("build", "--data", kit_copy, "--out", out, "--only", "booklet", *flags)
        assert result.code == 0, result.err
        return out / "space-empires-4x" / BOOKLET, result.err

    def figure_page(path):
        index = next(i for i, t in enumerate(page_texts(path)) if "Reading a ship counter" in t and "Group number" in t)
        return index, pdfium.PdfDocument(str(path))[index].render(scale=1).to_pil().convert("RGB").tobytes()

    path, _ = booklet(tmp_path / "out")
    first = len(recorded)
    before_texts, (before_index, before_pixels) = page_texts(path), figure_page(path)
    edit(kit_copy / "templates" / "unit-front.svg.j2", "c.emblem(colour.emblem, 88, 14, 6.5, ink)",
         "c.emblem(colour.emblem, 88, 14, 9, ink)")
    path, log = booklet(tmp_path / "out", "--verbose")
    # the one figure showing a ship counter's front, and each unit counter the front cover shows (kit.yaml
    # cover.pieces, each face recorded on its own): recorded again
    import yaml
    cover_units = sum(entry["piece"].startswith("units.") for entry in
                      yaml.safe_load((kit_copy / "kit.yaml").read_text(encoding="utf-8"))["cover"]["pieces"])
    assert first > 1 and cover_units == 4 and len(recorded) == 1 + cover_units
    assert "only figure art changed: laid on the last layout" in log
    assert page_texts(path) == before_texts
    index, pixels = figure_page(path)
    assert index == before_index and pixels != before_pixels
    fresh, log = booklet(tmp_path / "fresh", "--verbose")
    assert "laid on the last layout" not in log and fresh.read_bytes() == path.read_bytes()


def test_a_data_kit_places_a_piece_as_its_sheets_print_it(run_cli, tmp_path):
    """figure('cards.Explore') in a data kit's chapter: the card's front and back, drawn from its own templates,
    are laid on the page (the back's navy fills its box); an unknown figure is located at its line."""
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    chapter = kit / "rules" / "01-rules.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\n## A card\n\n{{ figure('cards.Explore') }}\n",
                       encoding="utf-8")
    assert run_cli("build", "--data", kit, "--out", tmp_path / "out", "--only", "documents").code == 0
    out = tmp_path / "out" / "mini"
    assert json.loads((out / "manifest.json").read_text())["parts"]["documents"]["figures"] == ["cards.Explore"]
    texts = page_texts(out / BOOKLET)
    index = next(i for i, t in enumerate(texts) if "Front: Action cards: Explore" in t and "Back: Action cards" in t)
    raw = pdfium.PdfDocument(str(out / BOOKLET))[index].render(scale=1).to_pil().convert("RGB").tobytes()
    navy = (0x1e, 0x3a, 0x5f)  # card-back.svg.j2's ground
    close = sum(1 for i in range(0, len(raw), 3) if all(abs(raw[i + k] - navy[k]) < 12 for k in range(3)))
    assert close > 0.5 * 94 * 132  # the back is about 94 x 132 pt at 72 dpi, mostly navy

    chapter.write_text(chapter.read_text(encoding="utf-8") + "\n{{ figure('cards.Exploer') }}\n", encoding="utf-8")
    result = run_cli("build", "--data", kit, "--out", tmp_path / "out", "--only", "documents")
    assert result.code == 1 and re.search(r"rules/01-rules\.md:\d+: unknown figure 'cards\.Exploer'", result.err)


def test_a_swapped_picture_reaches_a_figure_that_shows_it(run_cli, tmp_path):
    """A tile's back shows art/hex.png: replacing the picture (same name, same SVG) must redraw the figure,
    the result being the booklet a build from nothing makes."""
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    chapter = kit / "rules" / "01-rules.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\n{{ figure('tiles.plains') }}\n", encoding="utf-8")
    build = ("build", "--data", kit, "--only", "documents")
    assert run_cli(*build, "--out", tmp_path / "out").code == 0
    before = (tmp_path / "out" / "mini" / BOOKLET).read_bytes()
    shutil.copyfile(kit / "art" / "red.png", kit / "art" / "hex.png")
    assert run_cli(*build, "--out", tmp_path / "out").code == 0
    after = (tmp_path / "out" / "mini" / BOOKLET).read_bytes()
    assert run_cli(*build, "--out", tmp_path / "fresh").code == 0
    assert after != before and after == (tmp_path / "fresh" / "mini" / BOOKLET).read_bytes()


def test_the_designed_covers_say_the_kit_from_its_data(built, default_kit):
    """kit.yaml `cover:`: the front names the kit, its players and version over a picture in the player
    colours; the back what the kit holds (counted from its tables), how to print it and the credits."""
    document = pdfium.PdfDocument(str(built / BOOKLET))
    front, back = (" ".join(document[i].get_textpage().get_text_range().split()) for i in (0, len(document) - 1))
    low, high = default_kit.players
    for words in (default_kit.title, default_kit.subtitle, "Rules booklet", f"For {low}–{high} players",
                  f"Kit version {default_kit.cover['version']}"):
        assert words in front
    units = sum(1 for p in default_kit.component_pieces if p.ref.startswith("units."))
    for words in ("In this kit", f"{units} × Units", "How to print", "counters-<colour>.pdf",
                  "booklet-imposed.pdf, double-sided", "Credits", "Board Game Arena"):
        assert words in back
    pixels = document[0].render(scale=30 / 72).to_pil().convert("RGB")  # 30 dpi
    w, h = pixels.size
    art = pixels.crop((int(w * 0.1), int(h * 0.08), int(w * 0.9), int(h * 0.5)))
    colours = art.getcolors(art.width * art.height)
    dark = sum(n for n, (r, g, b) in colours if r + g + b < 150)
    assert dark > 0.3 * art.width * art.height  # the sky
    for hexa in (c.print for c in default_kit.colours):  # hexes in each player colour
        want = tuple(int(hexa[i:i + 2], 16) for i in (1, 3, 5))
        assert any(sum(abs(a - b) for a, b in zip(rgb, want)) < 40 for _, rgb in colours), hexa
    words_band = pixels.crop((0, int(h * 0.62), w, h)).convert("L")
    assert min(words_band.get_flattened_data()) < 100 and sum(words_band.get_flattened_data()) / (words_band.width * words_band.height) > 200


def test_figure_art_is_kept_in_the_user_cache_not_the_output_folder(tmp_path, monkeypatch):
    """A build into a new output folder replays the figures an earlier build drew: their recorded calls are
    kept in the user's cache, one file per kit folder and document, not in OUT/.cache."""
    from types import SimpleNamespace

    from pnpgen.documents.make import figures_store
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    kit = SimpleNamespace(root=tmp_path / "kit", id="k")
    first, second = (figures_store(SimpleNamespace(kit=kit, cache_dir=tmp_path / out / ".cache"), "booklet")
                     for out in ("out-a", "out-b"))
    assert first == second and (tmp_path / "user") in first.parents
    assert figures_store(SimpleNamespace(kit=kit, cache_dir=tmp_path), "reference") != first


def test_a_paragraph_breaks_its_lines_once_per_width(monkeypatch):
    """The booklet's passes and its tables ask a paragraph for its lines again at the same width: they are
    broken once and handed back (the same lines, height and widths a fresh paragraph gets); a new width
    breaks them again."""
    from reportlab.lib.styles import ParagraphStyle

    from pnpgen.documents import paragraphs
    from pnpgen.fonts import BODY, register_reportlab_fonts
    register_reportlab_fonts()
    style = ParagraphStyle("t", fontName=BODY, fontSize=9, leading=11)
    text = "Each <b>ship</b> moves up to its speed, then fights " * 6
    broken = []
    from reportlab.platypus import Paragraph as PlainParagraph
    plain = PlainParagraph.breakLines
    monkeypatch.setattr(PlainParagraph, "breakLines",
                        lambda self, width: broken.append(width) or plain(self, width))
    kept = paragraphs.Paragraph(text, style, bulletText="•")
    first = kept.wrap(200, 500)
    assert kept.wrap(200, 500) == first and len(broken) == 1
    fresh = paragraphs.Paragraph(text, style, bulletText="•")
    assert fresh.wrap(200, 500) == first and fresh._wrapWidths == kept._wrapWidths
    assert [[word.text for word in line.words] for line in fresh.blPara.lines] == \
        [[word.text for word in line.words] for line in kept.blPara.lines]
    assert kept.wrap(150, 500) != first and len(broken) == 3
