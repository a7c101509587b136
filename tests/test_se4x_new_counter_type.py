"""A designer adds a new kind of Space Empires 4X counter with no Python (docs/counters.md, "A new kind of counter"): a
component table in the kit's components/ (a row per counter, per colour, a rule count), a face template drawn in
the kit's 100 x 100 counter square (`_counter.svg.j2`'s `on_piece`), printed at the counters' size with its
backs, counted, and a wrong count stopped at its line."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

from pnpgen.cli import main

from aid_helpers import page_words

TABLE = """name: Probes
shape: square
size: 5/8in
front: probe-front
back: probe-back
per_colour: true
numbered: true
columns:
  sight: {type: int, min: 1, max: 9, doc: hexes a probe sees}
rows:
  - {id: P1, sight: 2, qty: 2}
  - {id: P2, sight: 4}
counts:
  per_colour: 3
"""
FRONT = """{% import "_counter.svg.j2" as c %}
{% call c.on_piece(piece) %}{{ c.colour_ground(colour) }}{{ c.emblem(colour.emblem, 88, 14, 6.5, colour.ink) }}
{{- c.text(id ~ " " ~ number, 8, 25, 21, colour.ink) }}{{ c.text("R" ~ sight, 8, 91, 19, colour.ink) }}{% endcall %}
"""
BACK = """{% import "_counter.svg.j2" as c %}
{% call c.on_piece(piece) %}{{ c.colour_ground(colour) }}{{ c.name_lines("Probe", 60, 16, colour.ink) }}{% endcall %}
"""


def add_probes(kit):
    (kit / "components").mkdir(exist_ok=True)  # beside the kit's own counter tables
    (kit / "components" / "probes.yaml").write_text(TABLE, encoding="utf-8")
    (kit / "templates" / "probe-front.svg.j2").write_text(FRONT, encoding="utf-8")
    (kit / "templates" / "probe-back.svg.j2").write_text(BACK, encoding="utf-8")


def test_a_new_counter_kind_is_a_table_and_a_template(kit_copy, tmp_path):
    add_probes(kit_copy)
    assert main(["build", "--data", str(kit_copy), "--out", str(tmp_path), "--only", "components", "-q"]) == 0
    kit_out = tmp_path / "space-empires-4x"
    part = json.loads((kit_out / "manifest.json").read_text())["parts"]["components"]
    assert "probes.pdf" in [f["path"] for f in part["files"]]   # 12 counters: every colour on one sheet
    assert next(f for f in part["files"] if f["path"] == "probes.pdf")["pages"] == 2
    fronts = [p for p in part["placements"] if p["colour"] == "red" and p["side"] == "front" and p["file"] == "probes.pdf"]
    assert [p["label"] for p in fronts] == ["P1 1", "P1 2", "P2 1"]   # numbered from each copy's index
    assert {(p["w"], p["h"]) for p in fronts} == {(45.0, 45.0)}   # 5/8 in, the counters' size
    pdf = pdfium.PdfDocument(str(kit_out / "probes.pdf"))
    assert len(pdf) == 2
    front, back = ("".join(pdf[i].get_textpage().get_text_range().split()) for i in range(2))
    assert all(word in front for word in ("P11", "P12", "R2", "P21", "R4"))
    assert back.replace("Probes", "").count("Probe") == 12
    page = pdf[0].render(scale=1).to_pil().convert("RGB")
    r, g, b = page.getpixel((round(fronts[0]["x"] + 22), round(fronts[0]["y"] + 30)))
    assert r > 150 and g < 90 and b < 90   # the red player's ground, drawn by the counter macros


def test_its_rule_count_is_checked_at_its_line(kit_copy, run_cli):
    add_probes(kit_copy)
    path = kit_copy / "components" / "probes.yaml"
    path.write_text(TABLE.replace("per_colour: 3", "per_colour: 4"), encoding="utf-8")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    line = TABLE.splitlines().index("  per_colour: 3") + 1
    assert f"probes.yaml:{line}: counts.per_colour: Probes per colour (Red): the rule asks for 4, the rows make 3" \
        in result.err


def test_list_and_validate_count_it_beside_the_game_s_counters(kit_copy, run_cli):
    add_probes(kit_copy)
    listed = run_cli("list", "--data", kit_copy)
    assert listed.code == 0 and "Total: 808 pieces in 7 print files" in listed.out and "probes 12" in listed.out
    assert "Probes: 12 (3 per colour), squares 15.9 mm, two-sided" in listed.out
    assert [l.split() for l in listed.out.splitlines() if l.strip().startswith(("P1", "P2"))] == [["P1", "8"], ["P2", "4"]]
    checked = run_cli("validate", "--data", kit_copy)
    assert checked.code == 0 and "(808 pieces in 6 tables," in checked.out


def test_a_numbered_copy_is_proofed_by_its_number_and_a_number_column_is_refused(kit_copy, tmp_path, run_cli):
    add_probes(kit_copy)
    assert run_cli("proof", "--data", kit_copy, "--only", "probes.P1:2", "--out", tmp_path).code == 0
    pdf = pdfium.PdfDocument(str(tmp_path / "space-empires-4x" / "proofs" / "proof.pdf"))
    assert "P12" in "".join(pdf[0].get_textpage().get_text_range().split())
    path = kit_copy / "components" / "probes.yaml"
    path.write_text(TABLE.replace("  sight: {", "  number: {type: int}\n  sight: {"), encoding="utf-8")
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1 and "probes.yaml:9: columns.number: a numbered table gives every copy its `number`" \
        in result.err


# docs/counters.md's "Add a counter type to Space Empires 4X": a row in a counter table, a template, a rule count.
PROBE_ROW = "  - {id: probe, set: probe, name: Probe, front: probe, back: probe, value: 2, back_value: 3, qty: 3}\n"
PROBE = """{% import "_counter.svg.j2" as c %}
{% call c.on_piece(piece) %}{{ c.colour_ground(colour) }}{{ c.text(name, 50, 40, 16, colour.ink, "middle") }}
{{- c.text("R" ~ (value if side == "front" else back_value), 50, 80, 20, colour.ink, "middle") }}{% endcall %}
"""
PROBE_RULE = """  - rule: a player has three probes
    each: components/colour-counters.yaml:rows.set=probe.qty
    equals: 3
"""


def add_probe_row(kit, row: str = PROBE_ROW) -> int:
    """The row, the template and the rule count; the line of the row in colour-counters.yaml."""
    table = kit / "components" / "colour-counters.yaml"
    with table.open("a", encoding="utf-8") as rows:
        rows.write(row)
    (kit / "templates" / "probe.svg.j2").write_text(PROBE, encoding="utf-8")
    with (kit / "kit.yaml").open("a", encoding="utf-8") as checks:  # the last block of kit.yaml is `checks:`
        checks.write(PROBE_RULE)
    return len(table.read_text(encoding="utf-8").splitlines())


def test_a_new_counter_type_is_a_row_a_template_and_a_rule_count(kit_copy, tmp_path):
    add_probe_row(kit_copy)
    assert main(["build", "--data", str(kit_copy), "--out", str(tmp_path), "--only", "counters", "-q"]) == 0
    kit_out = tmp_path / "space-empires-4x"
    part = json.loads((kit_out / "manifest.json").read_text())["parts"]["components"]
    for colour in ("red", "blue", "green", "yellow"):  # in each colour's own file, after its other counters
        mine = [p for p in part["placements"] if p["file"] == f"counters-{colour}.pdf" and p["side"] == "front"]
        assert [p["ref"] for p in mine][-3:] == ["colour-counters.probe"] * 3
    pdf = pdfium.PdfDocument(str(kit_out / "counters-red.pdf"))
    front, back = ("".join(pdf[i].get_textpage().get_text_range().split()) for i in range(2))
    assert front.count("ProbeR2") == 3 and back.count("ProbeR3") == 3   # each side its own value


def test_a_wrong_count_of_the_new_counter_type_is_located_at_its_row(kit_copy, run_cli):
    line = add_probe_row(kit_copy, PROBE_ROW.replace("qty: 3", "qty: 4"))
    result = run_cli("validate", "--data", kit_copy)
    assert result.code == 1
    assert (f"components/colour-counters.yaml:{line}: rows[4].qty: a player has three probes: is 4, the rules call "
            f"for 3") in result.err, result.err


def test_a_mistyped_rule_count_names_the_rule_s_line_in_kit_yaml_beside_the_row(kit_copy, run_cli):
    """The row is right and the rule is wrong: the finding sits at the row (where the value is) and says where the
    rule is, so a designer who mistyped the count in kit.yaml is not sent to mend a good row."""
    line = add_probe_row(kit_copy)
    kit_yaml = kit_copy / "kit.yaml"
    text = kit_yaml.read_text(encoding="utf-8")
    kit_yaml.write_text(text[: text.rindex("equals: 3")] + "equals: 4\n", encoding="utf-8")
    rule_line = kit_yaml.read_text(encoding="utf-8").splitlines().index("  - rule: a player has three probes") + 1
    result = run_cli("validate", "--quick", "--data", kit_copy)
    assert result.code == 1
    assert (f"components/colour-counters.yaml:{line}: rows[4].qty: a player has three probes: is 3, the rules call "
            f"for 4 (rule: kit.yaml:{rule_line})") in result.err, result.err


def readme_yaml_blocks(section: str) -> list[str]:
    """The YAML code blocks of one section of docs/counters.md, in order, each without its list item's indent (as a
    designer pastes it: the lines keep the indent they take in the kit's file)."""
    readme = (Path(__file__).resolve().parents[1] / "docs" / "counters.md").read_text(encoding="utf-8")
    body = readme.split(f"\n## {section}\n", 1)[1].split("\n#", 1)[0]   # up to the next heading
    return ["".join(line[len(indent):] for line in block.splitlines(keepends=True))
            for indent, block in re.findall(r"\n( *)```yaml\n(.*?)\n\1```", body, re.S)]


def test_the_readme_s_new_ship_type_and_one_more_run_the_ship_sheet_on_to_a_page_of_its_own(kit_copy, tmp_path):
    """docs/counters.md, "Design your own counter", followed as written (the XX row: its only YAML block), and a second
    group unit after it, with no edit to aids/sheets.yaml: the ship technology sheet's one page is full, so its
    table runs on to a continued page, its heading row repeated there and each group counter's row printed once."""
    (row,) = readme_yaml_blocks("Design your own counter")
    second = row.replace("id: XX", "id: YY").replace("Experimental", "Prototype").replace("qty: 3", "qty: 2")
    with (kit_copy / "components" / "units.yaml").open("a", encoding="utf-8") as units:
        units.write(row + "\n" + second + "\n")
    assert main(["build", "--data", str(kit_copy), "--out", str(tmp_path), "--only", "sheets", "-q"]) == 0
    kit_out = tmp_path / "space-empires-4x"
    pages = json.loads((kit_out / "manifest.json").read_text())["parts"]["sheets"]["pages"]["ship_tech"]
    assert [p.get("continued", False) for p in pages] == [False, True] * 4   # two pages a colour, in order
    red = page_words(kit_out / "ship-tech-sheet.pdf", [0, 1])
    assert red[1].startswith("Ship technology sheet (continued) · Red")
    assert all(page.count("Player: ___") == 1 for page in red)   # the page it ran on to says whose it is too
    header = "Group Attack Defence Tactics Movement Ships Other"
    assert all(page.count(header) == 1 for page in red)
    units = yaml.safe_load((kit_copy / "components" / "units.yaml").read_text(encoding="utf-8"))["rows"]
    groups = [f"{unit['id']} {n} " for unit in units if unit.get("groups") for n in range(1, unit["qty"] + 1)]
    both = " ".join(red)
    assert len(groups) > 40 and all(both.count(label) == 1 for label in groups)
    assert "YY 2 " in red[1] and "Colony Ships:" in red[1]   # the notes under the chart moved on whole
