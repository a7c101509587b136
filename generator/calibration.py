"""The duplex calibration sheet every kit with double-sided sheets gets: one sheet printed two-sided with
the flip the build uses, whose back tells the user the `--back-offset` their printer needs.

Positions come from pnpgen.layout.calibration, drawing from pnpgen.render.calibration; this module only
says what the sheet is called and what its words are, in no game's terms.
"""
from __future__ import annotations

from pnpgen.duplex import build_setting, flip_words
from pnpgen.i18n.translator import core_words
from pnpgen.layout.calibration import calibration_layout
from pnpgen.paper import PRINTABLE_MARGIN, paper_size

CALIBRATION = "duplex-calibration.pdf"
PREVIEWS = ("previews/duplex-calibration-p1.png", "previews/duplex-calibration-p2.png")


def has_double_sided(kit) -> bool:
    """Does the kit print anything with a back: a table's pieces or aid cards?"""
    if any(piece.back is not None for piece in kit.component_pieces):
        return True
    from pnpgen.aids.sources import has_aid_cards
    return has_aid_cards(kit)


def calibration_words(title: str, duplex: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The front's and the back's lines: a title, then what to do."""
    front = (core_words("{title} \u00b7 duplex calibration \u00b7 front").format(title=title),
             core_words("Print this one sheet two-sided at 100% / actual size, {flip}, with the printer settings "
                        "you will use for the double-sided sheets.").format(flip=flip_words(duplex)),
             core_words("Then turn the sheet over and read the back."))
    back = (core_words("{title} \u00b7 duplex calibration \u00b7 back").format(title=title),
            core_words("Hold the sheet up to a light. The cross printed on the front shows through."),
            core_words("Read the number on each scale where the front's line crosses it (in mm, the marks are 1 mm "
                       "apart), and write both down here:   X = ______ mm     Y = ______ mm."),
            core_words("Both 0: your printer puts backs on their fronts; print the double-sided sheets as they are."),
            core_words("Any other numbers: build the files again with the option --back-offset X,Y (your two numbers "
                       "in mm), or give them to whoever makes the files for you; backs printed from those files land "
                       "on their fronts on this printer."))
    return front, back


def calibration_job(title: str, paper: str, duplex: str, path: str, previews: tuple = ()):
    """Everything the drawing needs, in numbers and words (the sheet is always portrait: the offset it
    measures is in the paper's own frame, pnpgen.duplex turns it for landscape pages)."""
    from pnpgen.render.calibration import CalibrationFile
    front, back = calibration_words(title, duplex)
    layout = calibration_layout(paper_size(paper), PRINTABLE_MARGIN)
    return CalibrationFile(path, f"{title}: duplex calibration", layout, front, back,
                           previews, PRINTABLE_MARGIN)


def build(ctx) -> dict:
    """Part "calibration" (pnpgen.parts.calibration): the sheet, drawn into the build's stage."""
    from pnpgen.render.calibration import write_calibration
    duplex, _ = build_setting(ctx)
    previews = PREVIEWS if ctx.option("previews") else ()
    job = calibration_job(ctx.kit.title, ctx.paper, duplex, str(ctx.stage.path(CALIBRATION)),
                          tuple(str(ctx.stage.path(preview)) for preview in previews))
    write_calibration(job)
    ctx.log(f"calibration: {CALIBRATION} ({ctx.paper}, {flip_words(duplex)})")
    return {"files": [{"path": CALIBRATION, "pages": 2, "paper": ctx.paper,
                       "page_size": [round(v, 3) for v in job.layout.page], "previews": list(previews)}],
            "duplex": duplex}
