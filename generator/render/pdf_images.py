"""Raster files put into a PDF as they are: a PNG's own compressed data, a JPEG's own bytes, never pixels.

cairo embeds an image by compressing its decoded pixels again (about 25 ms for a 640 px picture, plus the
1.6 MB of pixels held until the PDF is written), except for JPEG, whose bytes it copies when told them.
So a face that goes into a PDF paints a stand-in: an image surface of the file's size whose pixels are
never touched (so never allocated), tagged with JPEG bytes. For a JPEG those are the file itself. For a
PNG they are a tiny JPEG-shaped header that names the file; when the PDF is finished, `embed_pngs` puts
the PNG's own data stream (FlateDecode with the PNG predictor, as PDF reads it) in its place. Only PNGs a
PDF can show that way are stood in for (8-bit grey or colour, or a palette, not interlaced, no
transparency); the others are decoded as before. Faces that are rasterised (previews, exports) never get
a stand-in.
"""
from __future__ import annotations

import hashlib
import os
import re
import struct
import zlib

MARK = b"pnpgen-png:"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FILES: dict[str, str] = {}   # content hash -> path of every PNG stood in for in this process


class ImageRefused(ValueError):
    """A reference outside the kit folder, or to something that is not a usable image."""


def stored_image(path: str) -> bytes:
    """The bytes of an image a stored face names (a cache may come with a kit that builds into itself): a
    regular file only, never a FIFO or device, and used only when its hash is the one the face recorded."""
    from pnpgen import kit_files
    try:
        return kit_files.read_bytes(path, os.path.dirname(os.path.realpath(path)))
    except kit_files.KitFileError as exc:
        raise ImageRefused(f"a stored face's image {exc}") from None


def stand_in(data: bytes, path: str, key: str):
    """A cairo image surface standing for the file `data` in a PDF, or None when it must be decoded."""
    import cairocffi
    if data.startswith(PNG_SIGNATURE):
        png = png_info(data)
        if png is None:
            return None
        width, height, components = png["width"], png["height"], png["components"]
        mime = _jpeg_header(width, height, components, MARK + key.encode())
        _FILES[key] = path
    elif data.startswith(b"\xff\xd8"):
        size = _plain_jpeg_size(data)
        if size is None:
            return None
        (width, height), mime = size, data
    else:
        return None
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, width, height)  # calloc'd: untouched, unallocated
    surface.set_mime_data("application/x-cairo.uuid", key.encode())  # one image object per file per PDF
    surface.set_mime_data("image/jpeg", mime)
    return surface


def png_info(data: bytes) -> dict | None:
    """{width, height, depth, components, palette, stream} of a PNG a PDF can show from its own data."""
    chunks, offset, streams, ended = {}, len(PNG_SIGNATURE), [], False
    while offset + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if len(body) != length or data[offset + 8 + length:offset + 12 + length] != \
                struct.pack(">I", zlib.crc32(kind + body)):
            return None   # truncated or damaged: decoding says what is wrong
        if kind == b"IDAT":
            streams.append(body)
        else:
            chunks.setdefault(kind, body)
        offset += 12 + length
        if kind == b"IEND":
            ended = True
            break
    header = chunks.get(b"IHDR")
    if not ended or header is None or len(header) != 13 or not streams or b"tRNS" in chunks:
        return None
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(">IIBBBBB", header)
    plain = colour in (0, 2) and depth == 8
    indexed = colour == 3 and depth in (1, 2, 4, 8) and b"PLTE" in chunks
    if not (plain or indexed) or compression or filtering or interlace or not width or not height:
        return None
    return {"width": width, "height": height, "depth": depth, "components": 3 if colour == 2 else 1,
            "palette": chunks.get(b"PLTE") if indexed else None, "stream": b"".join(streams)}


def _plain_jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a JPEG shown as it is stored (no EXIF turn), else None (decoded as before)."""
    import io

    from PIL import Image
    with Image.open(io.BytesIO(data)) as picture:
        if picture.getexif().get(0x0112, 1) != 1:
            return None
        return picture.size


def _jpeg_header(width: int, height: int, components: int, note: bytes) -> bytes:
    """Start of image, a comment holding `note`, a baseline frame header of the size, end of image: all cairo
    reads of a JPEG to write its image dictionary."""
    frame = struct.pack(">BHHB", 8, height, width, components)
    frame += b"".join(bytes((number + 1, 0x11, 0)) for number in range(components))
    return (b"\xff\xd8" + b"\xff\xfe" + struct.pack(">H", len(note) + 2) + note
            + b"\xff\xc0" + struct.pack(">H", len(frame) + 2) + frame + b"\xff\xd9")


# The finished PDF ---------------------------------------------------------------------------------------

LENGTH_REF = re.compile(rb"/Length (\d+) 0 R")
STAND_IN_STREAM = b">>\nstream\n\xff\xd8\xff\xfe"


def embed_pngs(data: bytes) -> bytes:
    """The PDF `data` with each PNG stand-in's stream replaced by the PNG's own data (see the module)."""
    replaced, at = {}, data.find(MARK)
    while at >= 0:
        if data[at - len(STAND_IN_STREAM) - 2:at - 2] != STAND_IN_STREAM:  # the words, not a stand-in
            at = data.find(MARK, at + 1)
            continue
        start = data.rfind(b" 0 obj", 0, at)
        number = int(data[data.rfind(b"\n", 0, start) + 1:start])
        dictionary = data[data.index(b"<<", start) + 2:at - len(STAND_IN_STREAM) - 2]
        png = _png_of(data[at + len(MARK):at + len(MARK) + 40].decode())
        stream = png["stream"]
        length = LENGTH_REF.search(dictionary)
        if length is not None:
            replaced[int(length.group(1))] = f"{int(length.group(1))} 0 obj\n   {len(stream)}\nendobj\n".encode()
        replaced[number] = (f"{number} 0 obj\n".encode() + b"<<" + _png_dictionary(dictionary, png)
                            + b">>\nstream\n" + stream + b"\nendstream\nendobj\n")
        at = data.find(MARK, at + 1)
    return rewrite_objects(data, replaced) if replaced else data


def _png_of(key: str) -> dict:
    from pnpgen.problems import BuildError
    path = _FILES.get(key)
    try:
        data = stored_image(path) if path else b""
    except ImageRefused:
        data = b""
    png = png_info(data) if hashlib.sha1(data).hexdigest() == key else None
    if png is None:
        raise BuildError(f"the image {path or key} changed while building; build again")
    return png


def _png_dictionary(dictionary: bytes, png: dict) -> bytes:
    """cairo's image dictionary, its stream now the PNG's: Flate with PNG predictors; a palette indexed."""
    dictionary = dictionary.replace(b"/Filter /DCTDecode", b"/Filter /FlateDecode\n   /DecodeParms << "
                                    + f"/Predictor 15 /Colors {png['components']} /BitsPerComponent {png['depth']} "
                                      f"/Columns {png['width']}".encode() + b" >>")
    if png["palette"] is not None:
        palette = png["palette"]
        space = f"[ /Indexed /DeviceRGB {len(palette) // 3 - 1} <{palette.hex()}> ]".encode()
        dictionary = re.sub(rb"/ColorSpace /Device\w+", b"/ColorSpace " + space, dictionary)
        dictionary = re.sub(rb"/BitsPerComponent \d+", f"/BitsPerComponent {png['depth']}".encode(), dictionary, 1)
    return LENGTH_REF.sub(lambda m: b"/Length " + m.group(0)[8:], dictionary)


OBJECT_START = re.compile(rb"(\d+) 0 obj\b")


def rewrite_objects(data: bytes, replaced: dict[int, bytes]) -> bytes:
    """The PDF with the objects numbered in `replaced` swapped for those bytes, every offset and the
    cross-reference table written anew (cairo writes one classic table and one trailer)."""
    xref = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    trailer = data.index(b"trailer", xref)
    rows = data[xref:trailer].split(b"\n")
    first, count = (int(n) for n in rows[1].split())
    entries = [row for row in rows[2:2 + count]]
    in_use = sorted((int(row[:10]), number + first) for number, row in enumerate(entries) if row[17:18] == b"n")
    bounds = [offset for offset, _ in in_use] + [xref]
    out = bytearray(data[:bounds[0]])
    offsets = {}
    for (start, number), end in zip(in_use, bounds[1:]):
        offsets[number] = len(out)
        out += replaced.get(number, data[start:end])
    table = len(out)
    out += f"xref\n{first} {count}\n".encode()
    for number in range(first, first + count):
        out += f"{offsets[number]:010d} 00000 n \n".encode() if number in offsets else entries[number - first] + b"\n"
    tail = data[trailer:]
    out += re.sub(rb"startxref\s+\d+", f"startxref\n{table}".encode(), tail)
    return bytes(out)

