"""The chart builder (generator/documents/charts.py): a chart declared in YAML, built into TableData from a
context of plain data, with every problem located at charts.yaml's line and field."""
from __future__ import annotations

import pytest

from pnpgen.documents.charts import ChartError, build_chart, load_charts
from pnpgen.problems import Problems

CHARTS = """\
charts:
  ships:
    rows: ships
    where: "row.cost < 100"
    sections:
      small: {title: Small <ships>, where: "row.hull == 1"}
      big: {title: Big ships, where: "row.hull > 1"}
    shade: "row.rare"
    columns:
      - {id: name, header: Ship, cell: "<b>{{ row.name }}</b>", width: 2, total: All}
      - {id: hull, header: Hull, cell: "{{ row.hull }}", align: centre}
      - {id: cost, header: "Cost in {{ unit }}", cell: "{{ row.cost }}", align: right,
         total: "{{ rows | sum(attribute='cost') }}"}
      - {id: speed, header: "Turn {{ item }}", repeat: "range(1, 3)", cell: "{{ row.moves[item - 1] }}"}
      - {id: note, header: Note, cell: "{{ row.note }}"}
  levels:
    rows: levels
    transpose: true
    label_width: 3
    columns:
      - {header: Level, cell: "{{ row.level }}"}
      - {header: Cost, cell: "{{ row.cost }}"}
"""
SHIPS = [
    {"name": "Scout", "hull": 1, "cost": 6, "moves": [1, 1], "note": "R&D <1>", "rare": False},
    {"name": "Cruiser", "hull": 2, "cost": 12.0, "moves": [1, 2], "note": None, "rare": True},
    {"name": "Titan", "hull": 9, "cost": 500, "moves": [0, 0], "note": None, "rare": True},
]
CONTEXT = {"ships": SHIPS, "unit": "CP", "levels": [{"level": 1, "cost": None}, {"level": 2, "cost": 20}]}


@pytest.fixture
def charts(tmp_path):
    path = tmp_path / "charts.yaml"
    path.write_text(CHARTS, encoding="utf-8")
    problems = Problems()
    loaded = load_charts(path, problems)
    assert not problems.items
    return loaded


def test_a_whole_chart_has_sections_shading_repeats_and_a_total(charts):
    data = build_chart(charts["ships"], CONTEXT)
    assert data.header == ("Ship", "Hull", "Cost in CP", "Turn 1", "Turn 2", "Note")
    assert data.rows == (
        ("<b>Small &lt;ships&gt;</b>", "", "", "", "", ""),
        ("<b>Scout</b>", "1", "6", "1", "1", "R&amp;D &lt;1&gt;"),   # data escaped, the template's markup kept
        ("<b>Big ships</b>", "", "", "", "", ""),
        ("<b>Cruiser</b>", "2", "12", "1", "2", "\u2013"),            # 12.0 prints as 12, none as a dash
        ("All", "", "18", "", "", ""),                                 # Titan filtered out by `where`
    )
    assert data.sections == (0, 2) and data.shaded == (3,) and data.total_row
    assert data.widths == (2, 1, 1, 1, 1, 1) and data.align == ("left", "centre", "right", "left", "left", "left")


def test_a_place_picks_one_section_and_columns_in_its_own_order(charts):
    data = build_chart(charts["ships"], CONTEXT, section="big", columns=["cost", "name"])
    assert data.header == ("Cost in CP", "Ship")
    assert data.rows == (("12", "<b>Cruiser</b>"), ("12", "All"))
    assert not data.sections and not data.shaded   # one section: no title row, nothing to set apart


def test_a_transposed_chart_labels_its_rows(charts):
    data = build_chart(charts["levels"], CONTEXT)
    assert data.header == ("Level", "1", "2") and data.rows == (("Cost", "\u2013", "20"),)
    assert data.header_column and data.widths == (3, 1, 1)


@pytest.mark.parametrize("old, new, field, words", [
    ('cell: "{{ row.hull }}"', 'cell: "{{ row.hul }}"', "charts.ships.columns[1].cell", "no 'hul'"),
    ('where: "row.cost < 100"', 'where: "row.cost <"', "charts.ships.where", "template syntax error"),
    ("rows: levels", "rows: unit", "charts.levels.rows", "must give a list"),
    ('repeat: "range(1, 3)"', 'repeat: "range(1, 3).__class__"', "charts.ships.columns[3].repeat", "not allowed"),
])
def test_a_broken_chart_is_located_at_its_field(tmp_path, old, new, field, words):
    path = tmp_path / "charts.yaml"
    path.write_text(CHARTS.replace(old, new), encoding="utf-8")
    line = CHARTS[: CHARTS.index(old)].count("\n") + 1
    chart = next(iter(c for c in load_charts(path, Problems()).values() if field.startswith(f"charts.{c.id}.")))
    with pytest.raises(ChartError) as caught:
        build_chart(chart, CONTEXT)
    assert (caught.value.line, caught.value.field) == (line, field) and words in caught.value.message


def test_an_unknown_column_or_section_is_named(charts):
    with pytest.raises(ChartError, match=r"no column 'speeds'.*name, hull, cost, speed, note"):
        build_chart(charts["ships"], CONTEXT, columns=["name", "speeds"])
    with pytest.raises(ChartError, match=r"unknown section 'huge'"):
        build_chart(charts["ships"], CONTEXT, section="huge")


def test_the_schema_refuses_unknown_fields_located(tmp_path):
    path = tmp_path / "charts.yaml"
    path.write_text(CHARTS.replace("transpose: true", "transpos: true"), encoding="utf-8")
    problems = Problems()
    assert load_charts(path, problems) == {}
    (problem,) = problems.items
    assert problem.field == "charts.levels.transpos" and "did you mean 'transpose'" in problem.message
    assert problem.line == CHARTS[: CHARTS.index("transpose: true")].count("\n") + 1


DECK_CHART = """\
charts:
  deck:
    rows: tables.cards.rows
    columns:
      - {id: title, header: Card, cell: "{{ row.title }}", width: 2, total: All the cards}
      - {id: cost, header: Cost, cell: "{{ row.cost }}", align: centre}
      - {id: qty, header: Copies, cell: "{{ row.qty }}", align: centre, total: "{{ rows | sum(attribute='qty') }}"}
"""
DECK_CHAPTER = """
## The deck, in full

{{ table('deck') }}

## The deck, by cost

{{ table('deck', columns=['title', 'cost']) }}
"""


@pytest.fixture(scope="module")
def deck_booklet(tmp_path_factory) -> str:
    """The blank kit with a chart of its cards (a label total and a copies total), printed whole and without
    its copies column: the booklet's text, squashed."""
    import re

    import pypdfium2 as pdfium

    from pnpgen.cli import main
    root = tmp_path_factory.mktemp("deck-chart")
    kit = root / "kit"
    assert main(["new", "--blank", str(kit)]) == 0
    (kit / "charts.yaml").write_text(DECK_CHART, encoding="utf-8")
    with (kit / "rules" / "01-rules.md").open("a", encoding="utf-8") as chapter:
        chapter.write(DECK_CHAPTER)
    assert main(["build", "--data", str(kit), "--out", str(root / "out"), "-q", "--only", "documents"]) == 0
    pdf = pdfium.PdfDocument(str(root / "out" / "kit" / "booklet.pdf"))
    return re.sub(r"\s+", "", "".join(page.get_textpage().get_text_range() for page in pdf))


def test_a_total_row_prints_with_its_totals_and_not_as_a_lone_label(deck_booklet):
    """Whole, the chart ends on its label and the copies' sum; without the copies column nothing is left to
    total, so no row of the label alone (with empty cells) ends it."""
    full, by_cost = deck_booklet.split("Thedeck,infull")[1].split("Thedeck,bycost")
    assert "Trade04Allthecards12" in full
    assert "Allthecards" not in by_cost and by_cost.startswith("CardCostExplore1")


def test_the_charts_checked_at_load_are_the_ones_the_parts_print(monkeypatch):
    """load_kit builds every chart to check it, then sets the kit's edition (a new kit object): the parts,
    forked after the load, ask chart_context of that last kit and must get the charts already built, not
    build each again (the aid cards rebuilt 4 charts on every build)."""
    from pnpgen.documents import charts as chart_module
    from pnpgen.documents.context import chart_context
    from pnpgen.kit import load_kit
    from pnpgen.documents import context as context_module
    from tests.conftest import DEFAULT_KIT_DIR
    # as a build's process starts: no tables of earlier tests' kits (256 of them empty the memo, which could
    # happen halfway through this load when the tests before it in this worker built many)
    monkeypatch.setattr(chart_module, "_BUILT", {})
    monkeypatch.setattr(context_module, "_CONTEXTS", {})
    kit, _ = load_kit(DEFAULT_KIT_DIR)
    built = []
    monkeypatch.setattr(chart_module, "_build_chart", lambda *args: built.append(args))
    context = chart_context(kit)
    for chart in kit.charts.values():
        assert build_chart(chart, context) is not None
    assert kit.charts and built == []
