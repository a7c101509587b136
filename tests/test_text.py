"""Prose with Jinja: numbers come from the data, and a wrong name is a located error."""
import pytest

from pnpgen.problems import BuildError
from pnpgen.games.space_empires_4x.text import render_text


def test_numbers_come_from_the_data(default_kit):
    text = render_text(default_kit, "A Cruiser costs {{ units.CA.cost }} CP; keep at most {{ economy.carry_over_cap }}.", "x.md")
    assert text == "A Cruiser costs 12 CP; keep at most 30."


def test_undefined_names_are_located(default_kit):
    with pytest.raises(BuildError, match=r"rules/combat\.md:2: .*'types.SimpleNamespace object' has no attribute 'XX'"):
        render_text(default_kit, "line one\nA {{ units.XX.cost }} here\n", "rules/combat.md")


def test_markup_mode_escapes_quoted_data_but_not_the_writers_markup(default_kit):
    text = render_text(default_kit, "<b>Name:</b> {{ name }}", "x.md", {"name": "R&D <1>"}, markup=True)
    assert text == "<b>Name:</b> R&amp;D &lt;1&gt;"


def test_any_kit_quotes_its_numbered_rulings(tmp_path, run_cli):
    """Rulings (data/rules.yaml `rulings:`) serve every kit's texts: a kit of data only quotes one with its
    mark, and an unknown one is a located error in the chapter that names it."""
    import shutil
    from pathlib import Path

    from pnpgen.documents.context import text_context
    from pnpgen.kit import load_kit

    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    (kit / "data").mkdir()
    (kit / "data" / "rules.yaml").write_text(
        "hand: 5\nrulings:\n  draw: {title: Drawing, where: Play, text: 'Draw up to {{ data.rules.hand }} cards.',"
        " source: say nothing.}\n  trade: {title: Trading, where: Play, source: allow it.}\n", encoding="utf-8")
    names = text_context(load_kit(kit)[0])
    assert names["ruling"]("draw") == "Draw up to 5 cards. (kit ruling 1)"
    assert names["ruling_mark"]("trade") == "(kit ruling 2)"
    assert [(r.number, r.title, r.text) for r in names["rulings"]()] == [
        (1, "Drawing", "Draw up to 5 cards."), (2, "Trading", None)]
    chapter = kit / "rules" / "01-rules.md"
    line = chapter.read_text(encoding="utf-8").count("\n") + 1
    chapter.write_text(chapter.read_text(encoding="utf-8") + "{{ ruling('bids') }}\n", encoding="utf-8")
    result = run_cli("validate", "--quick", "--data", kit)
    assert result.code == 1
    assert f"01-rules.md:{line}: no ruling 'bids' in data/rules.yaml rulings (known: draw, trade)" in result.err
