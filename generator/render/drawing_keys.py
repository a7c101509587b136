"""The content key of a drawing: its SVG, the bytes of the images and kit fonts it names, and the renderer's
versions and code. The face store, the checks' memo and the studio's pictures all key by it, so it sits
below each of them."""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from pnpgen import kit_files

HREF = re.compile(r'href="([^"#][^"]*)"')


def svg_key(svg: str, root: Path, images: dict | None = None) -> str:
    """The face's store key: its SVG text, the bytes of every image it references and of the kit fonts it
    names, the renderer versions. `images` keeps each file's hash for the build (a picture shown on 500
    faces is read once)."""
    from pnpgen.kit_fonts import fonts_key
    digest = hashlib.sha1(svg.encode("utf-8"))
    images = {} if images is None else images
    for ref in sorted(set(HREF.findall(svg))):
        if ref not in images:
            try:  # the kit reader's: a reference it refuses is refused again when drawn, with its message
                images[ref] = hashlib.sha1(kit_files.read_bytes(root / ref, root)).digest()
            except kit_files.KitFileError:
                images[ref] = b""
        digest.update(images[ref])
    digest.update(fonts_key(svg).encode())
    digest.update(renderer_fingerprint().encode())
    return digest.hexdigest()



@lru_cache(maxsize=1)
def renderer_fingerprint() -> str:
    """The versions and code that turn an SVG into stored calls: a change to any of them redraws every face."""
    from pnpgen.output_cache import source_fingerprint
    from pnpgen.render import face_store, fast_text, images, svg_ops, svg_path
    from pnpgen.render.cairo_lib import installed_version
    renderer = f"cairosvg {installed_version('cairosvg')} cairocffi {installed_version('cairocffi')}"
    return renderer + source_fingerprint(face_store, fast_text, images, svg_ops, svg_path)
