"""Images inside faces: fetched only from the kit folder, and each raster file embedded once per PDF.

cairosvg would decode every use of an image anew (a JPEG re-encoded as pixels) and read any file:// or
http:// reference. Here a fetcher serves only files inside the kit, and rasters are drawn from one cairo
surface per distinct file, tagged with a unique id (so cairo writes one image object per PDF however many
faces show it) and, for JPEG, with its original bytes (embedded as they are: no resampling, no
recompression). SVG images are left to cairosvg and stay vector. Each placement's resolution is noted
for the preflight.
"""
from __future__ import annotations

import hashlib
import io
from pathlib import Path
from urllib.parse import unquote, urlparse

from pnpgen.render.pdf_images import ImageRefused, stand_in, stored_image

PLACED: list[tuple[str, float, float]] = []   # (kit-relative path, dpi across, dpi down) of every placement
_SURFACES: dict[str, object] = {}


def kit_fetcher(root: Path | None):
    """A cairosvg url_fetcher that serves files inside `root` only (nothing at all when root is None), read
    through the kit reader: a link out of the kit, a FIFO or a device is refused, never read or waited on."""
    from pnpgen import kit_files

    def fetch(url: str, resource_type=None) -> bytes:
        parsed = urlparse(url)
        if root is None or parsed.scheme != "file":
            raise ImageRefused(f"external reference refused: {url} (use a path inside the kit folder)")
        path = Path(unquote(parsed.path))
        try:
            return kit_files.read_bytes(path, root)
        except kit_files.KitFileError as exc:
            if "outside the kit folder" in exc.message:
                raise ImageRefused(f"reference outside the kit folder refused: {path} ({exc.message})") from None
            raise ImageRefused(f"image {exc.file}: {exc.message}") from None

    return fetch


def _surface(data: bytes):
    """One cairo image surface per distinct file, decoded once per process (a PNG by cairo itself; other
    formats through Pillow, straight into cairo's pixel layout)."""
    key = hashlib.sha1(data).hexdigest()
    if key not in _SURFACES:
        import cairocffi
        width, height, kind = image_size(data)
        try:
            if kind == "PNG":
                surface = cairocffi.ImageSurface.create_from_png(io.BytesIO(data))
            else:
                surface = _from_pillow(data, cairocffi)
        except (OSError, ValueError, SyntaxError, MemoryError) as exc:  # truncated or damaged pixel data
            raise ImageRefused(f"a {kind or 'raster'} image of {width} x {height} pixels whose pixels cannot be "
                               f"read (damaged or cut short?): {exc}") from None
        surface.set_mime_data("application/x-cairo.uuid", key.encode())  # CAIRO_MIME_TYPE_UNIQUE_ID
        if kind == "JPEG":
            surface.set_mime_data("image/jpeg", data)  # CAIRO_MIME_TYPE_JPEG
        _SURFACES[key] = surface
    return _SURFACES[key]


def image_size(data: bytes) -> tuple[int, int, str]:
    """Pixel size and format from the file's header, without decoding its pixels; an image that is not one,
    or holds more pixels than pnpgen.images.MAX_PIXELS (a decompression bomb), is ImageRefused."""
    from PIL import Image

    from pnpgen.images import MAX_PIXELS
    try:
        with Image.open(io.BytesIO(data)) as picture:
            width, height, kind = picture.size[0], picture.size[1], picture.format or ""
            picture.verify()  # a file cut short or damaged is said here, at the face that shows it
    except Image.DecompressionBombError as exc:
        raise ImageRefused(f"over the limit of {MAX_PIXELS:,} pixels ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - Pillow raises many types on a file that is not an image
        raise ImageRefused(f"not an image that can be read ({type(exc).__name__}: {exc})") from None
    if width * height > MAX_PIXELS:
        raise ImageRefused(f"an image of {width} x {height} pixels is over the limit of {MAX_PIXELS:,} pixels")
    return width, height, kind


def _from_pillow(data: bytes, cairocffi):
    from PIL import Image, ImageOps
    picture = ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGBA")
    # cairo's ARGB32 is premultiplied BGRA in memory on little-endian machines
    red, green, blue, alpha = picture.split()
    if alpha.getextrema() != (255, 255):
        from PIL import ImageChops
        red, green, blue = (ImageChops.multiply(c, alpha) for c in (red, green, blue))
    buffer = bytearray(Image.merge("RGBA", (blue, green, red, alpha)).tobytes())
    stride = cairocffi.ImageSurface.format_stride_for_width(cairocffi.FORMAT_ARGB32, picture.width)
    if stride != picture.width * 4:
        raise ImageRefused("unexpected image stride")
    return cairocffi.ImageSurface.create_for_data(buffer, cairocffi.FORMAT_ARGB32, picture.width, picture.height, stride)


def draw_image(surface, node, original) -> None:
    """cairosvg's `image` tag handler, for rasters; SVG art goes to `original`."""
    from cairosvg.helpers import preserve_ratio, size
    from cairosvg.url import parse_url
    base_url = node.get("{http://www.w3.org/XML/1998/namespace}base")
    if not base_url and node.url:
        base_url = node.url.rsplit("/", 1)[0] + "/"
    url = parse_url(node.get_href(), base_url)
    data = node.fetch_url(url, "image/*")
    if not data.startswith((b"\x89PNG", b"\xff\xd8")) and (b"<svg" in data[:4096] or data.startswith(b"<?xml")):
        return _draw_svg_image(surface, node, original, unquote(url.path), data)
    image = _surface(data)
    x, y = size(surface, node.get("x"), "x"), size(surface, node.get("y"), "y")
    width, height = size(surface, node.get("width"), "x"), size(surface, node.get("height"), "y")
    node.image_width, node.image_height = image.get_width(), image.get_height()
    width, height = width or node.image_width, height or node.image_height
    scale_x, scale_y, translate_x, translate_y = preserve_ratio(surface, node, width, height)
    ctx = surface.context
    ctx.save()
    ctx.rectangle(x, y, width, height)
    ctx.clip()
    ctx.translate(x, y)
    ctx.scale(scale_x, scale_y)
    ctx.translate(translate_x, translate_y)
    _note_resolution(ctx, url, image)
    opacity = float(node.get("opacity", 1))
    target = ctx
    if hasattr(ctx, "ops"):  # a face_store.Recorder: note the image by file and content, paint on the real context
        ctx.ops.append(["paint_image", unquote(url.path), hashlib.sha1(data).hexdigest(), opacity])
        target = ctx._context
    paint(target, image, opacity)
    ctx.restore()


def _draw_svg_image(surface, node, original, path: str, data: bytes) -> None:
    """SVG art, drawn by cairosvg's own handler; a face_store.Recorder notes which of the face's glyphs this
    file drew ([path, first, after the last]), so the preflight can name the file (a kit's icon) that a word
    too small comes from: the template shows no such word. Its nesting is measured first (cairosvg recurses
    into it)."""
    from pnpgen.svg_depth import TooDeep, check_depth
    try:
        check_depth(data)
    except TooDeep as exc:
        raise ImageRefused(f"{path}: {exc}") from None
    recorder = surface.context if hasattr(surface.context, "svg_images") else None
    first = len(recorder.texts) if recorder is not None else 0
    original(surface, node)
    if recorder is not None and len(recorder.texts) > first:
        recorder.svg_images.append([path, first, len(recorder.texts)])


def paint(context, image, opacity: float) -> None:
    import cairocffi
    pattern = cairocffi.SurfacePattern(image)
    pattern.set_filter(cairocffi.FILTER_GOOD)
    context.set_source(pattern)
    context.paint_with_alpha(opacity)


def replay_image(context, path: str, key: str, opacity: float, for_pdf: bool = False) -> None:
    """A recorded face's image, painted again from its file (which must still hold the same bytes). Art
    `for_pdf` paints a stand-in that the PDF gets the file's own data for (pnpgen.render.pdf_images)."""
    surface = _STAND_INS.get(key) if for_pdf else _SURFACES.get(key)
    if surface is None or not _unchanged(path, key):
        data = stored_image(path)
        if hashlib.sha1(data).hexdigest() != key:
            raise ImageRefused(f"the image {path} changed while building; build again")
        _STAMPS[path] = (key, _stamp(path))
        try:
            surface = _stand_in(data, path, key) if for_pdf else _surface(data)
        except ImageRefused as exc:
            raise ImageRefused(f"{path}: {exc}") from None
    paint(context, surface, opacity)


_STAND_INS: dict[str, object] = {}
_STAMPS: dict[str, tuple] = {}   # path -> (content hash, size and mtime) when last read


def _stand_in(data: bytes, path: str, key: str):
    """The file's PDF stand-in (one per file per process), or its decoded pixels when it cannot have one."""
    if key not in _STAND_INS:
        _STAND_INS[key] = stand_in(data, path, key) or _surface(data)
    return _STAND_INS[key]


def _stamp(path: str) -> tuple:
    info = Path(path).stat()
    return info.st_size, info.st_mtime_ns


def _unchanged(path: str, key: str) -> bool:
    """The file still holds `key` as far as its size and time tell (a picture on 500 faces is read once)."""
    try:
        return _STAMPS.get(path) == (key, _stamp(path))
    except OSError:
        return False


def _note_resolution(ctx, url, image) -> None:
    """Pixels per inch as printed: the image's pixel size against its size in points on the page."""
    across = abs(complex(*ctx.user_to_device_distance(image.get_width(), 0)))
    down = abs(complex(*ctx.user_to_device_distance(0, image.get_height())))
    PLACED.append((unquote(url.path), image.get_width() * 72 / across if across else 0,
                   image.get_height() * 72 / down if down else 0))


def install() -> None:
    """Route cairosvg's <image> through draw_image (once per process)."""
    import cairosvg.surface
    current = cairosvg.surface.TAGS["image"]
    if getattr(current, "pnpgen", False):
        return
    original = current

    def handler(surface, node):
        return draw_image(surface, node, original)

    handler.pnpgen = True
    cairosvg.surface.TAGS["image"] = handler
