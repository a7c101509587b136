"""Goldens: the default kit built fresh must match `tests/golden/space-empires-4x/` (written by `make golden`):
the normalised manifest, every page's text, page counts and sizes, and every page's pixels at 18 dpi.

They guard the output while the code is refactored. When a change to the output is intended, run
`make golden`, look at the diff of the goldens (text.json, the PNGs) and commit them with the change.
On a pixel failure the new render, the golden one and an amplified diff are written to a temp folder.
"""
from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageOps

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("pnpgen_golden", ROOT / "scripts" / "golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

GOLDEN = golden.GOLDEN

# Pixel tolerance in grey levels (0-255) at 18 dpi (one pixel is 4 pt). Two fresh builds render identically
# (difference 0), so the limits only absorb numerical noise from a refactor: moving every counter back by
# 0.0014 pt changes any page by at most 3 levels, mean 0.009. They are tight because greyscale at 18 dpi
# hides small changes: a template's nebula fill two shades darker moves 227 pixels by up to 9 levels (mean
# 0.04); a red one grey level darker, mean 0.20; a changed digit on a counter, single pixels by about 20.
# Layout drift of 0.006 pt or more fails (pdfium snaps hairlines and glyphs: single pixels flip by ~30),
# but such drift also shows in the manifest's coordinates.
MEAN_LIMIT = 0.05     # mean absolute difference over the page must stay below this
PIXEL_LIMIT = 6       # no single pixel may differ by more than this
SHOWN = 12            # differences listed in one failure message


MISSING = f"no goldens in {GOLDEN.relative_to(ROOT)}: run make golden"


@pytest.fixture(scope="module")
def goldens() -> dict | None:
    """The stored goldens, or None when they are missing (each test then fails with MISSING)."""
    if not (GOLDEN / "manifest.json").is_file() or not (GOLDEN / "text.json").is_file() \
            or not (GOLDEN / "pixels").is_dir():
        return None
    return {"manifest": json.loads((GOLDEN / "manifest.json").read_text(encoding="utf-8")),
            "text": json.loads((GOLDEN / "text.json").read_text(encoding="utf-8")),
            "pixels": sorted(p.name for p in (GOLDEN / "pixels").glob("*.png"))}


@pytest.fixture(scope="module")
def fresh(goldens, tmp_path_factory, request) -> dict | None:
    """The default kit built fresh (empty output folder and cache), read back like the goldens: the session's
    build (tests/conftest.py's default_kit_build: `pnpgen build --out EMPTY --quiet`, as `make golden` builds).

    PNPGEN_GOLDEN_DATA=FOLDER builds that kit folder instead: to check that a deliberate change to a copy
    of the kit makes these tests fail."""
    if goldens is None:
        return None  # nothing to compare with: no need to build
    data = os.environ.get("PNPGEN_GOLDEN_DATA")
    if not data:
        return golden.snapshot(request.getfixturevalue("default_kit_build"), golden.DEFAULT_KIT_DIR)
    return golden.snapshot(golden.build(tmp_path_factory.mktemp("golden") / "out", Path(data)), Path(data))


_failures: list[Path] = []


def require(goldens) -> None:
    if goldens is None:
        pytest.fail(MISSING, pytrace=False)


def failure_folder() -> Path:
    """One temp folder per run for the new renders of failing pages (kept for you to look at)."""
    if not _failures:
        _failures.append(Path(tempfile.mkdtemp(prefix="pnpgen-golden-failures-")))
    return _failures[0]


def shorten(items: list[str]) -> str:
    shown = "\n".join(f"  {item}" for item in items[:SHOWN])
    rest = f"\n  ... and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return shown + rest


def json_differences(old, new, path: str = "manifest") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        found = [f"{path}.{k}: only in the golden" for k in old.keys() - new.keys()]
        found += [f"{path}.{k}: new, not in the golden" for k in new.keys() - old.keys()]
        for k in sorted(old.keys() & new.keys()):
            found += json_differences(old[k], new[k], f"{path}.{k}")
        return found
    if isinstance(old, list) and isinstance(new, list):
        found = [] if len(old) == len(new) else [f"{path}: {len(old)} items in the golden, {len(new)} now"]
        for i, (a, b) in enumerate(zip(old, new)):
            found += json_differences(a, b, f"{path}[{i}]")
        return found
    return [] if old == new else [f"{path}: golden {json.dumps(old)[:80]}, now {json.dumps(new)[:80]}"]


def test_manifest_matches(goldens, fresh):
    require(goldens)
    differences = json_differences(goldens["manifest"], fresh["manifest"])
    if differences:
        new = failure_folder() / "manifest.json"
        new.write_text(golden.dump_json(fresh["manifest"]), encoding="utf-8")
        pytest.fail(f"manifest.json differs from the golden in {len(differences)} place(s) "
                    f"(new one: {new}):\n{shorten(differences)}", pytrace=False)


def test_same_pdfs_pages_and_page_sizes(goldens, fresh):
    require(goldens)
    old, new = goldens["text"], fresh["text"]
    problems = [f"{pdf}: in the golden, not built" for pdf in sorted(old.keys() - new.keys())]
    problems += [f"{pdf}: built, not in the golden" for pdf in sorted(new.keys() - old.keys())]
    for pdf in sorted(old.keys() & new.keys()):
        if old[pdf]["pages"] != new[pdf]["pages"]:
            problems.append(f"{pdf}: {new[pdf]['pages']} pages, golden {old[pdf]['pages']}")
        for page, (a, b) in enumerate(zip(old[pdf]["sizes"], new[pdf]["sizes"]), start=1):
            if a != b:
                problems.append(f"{pdf} page {page}: {b[0]} x {b[1]} pt, golden {a[0]} x {a[1]} pt")
    assert not problems, "PDFs, page counts or sizes differ from the goldens:\n" + shorten(problems)


def first_difference(old: str, new: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    start = max(0, at - 30)
    return f"golden ...{old[start:at + 40]!r}... now ...{new[start:at + 40]!r}..."


def test_page_text_matches(goldens, fresh):
    require(goldens)
    problems = []
    for pdf, old in sorted(goldens["text"].items()):
        new = fresh["text"].get(pdf)
        if new is None:
            continue  # reported by test_same_pdfs_pages_and_page_sizes
        for page, (a, b) in enumerate(zip(old["text"], new["text"]), start=1):
            if a != b:
                spaces = " (only spaces differ: pdfium guesses word gaps from glyph positions)" \
                    if a.replace(" ", "") == b.replace(" ", "") else ""
                problems.append(f"{pdf} page {page}{spaces}: {first_difference(a, b)}")
    if problems:
        new_text = failure_folder() / "text.json"
        new_text.write_text(golden.dump_json(fresh["text"]), encoding="utf-8")
        pytest.fail(f"page text differs from the golden on {len(problems)} page(s) (new text: {new_text}):\n"
                    + shorten(problems), pytrace=False)


def pixel_difference(old: Image.Image, new: Image.Image) -> tuple[float, int, Image.Image]:
    """(mean absolute difference, largest difference, the difference image) of two same-size greyscale pages."""
    diff = ImageChops.difference(old, new)
    histogram = diff.histogram()
    count = old.width * old.height
    mean = sum(level * n for level, n in enumerate(histogram)) / count
    largest = max(level for level, n in enumerate(histogram) if n)
    return mean, largest, diff


def save_failure(name: str, old: Image.Image, new: Image.Image, diff: Image.Image | None) -> Path:
    folder = failure_folder()
    stem = name.removesuffix(".png")
    new.save(folder / f"{stem}-new.png")
    old.save(folder / f"{stem}-golden.png")
    if diff is not None:
        # Black where equal; any difference shows, scaled so that the largest one is white.
        ImageOps.autocontrast(diff).save(folder / f"{stem}-diff.png")
    return folder


def describe(name: str) -> str:
    """`maps__four-player-poster-p001.png` -> `maps/four-player-poster.pdf page 1`."""
    stem, page = name.removesuffix(".png").rsplit("-p", 1)
    return f"{stem.replace('__', '/')}.pdf page {int(page)}"


def test_page_pixels_match(goldens, fresh):
    require(goldens)
    new_names = set(fresh["pixels"])
    problems = [f"{describe(n)}: golden image, no such page now" for n in goldens["pixels"] if n not in new_names]
    problems += [f"{describe(n)}: new page, no golden image" for n in sorted(new_names - set(goldens["pixels"]))]
    folder = None
    for name in goldens["pixels"]:
        new = fresh["pixels"].get(name)
        if new is None:
            continue
        with Image.open(GOLDEN / "pixels" / name) as stored:
            old = stored.convert("L")
        if old.size != new.size:
            folder = save_failure(name, old, new, None)
            problems.append(f"{describe(name)}: rendered {new.size[0]} x {new.size[1]} px, golden "
                            f"{old.size[0]} x {old.size[1]} px")
            continue
        mean, largest, diff = pixel_difference(old, new)
        if mean >= MEAN_LIMIT or largest > PIXEL_LIMIT:
            folder = save_failure(name, old, new, diff)
            problems.append(f"{describe(name)}: mean difference {mean:.3f} grey levels (limit {MEAN_LIMIT}), "
                            f"largest {largest} (limit {PIXEL_LIMIT}); see {name.removesuffix('.png')}-*.png")
    if problems:
        where = f"\nnew renders, goldens and diffs: {folder}" if folder else ""
        stored = GOLDEN / "renderer.txt"
        was = stored.read_text(encoding="utf-8").strip() if stored.is_file() else "unknown"
        if was != golden.renderer():
            where += f"\n(the goldens were rendered by {was}, these by {golden.renderer()}: the renderer may differ)"
        pytest.fail(f"{len(problems)} page(s) look different from the goldens at {golden.DPI} dpi:{where}\n"
                    + shorten(problems), pytrace=False)
