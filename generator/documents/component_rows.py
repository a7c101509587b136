"""Every row of a kit's component tables as one list, in print order, for a chart of the kit's contents:
`component_rows` among every kit's chart and chapter names (`rows: component_rows` in charts.yaml). A row
gives `fields` (the row's own values: `row.fields.name`), `table` (its `id`, `name` and `per_colour`), `qty`
(the copies of it one colour gets, or the whole kit for a table not per colour) and `total` (the copies in
the whole kit). How a row is named and grouped is the chart's to say, in the kit's own words."""
from __future__ import annotations


def component_rows(kit) -> list[dict]:
    rows = []
    for table in kit.tables.values():
        times = len(kit.colours) if table.per_colour else 1
        about = {"id": table.id, "name": table.name, "per_colour": table.per_colour}
        rows += [{"fields": row.values, "table": about, "qty": row.values["qty"], "total": row.values["qty"] * times}
                 for row in table.rows]
    return rows
