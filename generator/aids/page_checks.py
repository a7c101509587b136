"""The preflight's checks of an aid page (text overprinting text, too little contrast on its ground, text
below its floor: pnpgen.page_overprint, pnpgen.page_contrast), remembered per page in the user's cache.

Each check reads one page's records alone (the glyphs the canvas set, their inks, which were small print, the
grounds under them: pnpgen.render.drawn_text.DrawnGlyphs), so a page's findings follow from those records,
the floors and the checking code: the memo keys a page by its records and floors, its salt names the code.
After SE4X's destroyer edit the cards' pages that do not print the changed chart are not checked again, and a
build into a new output folder checks none; a page whose records changed is checked as before, and every
finding is said as before. A build in another language checks every page (pnpgen.render.check_memo)."""
from __future__ import annotations

import hashlib
from functools import lru_cache

from pnpgen.render.check_memo import CheckMemo, checker_salt
from pnpgen.render.drawn_text import DrawnGlyphs


class PageChecks(CheckMemo):
    """{page key: its findings} of one kit's aid file, salted with every module a finding comes from."""

    FOLDER = "checked-aid-pages"

    def salt(self) -> str:
        return _salt()


@lru_cache(maxsize=1)
def _salt() -> str:
    import sys

    from pnpgen import contrast, page_contrast, page_overprint
    from pnpgen.output_cache import source_fingerprint
    from pnpgen.render import drawn_text
    return checker_salt() + ":" + source_fingerprint(contrast, page_contrast, page_overprint, drawn_text,
                                                     sys.modules[__name__])


def page_findings(drawn: DrawnGlyphs, rules, name: str, kit_root) -> list[tuple[int, str]]:
    """(page, finding) of every page `drawn` holds, as drawn_overprints, drawn_contrasts and drawn_sizes say
    them (in that order), each page's from the memo when its records were checked before."""
    memo, found = PageChecks(name, kit_root), []
    said = {page: _page(drawn, page, rules, memo) for page in sorted(drawn)}
    for check in range(3):
        found += [(page, finding) for page, kinds in said.items() for finding in kinds[check]]
    memo.save()
    return found


def _page(drawn: DrawnGlyphs, page: int, rules, memo) -> list[list[str]]:
    """[overprints, contrasts, sizes] of one page."""
    alone = DrawnGlyphs()
    alone[page], alone.coarse = drawn[page], drawn.coarse
    for name in ("inks", "fine", "grounds"):
        if page in getattr(drawn, name):
            getattr(alone, name)[page] = getattr(drawn, name)[page]
    said = repr((alone[page], alone.inks.get(page), alone.fine.get(page), alone.grounds.get(page), alone.coarse,
                 rules.contrast, rules.card_text, rules.min_text))
    if " at 0x" in said:   # a record naming an object by its address: not the same in another process
        return _checked(alone, rules)
    key = hashlib.sha256(said.encode("utf-8", "surrogatepass")).hexdigest()
    kinds = memo.findings(key, lambda: _checked(alone, rules))
    if not (isinstance(kinds, list) and len(kinds) == 3
            and all(isinstance(k, list) and all(isinstance(f, str) for f in k) for k in kinds)):
        return _checked(alone, rules)
    return kinds


def _checked(alone: DrawnGlyphs, rules) -> list[list[str]]:
    from pnpgen.page_contrast import drawn_contrasts, drawn_sizes
    from pnpgen.page_overprint import drawn_overprints
    return [[finding for _, finding in said] for said in (
        drawn_overprints(alone), drawn_contrasts(alone, rules.contrast),
        drawn_sizes(alone, rules.card_text, rules.min_text))]
