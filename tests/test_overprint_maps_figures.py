"""The overprint preflight on hex maps and booklet figures: a kit's own `map` template that prints text over
text, or a line across text, stops the build, located (the map's file, its id, the template), and the last
good build stays; so does a figure whose art overprints (named by the chapter that places it)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnpgen.cli import main

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "kits" / "mini"
TITLE_TEXT = "{% for r in regions %}"
STRAY = {  # what a careless template edit adds just before the regions: over the map's title
    "text": '<text x="{{ board.title_at[0] + 4 }}" y="{{ board.title_at[1] + 18 }}" font-family="{{ font }}" '
            'font-size="12" fill="#1a1a1a">Stray words</text>',
    "line": '<path d="M{{ board.title_at[0] }},{{ board.title_at[1] + 10 }} l 200,0" stroke="#1a1a1a" '
            'stroke-width="1"/>',
}


@pytest.fixture
def map_kit(tmp_path) -> Path:
    """The mini kit with a small hex map and its own copy of the built-in map template."""
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    (kit / "maps").mkdir()
    (kit / "maps" / "island.yaml").write_text("legend: {'.': off-map, s: sea}\nrows: ['s s s', 's s s']\n",
                                              encoding="utf-8")
    shutil.copy(ROOT / "templates" / "map.svg.j2", kit / "templates" / "map.svg.j2")
    return kit


def _build(kit: Path, out: Path, capsys, part: str = "maps") -> tuple[int, str]:
    capsys.readouterr()
    code = main(["build", "--data", str(kit), "--out", str(out), "--only", part, "-q"])
    captured = capsys.readouterr()
    return code, captured.err + captured.out


@pytest.mark.parametrize("stray", ["text", "line"])
def test_a_map_template_that_overprints_its_title_stops_the_build(map_kit, tmp_path, capsys, stray):
    out = tmp_path / "out"
    code, said = _build(map_kit, out, capsys)
    assert code == 0, said
    poster = out / "mini" / "maps" / "island-poster.pdf"
    good = poster.read_bytes()
    template = map_kit / "templates" / "map.svg.j2"
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace(TITLE_TEXT, STRAY[stray] + "\n" + TITLE_TEXT, 1), encoding="utf-8")
    code, said = _build(map_kit, out, capsys)
    assert code == 1 and "Traceback" not in said, said
    line = next(line for line in said.splitlines() if "island.yaml" in line)
    assert "map island: map.svg.j2: text 'Mini Test Kit: island'" in line, said
    assert ("overprints text 'Stray words'" if stray == "text" else "is crossed by a line") in line, said
    assert poster.read_bytes() == good  # the last good build stays


def test_a_booklet_figure_whose_art_overprints_stops_the_build(tmp_path, capsys):
    kit, out = tmp_path / "mini", tmp_path / "out"
    shutil.copytree(MINI, kit)
    with open(kit / "rules" / "01-rules.md", "a", encoding="utf-8") as handle:
        handle.write("\n{{ figure('cards.Explore') }}\n")
    code, said = _build(kit, out, capsys, "documents")
    assert code == 0, said
    good = (out / "mini" / "booklet.pdf").read_bytes()
    with open(kit / "templates" / "card-front.svg.j2", "a", encoding="utf-8") as handle:
        handle.write('{{ p.text("Stray words", 8, 12, pt(12), "#1a1a1a") }}\n')
    code, said = _build(kit, out, capsys, "documents")
    assert code == 1 and "Traceback" not in said, said
    assert "01-rules.md: figure cards.Explore (Explore): text 'Explore' overprints text 'Stray words'" in said, said
    assert (out / "mini" / "booklet.pdf").read_bytes() == good
