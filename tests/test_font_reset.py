"""One process, several builds (`pnpgen serve`, `build --watch`, a fuzz run): a FreeType error in one build
(a template's 10^9 pt text) must not fail the texts of the next. cairo marks the face failed for good and the
text-measuring context keeps the error; pnpgen.render.font_reset makes both whole after a failed build.

The builds run in a process of their own: without the fix, the test process's cairo would stay broken."""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

from tests.test_components import MINI

SCRIPT = textwrap.dedent('''
    import contextlib, io, sys
    from pathlib import Path
    import pypdfium2 as pdfium
    from pnpgen.cli import main

    kit, out = Path(sys.argv[1]), Path(sys.argv[2])
    back = kit / "templates" / "card-back.svg.j2"
    good = back.read_text(encoding="utf-8")

    def build(extra):
        back.write_text(good + extra, encoding="utf-8")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["build", "--data", str(kit), "--out", str(out), "-q", "--only", "components"])
        print(code, err.getvalue().strip().replace("\\n", " | "))

    text = '<text x="12" y="20" font-family="DejaVu Sans" font-size="{}" fill="#ffffff">{}</text>\\n'
    build("")                                           # faces drawn: cairo's DejaVu Sans face in use
    build(text.format(1000000000, "x"))                 # FreeType refuses the size: a located error
    build(text.format(4.321, "Mended"))                 # fixed, at a size this process never drew
    pages = pdfium.PdfDocument(str(out / "mini" / "cards.pdf"))
    print("Mended" in "".join(page.get_textpage().get_text_range() for page in pages))
''')


def test_a_freetype_error_does_not_outlive_its_build(tmp_path):
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(kit), str(tmp_path / "out")], capture_output=True,
                         text=True, timeout=180)
    lines = run.stdout.strip().splitlines()
    assert run.returncode == 0 and len(lines) == 4, run.stdout + run.stderr
    assert lines[0] == "0 ", lines[0]
    assert lines[1].startswith("1 error: ") and "FREETYPE" in lines[1] and "cards.yaml:" in lines[1], lines[1]
    assert lines[2] == "0 ", lines[2]            # was: the same FreeType error, for a template now fixed
    assert lines[3] == "True", lines             # the mended text is on the backs


def test_a_failed_watch_build_makes_the_fonts_whole(monkeypatch):
    """`build --watch` and `pnpgen serve` go through watch._attempt: a failed build there resets too."""
    import io

    from pnpgen import watch
    from pnpgen.problems import BuildError
    from pnpgen.render import font_reset
    calls = []
    monkeypatch.setattr(font_reset, "forget_failed_fonts", lambda: calls.append("reset"))

    def failing():
        raise BuildError("cards.yaml:3: cannot draw the SVG")

    watch._attempt(failing, io.StringIO())
    watch._attempt(lambda: "1 file", io.StringIO())
    assert calls == ["reset"]
