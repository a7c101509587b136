"""PDF pages reused as Form XObjects and drawn onto other pages, without parsing their content streams.

pypdf's merge_transformed_page parses and rewrites every operator of the merged page (about 0.05 s a
page); wrapping a page as a form and drawing it with one `cm ... Do` costs next to nothing, keeps the page
vector and byte-for-byte, and lets one source page be drawn any number of times.
"""
from __future__ import annotations

import struct
import zlib

from pypdf import PdfWriter
from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, EncodedStreamObject, FloatObject,
                           IndirectObject, NameObject)

BLANKS = b" \t\n\r\x0b\x0c\x00"
A85_DIGITS = bytes(range(33, 118))   # '!' to 'u'
A85_FLATE = ["/ASCII85Decode", "/FlateDecode"]   # how reportlab writes its pages' content streams


def page_form(writer: PdfWriter, page) -> IndirectObject:
    """The page as a Form XObject owned by `writer` (its resources cloned into the writer once), its content
    Flate-compressed (pypdf's flate_encode)."""
    deflated = reportlab_deflated(page)
    form = DecodedStreamObject() if deflated is None else EncodedStreamObject()
    if deflated is None:
        decode_ascii85_contents(page)
        contents = page.get_contents()
        form.set_data(contents.get_data() if contents is not None else b"")
    resources = page.get("/Resources")
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject(FloatObject(float(v)) for v in page.mediabox),
        NameObject("/Resources"): resources.get_object().clone(writer) if resources is not None else DictionaryObject(),
    })
    if deflated is None:
        return writer._add_object(form.flate_encode())
    form[NameObject("/Filter")] = NameObject("/FlateDecode")   # as flate_encode writes it
    form._data = deflated
    return writer._add_object(form)


def reportlab_deflated(page) -> bytes | None:
    """The page's content compressed as flate_encode would compress it, where that is already at hand: a page
    of one content stream that reportlab wrote (ASCII85 over Flate) holds its content as zlib.compress made
    it, at the level flate_encode uses (zlib's default) from the same bytes, so the same bytes; once the
    ASCII85 is undone they need neither inflating nor compressing again (0.02 s of imposing SE4X's 34 pages).
    None for any other page (several streams, another filter, already decoded)."""
    stream = page.get("/Contents")
    stream = stream.get_object() if stream is not None else None
    if not isinstance(stream, EncodedStreamObject) or stream.decoded_self is not None \
            or stream.get("/Filter") != A85_FLATE or "/DecodeParms" in stream:
        return None
    return ascii85(stream._data)


def decode_ascii85_contents(page) -> None:
    """Decode the page's ASCII85-and-Flate content streams (reportlab's) here, where pypdf would with
    base64.a85decode, a loop per character in Python (0.05 s for a 34-page booklet, most of imposing it):
    five times faster, the same bytes. A stream this cannot decode is left to pypdf."""
    contents = page.get("/Contents")
    contents = contents.get_object() if contents is not None else None
    for stream in (contents if isinstance(contents, ArrayObject) else [contents]):
        stream = stream.get_object() if stream is not None else None
        if not isinstance(stream, EncodedStreamObject) or stream.decoded_self is not None \
                or stream.get("/Filter") != A85_FLATE or "/DecodeParms" in stream:
            continue
        data = ascii85(stream._data)
        unpacked = zlib.decompressobj()
        data = unpacked.decompress(data) if data is not None else None
        if data is None or not unpacked.eof or unpacked.unused_data:
            continue
        decoded = DecodedStreamObject()   # as EncodedStreamObject.get_data keeps what it decoded
        decoded.set_data(data)
        for key, value in stream.items():
            if key not in ("/Length", "/Filter", "/DecodeParms"):
                decoded[key] = value
        stream.decoded_self = decoded


def ascii85(data: bytes) -> bytes | None:
    """ASCII85 data decoded five digits at a time (None where it is not plain ASCII85: a `z`, a stray byte,
    a group out of range, a lone last digit), as base64.a85decode reads it."""
    data = data.translate(None, BLANKS)
    data = data[2:] if data.startswith(b"<~") else data
    data = data[:-2] if data.endswith(b"~>") else data
    pad = -len(data) % 5
    if pad == 4 or data.translate(None, A85_DIGITS):
        return None
    data += b"u" * pad
    groups = zip(data[0::5], data[1::5], data[2::5], data[3::5], data[4::5])
    try:
        out = struct.pack(f">{len(data) // 5}I", *[((((a * 85 + b) * 85 + c) * 85 + d) * 85 + e) - A85_OFFSET
                                                   for a, b, c, d, e in groups])
    except struct.error:
        return None
    return out[:len(out) - pad]


A85_OFFSET = 33 * (85 ** 4 + 85 ** 3 + 85 ** 2 + 85 + 1)   # the digits are bytes 33 up: take 33 off each at once


def _stream(writer: PdfWriter, data: bytes) -> IndirectObject:
    stream = DecodedStreamObject()
    stream.set_data(data)
    return writer._add_object(stream)


def draw_forms(writer: PdfWriter, page, forms: list[tuple[IndirectObject, tuple]], under: bool = False) -> None:
    """Draw each (form, (a, b, c, d, e, f)) on `page`, above its content (or beneath it, `under`, so marks
    already on the page, such as callout lines, stay visible on top of the art)."""
    resources = page.setdefault(NameObject("/Resources"), DictionaryObject()).get_object()
    xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject()).get_object()
    ops, start = [], sum(1 for key in xobjects if str(key).startswith("/PnpForm"))  # a page drawn on twice
    for index, (form, matrix) in enumerate(forms, start):
        name = f"/PnpForm{index}"
        xobjects[NameObject(name)] = form
        numbers = " ".join(f"{m:.4f}".rstrip("0").rstrip(".") for m in matrix)
        ops.append(f"q {numbers} cm {name} Do Q")
    old = page.get("/Contents")
    parts = [] if old is None else list(old.get_object()) if isinstance(old.get_object(), ArrayObject) else [old]
    drawn = _stream(writer, ("q\n" + "\n".join(ops) + "\nQ\n").encode())
    if under:
        page[NameObject("/Contents")] = ArrayObject([drawn, *parts])
    else:
        page[NameObject("/Contents")] = ArrayObject([_stream(writer, b"q\n"), *parts, _stream(writer, b"\nQ\n"), drawn])
