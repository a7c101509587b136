"""Test fonts made from the shipped DejaVu fonts with fontTools: subsets under new family names (DejaVu's licence
asks for a new name on any changed copy), one kept TrueType, one given PostScript (CFF) outlines.

`python -m tests.font_helpers` writes the two fonts of tests/kits/typeset/fonts/ (committed, so a test run
does not make them); the tests call the same functions to make variants in a temporary folder.
"""
from __future__ import annotations

import io
import logging
from pathlib import Path

from pnpgen import resources

LATIN = [*range(0x20, 0x7F), 0xA0, 0xB7, 0x2013, 0x2014, 0x2019, 0x201C, 0x201D, 0x2022, 0x2212, 0x2192]


def renamed_subset(source: str, family: str, style: str = "Regular", unicodes=LATIN):
    """A fontTools TTFont: the shipped `source` file cut to `unicodes`, named `family` `style`."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    font = TTFont(resources.fonts() / source)
    options = subset.Options()
    options.name_IDs, options.name_languages, options.notdef_outline = ["*"], ["*"], True
    options.layout_features = []   # no kerning or ligatures: reportlab and cairo set glyph by glyph
    options.hinting = False
    logging.getLogger("fontTools").setLevel(logging.ERROR)   # "FFTM NOT subset": a table no printer reads
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    postscript = family.replace(" ", "") + ("" if style == "Regular" else f"-{style}")
    names = font["name"]
    names.names = [n for n in names.names if n.nameID not in (1, 2, 3, 4, 6, 16, 17)]
    for number, text in ((1, family), (2, style), (3, f"{postscript}-test"), (4, f"{family} {style}"),
                         (6, postscript)):
        names.setName(text, number, 3, 1, 0x409)
        names.setName(text, number, 1, 0, 0)
    return font


def with_cff_outlines(font):
    """The same font with its outlines as CFF (cubic) charstrings: an OpenType font reportlab cannot read."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    order, glyph_set = font.getGlyphOrder(), font.getGlyphSet()
    metrics = {name: font["hmtx"][name] for name in order}
    charstrings = {}
    for name in order:
        pen = T2CharStringPen(metrics[name][0], glyph_set)
        glyph_set[name].draw(pen)
        charstrings[name] = pen.getCharString()
    names = font["name"]
    family, style = names.getDebugName(1), names.getDebugName(2)
    builder = FontBuilder(font["head"].unitsPerEm, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap(font.getBestCmap())
    builder.setupCFF(names.getDebugName(6), {"FullName": f"{family} {style}"}, charstrings, {})
    builder.setupHorizontalMetrics(metrics)
    hhea = font["hhea"]
    builder.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent)
    builder.setupNameTable({"familyName": family, "styleName": style, "psName": names.getDebugName(6)})
    os2 = font["OS/2"]
    builder.setupOS2(sTypoAscender=os2.sTypoAscender, sTypoDescender=os2.sTypoDescender,
                     usWinAscent=os2.usWinAscent, usWinDescent=os2.usWinDescent, usWeightClass=400, fsSelection=0x40)
    builder.setupPost()
    return builder.font


def font_bytes(font) -> bytes:
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def write_kit_fonts(folder: Path) -> None:
    """Kit Sans (TrueType, regular and bold) and Kit Display (OpenType CFF, bold DejaVu's shapes)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "KitSans-Regular.ttf").write_bytes(font_bytes(renamed_subset("DejaVuSans.ttf", "Kit Sans")))
    (folder / "KitSans-Bold.ttf").write_bytes(font_bytes(renamed_subset("DejaVuSans-Bold.ttf", "Kit Sans", "Bold")))
    display = renamed_subset("DejaVuSans-Bold.ttf", "Kit Display")
    (folder / "KitDisplay-Regular.otf").write_bytes(font_bytes(with_cff_outlines(display)))


def write_font(path: Path, source: str, family: str, style: str = "Regular", cff: bool = False, unicodes=LATIN) -> Path:
    """One test font file: the shipped `source` cut and renamed (TrueType, or CFF outlines with cff=True)."""
    font = renamed_subset(source, family, style, unicodes)
    if style != "Regular":   # weight and style bits as a font of that style has them (fontconfig reads them)
        font["OS/2"].usWeightClass = 700 if "Bold" in style else 400
        font["OS/2"].fsSelection = (0x20 if "Bold" in style else 0) | (0x01 if "Italic" in style else 0)
        font["head"].macStyle = (1 if "Bold" in style else 0) | (2 if "Italic" in style else 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(font_bytes(with_cff_outlines(font) if cff else font))
    return path


def subroutine_bomb(family: str = "Bomb Sans", fan: int = 40, levels: int = 9) -> bytes:
    """A small CFF font whose 'A' calls a subroutine that calls the next one `fan` times, `levels` deep:
    fan ** levels calls to draw one glyph (a renderer or converter runs for minutes and gigabytes)."""
    from fontTools.cffLib import SubrsIndex
    from fontTools.misc.psCharStrings import T2CharString
    font = with_cff_outlines(renamed_subset("DejaVuSans.ttf", family))
    top = font["CFF "].cff.topDictIndex[0]
    subrs, bias = SubrsIndex(), 107   # the bias of a subroutine index under 1240 entries
    for level in range(levels):
        program = ([level + 1 - bias, "callsubr"] * fan if level + 1 < levels else []) + ["return"]
        subrs.append(T2CharString(program=program, private=top.Private, globalSubrs=top.GlobalSubrs))
    top.Private.Subrs = subrs
    top.Private.rawDict["Subrs"] = 0
    top.CharStrings[font.getBestCmap()[ord("A")]].program = [-bias, "callsubr", "endchar"]
    font.recalcBBoxes = False   # fontTools would draw the bomb itself to measure it
    return font_bytes(font)


def pdf_fonts(pdf: Path) -> dict:
    """BaseFont -> its font dictionary (pypdf), for every font of every page and form of a PDF."""
    from pypdf import PdfReader
    found = {}

    def visit(resources):
        for font in ((resources or {}).get("/Font") or {}).values():
            font = font.get_object()
            found[str(font["/BaseFont"])] = font
        for xobject in ((resources or {}).get("/XObject") or {}).values():
            visit(xobject.get_object().get("/Resources"))

    for page in PdfReader(pdf).pages:
        visit(page.get("/Resources"))
    return found


if __name__ == "__main__":
    write_kit_fonts(Path(__file__).parent / "kits" / "typeset" / "fonts")


def studio_font_kit(folder: Path) -> Path:
    """The blank kit with every text in fonts of its own (issue 35): 'Test Sans' Regular (TrueType, DejaVu
    Sans Condensed's shapes: unlike the DejaVu Sans a family cairo missed falls back to), Italic (CFF outlines)
    and a Bold with CFF outlines holding ASCII only, which fontconfig passes over for the Regular (as Debian's
    EB Garamond Bold); 'Test Title' Bold (TrueType, complete) for the cards' titles and costs. Card texts are
    regular, the card back italic, the tokens' and tiles' bold texts print in the Regular (with a warning)."""
    from pnpgen.cli import main
    assert main(["new", "--blank", str(folder)]) == 0
    fonts, latin = folder / "fonts", range(0x20, 0x180)
    write_font(fonts / "TestSans-Regular.ttf", "DejaVuSansCondensed.ttf", "Test Sans", unicodes=latin)
    write_font(fonts / "TestSans-Italic.otf", "DejaVuSans-Oblique.ttf", "Test Sans", "Italic", cff=True, unicodes=latin)
    write_font(fonts / "TestSans-Bold.otf", "DejaVuSansCondensed-Bold.ttf", "Test Sans", "Bold", cff=True,
               unicodes=range(0x20, 0x7F))
    write_font(fonts / "TestTitle-Bold.ttf", "DejaVuSans-Bold.ttf", "Test Title", "Bold", unicodes=latin)
    templates = folder / "templates"
    for name, old, new in (
            ("card-front", "bold=True) }}", 'bold=True, family="Test Title") }}'),
            ("card-front", '"middle", True) }}', '"middle", True, family="Test Title") }}'),
            ("card-front", "min_size=7) }}", 'min_size=7, family="Test Sans") }}'),
            ("card-back", '"middle", True) }}', '"middle", family="Test Sans", italic=True) }}'),
            ("token", '"middle", True) }}', '"middle", True, family="Test Sans") }}'),
            ("tile-front", '"middle", True) }}', '"middle", True, family="Test Sans") }}'),
            ("tile-front", '"middle") }}', '"middle", family="Test Sans") }}')):
        path = templates / f"{name}.svg.j2"
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder
