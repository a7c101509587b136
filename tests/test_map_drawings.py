"""The maps' and boards' drawings kept in the user's cache (pnpgen.maps.drawings): a build into a new output
folder replays them (no template rendered, no SVG read) and prints the same bytes; an edit to a kit's template
shows in the next build; a store not sealed by this user's pnpgen is never replayed."""
from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.cli import main
from pnpgen.render import svg_ops, templates

KITS = Path(__file__).parent / "kits"
BUILT_IN = Path(__file__).parent.parent / "templates"
MARK = '<text x="{x}" y="{y}" font-family="DejaVu Sans" font-size="{size}" fill="{fill}">EDITED HERE</text>'
CASES = {"maps": ("hexes", "map", "island-poster.pdf", dict(x=27, y=14, size=8, fill="#000000")),   # points, above the title
         "boards": ("mini", "board", "board-poster.pdf", dict(x=200, y=205, size=5, fill="#ffffff"))}  # mm, in a
# clear corner of the dark board (the preflight finds a mark on a line or too faint, as it should)


@pytest.mark.parametrize("part", sorted(CASES))
def test_a_new_output_folder_replays_the_drawings_and_a_template_edit_shows(part, tmp_path, monkeypatch):
    name, template, poster, mark = CASES[part]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    kit = tmp_path / name
    shutil.copytree(KITS / name, kit)
    recorded, record, environment = [], svg_ops.record, templates.template_env
    monkeypatch.setattr(svg_ops, "record", lambda *a, **k: recorded.append(1) or record(*a, **k))
    monkeypatch.setattr(templates, "template_env", lambda *a: recorded.append(2) or environment(*a))

    def build(out: str) -> dict:
        assert main(["build", "--data", str(kit), "--out", str(tmp_path / out), "-q", "--only", part]) == 0
        return {p.name: p.read_bytes() for p in (tmp_path / out).rglob("*.pdf") if ".cache" not in p.parts}
    first = build("first")
    assert recorded and len(first) == 2
    recorded.clear()
    assert build("second") == first and recorded == []   # every drawing replayed: no template, no SVG read
    for store in (tmp_path / "user-cache").rglob("board-drawings/*"):
        store.write_bytes(b"not sealed")
    assert build("third") == first and recorded   # not this user's pnpgen's: drawn again, the same bytes
    (kit / "templates").mkdir(exist_ok=True)
    source = (BUILT_IN / f"{template}.svg.j2").read_text(encoding="utf-8").rstrip()
    whole = source.endswith("</svg>")   # a map's template writes the whole SVG, a board's its content
    (kit / "templates" / f"{template}.svg.j2").write_text(
        source.removesuffix("</svg>") + MARK.format(**mark) + ("\n</svg>" if whole else "\n"), encoding="utf-8")
    edited = build("second")
    assert edited[poster] != first[poster]
    assert "EDITED HERE" in PdfReader(io.BytesIO(edited[poster])).pages[0].extract_text()


def test_an_entry_or_a_tiling_not_as_this_code_keeps_them_is_worked_out_again(tmp_path):
    """A sealed file holds what this code wrote; anything else in it (an older shape) is never used."""
    from pnpgen.maps.drawings import Entries, tiling
    from pnpgen.maps.tiling import plan_tiles
    entries = Entries(tmp_path / "entries.json", "salt")
    entries.put("good", {"art": "k", "warnings": [], "pages": ["p"]})
    entries.put("bad", {"art": 3, "warnings": []})
    entries.save()
    kept = Entries(tmp_path / "entries.json", "salt")
    assert kept.get("good") == {"art": "k", "warnings": [], "pages": ["p"]} and kept.get("bad") == {}
    assert Entries(tmp_path / "entries.json", "other salt").get("good") == {}
    plan = plan_tiles(1000, 1300, "letter")
    planned = (plan, ["a cut"])
    assert tiling({"tiles": [*plan.choice, ["a cut"]]}, (1000, 1300), "letter", lambda: None) == planned
    for kept_tiles in (None, ["yes", [[0.0]], [0.0], []], [True, "cols", [0.0], []], [True]):
        assert tiling({"tiles": kept_tiles}, (1000, 1300), "letter", lambda: planned) is planned
