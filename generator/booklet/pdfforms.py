"""PDF pages reused as Form XObjects and drawn onto other pages, without parsing their content streams.

pypdf's merge_transformed_page parses and rewrites every operator of the merged page (about 0.05 s a
page); wrapping a page as a form and drawing it with one `cm ... Do` costs next to nothing, keeps the page
vector and byte-for-byte, and lets one source page be drawn any number of times.
"""
from __future__ import annotations

from pypdf import PdfWriter
from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, IndirectObject,
                           NameObject)


def page_form(writer: PdfWriter, page) -> IndirectObject:
    """The page as a Form XObject owned by `writer` (its resources cloned into the writer once)."""
    contents = page.get_contents()
    form = DecodedStreamObject()
    form.set_data(contents.get_data() if contents is not None else b"")
    resources = page.get("/Resources")
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject(FloatObject(float(v)) for v in page.mediabox),
        NameObject("/Resources"): resources.get_object().clone(writer) if resources is not None else DictionaryObject(),
    })
    return writer._add_object(form.flate_encode())


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
