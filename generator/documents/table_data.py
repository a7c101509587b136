"""A table as plain data: header, rows of cell markup, relative widths and how each column and row reads.

Charts (generator/documents/charts.py), a document's `table(...)` and the booklet's stand-in tables all make
one; generator/documents/table_flow.py turns it into a reportlab table in a document's own style. No layout
and no reportlab here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pnpgen.xml_escape import escape

ALIGNS = ("left", "centre", "right")


@dataclass(frozen=True)
class TableData:
    header: tuple[str, ...]              # reportlab paragraph markup, data escaped
    rows: tuple[tuple[str, ...], ...]    # the same; a section row holds its title in the first cell only
    widths: tuple[float, ...]            # relative column widths
    numeric_from: int = 1                # columns from this index on are centred (when `align` is not given)
    total_row: bool = False              # the last row is a total, printed bold
    align: tuple[str, ...] = ()          # one of ALIGNS per column; overrides numeric_from
    sections: tuple[int, ...] = ()       # rows (0 = first body row) that title a section, spanning the table
    shaded: tuple[int, ...] = ()         # body rows set apart (say, advanced-rules items)
    header_column: bool = False          # the first column labels the rows (a transposed chart)
    where: str = field(default="", repr=False, compare=False)  # "charts.yaml:12: charts.fleet", for problems
                                         # (not in its repr: cache keys hold what prints, not where a kit lies)

    def alignments(self) -> tuple[str, ...]:
        if self.align:
            return self.align
        return tuple("left" if i < self.numeric_from else "centre" for i in range(len(self.widths)))

    def transposed(self, label_width: float) -> "TableData":
        """Columns as rows: the header becomes the first column (`label_width` wide against 1 for each data
        column), which then labels each row; the data is centred."""
        matrix = [self.header, *self.rows]
        columns = [tuple(row[i] for row in matrix) for i in range(len(self.header))]
        return TableData(columns[0], tuple(columns[1:]), (label_width,) + (1,) * (len(matrix) - 1),
                         align=("left",) + ("centre",) * (len(matrix) - 1), header_column=True, where=self.where)


def plain_table(header, rows, widths, **settings) -> TableData:
    """A TableData from plain text (escaped here), for tables made in code rather than from chart markup."""
    def cells(row):
        return tuple(escape(str(c)) for c in row)
    return TableData(cells(header), tuple(cells(r) for r in rows), tuple(widths), **settings)
