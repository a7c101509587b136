"""`--counter-size` serves every kit: every square table (Space Empires 4X's counters, a kit's chits), printed
at that size with the shape kept; `--piece-size TABLE=SIZE` still wins for the table it names. Read back
from the manifest and the PDF page (mini kit: square chits, hexes, circles, cards)."""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pnpgen.cli import main

MINI = Path(__file__).parent / "kits" / "mini"
MM = 72 / 25.4


def built_tables(out: Path) -> tuple[dict, list]:
    part = json.loads((out / "mini" / "manifest.json").read_text())["parts"]["components"]
    return part["tables"], part["placements"]


def test_counter_size_resizes_every_square_table_and_nothing_else(tmp_path):
    assert main(["build", "--data", str(MINI), "--out", str(tmp_path / "a"), "--only", "components", "-q"]) == 0
    plain, _ = built_tables(tmp_path / "a")
    assert main(["build", "--data", str(MINI), "--out", str(tmp_path / "b"), "--only", "components", "-q",
                 "--counter-size", "16mm"]) == 0
    tables, placements = built_tables(tmp_path / "b")
    assert (tables["chits"]["w"], tables["chits"]["h"]) == (pytest.approx(16 * MM, abs=0.01),) * 2
    assert plain["chits"]["w"] == pytest.approx(36.0)   # 1/2 in as the table says
    for other in ("cards", "tiles", "tokens"):          # rects, hexes and circles keep their own size
        assert (tables[other]["w"], tables[other]["h"]) == (plain[other]["w"], plain[other]["h"])
    chits = [p for p in placements if p["file"] == "chits.pdf"]
    assert chits and {(p["w"], p["h"], p["shape"]) for p in chits} == {(round(16 * MM, 3), round(16 * MM, 3), "square")}
    page = pdfium.PdfDocument(str(tmp_path / "b" / "mini" / "chits.pdf"))[0]
    assert page.get_size() == pytest.approx((612, 792), abs=0.5) or page.get_size() == pytest.approx((792, 612), abs=0.5)


def test_piece_size_wins_over_counter_size_and_bad_sizes_are_refused(tmp_path, capsys):
    assert main(["build", "--data", str(MINI), "--out", str(tmp_path / "c"), "--only", "components", "-q",
                 "--counter-size", "16mm", "--piece-size", "chits=20mm"]) == 0
    tables, _ = built_tables(tmp_path / "c")
    assert tables["chits"]["w"] == pytest.approx(20 * MM, abs=0.01)
    assert main(["build", "--data", str(MINI), "--out", str(tmp_path / "d"), "--counter-size", "9in", "-q"]) == 2
    assert "--counter-size must be between 5mm and 3in" in capsys.readouterr().err
    assert not (tmp_path / "d" / "mini").exists()
