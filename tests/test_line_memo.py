"""Paragraph lines kept in the user's cache (documents.line_memo) come back as reportlab breaks them: the
same PDF, without breaking them again in a later process; a changed paragraph, a damaged memo or an entry
naming a foreign class is broken again."""
from __future__ import annotations

import io
import os
import pickle
from types import SimpleNamespace

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.paragraph import Paragraph as PlainParagraph

from pnpgen import resources, signing
from pnpgen.documents import line_memo, paragraphs
from pnpgen.documents.paragraphs import Paragraph

STYLE = ParagraphStyle("body", fontName="Helvetica", fontSize=9, leading=11)
BULLET = ParagraphStyle("item", parent=STYLE, leftIndent=12, bulletIndent=2)
TEXTS = [("A destroyer attacks at <b>4</b>, hits once, and costs 9 CP; " * 6, STYLE, None),
         ("<font color='#aa2200'>Red</font> text, <i>italic</i> and plain, " * 5, BULLET, "\u2022"),
         ("One line.", STYLE, None)]


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    cache = tmp_path / "user-cache"
    monkeypatch.setattr(resources, "cache_folder", lambda name: (cache / name).mkdir(parents=True, exist_ok=True)
                        or cache / name)
    return cache / line_memo.FOLDER


@pytest.fixture
def breaks(monkeypatch) -> list:
    """Every line break reportlab itself makes of a paragraph of several fragments (the memo keeps those)."""
    made = []
    real = PlainParagraph.breakLines

    def counting(self, width):
        if len(self.frags) > 1:
            made.append(self.text)
        return real(self, width)
    monkeypatch.setattr(PlainParagraph, "breakLines", counting)
    return made


def _kit(tmp_path):
    return SimpleNamespace(root=tmp_path, id="memo", fonts=[], icons={}, document_fonts={})


def _typeset(memo, texts=TEXTS) -> bytes:
    """The paragraphs drawn down a page (wrapped, split where they run past half of it), through `memo`."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(300, 400), invariant=1)
    paragraphs.use_line_memo(memo)
    try:
        y = 390
        for text, style, bullet in texts:
            para = Paragraph(text, style, bulletText=bullet)
            _, height = para.wrap(200, 400)
            parts = para.split(200, height / 2) or [para]
            for part in parts:
                _, height = part.wrap(200, 400)
                part.drawOn(canvas, 20, y - height)
                y -= height
    finally:
        paragraphs.use_line_memo(None)
    if memo is not None:
        memo.save()
    canvas.save()
    return out.getvalue()


def test_lines_kept_come_back_as_broken_without_breaking_again(tmp_path, breaks):
    plain = _typeset(None)
    assert _typeset(line_memo.LineMemo(_kit(tmp_path), "booklet")) == plain
    broken = len(breaks)
    assert broken >= 4   # the two paragraphs of several fragments and their split parts
    assert _typeset(line_memo.LineMemo(_kit(tmp_path), "booklet")) == plain   # as a later process
    assert len(breaks) == broken


def test_a_changed_paragraph_alone_is_broken_again(tmp_path, breaks):
    _typeset(line_memo.LineMemo(_kit(tmp_path), "booklet"))
    edited = [("A destroyer attacks at <b>5</b>, hits once, and costs 9 CP; " * 6, STYLE, None)] + TEXTS[1:]
    plain, everything = _typeset(None, edited), len(breaks)
    _typeset(None, edited[:1])
    alone = len(breaks) - everything   # the edited paragraph's breaks: the whole one and its split part
    before = len(breaks)
    assert _typeset(line_memo.LineMemo(_kit(tmp_path), "booklet"), edited) == plain
    assert len(breaks) - before == alone > 0


def test_a_damaged_or_foreign_memo_is_broken_again(tmp_path, breaks, own_cache):
    plain = _typeset(None)
    memo = line_memo.LineMemo(_kit(tmp_path), "booklet")
    _typeset(memo)
    for data in (b"garbage", signing.seal(b"garbage"),
                 signing.seal(memo.encode({key: pickle.dumps((print, [], {})) for key in memo.used})),
                 signing.seal(memo.encode({key: b"\x80\x05garbage" for key in memo.used}))):
        memo.path.write_bytes(data)
        before = len(breaks)
        assert _typeset(line_memo.LineMemo(_kit(tmp_path), "booklet")) == plain
        assert len(breaks) > before


def test_a_shipped_font_replaced_by_one_of_the_same_size_forgets_the_lines(tmp_path, monkeypatch):
    """The widths lines were broken with come from the shipped fonts: one replaced by other bytes of the same
    size (a reinstall) is told by its times, and every kept line is broken again."""
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    font = fonts / "Face.ttf"
    font.write_bytes(b"a" * 64)
    monkeypatch.setattr(resources, "fonts", lambda: fonts)
    line_memo._code_salt.cache_clear()
    before = line_memo._code_salt()
    font.write_bytes(b"b" * 64)
    os.utime(font, ns=(font.stat().st_atime_ns, font.stat().st_mtime_ns + 1_000_000_000))
    line_memo._code_salt.cache_clear()
    try:
        assert line_memo._code_salt() != before
    finally:
        line_memo._code_salt.cache_clear()
