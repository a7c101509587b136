"""What the header of each page of pieces says, in words only (pnpgen.render.piece_sheets draws them): the
file's name, its sheet and side, how to print it and where to check the backs."""
from __future__ import annotations

from pnpgen.duplex import CALIBRATION, flip_words
from pnpgen.i18n.translator import core_words
from pnpgen.lengths import mm

CUT_WORDS = {"lines": "Cut along the grey lines.", "crop": "Cut from crop mark to crop mark.",
             "outline": "Cut along each piece's outline."}  # printed through core_words (pnpgen.i18n)


def group_words(kit, group: str, tables: list) -> str:
    """The group's `title` setting (kit.yaml sheets:), with the colour's name in a one-colour file of a
    per_colour table ('counters · Red'); '' when the group has none."""
    table = tables[0][0]
    title = (kit.sheets.get(table.group) or {}).get("title")
    if not title:
        return ""
    colour = next((c for c in kit.colours if group == f"{table.group}-{c.id}"), None)
    return f"{title} \u00b7 {colour.name}" if colour else title


def page_name(group: str, names: dict) -> str:
    """A page's title names its table, or its group where several tables share the page (their names
    would run into the scale bars)."""
    return next(iter(names)) if len(names) == 1 else group.replace("-", " ").capitalize()


def alignment_hint(offset: tuple[float, float]) -> str:
    """What a two-sided file's first page says about the backs' alignment (and the offset it was made with)."""
    used = "" if offset == (0, 0) else core_words(" These backs are shifted {x},{y} mm for your printer.").format(
        x=f"{mm(offset[0]):.1f}", y=f"{mm(offset[1]):.1f}")
    return core_words("Backs not on their fronts? Print {file} two-sided and read its back.").format(file=CALIBRATION) + used


def counter_sheet_lines(kit_title: str, words: str, side: str, sheet: int, sheets: int, first: bool,
                        two_sided: bool, settings) -> tuple[str, ...]:
    """A counter sheet's header: one title line; on the file's first page the print instructions too
    (actual size, the flip, the scale check, the calibration sheet, how to cut)."""
    title = core_words("{title} \u00b7 {words} \u00b7 sheet {sheet} of {sheets} \u00b7 {side}").format(
        title=kit_title, words=words, sheet=sheet, sheets=sheets, side=core_words(side))
    if not first:
        return (title,)
    cut = core_words(CUT_WORDS[settings.marks])
    if not two_sided:
        return (title, core_words("Print at 100% / actual size (never 'fit to page')."),
                core_words("The bars at the right must measure exactly 1 in and 25 mm."), cut)
    dx, dy = settings.back_offset
    offset = "" if (dx, dy) == (0, 0) else core_words(" (back offset {x},{y} mm in use)").format(
        x=f"{mm(dx):.1f}", y=f"{mm(dy):.1f}")
    return (title, core_words("Print at 100% / actual size (never 'fit to page'), two-sided, {flip}.").format(
                flip=flip_words(settings.duplex)),
            core_words("The bars at the right must measure exactly 1 in and 25 mm. Backs off? Print {file}{offset}.")
            .format(file=CALIBRATION, offset=offset), cut)
