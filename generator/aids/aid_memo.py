"""What an aid part (the cards, the record sheets) worked out from the kit as loaded, kept in the user's cache:
its file rendered with the kit's numbers (Jinja) and each chart it shows as built (pnpgen.documents.charts).

Both follow from the kit's inputs read one way alone, which the load key names (pnpgen.kit_checked: every
input's digest, pnpgen's code included, and how the kit was read), so a build of a load seen before (a new
output folder, an edit undone: SE4X's destroyer attack 4 -> 5 -> 4) takes them from here instead of rendering
the file and building its charts again in the part's worker. The lines its paragraphs break are kept beside
(pnpgen.documents.line_memo). What is kept is worked out on the way, never the finished PDF: the part still
typesets, draws and checks every page.

One sealed file per kit folder and aid file (pnpgen.signing: this user's pnpgen's only); an entry that is not
the shape it should be (a string; a table of strings and numbers) is worked out again, never trusted.
"""
from __future__ import annotations

import hashlib
from contextlib import contextmanager
from pathlib import Path

from pnpgen.documents.table_data import TableData
from pnpgen.render.check_memo import SealedMemo

VERSION = 2
KEEP = 64 * 24   # loads remembered (as the kit memos: 64) times a file and its charts
_ACTIVE: list = [None]   # the memo of the aid file being built, or None: outside a part build nothing is kept


class AidMemo(SealedMemo):
    """{load key + what: the rendered text, or a chart's table as lists} of one kit folder's aid file."""

    KEEP = KEEP
    FIELD = "worked"

    def __init__(self, kit_root: Path, name: str, load_key: str):
        from pnpgen.resources import cache_folder
        folder = cache_folder("aid-work")
        file = hashlib.sha256(repr((str(Path(kit_root).resolve()), name)).encode("utf-8", "surrogatepass")).hexdigest()
        super().__init__(folder / f"{file[:32]}.json" if folder is not None else None)
        self.load_key = load_key

    def salt(self) -> str:
        return f"aid-work-{VERSION}"   # pnpgen's code is in every load key (the inputs' digest)

    def text(self, rel, work) -> str:
        """The aid file `rel` rendered: remembered, else work() (kept)."""
        key = f"{self.load_key}:text:{Path(rel).as_posix()}"
        found = self.known.get(key)
        if not isinstance(found, str):
            found = work()
            self.dirty = True
        self.used[key] = found
        return found

    def chart(self, name: str, work, where: str) -> TableData:
        """Chart `name` as built (TableData): remembered, else work() (kept). `where`: the chart's place as
        messages show it now (relative to the working folder, which the load key does not name)."""
        key = f"{self.load_key}:chart:{name}"
        found = _table(self.known.get(key), where)
        if found is None:
            found = work()
            self.dirty = True
        self.used[key] = _stored(found)
        return found


def _stored(table: TableData) -> list:
    return [list(table.header), [list(row) for row in table.rows], list(table.widths), table.numeric_from,
            table.total_row, list(table.align), list(table.sections), list(table.shaded), table.header_column]


def _table(stored, where: str) -> TableData | None:
    """The TableData a stored entry says, at `where`, or None when it is not the shape _stored writes."""
    if not (isinstance(stored, list) and len(stored) == 9):
        return None
    header, rows, widths, numeric_from, total, align, sections, shaded, header_column = stored
    strings = [header, align, *(rows if isinstance(rows, list) else [None])]
    if not (all(isinstance(s, list) and all(isinstance(c, str) for c in s) for s in strings)
            and isinstance(widths, list) and all(type(w) in (int, float) for w in widths)
            and all(isinstance(n, list) and all(type(i) is int for i in n) for n in (sections, shaded))
            and type(numeric_from) is int and type(total) is bool and type(header_column) is bool):
        return None
    return TableData(tuple(header), tuple(tuple(row) for row in rows), tuple(widths), numeric_from, total,
                     tuple(align), tuple(sections), tuple(shaded), header_column, where)


@contextmanager
def kept(kit, name: str, load_key: str | None):
    """Build aid file `name` of `kit` (loaded under `load_key`; None: not known, nothing kept) with its text,
    charts and paragraph lines remembered; saved when the part got through."""
    from pnpgen.documents.line_memo import LineMemo
    from pnpgen.documents.paragraphs import use_line_memo
    lines = LineMemo(kit, f"aids:{name}")
    memo = AidMemo(kit.root, name, load_key) if load_key else None
    use_line_memo(lines)
    _ACTIVE[0] = memo
    try:
        yield
    finally:
        use_line_memo(None)
        _ACTIVE[0] = None
    lines.save()
    if memo is not None:
        memo.save()


def rendered(rel, work) -> str:
    """Aid file `rel` rendered (work()), through the memo of the part being built, if any."""
    memo = _ACTIVE[0]
    return work() if memo is None else memo.text(rel, work)


def chart(name: str, work, where: str) -> TableData:
    """Chart `name` built (work()), through the memo of the part being built, if any (`where`: AidMemo.chart)."""
    memo = _ACTIVE[0]
    return work() if memo is None else memo.chart(name, work, where)
