"""Every class of bad input in every file kind of the Space Empires 4X kit, as one table.

Each row breaks one file of a copy of the kit and runs `pnpgen build` into an output folder that holds an
earlier build: the run must exit 1 (2 for a bad command line), name the file, the line and the field, say
what is wrong, and leave every file of the earlier output as it was.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from pnpgen.cli import main

KIT = "space-empires-4x"
BOMB = "b0: &b0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * 10) + "]\n" for i in range(1, 8))


@dataclass(frozen=True)
class Bad:
    id: str
    file: str          # the file edited, inside the kit
    old: str           # text replaced (the first occurrence); "" appends `new` at the end
    new: str
    field: str         # the field named in the message ("" for a problem of the whole file or line)
    words: str         # words the message must hold
    line: int = 0      # the reported line, relative to the edited line (None: not checked)
    reported: str = ""  # the file the message names, when it is not the edited one
    code: int = 1
    only: str = "manifest"  # the part built (validation comes first; a template runs only when drawn)


B = Bad
TABLE = [
    # kit.yaml
    B("kit-syntax", "kit.yaml", "players: {min: 1, max: 4}", "players: {min: 1, max: 4", "", "not valid YAML", None),
    B("kit-unknown-key", "kit.yaml", "paper: letter", "papr: letter", "papr", "did you mean 'paper'"),
    B("kit-wrong-type", "kit.yaml", "players: {min: 1, max: 4}", "players: {min: one, max: 4}", "players.min",
      "whole number"),
    B("kit-absurd-counter", "kit.yaml", "counter_size: 5/8in", "counter_size: 50in", "counter_size", "at most 3 in"),
    B("kit-zero-counter", "kit.yaml", "counter_size: 5/8in", "counter_size: 0in", "counter_size", "at least"),
    B("kit-path-out", "kit.yaml", "  game: data/game.yaml", "  game: /etc/passwd", "files.game",
      "outside the kit folder"),
    B("kit-path-up", "kit.yaml", "  game: data/game.yaml", "  game: ../../game.yaml", "files.game",
      "outside the kit folder"),
    B("kit-nul", "kit.yaml", "title: Space Empires 4X", "title: Space\0Empires 4X", "", "NUL byte"),
    B("kit-not-utf8", "kit.yaml", "title: Space Empires 4X", "title: Space \udcff Empires", "", "not UTF-8"),
    # components/units.yaml (a component table)
    B("units-unknown-key", "components/units.yaml", "    cost: 15", "    cost: 15\n    speed: 3", "rows[3].speed",
      "unknown field", 1),
    B("units-missing", "components/units.yaml", "    name: Scout\n", "", "rows[0].name", "is required", None),
    B("units-billion", "components/units.yaml", "    qty: 15", "    qty: 1000000000", "rows[6].qty",
      "<= 10000"),
    B("units-mapping", "components/units.yaml", "requires: {fighters: 1}", "requires: fighters",
      "rows[11].requires", "a mapping"),
    B("units-unsafe-tag", "components/units.yaml", "    name: Scout", "    name: !!python/object/apply:os.system ['true']", "",
      "not valid YAML"),
    B("units-alias-bomb", "components/units.yaml", "", "\n" + BOMB, "", "aliases expand", None),
    B("units-duplicate", "components/units.yaml", "    cost: 9\n", "    cost: 9\n    cost: 10\n", "", "duplicate key 'cost'", 1),
    # technologies.yaml
    B("tech-wrong-type", "technologies.yaml", "{level: 4, cost: 20}", "{level: four, cost: 20}",
      "technologies.ship_size.levels[3].level", "whole number"),
    B("tech-absurd", "technologies.yaml", "{level: 4, cost: 20}", "{level: 4, cost: 1000000000}",
      "technologies.ship_size.levels[3].cost", "<= 1000"),
    # data/markers.yaml (the marker kinds) and the marker tables
    B("markers-unknown-key", "data/markers.yaml", "    duration: one-time", "    duraton: one-time",
      "kinds.minerals.duraton", "did you mean 'duration'"),
    B("markers-billion", "components/deep-space-markers.yaml", "{kind: danger, qty: 26}",
      "{kind: danger, qty: 1000000000}", "rows[0].qty", "<= 10000"),
    B("markers-unknown-column", "components/deep-space-markers.yaml", "{kind: danger, qty: 26}",
      "{kind: danger, qtty: 26}", "rows[0].qtty", "did you mean 'qty'"),
    # components/colour-counters.yaml
    B("counters-billion", "components/colour-counters.yaml", "value: 3, back_value: 5, qty: 15}",
      "value: 3, back_value: 5, qty: 1000000000}", "rows[2].qty", "<= 10000"),
    B("counters-unknown-key", "components/colour-counters.yaml", "value: 3, back_value: 5, qty: 15}",
      "value: 3, bak_value: 5, qty: 15}", "rows[2].bak_value", "did you mean 'back_value'"),
    # data/game.yaml
    B("game-absurd-die", "data/game.yaml", "die: 10", "die: 1000000000", "combat.die", "<= 100"),
    B("game-unknown-key", "data/game.yaml", "carry_over_cap: 30", "carry_ovre_cap: 30", "economy.carry_ovre_cap",
      "did you mean 'carry_over_cap'"),
    # maps/*.yaml
    B("map-unknown-key", "maps/duel-small.yaml", "rounds: 20", "round: 20", "round", "did you mean 'rounds'"),
    B("map-zero-hex", "maps/duel-small.yaml", "hex_size: 1.25in", "hex_size: 0in", "hex_size", "more than 0"),
    B("map-absurd-hex", "maps/duel-small.yaml", "hex_size: 1.25in", "hex_size: 50in", "hex_size", "at most"),
    B("map-absurd-rounds", "maps/duel-small.yaml", "rounds: 20", "rounds: 1000000000", "rounds", "<= 100"),
    B("map-absurd-board", "maps/duel-small.yaml", '  - ". . . . . . + . . . . . . . ."',
      '  - ". . . . . . + . . . . . . . ."' + '\n  - ". . . . . . . . . . . . . . ."' * 200, "rows",
      "more than 120 in a side", None),
    B("map-nul", "maps/duel-small.yaml", "rounds: 20", "rounds: 2\0", "", "NUL byte"),
    # aids/cards.yaml
    B("cards-unknown-top", "aids/cards.yaml", "cards:\n", "zz_bogus_key: 1\ncards:\n", "zz_bogus_key",
      "unknown field"),
    B("cards-unknown-key", "aids/cards.yaml", "    title: Player aid", "    titel: Player aid", "cards.player_aid.titel",
      "did you mean 'title'"),
    B("cards-unknown-chart", "aids/cards.yaml", "      - chart: movement", "      - chart: movment",
      "cards.player_aid.front[5].chart", "one of"),
    B("cards-markup", "aids/cards.yaml", "<b>Each turn</b>", "<b>Each turn", "cards.player_aid.front[2].bullets[0]",
      "markup does not parse", None),
    B("cards-undefined", "aids/cards.yaml", "roll a d{{ combat.die }}", "roll a d{{ combat.dice }}", "",
      "no 'dice' (there: always_hits, classes, die"),
    B("cards-sandbox", "aids/cards.yaml", "roll a d{{ combat.die }}", "roll a d{{ kit.__class__ }}", "",
      "not allowed"),
    B("cards-jinja-syntax", "aids/cards.yaml", "roll a d{{ combat.die }}", "roll a d{{ combat.die }", "",
      "template syntax error"),
    # charts.yaml
    B("charts-unknown-key", "charts.yaml", '{id: hull, header: Hull, cell: "{{ row.hull }}"',
      '{id: hull, header: Hull, cel: "{{ row.hull }}"', "charts.units.columns[3].cel", "did you mean 'cell'"),
    B("charts-unknown-field", "charts.yaml", 'cell: "{{ row.hull }}"', 'cell: "{{ row.hul }}"',
      "charts.units.columns[3].cell", "no attribute 'hul'"),
    B("charts-bad-expression", "charts.yaml", "rows: tables.black_hole", "rows: tables.black_hole +",
      "charts.black-hole.rows", "template syntax error"),
    B("charts-not-a-list", "charts.yaml", "rows: scenarios", "rows: combat.die", "charts.scenarios.rows",
      "must give a list"),
    B("charts-sandbox", "charts.yaml", "rows: scenarios", "rows: scenarios.__class__", "charts.scenarios.rows",
      "not allowed"),
    B("rules-unknown-section", "rules/10-units.md", "section='basic'", "section='basik'", "",
      "chart 'units' has no section 'basik'", reported="rules/10-units.md"),
    B("rules-unknown-column", "rules/09-technology.md", "'technology', 'levels'", "'technology', 'level'", "",
      "chart 'research' has no column 'level'"),
    # aids/sheets.yaml
    B("sheets-unknown-top", "aids/sheets.yaml", "sheets:\n", "zz_bogus_key: 1\nsheets:\n", "zz_bogus_key",
      "unknown field"),
    B("sheets-wrong-type", "aids/sheets.yaml", '{label: "Total", total: true}', '{label: "Total", total: yes please}',
      "sheets.production.pages[0][2].form.rows[4].total", "true or false"),
    B("sheets-missing", "aids/sheets.yaml", "    title: Ship technology sheet\n", "",
      "sheets.ship_tech.title", "is required", None),
    B("sheets-unknown-chart", "aids/sheets.yaml", "chart: ship-groups", "chart: ship-group",
      "sheets.ship_tech.pages[0][2].chart", "must be one of"),
    # rules/*.md
    B("rules-undefined", "rules/07-combat.md", "{{ combat.fleet_size_ratio }}", "{{ combat.fleet_ratio }}", "",
      "no 'fleet_ratio' (there: always_hits, classes, die, fleet_size_bonus, fleet_size_ratio, terrain_class); did you mean 'fleet_size_ratio'?"),
    B("rules-unknown-table", "rules/02-the-kit.md", "{{ table('colours') }}", "{{ table('colors') }}", "",
      "unknown table 'colors'"),
    B("rules-sandbox", "rules/07-combat.md", "{{ combat.fleet_size_ratio }}",
      "{{ combat.__class__.__mro__ }}", "", "not allowed"),
    B("rules-reads-files", "rules/07-combat.md", "{{ combat.fleet_size_ratio }}",
      "{{ kit.root.joinpath('../../../etc/passwd').read_text() }}", "", "not allowed"),
    B("rules-memory-bomb", "rules/07-combat.md", "{{ combat.fleet_size_ratio }}", "{{ 'x' * 10**9 }}", "",
      "too large"),
    B("rules-nul", "rules/07-combat.md", "{{ combat.fleet_size_ratio }}", "\0", "", "NUL byte"),
    B("rules-not-utf8", "rules/07-combat.md", "{{ combat.fleet_size_ratio }}", "\udcff", "", "not UTF-8"),
    # templates/*.svg.j2 (the kit's own copy of a built-in face)
    B("template-syntax", "templates/unit-front.svg.j2", "", "{% if %}\n", "", "template syntax error", None),
    B("template-sandbox", "templates/unit-front.svg.j2", "", "{{ name.__class__.__mro__ }}\n", "", "not allowed",
      None, only="counters"),
    B("template-missing", "components/units.yaml", "    name: Destroyer\n", "    name: Destroyer\n    front: my-face\n",
      "rows[1].front", "my-face.svg.j2 not found", -1),
    # the command line
    B("option-counter-size", "", "", "", "", "--counter-size must be between", None, code=2),
]


def snapshot(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}


@pytest.fixture(scope="module")
def earlier(tmp_path_factory) -> Path:
    """An earlier build's output (its manifest) that every broken run must leave alone."""
    out = tmp_path_factory.mktemp("earlier")
    assert main(["build", "--out", str(out), "--only", "manifest", "--quiet"]) == 0
    return out


def write(path: Path, old: str, new: str) -> int:
    """Apply a row's edit; returns the edited line. `\\udcff` stands for a byte that is not UTF-8."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if not old:
        line = text.count("\n") + 1
        text += new
    else:
        assert old in text, f"{old!r} not in {path.name}"
        line = text[: text.index(old)].count("\n") + 1
        text = text.replace(old, new, 1)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return line


@pytest.mark.parametrize("bad", TABLE, ids=[b.id for b in TABLE])
def test_bad_input_is_located_and_leaves_the_output_alone(bad, run_cli, kit_copy, earlier):
    line = write(kit_copy / bad.file, bad.old, bad.new) if bad.file else 0
    before = snapshot(earlier)
    extra = ("--counter-size", "0in") if bad.code == 2 else ()
    result = run_cli("build", "--data", kit_copy, "--out", earlier, "--only", bad.only, "--quiet", *extra)
    assert result.code == bad.code, result.err
    assert "Traceback" not in result.err
    assert snapshot(earlier) == before
    assert not [p for p in earlier.iterdir() if p.name.startswith(".staging")]
    if not bad.file:
        assert bad.words in result.err, result.err
        return
    reported = bad.reported or bad.file
    located = [l for l in result.err.splitlines() if re.search(rf"{re.escape(reported)}:\d+: ", l)]
    assert located, result.err
    hit = [l for l in located if bad.words in l and (not bad.field or f": {bad.field}: " in l)]
    assert hit, result.err
    if bad.line is not None:
        reported_line = int(re.search(rf"{re.escape(reported)}:(\d+): ", hit[0]).group(1))
        assert reported_line == line + bad.line, (hit[0], line)


@pytest.mark.skipif(not hasattr(Path, "symlink_to"), reason="no symbolic links")
def test_files_linked_from_outside_the_kit_are_refused(run_cli, kit_copy, earlier, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n")
    (kit_copy / "rules" / "99-secret.md").symlink_to(secret)
    (kit_copy / "templates" / "unit-front.svg.j2").unlink()
    (kit_copy / "templates" / "unit-front.svg.j2").symlink_to(secret)
    (kit_copy / "aids" / "sheets.yaml").unlink()
    (kit_copy / "aids" / "sheets.yaml").symlink_to(secret)
    (kit_copy / "maps" / "zz-secret.yaml").symlink_to(secret)
    before = snapshot(earlier)
    result = run_cli("build", "--data", kit_copy, "--out", earlier, "--only", "manifest", "--quiet")
    assert result.code == 1 and snapshot(earlier) == before
    for name in ("rules/99-secret.md", "templates/unit-front.svg.j2", "aids/sheets.yaml", "maps/zz-secret.yaml"):
        assert f"{name}: links to a file outside the kit folder" in result.err, result.err
    assert "hunter2" not in result.err + result.out
