"""The content key of a drawing: its SVG, the bytes of the images and kit fonts it names, and the renderer's
versions and code. The face store, the checks' memo and the studio's pictures all key by it, so it sits
below each of them."""
from __future__ import annotations

import hashlib
import html
import re
from functools import lru_cache
from pathlib import Path

from pnpgen import kit_files

# either quote, spaces around `=`: the XML parser cairosvg uses reads them all, so the key must too
HREF = re.compile(r"""href\s*=\s*(?:"([^"]*)"|'([^']*)')""")
NESTED = 8   # SVG images inside SVG images followed this deep (the renderer draws them all)


def _refs(svg: str) -> set[str]:
    """The files an SVG's hrefs name, as the kit's fetcher reads them (entities and %-escapes decoded, no
    fragment): `href='a.png'` or `href="a&#46;png"` shows a.png as surely as `href="a.png"` does."""
    from urllib.parse import unquote, urlparse
    found = set()
    for double, single in HREF.findall(svg):
        url = urlparse(html.unescape(double or single))
        if url.path and not url.scheme:   # a data: image is in the text already; any other scheme is refused
            found.add(unquote(url.path))
    return found


def _image_digest(path: Path, root: Path, depth: int = 0, seen: set | None = None) -> bytes:
    """The bytes of the image at `path`, and of the images an SVG image shows in turn (relative to it), each
    file read once however often it is named."""
    seen = set() if seen is None else seen
    if path in seen:
        return b"again"
    seen.add(path)
    try:  # the kit reader's: a reference it refuses is refused again when drawn, with its message
        data = kit_files.read_bytes(path, root)
    except kit_files.KitFileError:
        return b""
    digest = hashlib.sha1(data)
    if depth < NESTED and path.suffix.lower() == ".svg" and b"href" in data:
        for ref in sorted(_refs(data.decode("utf-8", "replace"))):
            digest.update(_image_digest(path.parent / ref, root, depth + 1, seen))
    return digest.digest()


def svg_key(svg: str, root: Path, images: dict | None = None) -> str:
    """The face's store key: its SVG text, the bytes of every image it references and of the kit fonts it
    names, the renderer versions. `images` keeps each file's hash for the build (a picture shown on 500
    faces is read once)."""
    from pnpgen.kit_fonts import fonts_key
    digest = hashlib.sha1(svg.encode("utf-8"))
    images = {} if images is None else images
    for ref in sorted(_refs(svg)):
        if ref not in images:
            images[ref] = _image_digest(root / ref, root)
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
