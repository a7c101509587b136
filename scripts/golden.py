"""Goldens of the default kit's build, to guard its output while the code is refactored (`make golden`).

Builds `data/space-empires-4x` (all parts, default options, Letter) into a temporary folder with an empty
cache, and writes into `tests/golden/space-empires-4x/`:

- `manifest.json`: the build's manifest, normalised (sorted keys; nothing machine- or time-dependent:
  no absolute paths, seconds or cache flags; floats rounded to 6 places);
- `text.json`: for every PDF its page count, page sizes in points (0.01) and each page's text as pdfium
  extracts it, whitespace runs squeezed to one space (cairo places glyphs one by one);
- `pixels/<file>-p<NNN>.png`: every page rendered greyscale at 18 dpi by pdfium;
- `renderer.txt`: the pdfium and pypdfium2 versions that rendered them (another version may antialias
  differently: then look at the diffs and rewrite the goldens).

`tests/test_golden.py` builds the kit again and compares with these files. Run this script only when a
change to the output is intended, and look at the diff of the goldens before committing them.

    python scripts/golden.py                   # rewrite the goldens
    python scripts/golden.py --data KIT --out DIR   # snapshot another kit folder into DIR (to experiment)
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pypdfium2 as pdfium  # noqa: E402
from PIL import Image  # noqa: E402

from pnpgen.cli import main as pnpgen  # noqa: E402
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / DEFAULT_KIT
DEFAULT_KIT_DIR = BUILTIN_DATA / DEFAULT_KIT
DPI = 18
# Keys whose values depend on the machine, the clock or the cache, dropped wherever they appear.
VOLATILE_KEY = re.compile(r"(^|[_-])(seconds?|times?|timings?|elapsed|duration|cached?|reused|hits?|rendered|"
                          r"dates?|timestamps?|host|cwd|pid)$", re.IGNORECASE)
FLOAT_PLACES = 6


class GoldenError(Exception):
    """The build for the goldens failed or left something unexpected."""


def build(out: Path, data: Path | None = None) -> Path:
    """Build the kit (all parts, default options) into `out` with a fresh cache; return the kit folder."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise GoldenError(f"{out} is not empty: golden builds need a fresh output folder (and cache)")
    kit = ["--data", str(data)] if data else [DEFAULT_KIT]
    code = pnpgen(["build", *kit, "--out", str(out), "--quiet"])
    if code:
        raise GoldenError(f"pnpgen build failed with exit code {code}")
    folders = [p for p in out.iterdir() if p.is_dir() and not p.name.startswith(".")]
    if len(folders) != 1:
        raise GoldenError(f"expected one kit folder in {out}, found {[p.name for p in folders]}")
    return folders[0]


def normalise(value, prefixes: dict[str, str]):
    """Sorted-key copy of a manifest value without volatile keys, machine-dependent paths or float noise.

    `prefixes` maps folder prefixes (the kit's data folder, the output folder, absolute or relative to the
    working directory, as `display_path` writes them) to placeholders such as `<kit>`."""
    if isinstance(value, dict):
        return {k: normalise(v, prefixes) for k, v in sorted(value.items()) if not VOLATILE_KEY.search(k)}
    if isinstance(value, list):
        return [normalise(v, prefixes) for v in value]
    if isinstance(value, float):
        return round(value, FLOAT_PLACES)
    if isinstance(value, str):
        for prefix, placeholder in prefixes.items():
            if value == prefix or value.startswith(prefix + "/") or value.startswith(prefix + os.sep):
                return placeholder + value[len(prefix):].replace(os.sep, "/")
        if value.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", value):
            return "<absolute path>"
    return value


def folder_forms(folder: Path) -> list[str]:
    """The ways a message may spell a folder: absolute (resolved or not) and relative to the working directory."""
    forms = {str(folder), str(folder.resolve()), str(folder.absolute())}
    for form in list(forms):
        try:
            forms.add(os.path.relpath(form))
        except ValueError:  # another drive on Windows
            pass
    return sorted((f for f in forms if f not in (".", "..") and not f.startswith("..")), key=len, reverse=True)


def manifest_of(kit_out: Path, kit_dir: Path = DEFAULT_KIT_DIR) -> dict:
    manifest = json.loads((kit_out / "manifest.json").read_text(encoding="utf-8"))
    prefixes = {form: "<out>" for form in folder_forms(kit_out)}
    prefixes.update({form: "<kit>" for form in folder_forms(Path(kit_dir))})
    prefixes = dict(sorted(prefixes.items(), key=lambda item: len(item[0]), reverse=True))
    return normalise(manifest, prefixes)


def pdfs(kit_out: Path) -> list[str]:
    """Every PDF of the build, as paths relative to the kit folder, sorted."""
    return sorted(p.relative_to(kit_out).as_posix() for p in kit_out.rglob("*.pdf")
                  if not any(part.startswith(".") for part in p.relative_to(kit_out).parts))


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def pixel_name(pdf: str, page: int) -> str:
    """`maps/four-player-poster.pdf`, page 1 -> `maps__four-player-poster-p001.png`."""
    return f"{pdf.removesuffix('.pdf').replace('/', '__')}-p{page:03d}.png"


def read_pdf(path: Path) -> tuple[dict, list[Image.Image]]:
    """({"pages", "sizes", "text"}, one greyscale image per page) of one PDF."""
    doc = pdfium.PdfDocument(str(path))
    try:
        sizes, texts, images = [], [], []
        for index in range(len(doc)):
            page = doc[index]
            width, height = page.get_size()
            sizes.append([round(width, 2), round(height, 2)])
            textpage = page.get_textpage()
            texts.append(squeeze(textpage.get_text_range()))
            textpage.close()
            images.append(page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L"))
            page.close()
        return {"pages": len(doc), "sizes": sizes, "text": texts}, images
    finally:
        doc.close()


def renderer() -> str:
    return f"pdfium {pdfium.PDFIUM_INFO}, pypdfium2 {pdfium.PYPDFIUM_INFO}, {DPI:g} dpi greyscale"


def snapshot(kit_out: Path, kit_dir: Path = DEFAULT_KIT_DIR) -> dict:
    """{"manifest": ..., "text": {pdf: {...}}, "pixels": {png name: image}} of a built kit folder."""
    text, pixels = {}, {}
    for pdf in pdfs(kit_out):
        text[pdf], images = read_pdf(kit_out / pdf)
        for number, image in enumerate(images, start=1):
            pixels[pixel_name(pdf, number)] = image
    return {"manifest": manifest_of(kit_out, kit_dir), "text": text, "pixels": pixels}


def dump_json(value) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def write(snap: dict, target: Path) -> None:
    """Replace the golden folder `target` with `snap`."""
    if target.exists():
        shutil.rmtree(target)
    (target / "pixels").mkdir(parents=True)
    (target / "manifest.json").write_text(dump_json(snap["manifest"]), encoding="utf-8")
    (target / "text.json").write_text(dump_json(snap["text"]), encoding="utf-8")
    (target / "renderer.txt").write_text(renderer() + "\n", encoding="utf-8")
    for name, image in snap["pixels"].items():
        (target / "pixels" / name).write_bytes(png_bytes(image))


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="a kit folder instead of the default kit")
    parser.add_argument("--out", type=Path, default=GOLDEN, help=f"golden folder (default {GOLDEN})")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pnpgen-golden-") as tmp:
        try:
            snap = snapshot(build(Path(tmp) / "out", args.data), args.data or DEFAULT_KIT_DIR)
        except GoldenError as problem:
            print(f"golden: {problem}", file=sys.stderr)
            return 1
    write(snap, args.out)
    pages = sum(t["pages"] for t in snap["text"].values())
    print(f"wrote {args.out}: {len(snap['text'])} PDFs, {pages} pages, "
          f"{folder_size(args.out) / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
