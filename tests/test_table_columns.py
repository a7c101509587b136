"""Column type `mapping` and table key `mirror_bleed` on a table of its own (no kit): a mapping cell from YAML
and from CSV (`name=value; name=value`), `null` for a column that is not required, a wrong cell located at its
row, and `mirror_bleed` carried in the faces' piece parameters only where the table asks for it."""
from __future__ import annotations

from pnpgen.components.pieces import table_pieces
from pnpgen.components.tables import load_table
from pnpgen.model import Colour
from pnpgen.problems import Problems
from pnpgen.yamlio import load_yaml

TABLE = """name: Ships
shape: square
size: 16mm
front: ship
{extra}columns:
  requires: {{type: mapping, default: {{}}, doc: technologies needed}}
  note: {{type: text, required: false}}
rows: {rows}
"""
NEUTRAL = Colour("neutral", "Neutral", "#ffffff", "#1a1a1a", "hexagon", "none")


def table(tmp_path, rows: str, extra: str = "", csv: str | None = None):
    path = tmp_path / "ships.yaml"
    path.write_text(TABLE.format(rows=rows, extra=extra), encoding="utf-8")
    if csv is not None:
        (tmp_path / "ships.csv").write_text(csv, encoding="utf-8")
    problems = Problems()
    return load_table(path, load_yaml(path, tmp_path), problems, tmp_path), problems


def test_a_mapping_column_from_yaml_and_from_csv(tmp_path):
    loaded, problems = table(tmp_path, "\n  - {id: CV, requires: {fighters: 1}, note: null}\n  - {id: SC}")
    assert not problems.items
    assert [r.values["requires"] for r in loaded.rows] == [{"fighters": 1}, {}]
    assert loaded.rows[0].values["note"] is None  # `null` written out: no note, as an empty CSV cell
    loaded, problems = table(tmp_path, "ships.csv", csv="id,requires\nR,cloaking=1; fighters=2\nSC,\n")
    assert not problems.items
    assert [r.values["requires"] for r in loaded.rows] == [{"cloaking": 1, "fighters": 2}, {}]


def test_a_cell_that_is_not_a_mapping_is_located_at_its_row(tmp_path):
    loaded, problems = table(tmp_path, "\n  - {id: CV, requires: fighters}")
    assert loaded is None
    (problem,) = problems.items
    assert (problem.line, problem.field) == (9, "rows[0].requires") and "a mapping" in problem.message


def test_mirror_bleed_reaches_the_faces_only_where_the_table_asks(tmp_path):
    plain, _ = table(tmp_path, "\n  - {id: SC}")
    mirrored, _ = table(tmp_path, "\n  - {id: SC}", extra="mirror_bleed: true\n")
    assert mirrored.mirror_bleed and not plain.mirror_bleed
    (piece,) = table_pieces(mirrored, (), NEUTRAL)
    assert piece.front.params["piece"]["mirror_bleed"] is True
    (piece,) = table_pieces(plain, (), NEUTRAL)
    assert "mirror_bleed" not in piece.front.params["piece"]  # every other table's faces keep their keys


def sized_table(tmp_path, shape: str, counter_size: str = "5/8in"):
    path = tmp_path / "chits.yaml"
    path.write_text(f"name: Chits\nshape: {shape}\nfront: chit\nrows:\n  - {{id: A}}\n", encoding="utf-8")
    problems = Problems()
    return load_table(path, load_yaml(path, tmp_path), problems, tmp_path, counter_size), problems


def test_a_square_table_without_a_size_takes_the_kits_counter_size(tmp_path):
    """One size for a kit's counters: kit.yaml's counter_size, which its booklet figures and maps read too."""
    loaded, problems = sized_table(tmp_path, "square", "1/2in")
    assert not problems.items
    assert (loaded.shape.w, loaded.shape.h) == (36.0, 36.0)  # points


def test_any_other_shape_without_a_size_is_located(tmp_path):
    loaded, problems = sized_table(tmp_path, "circle")
    assert loaded is None
    [problem] = problems.errors()
    assert (problem.line, problem.field) == (2, "size") and "circle table needs its size" in problem.message


def test_space_empires_counters_print_at_the_kits_counter_size(tmp_path):
    """Its tables give no size: changing kit.yaml's counter_size alone moves every counter table with the
    booklet's figures and the maps (a size in each table would have left them disagreeing)."""
    import shutil
    from pathlib import Path
    from pnpgen.kit import load_kit
    kit_dir = tmp_path / "se4x"
    shutil.copytree(Path(__file__).resolve().parent.parent / "data" / "space-empires-4x", kit_dir)
    kit_yaml = kit_dir / "kit.yaml"
    kit_yaml.write_text(kit_yaml.read_text(encoding="utf-8").replace("counter_size: 5/8in", "counter_size: 3/4in"),
                        encoding="utf-8")
    kit, _ = load_kit(kit_dir)
    assert kit.counter_size == "3/4in"
    assert {t: (table.shape.w, table.shape.h) for t, table in kit.tables.items()} == dict.fromkeys(kit.tables, (54.0, 54.0))
