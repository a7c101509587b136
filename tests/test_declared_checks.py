"""Cross-file rules declared in kit.yaml (`checks:`, pnpgen.declared_checks): a designer adds one without code,
a broken one is located at kit.yaml's line, and what it finds is located at the data's own line.

The rule kinds are tried on a kit of data only (tests/kits/mini, quick to validate) with a facts file of its
own; Space Empires 4X's own rules are tried in test_bad_input*.py."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import edit

RULE = """  - rule: one Homeworld lies face up in each Home System
    sum: components/home-system-markers.yaml:rows.face_up=True.qty
    equals: {n}
"""


def add_rule(kit, text: str) -> int:
    """Append a rule to kit.yaml's checks; return its first line."""
    path = kit / "kit.yaml"
    before = path.read_text(encoding="utf-8")
    path.write_text(before + text, encoding="utf-8")
    return before.count("\n") + 1


def rule_count(kit) -> int:
    import yaml
    return len(yaml.safe_load((kit / "kit.yaml").read_text(encoding="utf-8")).get("checks") or [])


def test_a_designer_s_own_count_rule_passes(kit_copy, run_cli):
    add_rule(kit_copy, RULE.format(n=1))
    assert run_cli("validate", "--quick", "--data", kit_copy).code == 0


def test_every_broken_rule_and_every_finding_is_located_in_one_run(kit_copy, run_cli):
    """One validate reports them all: a rule's own problems at kit.yaml's line, findings at the data's."""
    first = rule_count(kit_copy)
    counted = add_rule(kit_copy, RULE.format(n=2))
    no_file = add_rule(kit_copy, "  - {rule: units need ships, each: unit:units.*.name, in: game:setup}\n")
    half = add_rule(kit_copy, "  - {rule: half a rule, each: game:setup.starting_forces.*.unit}\n")
    requires = edit(kit_copy / "components/units.yaml", "requires: {fighters: 1}", "requires: {fightrs: 1}")
    result = run_cli("validate", "--quick", "--data", kit_copy)
    assert result.code == 1 and counted
    rows = (kit_copy / "components/home-system-markers.yaml").read_text().splitlines().index("rows:") + 1
    assert (f"home-system-markers.yaml:{rows}: rows.face_up=True.qty: one Homeworld lies face up in each Home System: "
            "the entries add up to 1, the rules call for 2") in result.err, result.err
    assert f"kit.yaml:{no_file}: checks[{first + 1}]: units need ships: no data file 'unit'" in result.err
    assert f"kit.yaml:{half}: checks[{first + 2}]: half a rule: give `each` with in, equals" in result.err
    assert (f"units.yaml:{requires}: rows[11].requires.fightrs: every technology a unit requires is on the research "
            "chart: 'fightrs' is not one of them (did you mean 'fighters'?") in result.err


FACTS = """dice: {faces: 6}
levels: [1, 2, 3]
growth: [1, 3, 5]
ids: [a, b, c]
table:
  - {roll: [1, 3], what: calm}
  - {roll: [4, 6], what: storm}
ships:
  scout: {attack: 1, defence: 1, class: E, size: 1, qty: 4}
  base: {attack: null, defence: null, class: null, size: null, qty: 2}
limits: {scout: 5, base: 1}
exempt: {base: true}
orders:
  - {ship: scout, count: 2}
fleet:
  - {code: scout, qty: 4}
  - {code: base, qty: 2}
kinds:
  coin: {shows: number}
  rock: {shows: null}
  gem: {shows: null}
pieces:
  - {kind: coin, value: 1}
  - {kind: coin, value: 2}
  - {kind: rock}
spares: [gem]
"""
F = "data/facts.yaml"
RULES = f"""checks:
  - {{rule: no ship comes more than ten times, each: '{F}:ships.*.qty', at_most: 10}}
  - {{rule: a ship's size is a level, each: '{F}:ships.*.size', in: '{F}:levels'}}
  - {{rule: there are three levels at most, count: '{F}:levels', at_most: 3}}
  - {{rule: levels climb by one, rises: '{F}:levels.*', by: 1}}
  - {{rule: growth rises, rises: '{F}:growth.*'}}
  - {{rule: ids are unique, unique: '{F}:ids.*'}}
  - {{rule: attack and defence go together, each: '{F}:ships.*', together: [attack, defence]}}
  - {{rule: an attack needs a class, each: '{F}:ships.*', needs: {{attack: class}}}}
  - {{rule: the first level has no size, each: '{F}:ships.base.size', given: false}}
  - {{rule: the table covers the die, covers: '{F}:table.*.roll', up_to: '{F}:dice.faces'}}
  - {{rule: every row says what happens or none does, all_or_none: '{F}:table.*.what'}}
  - {{rule: the die has an even number of faces, warning: true, each: '{F}:dice.faces', multiple_of: 2}}
  - {{rule: ships within their limits, each: '{F}:ships.{{ship}}.qty', at_most: '{F}:limits.{{ship}}',
      unless: '{F}:exempt.{{ship}}'}}
  - {{rule: orders within the ships, each: '{F}:orders.*.count', at_most: '{F}:ships.{{ship}}.qty'}}
  - {{rule: a scout has a size, each: '{F}:ships.scout.size', given: true}}
  - {{rule: a base is kept, each: '{F}:ships.base.qty', at_least: 1}}
  - {{rule: the levels add up to six, sum: '{F}:levels.*', equals: 6}}
  - {{rule: orders within the fleet, each: '{F}:orders.*.count', at_most: '{F}:fleet.code={{ship}}.qty'}}
  - {{rule: a player has at most 9 of a token, each: 'components/tokens.csv:*.qty', at_most: 9}}
  - {{rule: a card costs at most 2, each: 'components/cards.yaml:rows.*.cost', at_most: 2}}
  - {{rule: a piece shows a value when its kind does, each: '{F}:pieces.*.value', given: '{F}:kinds.{{kind}}.shows'}}
  - {{rule: a kind and value is one piece, unique: '{F}:pieces.*', fields: [kind, value]}}
  - {{rule: every kind is a piece or a spare, each_key: '{F}:kinds', in: ['{F}:pieces.*.kind', '{F}:spares']}}
"""


@pytest.fixture
def facts_kit(tmp_path) -> Path:
    """The mini kit with a facts file of its own and a rule of every kind over it (and its tables)."""
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    (kit / "data").mkdir()
    (kit / F).write_text(FACTS, encoding="utf-8")
    add_rule(kit, RULES)
    return kit


def test_every_rule_kind_passes_on_good_data(facts_kit, run_cli):
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert result.code == 0 and "warning" not in result.err, result.err


# (file, text replaced, replacement, field, words of the message[, the text on the line reported, when that
# is not the edited line: a whole list's problem is at the list's key])
BROKEN = [
    (F, "qty: 4}", "qty: 40}", "ships.scout.qty", "no ship comes more than ten times: is 40, the rules call for at most 10"),
    (F, "size: 1,", "size: 7,", "ships.scout.size", "a ship's size is a level: 7 is not one of them (known: 1, 2, 3)"),
    (F, "levels: [1, 2, 3]", "levels: [1, 2, 3, 4]", "levels", "holds 4 entries, the rules call for at most 3"),
    (F, "levels: [1, 2, 3]", "levels: [1, 2, 4]", "levels[2]", "levels climb by one: expected 3, not 4"),
    (F, "growth: [1, 3, 5]", "growth: [1, 5, 3]", "growth[2]", "growth rises: 3 does not rise above the 5 before it"),
    (F, "ids: [a, b, c]", "ids: [a, b, a]", "ids[2]", "ids are unique: 'a' is given twice (first at ids[0], line 4)"),
    (F, "{attack: null, defence: null, class: null", "{attack: 2, defence: null, class: E", "ships.base.attack",
     "attack and defence go together: attack given without defence"),
    (F, "class: E, size: 1", "class: null, size: 1", "ships.scout.class",
     "an attack needs a class: attack is given, so class must be too"),
    (F, "class: null, size: null", "class: null, size: 2", "ships.base.size",
     "the first level has no size: is 2: the rules call for none (leave it null)"),
    (F, "{roll: [4, 6], what: storm}", "{roll: [5, 6], what: storm}", "table",
     "the table covers the die: every roll 1..6 must appear exactly once; check [4]", "table:"),
    (F, "{roll: [4, 6], what: storm}", "{roll: [4, 7], what: storm}", "table[1].roll",
     "must be [low, high] within 1..6, not [4, 7]"),
    (F, "what: storm", "what: null", "table", "given on 1 of 2, not on table[1].what", "table:"),
    (F, "qty: 4}", "qty: 6}", "ships.scout.qty", "ships within their limits: is 6, the rules call for at most 5 (limits.scout)"),
    (F, "{ship: scout, count: 2}", "{ship: scout, count: 9}", "orders[0].count",
     "orders within the ships: is 9, the rules call for at most 4 (ships.scout.qty)"),
    (F, "class: E, size: 1", "class: E, size: null", "ships.scout.size",
     "a scout has a size: is not given: the rules call for a value"),
    (F, "size: null, qty: 2}", "size: null, qty: 0}", "ships.base.qty", "a base is kept: is 0, the rules call for at least 1"),
    (F, "levels: [1, 2, 3]", "levels: [0, 1, 2]", "levels", "the levels add up to six: the entries add up to 3, the rules "
     "call for 6"),
    (F, "{code: scout, qty: 4}", "{code: scout, qty: 1}", "orders[0].count",
     "orders within the fleet: is 2, the rules call for at most 1 (fleet[0].qty)", "  - {ship: scout, count: 2}"),
    ("components/tokens.csv", "5,1", "5,12", "[2].qty", "a player has at most 9 of a token: is 12, the rules call for at most 9"),
    ("components/cards.yaml", "cost: 2, qty: 4", "cost: 3, qty: 4", "rows[1].cost",
     "a card costs at most 2: is 3, the rules call for at most 2"),
    # given: PATH, a field the row leaves out read as null; unique over fields; in: a list of paths
    (F, "{kind: coin, value: 2}", "{kind: coin}", "pieces[1].value",
     "a piece shows a value when its kind does: is not given: the rules call for a value (kinds.coin.shows is "
     "'number')"),
    (F, "- {kind: rock}", "- {kind: rock, value: 3}", "pieces[2].value",
     "a piece shows a value when its kind does: is 3: the rules call for none (kinds.rock.shows is null: leave it "
     "null)"),
    (F, "{kind: coin, value: 2}", "{kind: coin, value: 1}", "pieces[1]",
     "a kind and value is one piece: {kind: coin, value: 1} is given twice (first at pieces[0], line 23)"),
    (F, "- {kind: rock}", "- {kind: coin, value: 3}", "kinds.rock",
     "every kind is a piece or a spare: 'rock' is not one of them (known: coin, gem)", "  rock: {shows: null}"),
]


@pytest.mark.parametrize("broken", BROKEN, ids=[f"{b[3]}-{i}" for i, b in enumerate(BROKEN)])
def test_a_broken_fact_is_located_and_names_its_rule(facts_kit, run_cli, broken):
    file, old, new, field, words, *at = broken
    line = edit(facts_kit / file, old, new)
    if at:
        line = (facts_kit / file).read_text().splitlines().index(at[0]) + 1
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert result.code == 1, result.err
    assert f"{file}:{line}: {field}: " in result.err and words in result.err, result.err


def test_a_warning_rule_warns_and_fails_only_under_strict(facts_kit, run_cli):
    line = edit(facts_kit / F, "dice: {faces: 6}", "dice: {faces: 7}")
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert (f"{F}:{line}: warning: dice.faces: the die has an even number of faces: is 7, the rules call for a "
            "multiple of 2") in result.err
    assert "table: the table covers the die: every roll 1..7 must appear exactly once; check [7]" in result.err
    edit(facts_kit / F, "[4, 6], what: storm", "[4, 7], what: storm")
    assert run_cli("validate", "--quick", "--data", facts_kit).code == 0
    assert run_cli("validate", "--quick", "--strict", "--data", facts_kit).code == 1


def test_unless_skips_a_value(facts_kit, run_cli):
    """base is exempt from its limit of 1: two bases pass."""
    assert run_cli("validate", "--quick", "--data", facts_kit).code == 0
    edit(facts_kit / F, "exempt: {base: true}", "exempt: {base: false}")
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert "ships.base.qty: ships within their limits: is 2, the rules call for at most 1 (limits.base)" in result.err


BAD_RULES = [
    ("{rule: x, sum: 'a:b.*', equals: 1}", "x: no data file 'a' (files: kit, templates, or a kit file's path"),
    ("{rule: x, each: 'data/nope.yaml:a', at_most: 1}", "x: no file data/nope.yaml in the kit folder"),
    ("{rule: x, each: 'art/red.png:a', at_most: 1}", "x: art/red.png: a rule reads YAML and CSV files, not .png (a "
     "table's rows kept in a spreadsheet are read through the table: components/ships.yaml:rows.*.name)"),
    ("{rule: x, each: 'data/../../outside.yaml:a', at_most: 1}", "x: 'data/../../outside.yaml' points outside the kit"),
    ("{rule: x, each: 'kit:players.min'}", "x: give `each` with in, equals, at_least"),
    ("{rule: x, rises: 'kit:a.*', unique: 'kit:b.*'}", "x: give one of each, each_key, sum, count"),
    ("{rule: x, rises: 'kit:a.*', in: 'kit:b'}", "x: `rises` is not checked with in (by)"),
    ("{rule: x, covers: 'kit:a.*'}", "x: give `covers` with up_to"),
    ("{rule: x, each: 'kit:colours.{colour}.name', in: 'kit:colours.{color}'}",
     "x: {color} stands for nothing: no `{color}` step in `each`'s path and no field color beside its values"),
]


@pytest.mark.parametrize("text, words", BAD_RULES, ids=[b[1].split(": ", 1)[1][:24] for b in BAD_RULES])
def test_a_broken_rule_is_located_at_its_line_in_kit_yaml(tmp_path, run_cli, text, words):
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    line = add_rule(kit, f"checks:\n  - {text}\n") + 1
    result = run_cli("validate", "--quick", "--data", kit)
    assert result.code == 1 and f"kit.yaml:{line}: checks[0]: {words}" in result.err, result.err


# A designer's rules over a table whose rows live in a CSV file or a spreadsheet, over a whole data file, and
# with a misspelt field: each one checks what it says or stops at its line (none passes by reading nothing).
def test_a_rule_over_a_table_reads_its_csv_rows(facts_kit, run_cli):
    """`components/tokens.yaml:rows.*.value` reads tokens.csv's rows (as the README's example writes it), and a
    finding is at the CSV's own line."""
    add_rule(facts_kit, "  - {rule: a token shows at most 4, each: 'components/tokens.yaml:rows.*.value', at_most: 4}\n")
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert result.code == 1, result.err
    assert ("components/tokens.csv:4: rows[2].value: a token shows at most 4: is 5, the rules call for at most 4"
            in result.err), result.err


def test_a_rule_over_a_table_reads_its_spreadsheet_rows(facts_kit, run_cli):
    from tests.test_designer_features import write_workbook
    tokens = facts_kit / "components"
    write_workbook(tokens / "tokens.xlsx", {"Notes": [["what"]], "Tokens": [["value", "qty"], [1, 4], [2, 3], [5, 1]]})
    edit(tokens / "tokens.yaml", "rows: tokens.csv", "rows: tokens.xlsx#Tokens")
    assert run_cli("validate", "--quick", "--data", facts_kit).code == 0
    add_rule(facts_kit, "  - {rule: token values are unique, unique: 'components/tokens.yaml:rows.*.value'}\n"
                        "  - {rule: a token shows at most 4, each: 'components/tokens.yaml:rows.*.value', at_most: 4}\n")
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert result.code == 1, result.err
    assert ("components/tokens.xlsx:Tokens:4: rows[2].value: a token shows at most 4: is 5, the rules call for at "
            "most 4") in result.err, result.err
    assert "unique" not in result.err, result.err


def test_a_rule_may_name_a_whole_file(facts_kit, run_cli):
    """`in: data/limits.yaml`: a key of the mapping the file holds."""
    (facts_kit / "data" / "limits.yaml").write_text("scout: 5\nbase: 1\n", encoding="utf-8")
    add_rule(facts_kit, f"  - {{rule: every order names a limited ship, each: '{F}:orders.*.ship', in: data/limits.yaml}}\n")
    assert run_cli("validate", "--quick", "--data", facts_kit).code == 0
    line = edit(facts_kit / F, "{ship: scout, count: 2}", "{ship: scuot, count: 2}")
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert (f"{F}:{line}: orders[0].ship: every order names a limited ship: 'scuot' is not one of them (did you "
            "mean 'scout'?") in result.err, result.err


MISSPELT = [
    ("{rule: titles differ, unique: 'components/cards.yaml:rows.*.titel'}",
     "titles differ: components/cards.yaml:rows.*.titel reaches nothing: no field 'titel' in rows[0] (did you mean 'title'?"),
    (f"{{rule: a small die, each: '{F}:dice.faces', at_most: '{F}:dice.face'}}",
     f"a small die: {F}:dice.face reaches nothing: no field 'face' in dice (did you mean 'faces'?"),
    (f"{{rule: few ships, count: '{F}:ship', at_most: 3}}",
     f"few ships: {F}:ship reaches nothing: no field 'ship' (did you mean 'ships'?"),
    ("{rule: small tokens, each: 'components/tokens.csv:rows.*.value', at_most: 5}",
     "small tokens: components/tokens.csv:rows.*.value reaches nothing: the file is a list of 3 items, with no "
     "field 'rows': `*` steps into its items"),
    (f"{{rule: few scouts, each: '{F}:fleet.code=scuot.qty', at_most: 5}}",
     f"few scouts: {F}:fleet.code=scuot.qty reaches nothing: no item of fleet has code=scuot (did you mean code=scout?)"),
    (f"{{rule: few scouts, each: '{F}:fleet.cdoe=scout.qty', at_most: 5}}",
     f"few scouts: {F}:fleet.cdoe=scout.qty reaches nothing: no item of fleet has a field 'cdoe' (did you mean "
     "'code'?"),
]


@pytest.mark.parametrize("text, words", MISSPELT,
                         ids=["own path", "bound", "top level", "a list", "selected value", "selected field"])
def test_a_path_that_reaches_nothing_is_located_at_its_rule(facts_kit, run_cli, text, words):
    line = add_rule(facts_kit, f"  - {text}\n")
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert result.code == 1 and f"kit.yaml:{line}: checks[23]: {words}" in result.err, result.err


def test_a_field_with_no_line_is_located_at_its_file_not_looped_on(tmp_path):
    """A first field the line index lacks (no dot to strip) ends at the file, line 0, at once."""
    from pnpgen.declared_paths import Sources
    sources = Sources({"units": {}}, {("units", "units.SC"): ("units.yaml", 7)}, tmp_path)
    assert sources.locate("units", "units.SC.attack") == ("units.yaml", 7)
    assert sources.locate("units", "nowhere") == ("units", 0)


def test_a_column_no_row_gives_reads_as_null(facts_kit, run_cli):
    """`given` over an optional column that no row gives yet: every row's value is null, not a path that
    reaches nothing; a field that is no column is still a typo at the rule."""
    edit(facts_kit / "components/cards.yaml", "  cost:  {type: int",
         "  note:  {type: text, required: false, doc: a reminder}\n  cost:  {type: int")
    add_rule(facts_kit, "  - {rule: no card has a note yet, each: 'components/cards.yaml:rows.*.note', given: false}\n")
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert result.code == 0, result.err
    line = add_rule(facts_kit, "  - {rule: every card has a title, each: 'components/cards.yaml:rows.*.titel', given: true}\n")
    result = run_cli("validate", "--quick", "--data", facts_kit)
    assert result.code == 1 and f"kit.yaml:{line}: checks[24]: every card has a title: " \
        "components/cards.yaml:rows.*.titel reaches nothing: no field 'titel' in rows[0] (did you mean 'title'?" \
        in result.err, result.err


def test_a_selection_of_a_value_the_data_does_not_use_is_not_a_typo(facts_kit, run_cli):
    """`code=cruiser` selects nothing because no ship is a cruiser (yet), not because of a misspelling: no error."""
    add_rule(facts_kit, f"  - {{rule: few cruisers, each: '{F}:fleet.code=cruiser.qty', at_most: 5}}\n")
    assert run_cli("validate", "--quick", "--data", facts_kit).code == 0


def test_a_yaml_error_in_a_file_a_rule_reads_is_said_once(tmp_path, capsys):
    """The blank kit's rule over its cards read the broken file again: the page and the terminal said the
    YAML error twice, once as the rule's own finding."""
    from pnpgen.cli import main
    from pnpgen.newkit import BLANK_KIT
    kit = tmp_path / "kit"
    shutil.copytree(BLANK_KIT, kit)
    cards = kit / "components" / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: ", "name: [", 1))
    assert main(["validate", "--data", str(kit)]) == 1
    said = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert [line for line in said if "not valid YAML" in line] == [said[0]] and "cards.yaml:" in said[0]
    assert said[1] == "1 error(s); nothing was built or changed."
