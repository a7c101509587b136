"""An aid card's or record sheet's PDF asks to print at 100 % as it is written (pnpgen.render.print_scaling), with
the very bytes the build's post-pass (pnpgen.pdf_update) would append, whatever the file ID reportlab wrote
(pypdf writes it back as text or in hex), so that pass skips it and the part never loads pypdf."""
from __future__ import annotations

import re

import pypdf
import pytest

from pnpgen.aids.draw import open_canvas
from pnpgen.render.print_scaling import ask_print_at_full_size
from pnpgen.pdf_update import add_print_scaling_none

IDS = [b"ABCDEFGHIJKLMNOP", b"hello world 1234", b"(\\)<>[]{}/%#\x01\x02\xff\xe9",   # text: escaped bytes
       b"abc\x16def\x7fghi\x9fjkl\xad", b"\x00" * 16,                     # undefined in PDFDocEncoding: hex
       b"\x00\xd8" * 8, b"a\x00\x00\xd8" * 4, b"\xfe\xff\xd8\x00" + b"a" * 12,   # broken UTF-16: hex
       b"\x00A" * 8, b"A\x00" * 8, b"\xfe\xff" + b"\x00A" * 7, b"\xff\xfe" + b"A\x00" * 7,   # UTF-16: text
       b"\xef\xbb\xbfabcdefghijklm", b"\xef\xbb\xbf\xff" + b"\x16" * 12]   # UTF-8, and not UTF-8 after all


def _plain_pdf(tmp_path) -> bytes:
    canvas = open_canvas(tmp_path / "plain.pdf", "Scaling test", (200, 100))
    for page in range(2):
        canvas.drawString(10 + page, 10, "a card")
        canvas.showPage()
    return canvas.getpdfdata()


@pytest.mark.parametrize("first", range(len(IDS)))
def test_the_update_is_the_post_passs_byte_for_byte(tmp_path, first):
    plain = _plain_pdf(tmp_path)
    assert b"/PrintScaling" not in plain
    second = IDS[(first + 5) % len(IDS)]
    data = re.sub(rb"/ID \n\[<[0-9a-f]{32}><[0-9a-f]{32}>\]",
                  b"/ID \n[<%s><%s>]" % (IDS[first].hex().encode(), second.hex().encode()), plain)
    assert len(data) == len(plain) and data != plain
    post = tmp_path / "post.pdf"
    post.write_bytes(data)
    assert add_print_scaling_none(post) is True
    assert ask_print_at_full_size(data) == post.read_bytes()


def test_a_written_aid_pdf_leaves_the_post_pass_nothing_to_do(tmp_path):
    from pnpgen.aids.draw import close_canvas
    canvas = open_canvas(tmp_path / "aid.pdf", "Scaling test", (200, 100))
    canvas.drawString(10, 10, "a card")
    close_canvas(canvas, tmp_path / "aid.pdf", kit=None)
    assert add_print_scaling_none(tmp_path / "aid.pdf") is False
    reader = pypdf.PdfReader(str(tmp_path / "aid.pdf"))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_a_catalog_with_more_than_names_and_references_is_left_to_the_post_pass(tmp_path):
    plain = _plain_pdf(tmp_path)
    odd = plain.replace(b"/PageMode /UseNone ", b"/PageMode (UseNon) ")   # a string: every offset kept
    assert len(odd) == len(plain) and odd != plain and ask_print_at_full_size(odd) == odd
    assert ask_print_at_full_size(plain[:-10]) == plain[:-10]    # a trailer cut short
