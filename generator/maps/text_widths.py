"""Text widths for the assembly pages' line breaks (pnpgen.maps.files), read by hand from the shipped TrueType
font's own tables (cmap and hmtx), equal to the last bit to what reportlab's stringWidth says of them.

The maps and boards parts measure a few hundred strings a build (each step line as it grows); registering
the shipped fonts with reportlab for that parsed six whole font files (0.19 s, with reportlab's import
0.05 s) in a worker that draws with cairo and needs nothing else of reportlab. Here one font's tables are
read once per process, and each character's glyph and advance are looked up when it is first measured.
tests/test_text_widths.py compares every character of the shipped faces, and the widths of strings, with
reportlab's.
"""
from __future__ import annotations

import struct
from bisect import bisect_left
from functools import cache

from pnpgen import kit_files
from pnpgen.fonts import FONT_DIR, REPORTLAB_FONTS


def string_width(text: str, face: str, size: float) -> float:
    """The width in points of `text` in the shipped `face` (a reportlab font name: "DejaVuSans") at `size`,
    summed and scaled as reportlab's stringWidth does (the characters' widths in thousandths of an em added
    from the left, times 0.001, times the size)."""
    return sum(map(face_widths(face).by_char.__getitem__, text)) * 0.001 * size


@cache
def face_widths(face: str) -> FaceWidths:
    """The shipped face's widths, its file read once per process (as pnpgen.fonts registers it with reportlab)."""
    path = FONT_DIR / REPORTLAB_FONTS[face]
    return FaceWidths(kit_files.read_bytes(path, FONT_DIR))


class FaceWidths:
    """One font's advance widths by character, in thousandths of an em (reportlab's charWidths, built lazily):
    the character's glyph from the cmap subtable reportlab picks, that glyph's advance from hmtx (the last
    advance for glyphs past numberOfHMetrics); an unmapped character takes glyph 0's (its defaultWidth)."""

    def __init__(self, data: bytes):
        self.data = data
        tables = {}
        for index in range(struct.unpack_from(">H", data, 4)[0]):
            tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * index)
            tables[tag] = offset
        units = struct.unpack_from(">H", data, tables[b"head"] + 18)[0]
        self.metrics = struct.unpack_from(">H", data, tables[b"hhea"] + 34)[0]
        self.glyphs = struct.unpack_from(">H", data, tables[b"maxp"] + 4)[0]
        self.hmtx = tables[b"hmtx"]
        self.scale = None if units == 1000 else 1000 / units   # as reportlab scales (x * (1000 / units))
        self.subtable = _chosen_subtable(data, tables[b"cmap"])
        self.format = struct.unpack_from(">H", data, self.subtable)[0]
        if self.format not in (4, 12):
            raise ValueError(f"cmap format {self.format} is not read here (4 and 12 are)")
        self.default = self._advance(0)
        self.ranges = None
        self.by_char = _Widths(self._width)   # character -> width, each worked out when first asked

    def width(self, code: int) -> float:
        return self.by_char[chr(code)]

    def _width(self, code: int) -> float:
        if code == 0xA0 and self._glyph(0x20) is not None:   # reportlab: a no-break space is a space's width
            code = 0x20
        elif code == 0x20 and self._glyph(0x20) is None and self._glyph(0xA0) is not None:
            code = 0xA0
        glyph = self._glyph(code)
        return self.default if glyph is None or glyph >= self.glyphs else self._advance(glyph)

    def _advance(self, glyph: int) -> float:
        at = self.hmtx + 4 * min(glyph, self.metrics - 1)
        advance = struct.unpack_from(">H", self.data, at)[0]
        return advance if self.scale is None else advance * self.scale

    def _glyph(self, code: int) -> int | None:
        """The glyph reportlab's cmap maps `code` to; None where it maps none (its defaultWidth)."""
        if self.ranges is None:
            self.ranges = _ranges(self.data, self.subtable, self.format)
        starts, ends, glyph_of = self.ranges
        n = bisect_left(ends, code)   # ranges are sorted and apart, as the format requires
        return glyph_of(n, code) if n < len(ends) and starts[n] <= code else None


def _ranges(data: bytes, at: int, kind: int) -> tuple:
    """(starts, ends, glyph_of(range index, code)) of a format 4 or 12 cmap subtable at `at`."""
    if kind == 12:
        count = struct.unpack_from(">I", data, at + 12)[0]
        groups = list(struct.iter_unpack(">III", data[at + 16: at + 16 + 12 * count]))
        return [g[0] for g in groups], [g[1] for g in groups], lambda n, code: code - groups[n][0] + groups[n][2]
    length, segments = struct.unpack_from(">H", data, at + 2)[0], struct.unpack_from(">H", data, at + 6)[0] // 2
    column = lambda first, fmt: struct.unpack_from(f">{segments}{fmt}", data, first)
    ends = column(at + 14, "H")
    starts = column(at + 16 + 2 * segments, "H")
    deltas = column(at + 16 + 4 * segments, "h")
    ranges_at = at + 16 + 6 * segments
    offsets = column(ranges_at, "H")

    def glyph_of(n: int, code: int) -> int:
        if offsets[n] == 0:
            return (code + deltas[n]) & 0xFFFF
        place = ranges_at + 2 * n + offsets[n] + (code - starts[n]) * 2
        glyph = 0 if place >= at + length else struct.unpack_from(">H", data, place)[0]
        return (glyph + deltas[n]) & 0xFFFF if glyph else 0
    return starts, ends, glyph_of


def _chosen_subtable(data: bytes, cmap: int) -> int:
    """The offset of the cmap subtable reportlab reads: the last Windows one, else the last Unicode one
    (not encoding 5), a Mac Roman one only while nothing better was seen, as its extractInfo walks them."""
    version, count = struct.unpack_from(">HH", data, cmap)
    if count == 0 and version != 0:
        count = version
    chosen, kind = None, 0
    for index in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * index)
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            chosen, kind = offset, 1
        elif platform == 1 and encoding == 0 and kind != 1:
            chosen, kind = offset, 2
    if chosen is None:
        raise ValueError("no cmap subtable reportlab would read")
    return cmap + chosen


class _Widths(dict):
    """A dict that works out a missing character's width when it is first looked up."""

    def __init__(self, work_out):
        super().__init__()
        self.work_out = work_out

    def __missing__(self, char: str) -> float:
        width = self[char] = self.work_out(ord(char))
        return width
