"""Rule counts written in the data, checked against the expanded pieces: a count that is not met is an
error at the file and line of the rule, naming it, so a designer's table can never drift from the rules."""
from __future__ import annotations

import difflib
from collections import Counter

from pnpgen.problems import Problems


def check_table_counts(table, pieces: list, colours: tuple, problems: Problems) -> None:
    counts = table.counts
    if not counts:
        return
    rows = [p for p in pieces if p.ref.split(".", 1)[0] == table.id]
    values = [_row_values(p) for p in rows]

    def report(path: str, rule: str, wanted, got: int) -> None:
        if not _is_count(wanted):
            problems.error(table.file, table.lines.get(path, 0), path, f"must be a whole number >= 0, not {wanted!r}")
        elif wanted != got:
            problems.error(table.file, table.lines.get(path, table.lines.get("counts", 0)), path,
                           f"{rule}: the rule asks for {wanted}, the rows make {got}")

    if counts["total"] is not None:
        report("counts.total", f"{table.name} in all", counts["total"], len(rows))
    if counts["per_colour"] is not None:
        by_colour = Counter(p.colour for p in rows)
        for colour in colours if table.per_colour else ():
            report("counts.per_colour", f"{table.name} per colour ({colour.name})", counts["per_colour"],
                   by_colour[colour.id])
    known = sorted({"colour", "qty", "id", *table.columns})
    for column, wanted in (counts["by"] or {}).items():
        if column not in known:
            near = difflib.get_close_matches(column, known, n=1)
            problems.error(table.file, table.lines.get(f"counts.by.{column}", table.lines.get("counts", 0)),
                           f"counts.by.{column}", f"no column {column!r} to count by (columns: {', '.join(known)})"
                           + (f"; did you mean {near[0]!r}?" if near else ""))
            continue
        have = Counter(_key(v.get(column)) for v in values)
        for value, number in wanted.items():
            report(f"counts.by.{column}.{value}", f"{table.name} with {column} {value}", number, have[_key(value)])
    tallies = {}  # the rows counted once per set of columns the `where:` rules match on, not once per rule
    for index, rule in enumerate(counts["where"] or ()):
        columns = tuple(sorted(rule["match"]))
        if columns not in tallies:
            tallies[columns] = Counter(tuple(_key(v.get(k)) for k in columns) for v in values)
        got = tallies[columns][tuple(_key(rule["match"][k]) for k in columns)]
        report(f"counts.where[{index}]", rule["rule"], rule["total"], got)


def check_kit_counts(rules: list, kit_file, lines: dict, tables: dict, pieces: list, problems: Problems) -> None:
    """kit.yaml `counts:`: totals over several tables or one print group (the pieces tallied once by table
    and group, so each rule adds a few numbers instead of reading every piece)."""
    kinds = Counter((p.ref.split(".", 1)[0], p.group) for p in pieces)
    for index, rule in enumerate(rules):
        path = f"counts[{index}]"
        line = lines.get(path, 0)
        unknown = [t for t in rule["tables"] or () if t not in tables]
        if unknown:
            problems.error(kit_file, line, f"{path}.tables", f"no table named {', '.join(unknown)} "
                           f"(tables: {', '.join(sorted(tables))})")
            continue
        chosen = _chosen(rule, kinds)
        if chosen != rule["total"]:
            problems.error(kit_file, line, path, f"{rule['rule']}: the rule asks for {rule['total']}, "
                           f"the tables make {chosen}")


def _chosen(rule: dict, kinds: Counter) -> int:
    """The pieces a kit rule counts, from {(table, print group): pieces}: those of its tables, or of its print
    group and the group's parts (`counters-1`)."""
    tables, group = rule["tables"] or (), rule["group"]
    return sum(n for (table, in_group), n in kinds.items()
               if table in tables or (group and (in_group == group or in_group.startswith(group + "-"))))


def _row_values(piece) -> dict:
    params = piece.front.params
    return params["row"] | {"colour": (params.get("colour") or {}).get("id")}


def _key(value) -> str:
    """Counts compare values as written: 2, 2.0 and '2' are one value."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip().lower() if value is not None else ""


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
