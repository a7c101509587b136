"""How many sheets a print file's layout takes and which slots its last front page holds, remembered in the
user's cache by what the layout is worked out from: the sharing of remainders (pnpgen.components.remainders)
tries each file, and each file with its neighbours' last sheets, laid out whole, on every build that runs the
components part (Eclipse's technology tiles and tiles: a third of the part's time after a one-row edit). The
same runs (shapes, counts, sheet settings, sides) laid out by the same code give the same pages, so a build
after an edit, or into a new output folder, lays out again only the files whose runs changed.

Sealed like the other memos (pnpgen.render.check_memo.SealedMemo): this user's pnpgen's only, and an entry
that is not a sheet count with slot indices of the file is worked out again."""
from __future__ import annotations

from functools import lru_cache

from pnpgen.components.remainders import sheet_facts
from pnpgen.render.check_memo import CheckMemo

VERSION = 1


@lru_cache(maxsize=1)
def layout_salt() -> str:
    """The code that lays a file out and reads its facts: a change to it forgets every entry."""
    import sys
    from pnpgen import duplex, lengths, paper, shapes
    from pnpgen.components import remainders
    from pnpgen.layout import gutter_fit, packing, sheets
    from pnpgen.output_cache import source_fingerprint
    return f"{VERSION}:" + source_fingerprint(packing, gutter_fit, sheets, duplex, lengths, paper, shapes,
                                              remainders, sys.modules[__name__])


class SheetFacts(CheckMemo):
    """{the runs' repr: [sheets, last front page's slot indices]} of one kit folder."""

    FIELD = "layouts"

    def __init__(self, kit_root):
        super().__init__("sheet-facts", kit_root)

    def salt(self) -> str:
        return layout_salt()

    def of(self, runs: list, plan) -> tuple[int, list[int]]:
        """(sheets, last front slots) of a file of `runs` (pnpgen.layout.packing.Run), remembered, else from
        plan()'s pages."""
        from pnpgen.output_cache import content_key
        key = content_key(repr(runs))
        found = self.known.get(key)
        if not _fits(found, sum(run.count for run in runs)):
            found = list(sheet_facts(plan()[1]))
            self.dirty = True
        self.used[key] = found
        return found[0], list(found[1])


def _fits(found, total: int) -> bool:
    """An entry as stored: a sheet count from 1, and distinct slot indices of the file's pieces."""
    if not (isinstance(found, list) and len(found) == 2 and isinstance(found[1], list)):
        return False
    sheets, last = found
    return (type(sheets) is int and 1 <= sheets <= total and 0 < len(last) <= total
            and all(type(i) is int and 0 <= i < total for i in last) and len(set(last)) == len(last))
