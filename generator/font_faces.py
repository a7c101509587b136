"""reportlab's reading of a TrueType face, kept in the user's cache: a font file is parsed once, not in every
process that draws with it.

reportlab parses a face in Python when a TTFont is made (TTFontFile.extractInfo reads the name, head, OS/2,
post, hhea, maxp, cmap, hmtx and loca tables: about 10 ms a DejaVu face, 0.06 s for the six pnpgen.fonts
registers in every process that typesets, each reportlab worker of every build among them). What it works
out depends only on the file's bytes, its name (a font with no PostScript name is named after its file) and
reportlab's code and settings, so it is kept under the bytes' SHA-256 and the name, salted with reportlab's
version, its ttfonts source, the settings it reads and this module's code: one sealed file per face
(pnpgen.signing: this user's pnpgen's only). The face still holds the file's bytes, from which reportlab
cuts the subset it embeds when a PDF is saved, so every PDF is the same bytes as with a parse.

What is read back is checked: a damaged, foreign or stale entry is parsed again, never trusted, and
unpickling builds plain values only (no class at all). An entry holds each attribute extractInfo set
(whatever reportlab's version sets: the face's attributes before and after are compared), two kinds of
which are not plain values and are made again: the names (reportlab's TTFNameBytes, a bytes with its text)
and the scale to thousandths of an em (a function of unitsPerEm); anything else not plain leaves the face
unkept. The big tables (cmap, widths, metrics, glyph positions) are unpickled when first read, so a face
registered and never drawn with costs next to nothing. Old entries go with the cache's monthly pruning.
"""
from __future__ import annotations

import hashlib
import io
import os
import pickle
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import ttfonts

from pnpgen import allowed_pickle

FOLDER = "font-faces"
VERSION = 1
LATER_BYTES = 2048   # an attribute pickled larger than this is unpickled when first read
PLAIN = (type(None), bool, int, float, str, bytes)
# the tables reportlab reads to set text in a face and embed it (stringWidth, splitString, makeSubset); the
# cmap's inverse (glyphToChar) only shapes text, which pnpgen does not ask for
DRAWN = ("charToGlyph", "charWidths", "hmetrics", "glyphPos")
SCALE = "_pdfScale"  # extractInfo's scale to thousandths of an em, a lambda: made again from unitsPerEm


def _unpickled(data: bytes):
    return allowed_pickle.loads(data, frozenset(), "a face's memo (plain values only)")


class KeptInfo:
    """extractInfo that restores what an earlier process worked out from the same bytes, else parses (as
    reportlab does) and keeps what the parse set. Mixed in before a reportlab class that parses a font."""

    def extractInfo(self, charInfo=1):
        path = _path(self, charInfo)
        kept = _read(path)
        if kept is not None:
            _restore(self, kept)
            return
        before = dict(vars(self))
        super().extractInfo(charInfo)
        found = {name: value for name, value in vars(self).items() if name not in before or before[name] is not value}
        entry = _entry(found, type(self))
        if entry is not None and path is not None:
            _write(path, entry)

    def __getattr__(self, name: str):
        """A big table of a restored face, unpickled on its first reading (then an attribute as any other)."""
        later = self.__dict__.get("_later")
        if later is None or name not in later:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = _unpickled(later[name])
        setattr(self, name, value)
        later.pop(name, None)   # after the attribute is set: a thread reading it meanwhile unpickles it too
        return value


class KeptFace(KeptInfo, ttfonts.TTFontFace):
    """reportlab's TrueType face (what a TTFont draws with and embeds), its parse kept."""


class KeptFontFile(KeptInfo, ttfonts.TTFontFile):
    """reportlab's TrueType reader (a kit font's names and characters at load), its parse kept."""


class KeptFont(ttfonts.TTFont):
    """reportlab's TTFont over a KeptFace made from `data` (reportlab names the font `filename` in its
    messages). TTFont.__init__ makes its face itself, a plain TTFontFace, so this sets what it sets
    (tests/test_font_faces.py holds the two to the same attributes)."""

    def __init__(self, name: str, data: bytes, filename: str):
        from weakref import WeakKeyDictionary

        from reportlab import rl_config
        self.fontName = name
        self.face = KeptFace(named_stream(data, filename))
        self.encoding = ttfonts.TTEncoding()
        self.state = WeakKeyDictionary()
        self._asciiReadable = rl_config.ttfAsciiReadable
        self.shapable = not any(ttfonts.fnmatch(name, glob) for glob in ttfonts.unShapedFontGlob)


def read_drawn_tables(face) -> None:
    """Unpickle now the tables drawing reads of a face restored from the memo: a process about to fork the
    workers that draw with it does, so that they share one copy instead of each unpickling its own."""
    for name in DRAWN:
        if name in face.__dict__.get("_later", ()):
            getattr(face, name)


def named_stream(data: bytes, filename: str) -> io.BytesIO:
    stream = io.BytesIO(data)
    stream.name = filename  # what reportlab names the font by in its messages (and a nameless font after)
    return stream


@lru_cache(maxsize=1)
def salt() -> bytes:
    """The code and settings extractInfo's answer depends on, and this module's: a change forgets every entry."""
    import sys

    import reportlab
    from reportlab import rl_config

    from pnpgen.output_cache import source_fingerprint
    settings = repr([getattr(rl_config, name, None) for name in ("allowTTFSubsetting", "autoGenerateMissingTTFName",
                                                                  "autoGenerateTTFMissingTTFName")])
    code = source_fingerprint(ttfonts, sys.modules[__name__])
    return f"{VERSION}:{reportlab.Version}:{code}:{settings}\n".encode()


def _path(face, char_info) -> Path | None:
    """The entry of these bytes, as this class reads them (a subfont of a collection, with or without the
    character tables), under this file name."""
    from pnpgen.resources import cache_folder
    folder = cache_folder(FOLDER)
    if folder is None:
        return None
    what = [type(face).__name__, os.path.basename(face.filename), repr(face.subfontNameX), bool(char_info)]
    key = hashlib.sha256(hashlib.sha256(face._ttf_data).digest() + repr(what).encode())
    return folder / f"{key.hexdigest()}.face"


def _read(path: Path | None) -> dict | None:
    """The entry at `path` if this code, with this reportlab, wrote it; None for anything else."""
    from pnpgen.signing import read_sealed
    data = read_sealed(path) if path is not None else None
    if not data or not data.startswith(salt()):
        return None
    try:
        entry = _unpickled(data[len(salt()):])
    except Exception:  # noqa: BLE001 - a damaged entry only costs the parse
        return None
    return entry if _shaped(entry) else None


def _shaped(entry) -> bool:
    """The entry has the parts _entry makes, each of its kind (what _restore reads, no more)."""
    if not isinstance(entry, dict) or set(entry) != {"now", "later", "names", "scaled"}:
        return False
    parts = [entry["now"], entry["later"], entry["names"]]
    return (all(isinstance(part, dict) and all(isinstance(name, str) for name in part) for part in parts)
            and all(isinstance(value, bytes) for value in entry["later"].values())
            and all(isinstance(value, str) for value in entry["names"].values())
            and type(entry["scaled"]) is bool
            and (not entry["scaled"] or type(entry["now"].get("unitsPerEm")) is int))


def _restore(face, entry: dict) -> None:
    face.__dict__.update(entry["now"])
    face.__dict__.update({name: ttfonts.TTFNameBytes(text.encode("utf-8")) for name, text in entry["names"].items()})
    face._later = dict(entry["later"])
    if entry["scaled"]:
        setattr(face, SCALE, _scale(face.unitsPerEm))


def _entry(found: dict, kind: type) -> dict | None:
    """What extractInfo set, as plain values, small ones to set at once and big ones pickled to read later
    (unless `kind` has an attribute of that name, which would be found before __getattr__ is asked); None
    when something in it cannot be kept exactly (the face is then parsed in every process)."""
    if not _renamed_exactly(found) or (SCALE in found and not _scaled_exactly(found)):
        return None
    if bytes(found.get("name") or b"").startswith(b"_RL_"):
        return None  # a nameless font's made-up name (reportlab numbers them per process): never kept
    entry = {"now": {}, "later": {}, "names": {}, "scaled": SCALE in found}
    for name, value in found.items():
        if name == SCALE:
            continue
        if isinstance(value, ttfonts.TTFNameBytes):
            entry["names"][name] = value.ustr
        elif not _plain(value):
            return None
        else:
            pickled = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
            if len(pickled) > LATER_BYTES and not hasattr(kind, name):
                entry["later"][name] = pickled
            else:
                entry["now"][name] = value
    return entry


def _plain(value) -> bool:
    """Made of None, booleans, numbers, text and bytes in lists, tuples and dictionaries (exact types: a
    subclass would not come back as itself)."""
    kind = type(value)
    if kind in PLAIN:
        return True
    if kind in (list, tuple):
        return all(map(_plain, value))
    return kind is dict and all(map(_plain, value)) and all(map(_plain, value.values()))


def _renamed_exactly(found: dict) -> bool:
    """Every name comes back as reportlab made it: the same bytes and the same text."""
    for value in found.values():
        if isinstance(value, ttfonts.TTFNameBytes):
            again = ttfonts.TTFNameBytes(value.ustr.encode("utf-8"))
            if type(value) is not ttfonts.TTFNameBytes or bytes(again) != bytes(value) or again.ustr != value.ustr:
                return False
    return True


def _scale(units_per_em: int):
    """Font units to thousandths of an em, as extractInfo computes them (the same operations, the same floats)."""
    if units_per_em == 1000:
        return lambda x: x
    factor = 1000 / units_per_em
    return lambda x: x * factor


def _scaled_exactly(found: dict) -> bool:
    """The scale made again gives what reportlab's gives, value and type, on the font's own metrics."""
    units = found.get("unitsPerEm")
    if type(units) is not int or units <= 0:
        return False
    again, scale = _scale(units), found[SCALE]
    samples = [0, 1, -1, 7, units, -units, *(width for width, _ in found.get("hmetrics", ())[:64])]
    return all(type(again(x)) is type(scale(x)) and again(x) == scale(x) for x in samples)


def _write(path: Path, entry: dict) -> None:
    """Keep the entry for later processes; a cache that cannot be written costs nothing."""
    from pnpgen.signing import seal
    from pnpgen.whole_files import write_whole
    try:
        write_whole(path, seal(salt() + pickle.dumps(entry, pickle.HIGHEST_PROTOCOL)))
    except OSError:
        pass
