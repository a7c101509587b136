"""The virtual duplex printer's kit builds, shared by the files that check them (tests/test_duplex_printer.py
and tests/test_duplex_kit_*.py): every kit builds its double-sided parts four times (Letter and A4, both flips)
into one output folder (the face caches carry over), and each build is checked as soon as it lands.

The four shipped kits take a file each (about a quarter of the suite's single longest file before): with
`--dist loadfile` one file runs on one worker, so one file of nine kit builds made one worker the suite's tail.
`kit_checks(names)` makes a module's fixture and tests for the kits named; `kit_checks(None)` takes every kit
no file names (a new kit is checked without anyone listing it)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from pnpgen.cli import main
from tests.duplex_printer import pdf_misfits

ROOT = Path(__file__).resolve().parent.parent
KITS = sorted(p for base in (ROOT / "data", ROOT / "tests" / "kits") for p in base.iterdir() if (p / "kit.yaml").is_file())
VARIANTS = [(paper, flip) for paper in ("letter", "a4") for flip in ("long", "short")]
DOUBLE_SIDED_PARTS = "components,cards,counters,calibration"
FLIP_WORDS = {"long": "long edge", "short": "short edge"}


def back_pages(manifest: dict) -> dict:
    """file -> the page numbers holding backs, from each part's own record of what it placed."""
    parts, pages = manifest.get("parts", {}), {}
    for row in parts.get("components", {}).get("placements", ()):
        if row["side"] == "back":
            pages.setdefault(row["file"], set()).add(row["page"])
    for row in parts.get("counters", {}).get("placements", ()):
        if row["face"] == "back":
            pages.setdefault(row["file"], set()).add(row["page"])
    cards = parts.get("cards", {})
    for entry in cards.get("cards", ()):
        pages.setdefault(cards["files"][0]["path"], set()).add(entry["back"]["page"])
    return pages


def fronts_with_backs(manifest: dict) -> dict:
    """file -> {front page: [has a back?] for each piece in placing order}: the components' pages may hold
    one-sided pieces beside two-sided ones (a back for a piece is on the next page, with its ref)."""
    rows = manifest.get("parts", {}).get("components", {}).get("placements", ())
    backs = {(r["file"], r["page"] - 1, r["ref"], r["colour"]) for r in rows if r["side"] == "back"}
    found: dict = {}
    for r in rows:
        if r["side"] == "front":
            found.setdefault(r["file"], {}).setdefault(r["page"], []).append(
                (r["file"], r["page"], r["ref"], r["colour"]) in backs)
    return found


def check_build(kit_out: Path, flip: str) -> dict:
    """What the virtual printer finds in one build: backs checked, misfits, and each two-sided file's first
    page text (for its flip note)."""
    manifest = json.loads((kit_out / "manifest.json").read_text(encoding="utf-8"))
    checked, bad, first_pages = 0, [], {}
    backed = fronts_with_backs(manifest)
    for name, backs in sorted(back_pages(manifest).items()):
        count, problems = pdf_misfits(kit_out / name, flip, sorted(backs), backed.get(name))
        checked, bad = checked + count, bad + problems
        first_pages[name] = PdfReader(str(kit_out / name)).pages[0].extract_text()
    cards = manifest.get("parts", {}).get("cards")
    if cards and cards["cards_per_sheet"] == 2:  # the cards fill the sheet: no margin to say it in, the manifest does
        first_pages[cards["files"][0]["path"]] = cards["duplex"]
    bare = [w for part in manifest.get("parts", {}).values() if isinstance(part, dict)
            for w in part.get("warnings", []) if "art runs to" in w]       # the home-bleed preflight's findings
    return {"checked": checked, "bad": bad, "first_pages": first_pages, "bare": bare,
            "calibration": (kit_out / "duplex-calibration.pdf").is_file()}


SEPARATE = ("4x-space-euro", "eclipse", "se4-board-game", "space-empires-4x")  # a file each: test_duplex_kit_*.py


def kit_checks(names: list[str] | None):
    """The module fixture `printed` for the kits `names` (None: every kit not in SEPARATE). A name no kit
    folder has fails the collection, so a renamed kit cannot drop out of the check unseen."""
    if names is None:
        kits = [kit for kit in KITS if kit.name not in SEPARATE]
    else:
        kits = [kit for kit in KITS if kit.name in names]
        assert sorted(names) == [kit.name for kit in kits] and set(names) <= set(SEPARATE), (names, KITS)
    return pytest.fixture(scope="module", params=kits, ids=lambda p: p.name)(printed_kit)


def printed_kit(request, tmp_path_factory, kit_build) -> dict:
    """(paper, flip) -> check_build's findings, for one kit. A bundled kit's own paper on the long edge is its
    full build (kit_build, tests/conftest.py: the same pages an `--only` build with those options makes), copied
    with its caches into this folder, where the other three variants are built."""
    kit, out, found = request.param, tmp_path_factory.mktemp("duplex"), {}
    own = None
    if kit.name in SEPARATE:
        own = (yaml.safe_load((kit / "kit.yaml").read_text(encoding="utf-8"))["paper"], "long")
        shutil.copytree(kit_build(kit.name).parent, out, dirs_exist_ok=True)
        found[own] = check_build(out / kit.name, "long")
    for paper, flip in VARIANTS:
        if (paper, flip) != own:
            assert main(["build", "--data", str(kit), "--out", str(out), "-q", "--only", DOUBLE_SIDED_PARTS,
                         "--paper", paper, "--duplex", flip]) == 0
            found[(paper, flip)] = check_build(out / kit.name, flip)
    return found


@pytest.mark.parametrize("paper,flip", VARIANTS)
def test_every_back_lands_on_its_front(printed, paper, flip):
    found = printed[(paper, flip)]
    assert not found["bad"], "\n".join(found["bad"][:20])


def test_every_two_sided_file_says_the_builds_one_flip_and_the_kit_has_a_calibration_sheet(printed, request):
    kit = request.node.callspec.params["printed"].name
    for (paper, flip), found in printed.items():
        for name, text in found["first_pages"].items():
            folded = " ".join(text.split())
            assert FLIP_WORDS[flip] in folded and FLIP_WORDS[{"long": "short", "short": "long"}[flip]] not in folded, \
                (kit, paper, name, folded[:300])
        assert found["calibration"] == bool(found["first_pages"]), (kit, paper, flip)
    if kit not in ("hexes", "realms"):  # the hex-map kits print nothing two-sided
        assert all(found["checked"] for found in printed.values()), kit


def test_every_shipped_kit_prints_with_bleed_wherever_its_art_meets_a_cut(printed, request):
    """The home-bleed preflight (pnpgen.render.home_bleed.bare_edges) finds nothing in the four kits, Letter
    or A4: each piece whose colour runs to its cut bleeds past it or meets a neighbour of the same colour."""
    kit = request.node.callspec.params["printed"]
    if kit.parent.name == "data":
        assert not [w for found in printed.values() for w in found["bare"]], kit.name


