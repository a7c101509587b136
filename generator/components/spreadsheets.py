"""Rows of a table from a spreadsheet (`rows: cards.xlsx#Ships`): the sheet's first row names the columns,
each row below is a row of the table, located as `cards.xlsx:Ships:ROW` in every later problem.

Designers keep decks in spreadsheets; an .xlsx file is a zip of XML, and kits come from strangers, so the
file is measured before openpyxl reads it (size on disk, members, unpacked size and ratio: a zip bomb is a
located error, not a full memory), then unpacked once as a stream whose bytes, shared strings and cells are
counted against the `sheet_kb` and `sheet_cells` budgets (openpyxl spends microseconds on each, so a million
tiny shared strings ran for minutes), and openpyxl parses the XML through defusedxml (no entity expansion).
Whatever openpyxl then raises on a broken sheet (a bad XML, a word in a number cell) is said at the file,
sheet and row, and at the cell where openpyxl was reading one.
Cells arrive typed (numbers, booleans, text); text goes through the same conversion as a CSV cell, so one
column check serves YAML, CSV and spreadsheet rows alike.
"""
from __future__ import annotations

import io
import os
import re
import zipfile
import zlib
from pathlib import Path

from pnpgen import budgets, kit_files
from pnpgen.components.columns import from_csv
from pnpgen.problems import display_path
from pnpgen.schema import Where
from pnpgen.yamlio import LocatedDict

MAX_FILE = 20 * 1024 * 1024          # bytes on disk: a deck of cards is kilobytes
MAX_RATIO = 200                      # unpacked / packed of a member: spreadsheets reach tens, bombs thousands
MAX_MEMBERS = 2000
MAX_COLUMNS = 200
TEXT_TYPES = ("text", "list", "choice", "length", "colour", "image")
COUNTED = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,100}:)?(si|c)[\s/>]")  # a shared string or a cell, any prefix


def split_source(text: str) -> tuple[str, str | None]:
    """'cards.xlsx#Ships' -> ('cards.xlsx', 'Ships'); without '#', the first sheet (None)."""
    name, _, sheet = text.partition("#")
    return name, sheet or None


def xlsx_rows(path: Path, root: Path, sheet: str | None, columns: dict, known: list, max_rows: int,
              named: Where) -> list | None:
    """(location, line, row mapping) of each row of the sheet, or None after recording the problem at
    `named` (the table's `rows:` line) or at the spreadsheet's own cell."""
    book = _open(path, root, named)
    if book is None:
        return None
    try:
        ws = _sheet(book, sheet, path, named)
        if ws is None:
            return None
        return _rows(ws, Path(f"{path}:{ws.title}"), columns, known, max_rows, named)
    except Exception as exc:  # noqa: BLE001 - openpyxl reads the sheet lazily; any failure there is the file's
        _unreadable(exc, path, named)
        return None
    finally:
        book.close()


def _unreadable(exc: Exception, path: Path, named: Where) -> None:
    """What openpyxl raised while reading a sheet (a number cell holding a word, an XML error, a string
    index past the table), said at the sheet's row and cell it was reading when openpyxl tells them."""
    sheet, row, cell = _reading(exc.__traceback__)
    where = Where(Path(f"{path}:{sheet}") if sheet else path, cell or "", row or 0, named.problems)
    if not row:
        where = named
    where.error(f"{'' if row else display_path(path) + ': '}a cell openpyxl cannot read "
                f"({type(exc).__name__}: {str(exc)[:200]}); fix it in the spreadsheet")


def _reading(trace) -> tuple[str, int, str]:
    """(sheet title, row number, cell reference) openpyxl's worksheet parser was at when it raised, read
    from its frames ('' and 0 where it does not say)."""
    sheet, row, cell = "", 0, ""
    while trace is not None:
        local = trace.tb_frame.f_locals
        owner = local.get("self")
        if hasattr(owner, "title") and hasattr(owner, "_cells_by_row"):
            sheet = str(owner.title)
        if hasattr(owner, "row_counter"):
            row = int(owner.row_counter or 0)
        element = local.get("element")
        if hasattr(element, "get") and trace.tb_frame.f_code.co_name == "parse_cell":
            cell = str(element.get("r") or "")[:20]
        trace = trace.tb_next
    return sheet, row, cell


def _open(path: Path, root: Path, named: Where):
    """The workbook, read-only with the values last computed (a formula's result, as the designer sees it).
    Its bytes come through the kit reader (a regular file inside the kit, at most 20 MB)."""
    if not os.path.lexists(path):
        named.error(f"spreadsheet not found: {display_path(path)}")
        return None
    try:
        data = kit_files.read_bytes(path, root, limit=MAX_FILE)
    except kit_files.KitFileError as exc:
        named.error(f"{exc.file}: {exc.message}")
        return None
    problem = _zip_problem(data)
    if problem:
        named.error(f"{display_path(path)} is not a spreadsheet pnpgen reads: {problem}")
        return None
    import openpyxl
    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds on a broken file; all mean "unreadable"
        named.error(f"{display_path(path)} is not a readable .xlsx spreadsheet ({type(exc).__name__}: {exc})")
        return None


def _zip_problem(data: bytes) -> str:
    """Why these bytes are not a spreadsheet to open (not a zip; too many members; unpacking too large, by
    the sizes the zip declares and then by the bytes it really unpacks to; too many strings or cells)."""
    try:
        book = zipfile.ZipFile(io.BytesIO(data))
        members = book.infolist()
    except (zipfile.BadZipFile, ValueError) as exc:
        return f"not an .xlsx file (a zip of XML): {exc}"
    if len(members) > MAX_MEMBERS:
        return f"{len(members)} files inside (at most {MAX_MEMBERS})"
    limit = budgets.active().sheet_kb * 1024
    unpacked = sum(m.file_size for m in members)
    if unpacked > limit:
        return str(budgets.BudgetExceeded("sheet_kb", f"it says it unpacks to {unpacked // 1024} KiB"))
    bomb = next((m for m in members if m.file_size > 1_000_000 and m.file_size > MAX_RATIO * max(m.compress_size, 1)), None)
    if bomb:
        return (f"{bomb.filename} unpacks {bomb.file_size // max(bomb.compress_size, 1)} times larger than it is "
                f"packed (a zip bomb?)")
    return _unpacked_problem(book, members, limit)


def _unpacked_problem(book: zipfile.ZipFile, members: list, limit: int) -> str:
    """Unpack every member as a stream, never holding more than a piece: its real size against the one it
    declares and the budget, and the shared strings and cells it holds against `sheet_cells`."""
    counts, total = {b"si": 0, b"c": 0}, 0
    for member in members:
        try:
            size = _scan_member(book, member, counts, limit - total)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError) as exc:
            return f"{member.filename} cannot be unpacked ({exc})"
        if size is None:
            return str(budgets.BudgetExceeded("sheet_kb", f"{member.filename} unpacks past the budget"))
        if size != member.file_size:
            return f"{member.filename} unpacks to {size} bytes, not the {member.file_size} it declares"
        total += size
        for kind, label in ((b"si", "shared strings"), (b"c", "cells")):
            if counts[kind] > budgets.active().sheet_cells:
                return str(budgets.BudgetExceeded("sheet_cells", f"more than {counts[kind]} {label}"))
    return ""


def _scan_member(book: zipfile.ZipFile, member, counts: dict, room: int) -> int | None:
    """The bytes one member really unpacks to (None past `room`), counting its <si> and <c> elements; a tag
    cut between two pieces is carried to the next (a tag name is short)."""
    size, tail = 0, b""
    with book.open(member) as stream:
        while piece := stream.read(1 << 20):
            size += len(piece)
            if size > room:
                return None
            text = tail + piece
            cut = text.rfind(b"<", max(0, len(text) - 128))
            cut = len(text) if cut < 0 else cut
            for found in COUNTED.finditer(text, 0, cut):
                counts[found.group(1)] += 1
            tail = text[cut:]
    for found in COUNTED.finditer(tail + b" "):
        counts[found.group(1)] += 1
    return size


def _sheet(book, sheet: str | None, path: Path, named: Where):
    names = book.sheetnames
    if not names:
        named.error(f"{display_path(path)} has no sheets")
        return None
    if sheet is None:
        return book[names[0]]
    if sheet in names:
        return book[sheet]
    import difflib
    near = difflib.get_close_matches(sheet, names, n=1)
    hint = f"did you mean {near[0]!r}? " if near else ""
    named.error(f"{display_path(path)} has no sheet {sheet!r} ({hint}sheets: {', '.join(names)})")
    return None


def _rows(ws, where_file: Path, columns: dict, known: list, max_rows: int, named: Where) -> list | None:
    header = _header(next(ws.iter_rows(values_only=True, max_col=MAX_COLUMNS + 1, max_row=1), None),
                     where_file, known, named)
    if header is None:
        return None
    out, scanned, most = [], 0, budgets.active().sheet_cells
    for line, cells in enumerate(ws.iter_rows(values_only=True, min_row=2, max_col=len(header)), start=2):
        scanned += len(header)  # blank rows too: a sheet that claims a million empty rows is read no further
        if scanned > most:
            Where(where_file, "", line, named.problems).error(str(budgets.BudgetExceeded("sheet_cells", "the rows up to this one, blank ones too")))
            return None
        values = dict(zip(header, cells))
        if all(_blank(v) for v in values.values()):
            continue
        if len(out) == max_rows:
            named.error(f"more than {max_rows} rows in {display_path(where_file)} is not a game")
            return None
        row = LocatedDict()
        row.line, row.key_lines = line, {}
        for name, value in values.items():
            converted = _cell(value, columns.get(name) or ({"type": "int"} if name == "qty" else None))
            if converted is not None:
                row[name], row.key_lines[name] = converted, line
        out.append((where_file, line, row))
    return out


def _header(cells, where_file: Path, known: list, named: Where) -> list | None:
    """The column names of the first row; an empty name or one the table does not know is an error."""
    import difflib
    names = [("" if _blank(c) else str(c).strip()) for c in (cells or ())]
    while names and not names[-1]:
        names.pop()
    if not names:
        Where(where_file, "", 1, named.problems).error("the sheet's first row must name the columns")
        return None
    if len(names) > MAX_COLUMNS:
        Where(where_file, "", 1, named.problems).error(f"more than {MAX_COLUMNS} columns")
        return None
    ok = True
    for index, name in enumerate(names):
        if name in known:
            continue
        near = difflib.get_close_matches(name, known, n=1) if name else []
        hint = f" (did you mean {near[0]!r}?)" if near else f" (known: {', '.join(known)})"
        label = name or f"column {index + 1}"
        Where(where_file, label, 1, named.problems).error(("unknown column" if name else "a column without a name") + hint)
        ok = False
    return names if ok else None


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _cell(value, column: dict | None):
    """A cell as the YAML value it stands for: text as a CSV cell; a whole float as an int; a number in a
    text-like column as its text; dates and other kinds as text (the column's check then says what it wants)."""
    if _blank(value):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        return from_csv(value, column)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value if isinstance(value, bool) else str(value)
    kind = column["type"] if column else "text"
    return from_csv(str(value), column) if kind in TEXT_TYPES else value
