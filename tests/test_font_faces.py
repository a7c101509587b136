"""A font face comes back from the user's cache as reportlab parses it: the same attributes, the same PDF
bytes; a later process registers the shipped fonts without parsing them; a damaged, foreign or hostile entry
is parsed again, never trusted."""
from __future__ import annotations

import json
import pickle
import subprocess
import sys
import textwrap

import pytest
from reportlab.pdfbase import ttfonts

from pnpgen import font_faces, signing
from pnpgen.fonts import FONT_DIR, REPORTLAB_FONTS

SANS = FONT_DIR / REPORTLAB_FONTS["DejaVuSans"]


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return tmp_path / "user-cache" / "pnpgen" / font_faces.FOLDER


def _entries(folder) -> list:
    return sorted(folder.glob("*.face"))


def _parses(monkeypatch) -> list:
    """The faces reportlab's own extractInfo reads from here on."""
    parsed = []
    real = ttfonts.TTFontFile.extractInfo

    def counting(face, charInfo=1):
        parsed.append(face.filename)
        return real(face, charInfo)
    monkeypatch.setattr(ttfonts.TTFontFile, "extractInfo", counting)
    return parsed


def _typed(value):
    """`value` with the type of each thing in it, so 600 and 600.0 differ (== alone would take one for the other)."""
    if isinstance(value, dict):
        return {_typed(key): _typed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_typed(item) for item in value]
    return type(value).__name__, value


def _attributes(font) -> dict:
    """A font's and its face's attributes, every table read, the scale function by what it gives."""
    face = font.face
    for name in list(face.__dict__.get("_later", {})):
        getattr(face, name)
    shown = {name: value for name, value in vars(face).items() if name not in ("_later", font_faces.SCALE)}
    shown["names"] = {name: (bytes(value), value.ustr) for name, value in vars(face).items()
                      if isinstance(value, ttfonts.TTFNameBytes)}
    shown["scaled"] = [(type(face._pdfScale(x)), face._pdfScale(x)) for x in (0, 1, 333, 2048, 1234.5)]
    outer = {name: value for name, value in vars(font).items() if name not in ("face", "state", "encoding")}
    outer["encoding"] = (type(font.encoding), vars(font.encoding))
    return _typed({"face": shown, "font": outer, "font names": sorted(vars(font))})


def test_a_kept_face_is_the_face_reportlab_parses(own_cache, monkeypatch):
    data = SANS.read_bytes()
    plain = ttfonts.TTFont("DejaVuSans", font_faces.named_stream(data, str(SANS)))
    parsed = _parses(monkeypatch)
    first = font_faces.KeptFont("DejaVuSans", data, str(SANS))
    again = font_faces.KeptFont("DejaVuSans", data, str(SANS))
    assert len(parsed) == 1 and len(_entries(own_cache)) == 1, "parsed once, then read from the user's cache"
    assert set(font_faces.DRAWN) <= set(again.face._later), "the big tables wait until they are read"
    font_faces.read_drawn_tables(again.face)
    assert not set(font_faces.DRAWN) & set(again.face._later) and set(font_faces.DRAWN) <= set(vars(again.face))
    assert _attributes(first) == _attributes(plain) == _attributes(again)


def test_an_entry_damaged_foreign_or_hostile_is_parsed_again(own_cache, monkeypatch):
    data = SANS.read_bytes()
    font_faces.KeptFont("DejaVuSans", data, str(SANS))
    [entry] = _entries(own_cache)
    good = entry.read_bytes()
    hostile = signing.seal(font_faces.salt() + pickle.dumps({"now": {"x": SystemExit()}, "later": {}, "names": {},
                                                             "scaled": False}))
    misshapen = signing.seal(font_faces.salt() + pickle.dumps({"now": {}, "later": {"charToGlyph": 7}, "names": {},
                                                               "scaled": False}))
    stale = signing.seal(b"0:older code\n" + signing.unseal(good)[len(font_faces.salt()):])
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 1
    parsed = _parses(monkeypatch)
    for bad in (bytes(flipped), good[:-10], b"", hostile, misshapen, stale, good.replace(signing.MAGIC, b"x" * 16, 1)):
        entry.write_bytes(bad)
        face = font_faces.KeptFont("DejaVuSans", data, str(SANS)).face
        assert face.charWidths[ord("W")] == 988.76953125 and "_later" not in vars(face)
    assert len(parsed) == 7 and entry.read_bytes() == good, "each bad entry parsed again and kept anew"


def test_a_font_with_other_bytes_or_another_name_is_its_own_entry(own_cache):
    data = SANS.read_bytes()
    font_faces.KeptFont("DejaVuSans", data, str(SANS))
    font_faces.KeptFont("DejaVuSans", data, "renamed.ttf")   # a nameless font is named after its file
    bold = FONT_DIR / REPORTLAB_FONTS["DejaVuSans-Bold"]
    font_faces.KeptFont("DejaVuSans-Bold", bold.read_bytes(), str(bold))
    assert len(_entries(own_cache)) == 3


# Registers pnpgen's fonts and writes one page with every face (all six embedded as subsets); then
# registers reportlab's own TTFonts of the same files under the same names and writes the page again. Says
# how many faces reportlab's extractInfo parsed while pnpgen registered and the two PDFs' digests.
PAGE = """
import hashlib, io, json
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfgen.canvas import Canvas
parsed = []
real = ttfonts.TTFontFile.extractInfo
ttfonts.TTFontFile.extractInfo = lambda face, charInfo=1: parsed.append(face.filename) or real(face, charInfo)
from pnpgen.fonts import FONT_DIR, REPORTLAB_FONTS, register_reportlab_fonts
register_reportlab_fonts()
ttfonts.TTFontFile.extractInfo = real

def page():
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1)
    for line, name in enumerate(REPORTLAB_FONTS):
        canvas.setFont(name, 11)
        canvas.drawString(72, 720 - 20 * line, f"{name}: Attack 4 → 5, Écran ✓ ½ Ωmega")
    canvas.save()
    return hashlib.sha256(out.getvalue()).hexdigest()
kept = page()
for name, file in REPORTLAB_FONTS.items():
    pdfmetrics.registerFont(ttfonts.TTFont(name, str(FONT_DIR / file)))
print(json.dumps({"parsed": len(parsed), "kept": kept, "reportlab": page()}))
"""


def _page_in_a_new_process(tmp_path) -> dict:
    env = {"XDG_CACHE_HOME": str(tmp_path / "user-cache"), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(PAGE)], capture_output=True, text=True, env=env,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_a_later_process_registers_the_fonts_without_parsing_them_and_prints_the_same_bytes(tmp_path, own_cache):
    first = _page_in_a_new_process(tmp_path)
    assert first["parsed"] == len(REPORTLAB_FONTS) and first["kept"] == first["reportlab"]
    later = _page_in_a_new_process(tmp_path)
    assert later == {**first, "parsed": 0}, "every face from the user's cache, the same PDF"
    entry = _entries(own_cache)[0]
    damaged = bytearray(entry.read_bytes())
    damaged[-100] ^= 0xFF
    entry.write_bytes(bytes(damaged))
    assert _page_in_a_new_process(tmp_path) == {**first, "parsed": 1}, "the damaged face parsed again, same PDF"


def test_a_table_named_like_a_class_attribute_is_restored_at_once(own_cache):
    """__getattr__ is asked only when nothing else answers: a class attribute of the table's name would."""
    class Shadowed(font_faces.KeptFace):
        glyphPos = ()
    data = SANS.read_bytes()
    Shadowed(font_faces.named_stream(data, str(SANS)))
    face = Shadowed(font_faces.named_stream(data, str(SANS)))
    assert "charWidths" in face._later and "glyphPos" in vars(face) and len(face.glyphPos) > 6000
