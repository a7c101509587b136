"""A kit's own fonts (issues 35 and 40): only checked copies of the `.ttf` and `.otf` files the kit reader lets
through reach fontconfig and reportlab; which font a family name means depends on the kit being built, never on
what the process drew before; the studio's pictures are drawn in the kit's fonts, as the PDFs are.

The fonts are renamed subsets of the shipped DejaVu fonts made with fontTools (tests/font_helpers.py). Builds
that must not share a process with the test's own cairo run in a subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pnpgen.cli import main
from tests.conftest import edit
from tests.font_helpers import font_bytes, pdf_fonts, renamed_subset, subroutine_bomb, write_font

ROOT = Path(__file__).resolve().parent.parent


def font_kit(folder: Path, source: str = "DejaVuSans.ttf", family: str = "Test Sans") -> Path:
    """The blank kit whose cards set their title (p.text) and text (textbox) in the kit's `family`, made from
    the shipped `source`."""
    assert main(["new", "--blank", str(folder)]) == 0
    write_font(folder / "fonts" / "TestSans-Regular.ttf", source, family)
    front = folder / "templates" / "card-front.svg.j2"
    edit(front, "min_size=7)", f'min_size=7, family="{family}")')
    edit(front, "bold=True) }}", f'bold=False, family="{family}") }}}}')
    return folder


def _run(script: str, *args, timeout: int = 120) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(script), *map(str, args)], capture_output=True,
                         text=True, timeout=timeout, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout.strip().splitlines()


BUILD = '''
    import sys
    from pnpgen.cli import main
    out = sys.argv[1]
    for kit in sys.argv[2:]:
        print(main(["build", "--data", kit, "--out", out, "--only", "components", "-q"]))
'''


def embedded_widths(pdf: Path) -> dict:
    """BaseFont (subset tag dropped) -> its /Widths, for every font of every page and form of a PDF."""
    return {name.split("+")[-1]: [float(w) for w in font.get("/Widths", [])] for name, font in pdf_fonts(pdf).items()}


def test_two_kits_with_the_same_family_names_each_draw_their_own(tmp_path):
    """Kit A's 'Test Sans' is DejaVu Sans, kit B's DejaVu Sans Condensed: built one after the other in one
    process (as `serve` or `--watch` would), B's cards are the bytes B builds alone, in B's font."""
    a = font_kit(tmp_path / "kit-a")
    b = font_kit(tmp_path / "kit-b", "DejaVuSansCondensed.ttf")
    assert _run(BUILD, tmp_path / "together", a, b) == ["0", "0"]
    assert _run(BUILD, tmp_path / "alone", b) == ["0"]
    together, alone = (tmp_path / out / "kit-b" / "cards.pdf" for out in ("together", "alone"))
    assert together.read_bytes() == alone.read_bytes()
    widths_a = embedded_widths(tmp_path / "together" / "kit-a" / "cards.pdf")["TestSans"]
    widths_b = embedded_widths(together)["TestSans"]
    assert sum(widths_b) < 0.95 * sum(widths_a), (widths_a, widths_b)   # condensed: B's own font, not A's


STUDIO = '''
    import json, sys
    from pathlib import Path
    from pnpgen.cli import command_parser
    from pnpgen.cli_common import build_options, load_quietly
    from pnpgen.studio.session import Studio
    from pnpgen.studio.state import StudioState
    args = command_parser().parse_args(["serve", "--data", sys.argv[1], "--out", sys.argv[2], "--only", "components"])
    state = StudioState()
    studio = Studio(state, lambda **how: load_quietly(args, Path(sys.argv[1]), **how), build_options(args))
    print(studio.attempt())
    piece = next(p for p in state.view["pieces"] if p["ref"] == sys.argv[3])
    Path(sys.argv[4]).write_bytes(state.pictures.get(piece["front"]))
'''


def test_a_studio_picture_at_start_is_drawn_in_the_kit_font(tmp_path):
    """The studio's first attempt draws the pieces' pictures before the build: they show the kit's font, as
    the built PDF does (was: DejaVu Sans, with line breaks measured for the kit's font)."""
    from PIL import Image, ImageChops, ImageStat
    import pypdfium2

    from pnpgen.studio.pictures import FACE_DPI
    kit = font_kit(tmp_path / "kit-b", "DejaVuSansCondensed.ttf")
    picture = tmp_path / "explore.png"
    _run(STUDIO, kit, tmp_path / "out", "cards.Explore", picture)
    manifest = json.loads((tmp_path / "out" / "kit-b" / "manifest.json").read_text())
    spot = next(p for p in manifest["parts"]["components"]["placements"]
                if p["ref"] == "cards.Explore" and p["side"] == "front")
    scale = FACE_DPI / 72
    page = pypdfium2.PdfDocument(str(tmp_path / "out" / "kit-b" / spot["file"]))[spot["page"] - 1]
    sheet = page.render(scale=scale).to_pil().convert("RGB")
    printed = sheet.crop([round(v * scale) for v in (spot["x"], spot["y"], spot["x"] + spot["w"], spot["y"] + spot["h"])])
    shown = Image.open(picture).convert("RGB")
    assert abs(shown.width - printed.width) <= 2 and abs(shown.height - printed.height) <= 2
    inset = 12   # the cut edge anti-aliased differently: compare inside it, at the best whole-pixel offset
    inner = printed.crop((inset, inset, printed.width - inset, printed.height - inset))
    distance = min(max(ImageStat.Stat(ImageChops.difference(inner, shown.crop(
        (inset + dx, inset + dy, inset + dx + inner.width, inset + dy + inner.height)))).mean)
        for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    assert distance < 3, distance   # DejaVu Sans where the PDF has the kit's condensed font: 7


# Fonts through the fence (issue 40) ---------------------------------------------------------------------------

def test_only_the_kit_readers_font_files_reach_the_renderers(tmp_path):
    """A folder linked in from outside and an outside bold font linked as a `.pfb` (a kind pnpgen skips) were
    scanned by fontconfig and the outside bold embedded; a FIFO hung the build. Now none of them is read:
    the cards print in the kit's regular file, the `.pfb` is said to be skipped, the FIFO never opened."""
    kit = font_kit(tmp_path / "kit")
    outside = tmp_path / "outside"
    write_font(outside / "Outside-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "Test Sans", "Bold")
    write_font(outside / "Other.ttf", "DejaVuSans.ttf", "Out Sans")
    (kit / "fonts" / "extra").symlink_to(outside)
    (kit / "fonts" / "TestSans-Bold.pfb").symlink_to(outside / "Outside-Bold.ttf")
    os.mkfifo(kit / "fonts" / "pipe")
    edit(kit / "templates" / "card-front.svg.j2", 'bold=False, family="Test Sans")', 'bold=True, family="Test Sans")')
    assert _run(BUILD, tmp_path / "out", kit, timeout=60) == ["0"]   # the FIFO hung the build
    fonts = embedded_widths(tmp_path / "out" / "kit" / "cards.pdf")
    assert "TestSans" in fonts and "TestSans-Bold" not in fonts, fonts   # the outside bold never embedded


@pytest.mark.parametrize("make, words", [
    (lambda p: os.mkfifo(p), "is a FIFO (named pipe), not a regular file"),
    (lambda p: p.symlink_to(p.parent.parent.parent / "outside.ttf"), "links to a file outside the kit folder"),
    (lambda p: p.write_bytes(subroutine_bomb()), "its glyphs take more than 1,000,000 steps to draw"),
])
def test_a_font_that_is_no_plain_font_file_is_a_located_error_within_seconds(tmp_path, make, words):
    """A FIFO, a link out and a CFF subroutine bomb (fan ** levels calls for one glyph: 1.7 GB and two
    minutes in the renderers) each end validate within seconds, at the font's file."""
    kit = font_kit(tmp_path / "kit")
    (tmp_path / "outside.ttf").write_bytes(font_bytes(renamed_subset("DejaVuSans.ttf", "Out Sans")))
    make(kit / "fonts" / "Bad.otf")
    before = _children_cpu()
    run = subprocess.run([sys.executable, "-m", "pnpgen", "validate", "--data", str(kit)], capture_output=True,
                         text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))   # a FIFO hung it
    assert run.returncode == 1 and f"fonts/Bad.otf: {words}" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and _children_cpu() - before < 10   # CPU: the machine may be busy


def _children_cpu() -> float:
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# A face the kit's fonts do not have (issue 35) ------------------------------------------------------------------

def styled_kit(folder: Path) -> Path:
    """Test Sans in three files: a Regular (TrueType, Latin-1 and Latin Extended-A: it covers English), an
    Italic (TrueType) and a Bold with PostScript outlines holding ASCII only (as Debian's EB Garamond Bold,
    127 glyphs). The cards' titles are bold, their texts italic."""
    kit = font_kit(folder)
    write_font(kit / "fonts" / "TestSans-Regular.ttf", "DejaVuSans.ttf", "Test Sans", unicodes=range(0x20, 0x180))
    write_font(kit / "fonts" / "TestSans-Italic.ttf", "DejaVuSans-Oblique.ttf", "Test Sans", "Italic",
               unicodes=range(0x20, 0x180))
    write_font(kit / "fonts" / "TestSans-Bold.otf", "DejaVuSans-Bold.ttf", "Test Sans", "Bold", cff=True,
               unicodes=range(0x20, 0x7F))
    front = kit / "templates" / "card-front.svg.j2"
    edit(front, 'bold=False, family="Test Sans")', 'bold=True, family="Test Sans")')
    edit(front, "{{ textbox(", '<g font-style="italic">{{ textbox(')
    edit(front, 'min_size=7, family="Test Sans") }}', 'min_size=7, family="Test Sans") }}</g>')
    return kit


def test_a_bold_file_fontconfig_passes_over_is_a_warning_naming_the_face_printed(tmp_path, run_cli):
    """fontconfig prefers a font covering the text's language over the weight asked for: the ASCII-only Bold
    was passed over for the Regular without a word. Now a located warning says so (an error with --strict);
    the italic text prints in the kit's Italic, and the PDF embeds what the warning says."""
    kit = styled_kit(tmp_path / "kit")
    result = run_cli("build", "--data", kit, "--out", tmp_path / "out", "--only", "components")
    assert result.code == 0, result.err
    bold = ("card-front.svg.j2: the text asks for 'Test Sans' bold, but {0}/fonts/TestSans-Bold.otf holds only 97 "
            "characters, too few to cover a language, so fontconfig passes over it: it prints in "
            "{0}/fonts/TestSans-Regular.ttf (regular)").format(kit)
    bold_italic = ("cards row Build: card-front.svg.j2: the text asks for 'Test Sans' bold italic, but the kit's "
                   f"fonts/ has no bold italic file of it: it prints in {kit}/fonts/TestSans-Italic.ttf (italic)")
    assert result.err.count(bold) == 1 and "cards.yaml:14: cards row Explore: " + bold in result.err, result.err
    assert result.err.count(bold_italic) == 1, result.err   # '**2**' in the italic text, once for all rows
    fonts = embedded_widths(tmp_path / "out" / "kit" / "cards.pdf")
    assert {"TestSans", "TestSans-Italic"} <= set(fonts) and "TestSans-Bold" not in fonts, fonts
    strict = run_cli("build", "--strict", "--data", kit, "--out", tmp_path / "strict", "--only", "components")
    assert strict.code == 1 and bold in strict.err, strict.err


# Kit fonts on boards and hex maps (issue 35) --------------------------------------------------------------------

def test_boards_and_hex_maps_print_in_the_kits_boards_font(tmp_path):
    """kit.yaml `fonts: {boards: Test Sans}`: a board's places, tracks and texts and a hex map's title,
    coordinates and legend print in the kit's font (were DejaVu only); the tiles' furniture stays DejaVu."""
    import shutil
    board_kit = font_kit(tmp_path / "board-kit")
    hex_kit = tmp_path / "hexes"
    shutil.copytree(ROOT / "tests" / "kits" / "hexes", hex_kit)
    write_font(hex_kit / "fonts" / "TestSans-Regular.ttf", "DejaVuSans.ttf", "Test Sans")
    for kit in (board_kit, hex_kit):
        write_font(kit / "fonts" / "TestSans-Bold.ttf", "DejaVuSans-Bold.ttf", "Test Sans", "Bold")
        with (kit / "kit.yaml").open("a", encoding="utf-8") as kit_file:
            kit_file.write("fonts:\n  boards: Test Sans\n")
    out = tmp_path / "out"
    assert main(["build", "--data", str(board_kit), "--out", str(out), "--only", "boards", "-q"]) == 0
    assert main(["build", "--data", str(hex_kit), "--out", str(out), "--only", "maps", "-q"]) == 0
    poster = next((out / "board-kit" / "boards").glob("*-poster.pdf"))
    assert set(embedded_widths(poster)) == {"TestSans", "TestSans-Bold"}, embedded_widths(poster)
    hex_map = next(p for p in (out / "hexes").rglob("*.pdf") if "tiles" not in p.name)
    fonts = embedded_widths(hex_map)
    assert "TestSans" in fonts and "TestSans-Bold" in fonts and "DejaVuSansCondensed" not in fonts, (hex_map, fonts)


def test_a_font_answers_to_the_family_the_system_lists_first_and_to_its_legacy_name(tmp_path, run_cli):
    """Debian's EB Garamond holds two family names: 'EB Garamond' (typographic, what `fc-list` shows first) and
    'EB Garamond 12' (legacy). pnpgen took only the second: a designer writing the first got 'no font of the
    family'. Both now print in the font, and the name shown in messages is the one fc-list shows first."""
    from pnpgen.font_names import families, font_names
    kit = font_kit(tmp_path / "kit", family="Garamond Test 12")
    path = kit / "fonts" / "TestSans-Regular.ttf"
    font = renamed_subset("DejaVuSans.ttf", "Garamond Test 12")
    font["name"].setName("Garamond Test", 16, 3, 1, 0x409)
    font["name"].setName("Regular", 17, 3, 1, 0x409)
    path.write_bytes(font_bytes(font))
    assert families(font_names(path.read_bytes())) == ["Garamond Test", "Garamond Test 12"]
    edit(kit / "templates" / "card-front.svg.j2", 'bold=False, family="Garamond Test 12")',
         'bold=False, family="Garamond Test")')
    with (kit / "kit.yaml").open("a", encoding="utf-8") as kit_file:
        kit_file.write("fonts:\n  boards: Garamond Test 12\n")
    out = tmp_path / "out"
    assert main(["build", "--data", str(kit), "--out", str(out), "--only", "components,boards", "-q"]) == 0
    assert set(embedded_widths(out / "kit" / "cards.pdf")) >= {"GaramondTest12"}
    assert set(embedded_widths(next((out / "kit" / "boards").glob("*-poster.pdf")))) == {"GaramondTest12"}
    edit(kit / "templates" / "card-front.svg.j2", 'family="Garamond Test")', 'family="Garamond Tst")')
    result = run_cli("validate", "--data", kit)
    assert result.code == 1 and "no font of the family 'Garamond Tst' (did you mean 'Garamond Test'?" in result.err


def test_a_font_file_changed_under_the_same_family_draws_the_board_anew(tmp_path):
    """The boards' and maps' output caches were keyed by their SVG only: a kit font replaced by another file of
    the same family kept the old PDFs."""
    kit = font_kit(tmp_path / "kit")
    with (kit / "kit.yaml").open("a", encoding="utf-8") as kit_file:
        kit_file.write("fonts:\n  boards: Test Sans\n")
    out = tmp_path / "out"
    assert _run(BUILD.replace('"components"', '"boards"'), out, kit) == ["0"]
    poster = next((out / "kit" / "boards").glob("*-poster.pdf"))
    before = embedded_widths(poster)["TestSans"]
    write_font(kit / "fonts" / "TestSans-Regular.ttf", "DejaVuSansCondensed.ttf", "Test Sans")
    assert _run(BUILD.replace('"components"', '"boards"'), out, kit) == ["0"]
    assert sum(embedded_widths(poster)["TestSans"]) < 0.95 * sum(before)


def test_boards_and_maps_say_which_face_a_style_the_kit_lacks_prints_in(tmp_path, run_cli):
    """Test Sans with a Regular file only, named for boards: a board's and a hex map's bold texts print in
    the Regular. Each is a located warning naming the face it got, once (were silent: only piece faces said
    so); --strict refuses."""
    import shutil
    board_kit = font_kit(tmp_path / "board-kit")
    hex_kit = tmp_path / "hexes"
    shutil.copytree(ROOT / "tests" / "kits" / "hexes", hex_kit)
    write_font(hex_kit / "fonts" / "TestSans-Regular.ttf", "DejaVuSans.ttf", "Test Sans")
    for kit in (board_kit, hex_kit):
        with (kit / "kit.yaml").open("a", encoding="utf-8") as kit_file:
            kit_file.write("fonts:\n  boards: Test Sans\n")
    regular = "but the kit's fonts/ has no bold file of it: it prints in {0}/fonts/TestSans-Regular.ttf (regular)"
    boards = run_cli("build", "--data", board_kit, "--out", tmp_path / "out", "--only", "boards")
    said = "boards/board.yaml: board board: board.svg.j2: the text asks for 'Test Sans' bold, " + regular.format(board_kit)
    assert boards.code == 0 and boards.err.count(said) == 1, boards.err
    maps = run_cli("build", "--data", hex_kit, "--out", tmp_path / "out", "--only", "maps")
    said = "map.svg.j2: the text asks for 'Test Sans' bold, " + regular.format(hex_kit)
    assert maps.code == 0 and maps.err.count(said) == 1 and ": map " in maps.err, maps.err
    strict = run_cli("build", "--strict", "--data", hex_kit, "--out", tmp_path / "strict", "--only", "maps")
    assert strict.code == 1 and said in strict.err, strict.err
