"""`pnpgen list`: the box's component list, table by table and row by row, then its boards and hex maps.

A row is shown by the kit's own words: its `name`, or the name of what a column points at (a marker's `kind`,
declared in kit.yaml's `checks:` as `in:` a mapping whose entries have a `name`), never a bare id; rows a
reader would take for the same piece say how they differ (value, side, template)."""
from __future__ import annotations

from collections import Counter

from pnpgen.lengths import mm

SKIPPED = ("qty", "id", "name", "title")  # what a row's line never shows as a difference: its count and its names
WIDTH = 52


def describe_shape(table) -> str:
    s = table.shape
    if s.kind == "rect":
        corner = f", {mm(s.radius):g} mm corners" if s.radius else ""
        return f"cards {mm(s.w):.1f} x {mm(s.h):.1f} mm{corner}"
    if s.kind == "hex":
        across = mm(min(s.w, s.h))
        return f"{s.orientation} hexes {across:.1f} mm across the flats"
    if s.kind == "circle":
        return f"round tokens {mm(s.w):.1f} mm"
    return f"squares {mm(s.w):.1f} mm"


def component_listing(kit, checks: list | None = None) -> list[str]:
    """Every table row by row, then the boards and hex maps, then the totals. `checks` are kit.yaml's
    declared rules: those that say a column's values are keys of a mapping lend the rows that mapping's names."""
    out = _tables(kit, checks or []) if kit.tables else []
    for board in kit.boards:
        times = f" x {len(kit.colours)} (one per colour)" if board.per_colour else ""
        out.append(f"Board: {board.name}{times}, {board.w:g} x {board.h:g} mm")
    for hexmap in kit.maps:
        out.append(f"Hex map: {hexmap.title} ({hexmap.id}), {len(hexmap.regions)} hexes on a {hexmap.cols} x "
                   f"{hexmap.rows} grid, {hexmap.orientation}-topped, {mm(hexmap.hex_size):.1f} mm across the flats")
    if kit.tables:
        groups = Counter(p.group for p in kit.component_pieces)
        out.append(f"Total: {len(kit.component_pieces)} pieces in {len(groups)} print files"
                   f" ({', '.join(f'{g} {n}' for g, n in groups.items())})")
    return out


def _tables(kit, checks: list) -> list[str]:
    pieces = kit.component_pieces
    out = []
    for table in kit.tables.values():
        own = [p for p in pieces if p.ref.split(".", 1)[0] == table.id]
        each = f" ({len(own) // len(kit.colours)} per colour)" if table.per_colour and kit.colours else ""
        out.append(f"{table.name}: {len(own)}{each}, {describe_shape(table)}, "
                   f"{'two-sided' if table.back or any(r.values.get('back') for r in table.rows) else 'one-sided'}")
        counts = Counter(p.ref.split(".", 1)[1] for p in own)  # copies of a row, numbered or not
        shown = [row for row in table.rows if counts[row.label]]
        words = row_words(shown, _names_by_column(kit, table, checks))
        if len(shown) == 1 and words[0] == shown[0].label:
            words = [table.name]  # one unnamed row: the table's name says what it is
        for row, words in zip(shown, words):
            out.append(f"  {words[:WIDTH]:<{WIDTH}}{counts[row.label]:>6}")
        out.append("")
    return out


def row_words(rows: list, named: dict) -> list[str]:
    """Each row's line: its name (or its id where it has none), then what sets it apart from the rows of the
    same name."""
    names = [_row_name(row, named) for row in rows]
    alike = Counter(names)
    return [name + _difference(row, [r for r, n in zip(rows, names) if n == name and r is not row])
            if alike[name] > 1 else name for row, name in zip(rows, names)]


def _row_name(row, named: dict) -> str:
    """'Destroyer (DD)', 'Black Hole', 'Colony': the row's name with its id where the name does not say it."""
    name = row.values.get("name") or row.values.get("title")
    if not name:
        name = next((names[row.values.get(col)] for col, names in named.items() if row.values.get(col) in names),
                    None)
    if not name:
        return row.label
    return name if _said_by(row.label, name) else f"{name} ({row.label})"


def _said_by(label: str, name: str) -> bool:
    """True when the id adds nothing to the name: 'black_hole' by 'Black Hole', 'MS' by 'MS Pipeline',
    'group-size-1' by 'Group size' (the number is told as a difference)."""
    plain = label.replace("_", " ").replace("-", " ").lower()
    words = name.lower()
    return f" {plain} " in f" {words} " or plain.startswith(words + " ")


def _difference(row, others: list) -> str:
    """' (value 20, back value 15)': the fields where this row differs from the others of its name."""
    keys = [k for k in row.values if k not in SKIPPED]
    differ = [k for k in keys if row.values.get(k) is not None
              and any(o.values.get(k) != row.values.get(k) for o in others)]
    if not differ:
        return f" ({row.label})"
    return " (" + ", ".join(f"{k.replace('_', ' ')} {_shown(row.values[k])}" for k in differ) + ")"


def _shown(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _names_by_column(kit, table, checks: list) -> dict:
    """{column: {value: name}} for this table's columns that a declared rule ties to a mapping of named
    entries (`each: components/markers.yaml:rows.*.kind`, `in: markers:kinds`, each kind with a `name`)."""
    try:
        own = table.file.resolve().relative_to(kit.root.resolve()).as_posix()
    except (ValueError, AttributeError):
        return {}
    named = {}
    for rule in checks:
        each, target = rule.get("each"), rule.get("in")
        if not (isinstance(each, str) and isinstance(target, str)) or not each.startswith(f"{own}:rows.*."):
            continue
        entries = _entries(kit.data, target)
        names = {k: v.get("name") for k, v in entries.items() if isinstance(v, dict) and isinstance(v.get("name"), str)}
        if names:
            named[each.rsplit(".", 1)[1]] = names
    return named


def _entries(data: dict, target: str) -> dict:
    """The mapping a plain `FILE:FIELD.FIELD` path names among the kit's data (no wildcards), or {}."""
    file_key, _, path = target.partition(":")
    node = data.get(file_key.removesuffix(".yaml").removeprefix("data/"))
    for field in filter(None, path.split(".")):
        if not isinstance(node, dict) or any(c in field for c in "*{}="):
            return {}
        node = node.get(field)
    return node if isinstance(node, dict) else {}
