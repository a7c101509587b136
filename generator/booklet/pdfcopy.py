"""PDF objects copied as bytes: the booklet's figure art and icons laid on its typeset pages, and those pages
imposed 2-up, without a general PDF library.

Every PDF read here is one whose shape is known: reportlab's typeset pages, cairo's pages of art, and what
this module writes itself, each a classic cross-reference table and no object streams. pypdf parsed every
object of them into Python objects, cloned them and wrote them out again (SE4X's booklet: 0.3 s of a 0.5 s
part); here an object that is kept is copied as the bytes it was written as, a copied one has only its
references renumbered, and a stream's data is never decoded. Anything else (an xref stream, an update) is a
ValueError: it cannot come from the writers this reads.
"""
from __future__ import annotations

import re

OBJ = re.compile(rb"(\d+)\s+(\d+)\s+obj\b")
STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
XREF_HEAD = re.compile(rb"(\d+)\s+(\d+)")
XREF_ROW = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
REGULAR = re.compile(rb"[^\s()<>\[\]{}/%]+")
SPACE = re.compile(rb"(?:\s|%[^\r\n]*)*")
STREAM = re.compile(rb"stream\r?\n")
REF = re.compile(rb"(\d+)\s+(\d+)\s+R\b")


class Name(bytes):
    """A PDF name, with its slash: b"/Font"."""


class Ref(int):
    """An indirect reference: the object's number."""


class Raw(bytes):
    """A number, string, boolean or null, kept as written."""


class Stream:
    """A stream object: its dictionary and its data as written (still encoded)."""

    def __init__(self, info: dict, data: bytes):
        self.info, self.data = info, data


class Source:
    """A PDF's objects by number, read through its one cross-reference table."""

    def __init__(self, data: bytes):
        self.data = data
        found = STARTXREF.search(data[-64:])
        if found is None:
            raise ValueError("no startxref at the end of the PDF")
        at = int(found.group(1))
        if not data.startswith(b"xref", at):
            raise ValueError("not a classic cross-reference table")
        self.offsets, at = _xref(data, at + 4)
        if not data.startswith(b"trailer", at):
            raise ValueError("no trailer after the cross-reference table")
        self.trailer, _ = parse(data, at + 7)
        if b"/Prev" in self.trailer:
            raise ValueError("an updated PDF (/Prev): not one this module wrote or reads")
        self._values: dict = {}

    @property
    def size(self) -> int:
        return int(self.trailer[b"/Size"])

    def chunk(self, number: int) -> bytes:
        """The object as written, `N G obj` to `endobj` (up to the next object's start: reportlab, cairo and
        this module write nothing between objects but line ends)."""
        start = self.offsets[number]
        ends = self._ends()
        return self.data[start:ends[start]].rstrip(b"\r\n ") + b"\n"

    def _ends(self) -> dict:
        if not hasattr(self, "_end_of"):
            starts = sorted(self.offsets.values())
            xref = int(STARTXREF.search(self.data[-64:]).group(1))
            self._end_of = dict(zip(starts, starts[1:] + [xref]))
        return self._end_of

    def value(self, number: int):
        """The object parsed: dict, list, Name, Ref, Raw, or a Stream."""
        if number not in self._values:
            start = self.offsets[number]
            head = OBJ.match(self.data, start)
            if head is None or int(head.group(1)) != number:
                raise ValueError(f"object {number} is not where the cross-reference table says")
            value, at = parse(self.data, head.end())
            at = SPACE.match(self.data, at).end()
            opened = STREAM.match(self.data, at)
            if opened is not None:
                length = self.resolve(value[b"/Length"])
                value = Stream(value, self.data[opened.end():opened.end() + int(length)])
            self._values[number] = value
        return self._values[number]

    def resolve(self, value):
        return self.value(value) if isinstance(value, Ref) else value

    def pages(self) -> list[int]:
        """The page objects' numbers, in order."""
        root = self.resolve(self.trailer[b"/Root"])
        out, todo = [], [root[b"/Pages"]]
        while todo:
            ref = todo.pop(0)
            node = self.value(ref)
            if node.get(b"/Type") == b"/Pages":
                todo[:0] = list(self.resolve(node[b"/Kids"]))
            else:
                out.append(int(ref))
        return out

    def page_streams(self, number: int) -> list[Stream]:
        """The page's content streams, in order."""
        contents = self.value(number).get(b"/Contents", [])
        contents = self.resolve(contents) if not isinstance(self.resolve(contents), Stream) else [contents]
        return [self.resolve(stream) for stream in contents]


def _xref(data: bytes, at: int) -> tuple[dict, int]:
    offsets = {}
    while True:
        at = SPACE.match(data, at).end()
        head = XREF_HEAD.match(data, at)
        if head is None:
            return offsets, at
        first, count = int(head.group(1)), int(head.group(2))
        at = head.end()
        for number in range(first, first + count):
            at = SPACE.match(data, at).end()
            row = XREF_ROW.match(data, at)
            if row is None:
                raise ValueError("a broken cross-reference table")
            if row.group(3) == b"n":
                offsets[number] = int(row.group(1))
            at = row.end()


def parse(data: bytes, at: int):
    """(the value that starts at `at`, where it ends)."""
    at = SPACE.match(data, at).end()
    if data.startswith(b"<<", at):
        out, at = {}, at + 2
        while True:
            at = SPACE.match(data, at).end()
            if data.startswith(b">>", at):
                return out, at + 2
            key, at = parse(data, at)
            out[key], at = parse(data, at)
    if data[at:at + 1] == b"[":
        out, at = [], at + 1
        while True:
            at = SPACE.match(data, at).end()
            if data[at:at + 1] == b"]":
                return out, at + 1
            item, at = parse(data, at)
            out.append(item)
    if data[at:at + 1] == b"/":
        end = REGULAR.match(data, at + 1)
        stop = end.end() if end else at + 1
        return Name(data[at:stop]), stop
    if data[at:at + 1] == b"(":
        return _literal(data, at)
    if data[at:at + 1] == b"<":
        stop = data.index(b">", at) + 1
        return Raw(data[at:stop]), stop
    ref = REF.match(data, at)
    if ref is not None:
        return Ref(int(ref.group(1))), ref.end()
    token = REGULAR.match(data, at)
    if token is None:
        raise ValueError(f"unreadable PDF at byte {at}")
    return Raw(token.group()), token.end()


def _literal(data: bytes, at: int) -> tuple[Raw, int]:
    """A (string), its nested parentheses and escapes kept as written."""
    depth, index = 0, at
    while True:
        char = data[index]
        if char == 0x5C:   # backslash: the next byte is escaped
            index += 2
            continue
        depth += (char == 0x28) - (char == 0x29)
        index += 1
        if depth == 0:
            return Raw(data[at:index]), index


REF_OR_SKIP = re.compile(rb"(?<![0-9A-Za-z.#_+-])(\d+)\s+(\d+)\s+R\b|\(|%[^\r\n]*")


def renumbered(text: bytes, number_of) -> bytes:
    """`text` (a dictionary or other value as written) with each reference `N G R` made `number_of(N) 0 R`;
    strings and comments are passed over, so text that only looks like a reference is left alone."""
    out, kept, at = [], 0, 0
    while (found := REF_OR_SKIP.search(text, at)) is not None:
        if found.group(1) is not None:
            out += [text[kept:found.start()], b"%d 0 R" % number_of(int(found.group(1)))]
            kept = at = found.end()
        elif found.group() == b"(":
            at = _literal(text, found.start())[1]
        else:
            at = found.end()
    return b"".join(out) + text[kept:]


def dump(value) -> bytes:
    if isinstance(value, dict):
        return b"<< " + b" ".join(dump(k) + b" " + dump(v) for k, v in value.items()) + b" >>"
    if isinstance(value, list):
        return b"[ " + b" ".join(dump(v) for v in value) + b" ]"
    if isinstance(value, Ref):
        return b"%d 0 R" % value
    if isinstance(value, (Name, Raw)):
        return bytes(value)
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, (int, float)):
        return number(value).encode()
    raise TypeError(f"not a PDF value: {value!r}")


def number(value: float) -> str:
    """As pdfforms.draw_forms wrote a matrix's numbers: four decimals, no trailing zeros."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


class Out:
    """The objects of the PDF being written, by number; new ones are numbered from `first`."""

    def __init__(self, first: int = 1):
        self.objects: dict[int, bytes] = {}   # number -> the whole `N 0 obj ... endobj` chunk
        self.next = first
        self.copied: dict = {}   # (id(source), number) -> its number here
        self.sources: list = []
        self.shared: dict = {}   # the bytes of a dictionary added once (shared) -> its number

    def add(self, value, data: bytes | None = None) -> Ref:
        number, self.next = self.next, self.next + 1
        self.put(number, value, data)
        return Ref(number)

    def add_shared(self, value) -> Ref:
        """`value` added as an object, or the one already added with the same bytes (every page's resources
        are the same dictionary in a typeset booklet)."""
        written = dump(value)
        if written not in self.shared:
            self.shared[written] = self.add(value)
        return self.shared[written]

    def put(self, number: int, value, data: bytes | None = None) -> None:
        if data is None:
            self.objects[number] = b"%d 0 obj\n" % number + dump(value) + b"\nendobj\n"
        else:
            info = {**value, Name(b"/Length"): len(data)}
            self.objects[number] = (b"%d 0 obj\n" % number + dump(info) + b"\nstream\n" + data
                                    + b"\nendstream\nendobj\n")

    def copy(self, source: Source, value):
        """`value` (from `source`) with every object it refers to copied here, once, and renumbered."""
        if isinstance(value, Ref):
            return Ref(self._copied(source, int(value)))
        if isinstance(value, dict):
            return {k: self.copy(source, v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.copy(source, v) for v in value]
        return value

    def _copied(self, source: Source, number: int) -> int:
        """The number here of `source`'s object `number`, copied once as its bytes with only its references
        renumbered (a stream's data as it is)."""
        key = (id(source), number)
        if key not in self.copied:
            self.sources.append(source)   # held, so no other source takes its id while this Out lives
            self.copied[key] = here = self.next
            self.next += 1
            chunk = source.chunk(number)
            head = OBJ.match(chunk)
            if head is None or int(head.group(1)) != number:
                raise ValueError(f"object {number} is not where the cross-reference table says")
            end = parse(chunk, head.end())[1] if chunk.rstrip()[:-6].rstrip().endswith(b"endstream") else len(chunk)
            body = renumbered(chunk[head.end():end], lambda ref: self._copied(source, ref))
            self.objects[here] = b"%d 0 obj" % here + body + chunk[end:]
        return self.copied[key]

    def write(self, header: bytes, trailer: dict) -> bytes:
        """The whole file: `header` (the %PDF line and its binary comment), the objects in number order, one
        cross-reference table and `trailer` (its /Size added)."""
        out, offsets = bytearray(header), {}
        for number in sorted(self.objects):
            offsets[number] = len(out)
            out += self.objects[number]
        size = max(offsets, default=0) + 1
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % size
        for number in range(1, size):
            out += b"%010d 00000 n \n" % offsets[number] if number in offsets else b"0000000000 65535 f \n"
        out += b"trailer\n" + dump({Name(b"/Size"): size, **trailer}) + b"\nstartxref\n%d\n%%%%EOF\n" % xref
        return bytes(out)


def header_of(data: bytes) -> bytes:
    """The %PDF line and the comment line after it."""
    first = data.index(b"\n") + 1
    return data[:data.index(b"\n", first) + 1] if data[first:first + 1] == b"%" else data[:first]


def page_form(out: Out, source: Source, page: int) -> Ref:
    """The page as a Form XObject in `out`: its one content stream's bytes as they are (never decoded), its
    resources copied. A page of several streams (one a figure was laid on) becomes a form that runs its short
    plain streams inline and draws each other one as a form of its own, so no stream is decoded there either."""
    info = source.value(page)
    box = [float(source.resolve(v)) for v in source.resolve(info[b"/MediaBox"])]
    resources = out.copy(source, source.resolve(info.get(b"/Resources", {})))
    shared = out.add_shared(resources)
    streams = source.page_streams(page)
    form = {Name(b"/Type"): Name(b"/XObject"), Name(b"/Subtype"): Name(b"/Form"), Name(b"/BBox"): box,
            Name(b"/Resources"): shared}
    if len(streams) == 1:
        return out.add({**form, **_filters(streams[0])}, streams[0].data)
    inner, ops = {}, []
    for stream in streams:
        if b"/Filter" not in stream.info and len(stream.data) < 4096:
            ops.append(stream.data)
        else:
            name = Name(b"/PnpPart%d" % len(inner))
            inner[name] = out.add({**form, **_filters(stream)}, stream.data)
            ops.append(b"\n" + name + b" Do\n")
    xobjects = resources.get(b"/XObject", {})
    xobjects = _parsed(out, xobjects) if isinstance(xobjects, Ref) else xobjects
    merged = out.add({**resources, Name(b"/XObject"): {**xobjects, **inner}})
    return out.add({**form, Name(b"/Resources"): merged}, b"".join(ops))


def _filters(stream: Stream) -> dict:
    return {k: v for k, v in stream.info.items() if k in (b"/Filter", b"/DecodeParms")}


def _parsed(out: Out, ref: Ref) -> dict:
    chunk = out.objects[int(ref)]
    value, _ = parse(chunk, OBJ.match(chunk).end())
    return value


def forms_drawn(forms: list[tuple[bytes, tuple]]) -> bytes:
    """The content that draws each (name, (a, b, c, d, e, f)) form: as pdfforms.draw_forms wrote it."""
    ops = [f"q {' '.join(number(m) for m in matrix)} cm {name.decode()} Do Q" for name, matrix in forms]
    return ("q\n" + "\n".join(ops) + "\nQ\n").encode()


def lay_on(pdf: bytes, layers: list[tuple[bytes, list]]) -> bytes:
    """`pdf` with art drawn on its pages: each layer is (a PDF of art pages, [(page, art page index, (a, b, c,
    d, e, f), above)]); an art goes beneath the page's own drawing (callout lines over the art), or `above`
    it, in the layers' order (a cover's pieces over its picture, then the icons). Every object of `pdf` but
    the pages drawn on stays byte for byte; each art page becomes one form, however often it is drawn."""
    if not any(places for _, places in layers):
        return pdf
    source = Source(pdf)
    out = Out(first=source.size)
    out.objects.update((number, source.chunk(number)) for number in source.offsets)
    pages, drawn = source.pages(), {}
    for art_pdf, places in layers:
        art = Source(art_pdf)
        art_pages, forms = art.pages(), {}
        for page, index, matrix, above in places:
            if index not in forms:
                forms[index] = page_form(out, art, art_pages[index])
            drawn.setdefault(page, ([], []))[above].append((forms[index], matrix))
    for page, (under, over) in sorted(drawn.items()):
        _draw_on_page(out, source, pages[page - 1], under, over)
    trailer = {Name(key): source.trailer[key] for key in (b"/Root", b"/Info", b"/ID") if key in source.trailer}
    return out.write(header_of(pdf), trailer)


def _draw_on_page(out: Out, source: Source, number: int, under: list, over: list) -> None:
    """The page object written again with the forms in its resources, `under` drawn before its content and
    `over` after it (wrapped in q/Q, so it starts from the page's first graphics state)."""
    info = dict(source.value(number))
    resources = dict(source.resolve(info.get(b"/Resources", {})))
    xobjects = dict(source.resolve(resources.get(b"/XObject", {})))
    named = []
    for form, matrix in under + over:
        name = Name(b"/PnpForm%d" % sum(1 for key in xobjects if key.startswith(b"/PnpForm")))
        xobjects[name] = form
        named.append((name, matrix))
    resources[Name(b"/XObject")] = xobjects
    old = source.resolve(info.get(b"/Contents", []))
    old = list(old) if isinstance(old, list) else [info[b"/Contents"]]
    contents = [out.add({}, forms_drawn(named[:len(under)]))] if under else []
    contents += old if not over else [out.add({}, b"q\n"), *old, out.add({}, b"\nQ\n"),
                                      out.add({}, forms_drawn(named[len(under):]))]
    info[Name(b"/Resources")], info[Name(b"/Contents")] = resources, contents
    out.put(number, info)


def impose_pages(pdf: bytes, sheet: tuple[float, float], sides_of, matrices) -> bytes:
    """A PDF of `sheet`-sized pages, one per side `sides_of(page count)` gives ([(left page index or None,
    right)...]), each
    booklet page drawn as a form by the matrix `matrices(side number, x0, page box)` gives."""
    source = Source(pdf)
    out = Out()
    numbers = source.pages()
    forms = [page_form(out, source, number) for number in numbers]
    boxes = [[float(source.resolve(v)) for v in source.resolve(source.value(n)[b"/MediaBox"])] for n in numbers]
    parent = out.next
    out.next += 1
    width, height = sheet
    kids = []
    for side, halves in enumerate(sides_of(len(numbers))):
        halves = [(index, x0) for index, x0 in zip(halves, (0.0, width / 2)) if index is not None]
        placed = [(Name(b"/PnpForm%d" % slot), forms[index], matrices(side, x0, boxes[index]))
                  for slot, (index, x0) in enumerate(halves)]
        content = out.add({}, forms_drawn([(name, matrix) for name, _, matrix in placed]))
        kids.append(out.add({Name(b"/Type"): Name(b"/Page"), Name(b"/Parent"): Ref(parent),
                             Name(b"/MediaBox"): [0, 0, width, height],
                             Name(b"/Resources"): {Name(b"/XObject"): {name: form for name, form, _ in placed}},
                             Name(b"/Contents"): content}))
    out.put(parent, {Name(b"/Type"): Name(b"/Pages"), Name(b"/Kids"): kids, Name(b"/Count"): len(kids)})
    catalog = out.add({Name(b"/Type"): Name(b"/Catalog"), Name(b"/Pages"): Ref(parent)})
    trailer = {Name(b"/Root"): catalog}
    title = _title(source)
    if title:
        trailer[Name(b"/Info")] = out.add({Name(b"/Title"): text_string(f"{title} (imposed for saddle stitching)")})
    return out.write(header_of(pdf), trailer)


def _title(source: Source) -> str:
    info = source.resolve(source.trailer.get(b"/Info", {}))
    title = source.resolve(info.get(b"/Title")) if isinstance(info, dict) else None
    return "" if title is None else text_of(bytes(title))


ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f"}


def text_of(token: bytes) -> str:
    """The text of a PDF string token, (literal) or <hex>: UTF-16 after its byte order mark, else
    PDFDocEncoding (the titles reportlab writes)."""
    if token.startswith(b"<"):
        raw = bytes.fromhex(token[1:-1].decode("ascii"))
    else:
        raw, index, body = bytearray(), 0, token[1:-1]
        while index < len(body):
            char = body[index]
            if char != 0x5C:
                raw.append(char)
                index += 1
                continue
            following = body[index + 1:index + 2]
            octal = re.match(rb"[0-7]{1,3}", body[index + 1:index + 4])
            if octal:
                raw.append(int(octal.group(), 8) & 0xFF)
                index += 1 + len(octal.group())
            elif following in (b"\n", b"\r"):
                index += 2 + (body[index + 1:index + 3] == b"\r\n")
            else:
                raw += ESCAPES.get(following[0], following) if following else b""
                index += 2
        raw = bytes(raw)
    if raw.startswith(b"\xfe\xff"):
        return raw[2:].decode("utf-16-be")
    return raw.decode("latin-1").translate(PDF_DOC)


# PDFDocEncoding where it is not Latin-1 (PDF 1.7, annex D.2): what reportlab writes a title's ’ or – in
PDF_DOC = {code: char for code, char in zip(
    [*range(0x18, 0x20), *range(0x80, 0x9F), 0xA0],
    "\u02d8\u02c7\u02c6\u02d9\u02dd\u02db\u02da\u02dc"
    "\u2022\u2020\u2021\u2026\u2014\u2013\u0192\u2044\u2039\u203a\u2212\u2030\u201e\u201c\u201d\u2018"
    "\u2019\u201a\u2122\ufb01\ufb02\u0141\u0152\u0160\u0178\u017d\u0131\u0142\u0153\u0161\u017e\u20ac")}


def text_string(text: str) -> Raw:
    """A PDF text string: <hex> of UTF-16 with its byte order mark (any text, no escaping to get wrong)."""
    return Raw(b"<" + (b"\xfe\xff" + text.encode("utf-16-be")).hex().encode("ascii") + b">")
