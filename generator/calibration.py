"""The duplex calibration sheet every kit with double-sided sheets gets: printed two-sided with the flip the
build uses, its back tells the user the `--back-offset` their printer needs, and its flip check shows at a
glance (a disc outside its ring) when the printer turned the paper on the other edge. A kit that also prints
landscape double-sided files (an imposed booklet, aid cards) gets a landscape sheet too: a printer driver may
turn landscape pages its own way, and that sheet shows it.

Positions come from pnpgen.layout.calibration, drawing from pnpgen.render.calibration; this module only
says what the sheet is called and what its words are, in no game's terms.
"""
from __future__ import annotations

from pnpgen.duplex import CALIBRATION, FLIPS, build_setting, flip_words
from pnpgen.i18n.translator import core_words
from pnpgen.paper import PRINTABLE_MARGIN, paper_size

PREVIEWS = ("previews/duplex-calibration-p1.png", "previews/duplex-calibration-p2.png")
LANDSCAPE_PREVIEWS = ("previews/duplex-calibration-p3.png", "previews/duplex-calibration-p4.png")


def has_double_sided(kit) -> bool:
    """Does the kit print anything with a back: a table's pieces or aid cards?"""
    if any(piece.back is not None for piece in kit.component_pieces):
        return True
    from pnpgen.aids.sources import has_aid_cards
    return has_aid_cards(kit)


def prints_landscape_duplex(kit) -> bool:
    """Does the kit print double-sided landscape pages: an imposed document (2-up on landscape sheets) or aid
    cards (two half-page cards on a landscape sheet)? Component sheets choose their orientation when laid
    out, after this part has run; those kits all impose a booklet too."""
    from pnpgen.aids.sources import has_aid_cards
    documents = getattr(kit, "documents", None) or {}
    return has_aid_cards(kit) or any(doc.get("impose") for doc in documents.values())


def other_flip(duplex: str) -> str:
    return next(flip for flip in FLIPS if flip != duplex)


def flip_check_words(duplex: str) -> str:
    """What the back's disc says about the flip, and what to change when it is not in its ring."""
    return core_words("Flip check first: hold the sheet up to a light. The black disc marked \u201cflip check\u201d must "
                      "sit inside the ring printed on the front, its arrow pointing the same way. If it shows "
                      "anywhere else, your printer turned the paper over on the other edge ({other}): set "
                      "\u201c{flip}\u201d in the printer's settings and print this sheet again.").format(
        other=flip_words(other_flip(duplex)), flip=flip_words(duplex))


def calibration_words(title: str, duplex: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The portrait front's and back's lines: a title, then what to do."""
    front = (core_words("{title} \u00b7 duplex calibration \u00b7 front").format(title=title),
             core_words("Print this one sheet two-sided at 100% / actual size, {flip}, with the printer settings "
                        "you will use for the double-sided sheets.").format(flip=flip_words(duplex)),
             core_words("Then turn the sheet over and read the back."))
    back = (core_words("{title} \u00b7 duplex calibration \u00b7 back").format(title=title),
            flip_check_words(duplex),
            core_words("Then, still against the light: the cross printed on the front shows through."),
            core_words("Read the number on each scale where the front's line crosses it (in mm, the marks are 1 mm "
                       "apart), and write both down here:   X = ______ mm     Y = ______ mm."),
            core_words("Both 0: your printer puts backs on their fronts; print the double-sided sheets as they are."),
            core_words("Any other numbers: build the files again with the option --back-offset X,Y (your two numbers "
                       "in mm), or give them to whoever makes the files for you; backs printed from those files land "
                       "on their fronts on this printer."))
    return front, back


def landscape_words(title: str, duplex: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The landscape sheet's lines: it checks the flip for the landscape files, the offset is read once."""
    front = (core_words("{title} \u00b7 duplex calibration for landscape files \u00b7 front").format(title=title),
             core_words("Print this sheet two-sided too, {flip}, as you will print the files whose pages are "
                        "landscape (the booklet, landscape card sheets).").format(flip=flip_words(duplex)))
    back = (core_words("{title} \u00b7 duplex calibration for landscape files \u00b7 back").format(title=title),
            flip_check_words(duplex),
            core_words("If the portrait sheet's disc sat in its ring but this one does not, your printer turns "
                       "landscape pages its own way: turn off its \u201cauto-rotate\u201d option and print again. "
                       "The back offset is read on the portrait sheet only."))
    return front, back


def calibration_job(title: str, paper: str, duplex: str, path: str, previews: tuple = (), landscape: bool = False):
    """Everything the drawing needs, in numbers and words: the portrait sheet (the offset it measures is in
    the paper's own frame, pnpgen.duplex turns it for landscape pages), and the landscape sheet if asked."""
    from pnpgen.layout.calibration import calibration_layout  # here, not at the top: the part's key and
    # `applies` (has_double_sided) run in every build's parent, the layout's dataclasses only where it draws
    from pnpgen.render.calibration import CalibrationFile, CalibrationSheet
    sheets = [CalibrationSheet(calibration_layout(paper_size(paper), PRINTABLE_MARGIN, duplex),
                               *calibration_words(title, duplex))]
    if landscape:
        page = paper_size(paper, landscape=True)
        sheets.append(CalibrationSheet(calibration_layout(page, PRINTABLE_MARGIN, duplex, scales=False),
                                       *landscape_words(title, duplex)))
    return CalibrationFile(path, f"{title}: duplex calibration", tuple(sheets), previews, PRINTABLE_MARGIN)


def build(ctx) -> dict:
    """Part "calibration" (pnpgen.parts.calibration): the sheet, drawn into the build's stage."""
    from pnpgen.render.calibration import write_calibration
    duplex, _ = build_setting(ctx)
    landscape = prints_landscape_duplex(ctx.kit)
    previews = (PREVIEWS + (LANDSCAPE_PREVIEWS if landscape else ())) if ctx.option("previews") else ()
    job = calibration_job(ctx.kit.title, ctx.paper, duplex, str(ctx.stage.path(CALIBRATION)),
                          tuple(str(ctx.stage.path(preview)) for preview in previews), landscape)
    write_calibration(job)
    ctx.log(f"calibration: {CALIBRATION} ({ctx.paper}, {flip_words(duplex)}"
            f"{', portrait and landscape' if landscape else ''})")
    return {"files": [{"path": CALIBRATION, "pages": 2 * len(job.sheets), "paper": ctx.paper,
                       "page_size": [round(v, 3) for v in job.sheets[0].layout.page], "previews": list(previews)}],
            "duplex": duplex}
