"""The home bleed's work on each face remembered in the user's cache: a face's band colours depend only on
its drawing (its content key: the SVG, the images and kit fonts it shows, the renderer), its shape and bleed,
and the bands cut to a room only on those and the room. A build into a new output folder, or after a data
edit, takes both for every face and room seen before instead of rendering the face to sample its edges and
cutting its bands again; a new drawing or a new room is worked out as before. The memo is salted with the
bleed's code (pnpgen.render.home_bleed, bleed_cuts, the shapes, this module) and cairo's version, and sealed
as the checks' memo is (pnpgen.render.check_memo): one another user wrote is not read. An entry is still
checked before it is used: colours in 0-1, one per band, and a cut's points inside the room it was cut to,
so even a damaged entry cannot paint outside the piece's own room; one that fails is worked out again."""
from __future__ import annotations

import hashlib
import math
import weakref
import zlib
from array import array
from functools import lru_cache

from pnpgen.render.check_memo import CheckMemo

VERSION = 1
LARGEST = 64 << 20   # bytes: a memo that unpacks to more is not read (KEEP of Eclipse's entries take 24 MB)
SLACK = 1e-6   # points: how far past its room a cut's point may lie (the clip's own rounding)


@lru_cache(maxsize=1)
def bleed_salt() -> str:
    """The code that turns a face's art into cut bands, and the cairo that rasterizes it for the samples."""
    import sys

    from pnpgen import shapes
    from pnpgen.output_cache import source_fingerprint
    from pnpgen.render import bleed_cuts, check_memo, home_bleed
    from pnpgen.render.cairo_lib import cairo
    return f"{VERSION}:{cairo().cairo_version()}:" + source_fingerprint(
        home_bleed, bleed_cuts, shapes, check_memo, sys.modules[__name__])


class BleedMemo(CheckMemo):
    """{entry key: band colours or cut bands} of one kit's faces. A face's art is named by its drawing key
    (name()) when the face store hands it out; an art not named (a preview's fresh replay) is worked out
    every time, as without the memo."""

    FOLDER, SUFFIX = "bleed-bands", ".bin"
    KEEP = 6000   # entries per kit: this build's first, then the newest others (Eclipse's take 4 kB on average)

    def __init__(self, kit_root):
        super().__init__("home-bleed", kit_root)
        self.names: dict = {}   # id(art) -> (weak reference to the art, its drawing key)
        self.read: dict = {}    # (stored cut, box) -> the cut read from it: like slots' cuts read once, one list

    def salt(self) -> str:
        return bleed_salt()

    def decode(self, stored: bytes) -> dict:
        """{entry key: its doubles' bytes} from the memo as written (encode): zlib over the salt's line, then
        each entry's key (its kind and 20-byte digest, 21 bytes), the number of its doubles (4 bytes) and the
        doubles. The entries are views of the one unpacked buffer, so the memo takes its packed size in
        memory (SE4X's: 1.6 MB), not JSON's three copies. {} when it is not one or would unpack past LARGEST."""
        try:
            unpacker = zlib.decompressobj()
            data = unpacker.decompress(stored, LARGEST)
        except zlib.error:
            return {}
        salt = self.salt().encode("utf-8") + b"\n"
        if not unpacker.eof or unpacker.unconsumed_tail or not data.startswith(salt):
            return {}
        view, at, entries = memoryview(data), len(salt), {}
        while at + 25 <= len(data):
            count = int.from_bytes(view[at + 21:at + 25], "little")
            end = at + 25 + 8 * count
            if end > len(data):
                return {}
            entries[bytes(view[at:at + 21])] = view[at + 25:end]
            at = end
        return entries if at == len(data) else {}

    def encode(self, entries: dict) -> bytes:
        parts = [self.salt().encode("utf-8") + b"\n"]
        for key, numbers in entries.items():
            parts += [key, (len(numbers) // 8).to_bytes(4, "little"), numbers]
        return zlib.compress(b"".join(parts), 1)   # written after each edit: level 6 took 28 ms of SE4X's 2 MB, for 0.8 ms less to read

    def name(self, art, key: str) -> None:
        self.names[id(art)] = (weakref.ref(art), key)

    def _drawing(self, art) -> str | None:
        found = self.names.get(id(art))
        return found[1] if found is not None and found[0]() is art else None

    def colours(self, art, shape, bleed: float, sample) -> list:
        """The colour of each of the shape's bands (home_bleed.band_colours): remembered, else sample()."""
        drawing = self._drawing(art)
        if drawing is None:
            return sample()
        from pnpgen.render.home_bleed import band_geometry
        bands = len(band_geometry(shape, bleed))
        return self._kept(b"c" + _digest(drawing, shape, bleed), lambda stored: _colours(stored, bands), sample,
                          _pack_colours)

    def cut(self, art, shape, bleed: float, room: tuple, cut) -> list:
        """The face's bands cut to `room` (turned, sides, half-planes: home_bleed.cut_bands' key), in the
        slot's frame: remembered, else cut()."""
        drawing = self._drawing(art)
        if drawing is None:
            return cut()
        turned, sides, planes = room
        key = b"k" + _digest(drawing, shape, bleed, art.width, art.height, turned, sides, planes)
        left, top, right, bottom = sides
        box = (bleed - left - SLACK, bleed - top - SLACK, bleed + shape.w + right + SLACK,
               bleed + shape.h + bottom + SLACK)
        stored = self.known.get(key)
        found = self.read.get((stored, box)) if stored is not None else None
        if found is None and stored is not None:
            found = self.read[stored, box] = _bands(stored, box)
        if found is None:
            found = cut()
            self.dirty, self.known[key] = True, _pack_bands(found)
        self.used[key] = self.known[key]
        return found

    def means(self, art, shape, bleed: float, work) -> dict:
        """{edge: mean colour} of a face's non-paper bands (home_bleed._side_means): remembered by its
        drawing, else work()."""
        drawing = self._drawing(art)
        if drawing is None:
            return work()
        return self._kept(b"m" + _digest(drawing, shape, bleed), _means, work, _pack_means)

    def bare(self, page: tuple, count: int, work) -> list:
        """The bare edges [(slot, side, why)] of a page of `count` slots (home_bleed.page_bare_edges, `page`
        its key: the rects, the sides without room, the side colours): remembered, else work()."""
        return self._kept(b"b" + _digest(page), lambda stored: _bare(stored, count), work, _pack_bare)

    def rooms(self, layout: tuple, count: int, work) -> list:
        """The (left, top, right, bottom, half-planes) room of each of a page layout's `count` pieces
        (home_bleed.slot_allowances, `layout` its key: the rects, bounds and outer cap): remembered, else
        work(). A page's rooms weigh each piece against its neighbours (Eclipse's 21 layouts took 40 ms)."""
        return self._kept(b"r" + _digest(layout), lambda stored: _rooms(stored, count), work, _pack_rooms)

    def _kept(self, key: bytes, unpack, work, pack):
        """What is kept under `key` (unpack gives None for a missing or misshapen entry), else work() kept."""
        found = unpack(self.known.get(key))
        if found is None:
            found = work()
            self.dirty, self.known[key] = True, pack(found)
        self.used[key] = self.known[key]
        return found


def _digest(*parts) -> bytes:
    return hashlib.sha1(repr(parts).encode("utf-8")).digest()


def _pack(numbers: list) -> bytes:
    """Numbers as their doubles: exact (the output must not move)."""
    return array("d", numbers).tobytes()


def _unpack(stored) -> array | None:
    if stored is None:
        return None
    numbers = array("d")
    numbers.frombytes(stored)   # (decode cut it to whole doubles)
    return numbers if all(map(math.isfinite, numbers)) else None


class Points:
    """A remembered polygon's points kept as its flat doubles (x, y, x, y...), given as (x, y) when iterated:
    a kit's cuts as tuples of floats took twice the memory the bands cut in the build do (those share
    their points between faces), SE4X's 10 MB."""

    __slots__ = ("flat",)

    def __init__(self, flat: array):
        self.flat = flat

    def __iter__(self):
        numbers = iter(self.flat)
        return zip(numbers, numbers)

    def __len__(self) -> int:
        return len(self.flat) // 2


def _pack_colours(colours: list) -> bytes:
    """A band's colour as its (r, g, b), paper (None) as -1, -1, -1."""
    return _pack([c for colour in colours for c in (colour if colour is not None else (-1.0, -1.0, -1.0))])


def _colours(stored, bands: int) -> list | None:
    """A stored colour list with one colour (or paper) per band, each in 0-1; None if it is not one."""
    numbers = _unpack(stored)
    if numbers is None or len(numbers) != 3 * bands:
        return None
    out = []
    for k in range(0, len(numbers), 3):
        colour = tuple(numbers[k:k + 3])
        if colour == (-1.0, -1.0, -1.0):
            out.append(None)
        elif min(colour) >= 0.0 and max(colour) <= 1.0:
            out.append(colour)
        else:
            return None
    return out


def _pack_means(means: dict) -> bytes:
    """A face's side means as edge, r, g, b each."""
    return _pack([n for edge, colour in sorted(means.items()) for n in (edge, *colour)])


def _means(stored) -> dict | None:
    """Stored side means {edge: (r, g, b)} with whole edges 0 to 3 and colours in 0-1, else None."""
    numbers = _unpack(stored)
    if numbers is None or len(numbers) % 4:
        return None
    out = {}
    for k in range(0, len(numbers), 4):
        edge, colour = numbers[k], tuple(numbers[k + 1:k + 4])
        if edge not in (0.0, 1.0, 2.0, 3.0) or min(colour) < 0.0 or max(colour) > 1.0:
            return None
        out[int(edge)] = colour
    return out


WHY = ("neighbour", "edge")   # home_bleed.bare_edges' reasons, stored by their index


def _pack_bare(found: list) -> bytes:
    """A page's bare edges as slot, side index and reason index each."""
    from pnpgen.render.home_bleed import SIDES
    return _pack([n for slot, side, why in found for n in (slot, SIDES.index(side), WHY.index(why))])


def _bare(stored, count: int) -> list | None:
    """Stored bare edges [(slot, side, why)] with slots below `count`, sides and reasons known, else None."""
    from pnpgen.render.home_bleed import SIDES
    numbers = _unpack(stored)
    if numbers is None or len(numbers) % 3:
        return None
    out = []
    for k in range(0, len(numbers), 3):
        slot, side, why = numbers[k:k + 3]
        if not (slot == int(slot) and 0 <= slot < count and side in (0.0, 1.0, 2.0, 3.0) and why in (0.0, 1.0)):
            return None
        out.append((int(slot), SIDES[int(side)], WHY[int(why)]))
    return out


def _pack_rooms(rooms: list) -> bytes:
    """Rooms as left, top, right, bottom, the number of half-planes, then each plane's nx, ny and c."""
    return _pack([n for room in rooms for n in (*room[:4], len(room[4]), *(v for plane in room[4] for v in plane))])


def _rooms(stored, count: int) -> list | None:
    """`count` stored rooms as (left, top, right, bottom, planes) whose sides lie in 0 to the most bleed and
    whose planes' normals are diagonal (nx, ny each 1 or -1, as home_bleed._mitre makes them), else None."""
    from pnpgen.render.home_bleed import HOME_BLEED
    numbers = _unpack(stored)
    if numbers is None:
        return None
    out, k = [], 0
    while k + 5 <= len(numbers):
        sides, planes = tuple(numbers[k:k + 4]), int(numbers[k + 4])
        end = k + 5 + 3 * planes
        if planes != numbers[k + 4] or planes < 0 or end > len(numbers) or min(sides) < 0.0 \
                or max(sides) > HOME_BLEED:
            return None
        apart = tuple(tuple(numbers[j:j + 3]) for j in range(k + 5, end, 3))
        if any(nx not in (1.0, -1.0) or ny not in (1.0, -1.0) for nx, ny, _ in apart):
            return None
        out.append((*sides, apart))
        k = end
    return out if k == len(numbers) and len(out) == count else None


def _pack_bands(bands: list) -> bytes:
    """A cut [(colour, polygon)] as r, g, b, the number of points, then each point's x and y, band by band."""
    return _pack([n for colour, points in bands for n in (*colour, len(points), *(v for p in points for v in p))])


def _bands(stored, box: tuple) -> list | None:
    """A stored cut [(colour, polygon)] whose colours are colours and whose points lie inside `box`, else None.
    The bands are walked once to split them; their colours and all their points are then checked together
    (a cut is some 30 bands: checked band by band, SE4X's 378 cuts took a tenth of a second)."""
    numbers = _unpack(stored)
    if numbers is None:
        return None
    out, colours, points, k, end = [], [], array("d"), 0, len(numbers)
    while k < end:
        if k + 4 > end:
            return None
        count = numbers[k + 3]
        if not (count == int(count) and 3 <= count and k + 4 + 2 * int(count) <= end):
            return None
        stop = k + 4 + 2 * int(count)
        flat = numbers[k + 4:stop]
        colour = tuple(numbers[k:k + 3])
        colours.append(colour)
        points += flat
        out.append((colour, Points(flat)))
        k = stop
    if not out:
        return out
    left, top, right, bottom = box
    xs, ys = points[0::2], points[1::2]
    if min(map(min, colours)) < 0.0 or max(map(max, colours)) > 1.0 or min(xs) < left or max(xs) > right \
            or min(ys) < top or max(ys) > bottom:
        return None
    return out
