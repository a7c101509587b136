"""The assembly pages' widths, read from the shipped fonts' own tables (pnpgen.maps.text_widths), are
reportlab's to the last bit: every character of every shipped face, and strings of them at the sizes the
pages use, so that no line of a map's or a board's steps breaks elsewhere than it did with reportlab."""
from __future__ import annotations

import random

import pytest
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

from pnpgen.fonts import REPORTLAB_FONTS, register_reportlab_fonts
from pnpgen.maps.text_widths import face_widths, string_width

UNMAPPED = [0x0, 0x7F, 0xD800, 0xFFFF, 0x1F600, 0x10FFFF]   # no glyph in DejaVu: reportlab's defaultWidth


@pytest.mark.parametrize("face", ["DejaVuSans", "DejaVuSans-Bold"])   # the faces the assembly pages measure
def test_every_character_has_reportlabs_width(face):
    register_reportlab_fonts()
    theirs, ours = getFont(face).face, face_widths(face)
    codes = list(theirs.charWidths) + UNMAPPED + [0x20, 0xA0]
    assert len(codes) > 5000
    assert [ours.width(c) for c in codes] == [theirs.charWidths.get(c, theirs.defaultWidth) for c in codes]


@pytest.mark.parametrize("face", sorted(REPORTLAB_FONTS))
def test_strings_measure_as_reportlab_measures_them(face):
    register_reportlab_fonts()
    pick = random.Random(34)
    chars = [chr(c) for c in list(getFont(face).face.charWidths)[:3000]] + ["\u00a0", "\U0001f600", " "]
    for _ in range(300):
        text = "".join(pick.choice(chars) for _ in range(pick.randint(0, 90)))
        size = pick.choice([7.5, 8.5, 14.0, pick.uniform(1, 30)])
        assert string_width(text, face, size) == stringWidth(text, face, size), (text, size)
    step = "3. Cut each tile along its dashed edges (left and top); leave its other edges as they are."
    assert string_width(step, face, 8.5) == stringWidth(step, face, 8.5)
