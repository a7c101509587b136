"""A designer's own images: references checked at load time, so a missing or hostile one is a located
error before any work. A reference is a path inside the kit folder (art/ship.png); URLs of any scheme,
absolute paths, ../ and links that lead out of the kit are refused."""
from __future__ import annotations

import difflib
import io
import os
import re
from pathlib import Path
from urllib.parse import urlparse

from pnpgen import kit_files

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
MAX_PIXELS = 50_000_000    # a larger raster is a decompression bomb or a mistake, not a counter's art
HREF = re.compile(r"""(?:xlink:)?href\s*=\s*["']([^"'{}]*)["']""")


def check_image(root: Path, ref: str) -> str | None:
    """Why `ref` cannot be used as an image of the kit at `root`, or None when it can. The answer is kept
    while the file is the same one, unchanged: 500 rows naming 50 pictures resolve and open 50 files."""
    try:
        named, reached = os.lstat(os.path.join(root, ref)), os.stat(os.path.join(root, ref))
    except (OSError, TypeError, ValueError):
        return _check_image(root, ref)
    key = (str(root), ref) + tuple((i.st_dev, i.st_ino, i.st_size, i.st_mtime_ns) for i in (named, reached))
    if key not in _CHECKED:
        _CHECKED[key] = _check_image(root, ref)
    return _CHECKED[key]


_CHECKED: dict = {}


def _check_image(root: Path, ref: str) -> str | None:
    if not isinstance(ref, str) or not ref.strip():
        return "an image reference must be a path inside the kit folder, such as art/ship.png"
    if "\x00" in ref:
        return "an image reference holds a NUL byte"
    parsed = urlparse(ref)
    if parsed.scheme or ref.startswith("//"):
        return f"{ref!r}: only paths inside the kit folder are allowed, not URLs ({parsed.scheme or 'network'}:)"
    if Path(ref).is_absolute():
        return f"{ref!r}: an absolute path; use a path inside the kit folder, such as art/ship.png"
    path = Path(root) / ref
    if os.path.normpath(ref).split(os.sep)[0] == "..":
        return f"{ref!r} leads outside the kit folder"
    if not os.path.lexists(path):
        return f"{ref!r}: no such file{_did_you_mean(root, ref)}"
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        return f"{ref!r}: not an image file (use PNG, JPEG or SVG)"
    try:
        data = kit_files.read_bytes(path, root)
    except kit_files.KitFileError as exc:
        return f"{ref!r} {exc.message}"
    return _readable(data, path, ref)


def _readable(data: bytes, path: Path, ref: str) -> str | None:
    if path.suffix.lower() == ".svg":
        head = data[:4096].lstrip()
        if b"<svg" not in head and not head.startswith(b"<?xml"):
            return f"{ref!r} is not an SVG file"
        if b"<!ENTITY" in data:
            return f"{ref!r} declares XML entities, which are refused"
        return _well_formed(data, ref)
    from PIL import Image
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                return f"{ref!r} is {width} x {height} pixels: over the limit of {MAX_PIXELS:,} pixels"
            image.verify()
    except Exception as exc:  # Pillow raises many kinds on a broken or foreign file
        return f"{ref!r} is not a readable image ({type(exc).__name__}: {exc})"
    return None


def _well_formed(data: bytes, ref: str) -> str | None:
    """An SVG that does not parse as XML, or nests too deep to draw, would stop the build when drawn, far from
    the line that names it."""
    import xml.etree.ElementTree as ET

    from pnpgen.svg_depth import TooDeep, check_depth
    try:
        check_depth(data)
        ET.fromstring(data)
    except TooDeep as exc:
        return f"{ref!r}: {exc}"
    except ET.ParseError as exc:
        line, column = exc.position
        return f"{ref!r} is not a well-formed SVG file (line {line}, column {column}: {str(exc).split(':')[0]})"
    return None


def _did_you_mean(root: Path, ref: str) -> str:
    images = [str(p.relative_to(root)) for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES
              and ".cache" not in p.parts]
    near = difflib.get_close_matches(ref, images, n=1, cutoff=0.5)
    return f" (did you mean {near[0]!r}?)" if near else ""


def template_references(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, href) of every literal href in a template file of the kit at `root` (not those built by Jinja
    expressions); the file read through the kit reader."""
    out = []
    for number, line in enumerate(kit_files.read_text(path, root).splitlines(), start=1):
        for match in HREF.finditer(line):
            if match.group(1) and not match.group(1).startswith("#"):
                out.append((number, match.group(1)))
    return out
