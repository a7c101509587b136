"""A kit's component tables and free data files, read from their folders and checked as a whole:
each table against its schema, the templates it names, the rule counts of the tables and the kit, and the
sheet settings kit.yaml gives its print groups."""
from __future__ import annotations

import csv
import itertools
from pathlib import Path

from pnpgen import kit_files
from pnpgen.components.counts import check_kit_counts, check_table_counts
from pnpgen.components.pieces import table_pieces
from pnpgen.components.tables import MAX_ROWS, Table, load_table
from pnpgen.images import check_image, template_references
from pnpgen.paper import paper_points
from pnpgen.problems import Problems, display_path
from pnpgen.template_files import template_path
from pnpgen.yamlio import YamlSyntaxError, load_yaml

MAX_PIECES = 100_000  # a kit larger than this is a typo in a qty column, not a game


def inside(root: Path, rel: str) -> Path | None:
    """`rel` resolved inside the kit folder, or None when it leaves it (../, an absolute path, a link out)."""
    if not rel or Path(rel).is_absolute() or "\x00" in rel:
        return None
    path = (root / rel).resolve()
    return path if path.is_relative_to(root.resolve()) else None


def folder_files(root: Path, rel: str, suffixes: tuple, field: str, kit_file: Path, line: int,
                 problems: Problems) -> list[Path]:
    """The files of a kit sub-folder named in kit.yaml, sorted; none when the folder does not exist."""
    folder = inside(root, rel)
    if folder is None:
        problems.error(kit_file, line, field, f"{rel!r} points outside the kit folder")
        return []
    if not folder.is_dir():
        return []
    # every entry but folders: a FIFO or a link out of the kit is then the kit reader's located error, not skipped
    return sorted(p for p in folder.iterdir() if p.suffix in suffixes and not p.is_dir() and not p.name.startswith("."))


def read_yaml(path: Path, root: Path, problems: Problems):
    try:
        return load_yaml(path, root)
    except YamlSyntaxError as exc:
        problems.error(path, exc.line, "", exc.message)
    return None


def yaml_mappings(root: Path, rel: str, field: str, fields_hint: str, kit_file: Path, line: int,
                  problems: Problems):
    """(path, mapping) of every YAML file of a kit folder; a file that is not a mapping is a located error."""
    for path in folder_files(root, rel, (".yaml", ".yml"), field, kit_file, line, problems):
        raw = read_yaml(path, root, problems)
        if raw is None:
            continue
        if not isinstance(raw, dict):
            problems.error(path, 1, "", f"must hold a mapping of fields at the top level ({fields_hint}, ...)")
            continue
        yield path, raw


def load_tables(root: Path, rel: str, kit_file: Path, line: int, problems: Problems,
                counter_size: str = "5/8in") -> dict[str, Table]:
    """Every table of the kit's components folder, in print order (`counter_size`: kit.yaml's, the size of a
    square table that gives none)."""
    tables = {}
    for path, raw in yaml_mappings(root, rel, "components", "name, shape, size", kit_file, line, problems):
        table = load_table(path, raw, problems, root, counter_size)
        if table is not None:
            _check_templates(root, table, raw, problems)
            _check_images(root, table, problems)
            tables[table.id] = table
    return dict(sorted(tables.items(), key=lambda item: (item[1].order, item[0])))


def resize_tables(tables: dict, sizes: dict, problems: Problems, counter_size: str | None = None) -> dict:
    """`--piece-size TABLE=SIZE`: the same table printed at another size (its shape and orientation kept).
    `--counter-size SIZE` does the same for every square table (a kit's counters and chits) that no
    --piece-size names. A table whose size changed is marked
    `size_chosen`: its preflight findings are the player's choice, warnings (pnpgen.render.piece_arts)."""
    import dataclasses
    from pnpgen.shapes import Shape, parse_size
    out = dict(tables)
    squares = {t: counter_size for t, table in tables.items() if counter_size and table.shape.kind == "square"}
    for table_id, size in (squares | sizes).items():
        if table_id not in tables:
            problems.error("--piece-size", 0, table_id, f"no component table named {table_id!r} "
                           f"(tables: {', '.join(sorted(tables)) or 'none'})")
            continue
        table = tables[table_id]
        try:
            w, h = parse_size(table.shape.kind, size, table.shape.orientation)
        except ValueError as exc:
            problems.error("--piece-size" if table_id in sizes else "--counter-size", 0, table_id, str(exc))
            continue
        shape = Shape(table.shape.kind, w, h, table.shape.radius, table.shape.orientation)
        out[table_id] = dataclasses.replace(table, shape=shape, size_chosen=shape != table.shape)
    return out


def _check_images(root: Path, table: Table, problems: Problems) -> None:
    """Every cell of an image column names a readable image inside the kit."""
    columns = [name for name, column in table.columns.items() if column["type"] == "image"]
    for row in table.rows:
        for name in columns:
            value = row.values.get(name)
            if value is not None and (reason := check_image(root, value)):
                problems.error(row.file, row.line, f"rows[{row.index}].{name}", reason)


def check_template_images(root: Path, problems: Problems) -> None:
    """Literal hrefs in the kit's own templates must name images inside the kit (no URLs, no ../)."""
    folder = root / "templates"
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.svg.j2")):
        try:
            references = template_references(path, root)
        except kit_files.KitFileError as exc:
            problems.error(path, exc.line, "", exc.message)
            continue
        for line, ref in references:
            if reason := check_image(root, ref):
                problems.error(path, line, "href", reason)


def _check_templates(root: Path, table: Table, raw, problems: Problems) -> None:
    named = [(table.front, "front", raw.line_of("front")), (table.back, "back", raw.line_of("back"))]
    for row in table.rows:
        for side in ("front", "back"):
            if row.values.get(side):
                named.append((row.values[side], f"rows[{row.index}].{side}", row.line))
    for name, field, line in named:
        if name and template_path(root, name) is None:
            problems.error(table.file if "rows" not in field else row_file(table, field), line, field,
                           f"template {name}.svg.j2 not found in {display_path(root / 'templates')} "
                           f"or the built-in templates")


def row_file(table: Table, field: str) -> Path:
    index = int(field.split("[", 1)[1].split("]", 1)[0])
    return table.rows[index].file


def check_counts(tables: dict, kit_doc: dict, kit_file: Path, lines: dict, colours: tuple, neutral,
                 problems: Problems) -> list:
    """Expand every table and check its rule counts and the kit's; the pieces, in print order."""
    pieces = []
    for table in tables.values():
        expected = sum(r.values["qty"] for r in table.rows) * (len(colours) if table.per_colour else 1)
        if len(pieces) + expected > MAX_PIECES:
            problems.error(table.file, 0, "rows", f"the kit would hold more than {MAX_PIECES} pieces: check qty")
            return pieces
        own = table_pieces(table, colours, neutral)
        check_table_counts(table, own, colours, problems)
        pieces += own
    kit_lines = {path: line for (key, path), (_, line) in lines.items() if key == "kit"}
    check_kit_counts(kit_doc["counts"], kit_file, kit_lines, tables, pieces, problems)
    return pieces


def data_csv(path: Path, root: Path, problems: Problems) -> list | None:
    """A data CSV's rows as mappings (read through the kit reader); a file that cannot be read is an error,
    at the line where the reading stopped."""
    try:
        reader = csv.DictReader(kit_files.read_text(path, root, "utf-8-sig").splitlines())
    except kit_files.KitFileError as exc:
        problems.error(path, exc.line, "", exc.message)
        return None
    try:
        rows = list(itertools.islice(reader, MAX_ROWS + 1))
    except csv.Error as exc:  # a cell over csv.field_size_limit() (131,072 characters), say
        problems.error(path, reader.line_num, "", f"not a CSV table this can read: {exc}")
        return None
    if len(rows) > MAX_ROWS:  # stopped at once, not after millions of rows have filled the memory
        problems.error(path, reader.line_num, "", f"more than {MAX_ROWS} rows by this line: not a game's data")
        return None
    return rows


def load_data_files(root: Path, rel: str, kit_file: Path, line: int, problems: Problems,
                    checked: frozenset = frozenset()) -> dict:
    """The free facts of data/: YAML files as mappings or lists (as written, each checked against the fields
    declared beside it, pnpgen.data_fields, unless in `checked`: a game module's files, checked as it reads
    them), CSV files as lists of rows."""
    from pnpgen.data_fields import SUFFIX, check_data
    data = {}
    for path in folder_files(root, rel, (".yaml", ".yml", ".csv"), "data", kit_file, line, problems):
        if path.suffix == ".csv":
            rows = data_csv(path, root, problems)
            if rows is not None:
                data[path.stem] = rows
        elif not path.name.endswith(SUFFIX):
            value = read_yaml(path, root, problems)
            if value is not None:
                data[path.stem.replace("-", "_")] = value
                if path.resolve() not in checked:
                    check_data(path, value, root, problems)
    return data


def check_sheets(sheets: dict, groups: set, table_groups: set, kit_file, lines: dict, problems: Problems) -> None:
    """Sheet settings must name a print group that exists, a paper that parses and, for remainders, a
    print file (a group's own file, not a group split per colour)."""
    known = table_groups | groups
    for name, sheet in sheets.items():
        line = lines.get(("kit", f"sheets.{name}"), ("", 0))[1]
        if name not in known:
            problems.error(kit_file, line, f"sheets.{name}", f"no print group named {name!r} "
                           f"(groups: {', '.join(sorted(table_groups)) or 'none'})")
        if sheet.get("remainders") and sheet["remainders"] not in groups:
            problems.error(kit_file, lines.get(("kit", f"sheets.{name}.remainders"), ("", line))[1] or line,
                           f"sheets.{name}.remainders", f"no print file named {sheet['remainders']!r} takes "
                           f"remainders (files: {', '.join(sorted(groups)) or 'none'})")
        if sheet.get("paper"):
            try:
                paper_points(sheet["paper"], "letter")
            except ValueError as exc:
                problems.error(kit_file, line, f"sheets.{name}.paper", str(exc))
