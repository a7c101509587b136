"""Unchanged parts come back from the cache; a change rebuilds the parts it touches, never stale output."""
import json
import re
import shutil

import pytest

from tests.conftest import edit


def built_parts(err: str) -> dict:
    """{part: 'reused' | 'built'} from a --verbose build's log."""
    parts = {}
    for line in err.splitlines():
        if m := re.match(r"(\w+): \d+\.\d+ s$", line.strip()):
            parts.setdefault(m.group(1), "built")
        if m := re.match(r"\s*(\w+): nothing changed", line):
            parts[m.group(1)] = "reused"
    return parts


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A kit copy built once, so each test starts with a warm cache."""
    from tests.conftest import DEFAULT_KIT_DIR
    from pnpgen.cli import main
    root = tmp_path_factory.mktemp("warm")
    shutil.copytree(DEFAULT_KIT_DIR, root / "kit")
    assert main(["build", "--data", str(root / "kit"), "--out", str(root / "out"), "--quiet"]) == 0
    return root


@pytest.fixture
def workspace(warm, tmp_path):
    shutil.copytree(warm / "kit", tmp_path / "kit")
    shutil.copytree(warm / "out", tmp_path / "out")
    return tmp_path


def files(out):
    """The built files (not the marker, which names the folder it was written in: a copy gets a new one)."""
    return {p.relative_to(out): p.read_bytes() for p in (out / "space-empires-4x").rglob("*")
            if p.is_file() and p.name != ".pnpgen-build"}


def test_nothing_changed_reuses_every_part_with_identical_files(run_cli, workspace):
    before = files(workspace / "out")
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose")
    assert result.code == 0
    assert set(built_parts(result.err).values()) == {"reused"}, result.err
    assert files(workspace / "out") == before


def test_an_edited_rules_chapter_rebuilds_the_booklet_with_the_new_text(run_cli, workspace):
    chapter = sorted((workspace / "kit" / "rules").glob("*.md"))[0]
    chapter.write_text(chapter.read_text() + "\nA sentence added by the cache test.\n")
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose",
                     "--only", "booklet,cards")
    assert built_parts(result.err) == {"booklet": "built", "cards": "reused"}  # cards read no rules chapter
    from pypdf import PdfReader
    text = " ".join(p.extract_text() for p in PdfReader(workspace / "out" / "space-empires-4x" / "booklet.pdf").pages)
    assert "added by the cache test" in " ".join(text.split())


def test_changed_options_are_a_different_build(run_cli, workspace):
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose",
                     "--only", "sheets", "--paper", "a4")
    assert built_parts(result.err) == {"sheets": "built"}
    manifest = json.loads((workspace / "out" / "space-empires-4x" / "manifest.json").read_text())
    assert manifest["parts"]["sheets"]["files"][0]["paper"] == "a4"


def test_a_deleted_cache_file_means_a_rebuild_not_a_missing_output(run_cli, workspace):
    cached = next((workspace / "out" / ".cache" / "space-empires-4x" / "parts" / "cards").rglob("cards.pdf"))
    cached.unlink()
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose", "--only", "cards")
    assert built_parts(result.err) == {"cards": "built"}
    assert (workspace / "out" / "space-empires-4x" / "cards.pdf").stat().st_size > 10_000


def test_a_part_failing_beside_others_is_located_and_output_stays(run_cli, workspace):
    """Parts that must be rebuilt run side by side; one failing still stops the build cleanly."""
    before = files(workspace / "out")
    broken = (workspace / "kit" / "templates" / "unit-front.svg.j2").read_text().replace("{{", "{{ undefined_name ~ ", 1)
    (workspace / "kit" / "templates" / "unit-front.svg.j2").write_text(broken)
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out")
    assert result.code == 1
    assert re.search(r"unit-front\.svg\.j2:\d+: 'undefined_name' is undefined", result.err), result.err
    assert files(workspace / "out") == before
    assert not [p for p in (workspace / "out").iterdir() if p.name.startswith(".staging")]


def test_an_edit_rebuilds_only_the_parts_that_read_the_file(run_cli, workspace):
    """A unit's cost is on the counters, the cards and in the booklet, never on a map or a record sheet: those
    stay cached. The sheets are keyed by the values they print from units.yaml and technologies.yaml, not by
    the files: a technology's cost, which the production sheet prints, draws them again."""
    sheets = workspace / "out" / "space-empires-4x" / "production-sheet.pdf"
    before = sheets.read_bytes()
    edit(workspace / "kit" / "components" / "units.yaml", "cost: 12", "cost: 13")
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose")
    assert result.code == 0
    assert built_parts(result.err) == {"components": "built", "maps": "reused", "cards": "built", "sheets": "reused",
                                       "booklet": "built", "calibration": "reused"}
    edit(workspace / "kit" / "technologies.yaml", "{level: 2, cost: 10}", "{level: 2, cost: 11}")
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose")
    assert result.code == 0 and built_parts(result.err)["sheets"] == "built"
    assert sheets.read_bytes() != before
    edit(workspace / "kit" / "components" / "units.yaml", "hull: 1", "hull: 2")  # the ship technology sheet's level choices
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose")
    assert result.code == 0 and built_parts(result.err)["sheets"] == "built"
    # A map is read by the maps and by the booklet's scenario figures; of the maps, only the edited one is drawn.
    drawn_maps = workspace / "out" / ".cache" / "space-empires-4x" / "maps"
    before = {p.relative_to(drawn_maps): p.stat().st_ino for p in drawn_maps.rglob("*") if p.is_file()}
    edit(workspace / "kit" / "maps" / "duel-small.yaml", "rounds: 20", "rounds: 21")
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose")
    assert result.code == 0
    assert built_parts(result.err) == {"components": "reused", "maps": "built", "cards": "reused", "sheets": "reused",
                                       "booklet": "built", "calibration": "reused"}
    after = {p.relative_to(drawn_maps): p.stat().st_ino for p in drawn_maps.rglob("*") if p.is_file()}
    kept = {path.parent for path in after if before.get(path) == after[path]}
    assert len(before) == len(after) == 6 * 4 and len(kept) == 5  # 3 files and the signed digests  # five maps' files untouched, one drawn anew
    manifest = json.loads((workspace / "out" / "space-empires-4x" / "manifest.json").read_text())
    assert len(manifest["parts"]["maps"]["maps"]) == 6 and all(
        (workspace / "out" / "space-empires-4x" / f["path"]).is_file() for f in manifest["parts"]["maps"]["files"])


def test_generic_parts_are_keyed_by_the_folders_they_read(run_cli, tmp_path):
    from tests.test_components import MINI
    shutil.copytree(MINI, tmp_path / "kit")
    build = ("build", "--data", tmp_path / "kit", "--out", tmp_path / "out", "--verbose")
    assert run_cli(*build).code == 0
    chapter = tmp_path / "kit" / "rules" / "01-rules.md"
    chapter.write_text(chapter.read_text() + "\nOne more line.\n")
    assert built_parts(run_cli(*build).err) == {"components": "reused", "boards": "reused", "documents": "built",
                                                "calibration": "reused"}
    edit(tmp_path / "kit" / "boards" / "board.yaml", "label: Rim", "label: Edge")
    # the texts may quote the board (boards.<id>.places), so the documents follow it; the pieces do not
    assert built_parts(run_cli(*build).err) == {"components": "reused", "boards": "built", "documents": "built",
                                                "calibration": "reused"}


def test_an_up_to_date_build_loads_no_kit_and_a_touched_output_builds_again(run_cli, workspace, monkeypatch):
    """Nothing read changed and the output is as the last build left it: no kit is loaded, nothing is written.
    A deleted or rewritten output file, or other options, make it an ordinary build again."""
    import pnpgen.kit
    build = ("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose")
    assert run_cli(*build).code == 0  # the warm copy's record names the warm folder: this build records its own
    before = files(workspace / "out")

    def no_load(*args, **kwargs):
        raise AssertionError("an up-to-date build loaded the kit")
    with monkeypatch.context() as patched:
        patched.setattr(pnpgen.kit, "load_kit", no_load)
        result = run_cli(*build)
    assert result.code == 0 and set(built_parts(result.err).values()) == {"reused"}
    assert "booklet.pdf" in result.out and files(workspace / "out") == before

    kit_out = workspace / "out" / "space-empires-4x"
    (kit_out / "cards.pdf").unlink()
    (kit_out / "booklet.pdf").unlink()  # a new file in its place: the up-to-date check sees another file
    (kit_out / "booklet.pdf").write_bytes(b"not a booklet")
    result = run_cli(*build)
    assert result.code == 0 and set(built_parts(result.err).values()) == {"reused"}  # from the part cache
    assert files(workspace / "out") == before
    assert built_parts(run_cli(*build, "--paper", "a4").err)["cards"] == "built"


def test_other_kits_are_keyed_by_the_default_kit_they_fall_back_to(tmp_path, monkeypatch):
    """A kit without aid texts of its own prints the default kit's: an edit there is an edit of its input.
    The default kit itself keeps its per-part keys (its rules are not an input of its maps)."""
    from tests.conftest import DEFAULT_KIT_DIR
    from pnpgen import inputs
    shutil.copytree(DEFAULT_KIT_DIR, tmp_path / "default")
    shutil.copytree(DEFAULT_KIT_DIR, tmp_path / "other", ignore=shutil.ignore_patterns("aids"))
    monkeypatch.setattr(inputs, "FALLBACK_KIT", tmp_path / "default")
    before = inputs.Inputs(tmp_path / "other", tmp_path / "out" / "other").fingerprint()
    own = inputs.Inputs(tmp_path / "default", tmp_path / "out" / "default").fingerprint(("rules",))
    edit(tmp_path / "default" / "aids" / "cards.yaml", "title:", "title: ", 1)
    edit(tmp_path / "default" / "rules" / "01-introduction.md", "#", "# ", 1)
    assert inputs.Inputs(tmp_path / "other", tmp_path / "out" / "other").fingerprint() != before
    assert inputs.Inputs(tmp_path / "default", tmp_path / "out" / "default").fingerprint(("rules",)) != own  # aids
    edit(tmp_path / "default" / "aids" / "cards.yaml", "title: ", "title:", 1)
    assert inputs.Inputs(tmp_path / "default", tmp_path / "out" / "default").fingerprint(("rules",)) == own


def test_an_output_file_changed_in_place_leaves_the_cache_whole(run_cli, workspace):
    """A player annotates cards.pdf and saves it in place: the part cache keeps the original, so the next
    build that needs cards.pdf gets the printed file back, not the annotated one."""
    kit_out = workspace / "out" / "space-empires-4x"
    original = (kit_out / "cards.pdf").read_bytes()
    (kit_out / "cards.pdf").unlink()
    build = ("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose")
    assert built_parts(run_cli(*build).err).get("cards") == "reused"   # fetched from the part cache
    with open(kit_out / "cards.pdf", "r+b") as handle:                  # saved in place, as a viewer does
        handle.write(b"%annotated")
    cached = next((workspace / "out" / ".cache" / "space-empires-4x" / "parts" / "cards").rglob("cards.pdf"))
    assert cached.read_bytes() == original
    (kit_out / "cards.pdf").unlink()
    assert built_parts(run_cli(*build).err).get("cards") == "reused"
    assert (kit_out / "cards.pdf").read_bytes() == original


def test_the_boards_key_fingerprints_the_overlap_grid_their_check_runs(monkeypatch):
    """A change to the overlap grid alone (the boards' preflight finds crossings with it) draws cached boards
    anew: the key hashes overlaps.py beside preflight.py and ink_lines.py."""
    import types
    from pnpgen import output_cache, overlaps, preflight
    from pnpgen.boards.files import _key
    from pnpgen.render import ink_lines
    from tests.conftest import DEFAULT_KIT_DIR
    seen = []
    monkeypatch.setattr(output_cache, "source_fingerprint", lambda *modules: seen.extend(modules) or "x")
    _key(types.SimpleNamespace(kit=types.SimpleNamespace(root=DEFAULT_KIT_DIR), code_key=""), "<svg/>", "t", "a4")
    assert {overlaps, preflight, ink_lines} <= set(seen)


def test_a_boards_files_are_keyed_by_all_of_pnpgens_code():
    """The modules named are not all that prints a board (the assembly steps' words: maps/files.py, the
    fonts, the paper's margins...): its files are kept under the build's code_key too, so a new pnpgen
    draws them again instead of handing out what the old one drew."""
    import types
    from pnpgen.boards.files import _key
    from tests.conftest import DEFAULT_KIT_DIR
    kit = types.SimpleNamespace(root=DEFAULT_KIT_DIR)
    keys = {_key(types.SimpleNamespace(kit=kit, code_key=code), "<svg/>", "t", "a4") for code in ("a" * 64, "b" * 64)}
    assert len(keys) == 2


def test_the_cards_are_keyed_by_what_they_print(run_cli, workspace):
    """The aid cards' key is the cards file as rendered, the charts they show and kit.yaml, not the data files:
    a counter's name no card prints leaves them cached; the destroyer's attack, which the units chart
    prints, draws them again, the same as a build from nothing."""
    out, cards = workspace / "out", workspace / "out" / "space-empires-4x" / "cards.pdf"
    before = cards.read_bytes()
    edit(workspace / "kit" / "components" / "colour-counters.yaml", "name: Homeworld damage", "name: Homeworld Damage")
    result = run_cli("build", "--data", workspace / "kit", "--out", out, "--verbose", "--only", "cards")
    assert result.code == 0 and built_parts(result.err) == {"cards": "reused"}, result.err
    edit(workspace / "kit" / "components" / "units.yaml", "class: D\n    attack: 4", "class: D\n    attack: 5")
    result = run_cli("build", "--data", workspace / "kit", "--out", out, "--verbose", "--only", "cards")
    assert result.code == 0 and built_parts(result.err) == {"cards": "built"}, result.err
    assert cards.read_bytes() != before
    assert run_cli("build", "--data", workspace / "kit", "--out", workspace / "fresh", "--quiet", "--only", "cards").code == 0
    assert (workspace / "fresh" / "space-empires-4x" / "cards.pdf").read_bytes() == cards.read_bytes()


def test_a_template_edit_rebuilds_the_parts_that_draw_pieces_only(run_cli, workspace):
    """A kit's templates are kit files like the others, not part of every key: the aid cards, the record sheets
    and the calibration sheet draw none, and stay cached; the counters, which draw it, are drawn again."""
    template = workspace / "kit" / "templates" / "colony.svg.j2"
    template.write_text(template.read_text(encoding="utf-8") + "<!-- edited -->", encoding="utf-8")
    result = run_cli("build", "--data", workspace / "kit", "--out", workspace / "out", "--verbose",
                     "--only", "components,cards,sheets,calibration")
    assert result.code == 0
    assert built_parts(result.err) == {"components": "built", "cards": "reused", "sheets": "reused",
                                       "calibration": "reused"}, result.err
