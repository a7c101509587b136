"""The command line as a user meets it: list, validate, build, and the two entry points."""
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.conftest import edit


def test_list_prints_the_full_inventory(run_cli):
    result = run_cli("list")
    assert result.code == 0
    out = result.out  # the generic listing: table by table, row by row (Space Empires 4X's counters are tables)
    assert "Units: 368 (92 per colour), squares 15.9 mm, two-sided" in out
    assert "Scout (SC)" in out and "MS Pipeline " in out and "MS MS" not in out
    assert "Home System markers: 104 (26 per colour)" in out and "Deep Space markers: 102," in out
    deep = out.split("Deep Space markers")[1].split("\n\n")[0]
    assert deep.strip().splitlines()[-1].split() == ["Doomsday", "Machine", "(value", "3)", "1"]
    assert "Total: 796 pieces in 6 print files" in out
    assert "Hex map: Duel, small galaxy (duel-small), 69 hexes on a 15 x 6 grid, flat-topped, 31.8 mm" in out
    assert out.count("Hex map: ") == 6   # every scenario's map (they were left out)


def test_list_names_the_hex_maps_of_a_kit_without_tables(run_cli):
    result = run_cli("list", "--data", Path(__file__).parent / "kits" / "hexes")
    assert result.code == 0
    assert "Hex map: The Island (island), 52 hexes on a 10 x 6 grid, pointy-topped, 25.4 mm" in result.out


def test_build_writes_a_manifest_listing_every_piece(run_cli, tmp_path):
    result = run_cli("build", "--out", tmp_path, "--only", "manifest", "--quiet")
    assert result.code == 0, result.err
    manifest = json.loads((tmp_path / "space-empires-4x" / "manifest.json").read_text())
    assert manifest["totals"]["pieces"] == sum(p["count"] for p in manifest["pieces"]) == 796
    assert manifest["totals"]["by_group"]["counters-deep-space"] == 102
    danger = [p for p in manifest["pieces"] if p["ref"] == "deep-space-markers.danger"]
    assert len(danger) == 1 and danger[0]["count"] == 26 and danger[0]["front"]["template"] == "marker-front"
    assert danger[0]["front"]["params"]["row"] == {"id": None, "kind": "danger", "value": None}


def test_manifest_follows_the_data(run_cli, kit_copy, tmp_path):
    edit(kit_copy / "components/units.yaml", "    qty: 2\n    rules: basic\n  - id: CO",
         "    qty: 3\n    rules: basic\n  - id: CO")
    assert run_cli("build", "--data", kit_copy, "--out", tmp_path, "--only", "manifest", "--quiet").code == 0
    manifest = json.loads((tmp_path / "space-empires-4x" / "manifest.json").read_text())
    dn = next(line for line in manifest["inventory"] if line["ref"] == "units.DN")
    assert dn["per_colour"] == {"red": 3, "blue": 3, "green": 3, "yellow": 3} and dn["total"] == 12


def test_two_builds_of_the_whole_kit_give_identical_files(run_cli, tmp_path, default_kit_build):
    """A second build, here, against the session's (the same command into another empty folder)."""
    assert run_cli("build", "--out", tmp_path / "b", "--quiet").code == 0
    a, b = default_kit_build, tmp_path / "b" / "space-empires-4x"
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file() and p.name != ".pnpgen-build")
    assert len([f for f in files if f.suffix == ".pdf"]) >= 20  # (the marker names the folder it is in)
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file() and p.name != ".pnpgen-build")
    for rel in files:
        if rel.name == "manifest.json":  # its counts of what this build drew depend on the user's cache
            assert _steady(json.loads((a / rel).read_text())) == _steady(json.loads((b / rel).read_text()))
        else:
            assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def _steady(value):
    """A manifest without the counts of what a build drew or reused (faces rendered, parts reused), which
    depend on what the user's cache held, not on the kit."""
    if isinstance(value, dict):
        return {k: _steady(v) for k, v in value.items() if k not in ("rendered", "reused", "hits")}
    return [_steady(v) for v in value] if isinstance(value, list) else value


def test_unknown_part_is_a_usage_error(run_cli, tmp_path):
    result = run_cli("build", "--out", tmp_path, "--only", "posters")
    assert result.code == 2 and "unknown part(s) posters" in result.err


def test_python_dash_m_and_console_script_both_run():
    """(--quick: what is proved is that `python -m pnpgen` runs; a full validate builds the whole kit.)"""
    by_module = subprocess.run([sys.executable, "-m", "pnpgen", "validate", "--quick"], capture_output=True, text=True)
    assert by_module.returncode == 0, by_module.stderr
    assert "the data is valid" in by_module.stdout
    script = subprocess.run([sys.executable, "-c", "from pnpgen.cli import main; raise SystemExit(main(['list']))"],
                            capture_output=True, text=True)
    assert script.returncode == 0 and "Deep Space markers" in script.stdout


def test_validate_counts_what_a_data_kit_holds(run_cli):
    root = Path(__file__).parent / "kits"
    assert "(44 pieces in 4 tables, 1 board, 0 hex maps, 1 document)" in run_cli("validate", "--data", root / "mini").out
    assert "1 hex map," in run_cli("validate", "--data", root / "hexes").out


def test_no_command_prints_help_and_fails(run_cli):
    result = run_cli()
    assert result.code == 2 and "validate" in result.out


def _failing_part(exc):
    def build(ctx):
        raise exc
    return SimpleNamespace(name="charts", build=build)


def test_a_plain_value_error_inside_a_part_ends_the_build_not_as_a_usage_error():
    """Exit 2 is for a wrong command line (UsageError: --map nowhere); a ValueError no step of a part located
    (a reportlab table refusing a width, say) is the kit's problem: a build failure naming the part, exit 1."""
    from pnpgen.problems import BuildError, UsageError
    from pnpgen.run_parts import _build_one
    ctx = SimpleNamespace(stage=SimpleNamespace(written=[]))
    with pytest.raises(BuildError, match="^the charts part: flowable given negative availWidth$"):
        _build_one(ctx, _failing_part(ValueError("flowable given negative availWidth")))
    with pytest.raises(UsageError):
        _build_one(ctx, _failing_part(UsageError("unknown map 'x' for --map")))


def test_a_build_that_fails_while_drawing_ends_as_a_load_error_does(run_cli, tmp_path):
    """A template that fails only when a card is drawn (the kit loads and validates --quick): the build says
    where, then closes with the same count line as load errors, exits 1 and leaves no output."""
    kit = tmp_path / "kit"
    assert run_cli("new", "--blank", kit).code == 0
    line = edit(kit / "templates" / "card-front.svg.j2", '{{ p.ground(piece, "#fdf8ec") }}',
                '{{ p.ground(piece, "#fdf8ec") }}{% if cost == 0 %}{{ 1 // 0 }}{% endif %}')
    assert run_cli("validate", "--quick", "--data", kit).code == 0
    result = run_cli("build", "--data", kit, "--out", tmp_path / "out", "--quiet")
    assert result.code == 1 and "Traceback" not in result.err
    assert f"card-front.svg.j2:{line}: integer division or modulo by zero" in result.err
    assert result.err.splitlines()[-1] == "1 error(s); nothing was built or changed."
    assert not (tmp_path / "out" / "kit").exists()


def test_list_speaks_the_kit_s_words(run_cli):
    """Names, not ids: a marker's kind by the name data/markers.yaml gives it (tied by kit.yaml's `checks:`),
    no id said twice, and rows that share a name say how they differ."""
    out = run_cli("list").out
    rows = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    for raw in ("black_hole", "barren_planet", "homeworld ", "lost_in_space", "MS MS"):
        assert not any(raw in row for row in rows), raw
    for tables in out.split("\n\n"):
        names = [row.rsplit(None, 1)[0] for row in tables.splitlines()[1:] if row.startswith("  ")]
        assert len(names) == len(set(names)), names  # two lines of one table never read alike
    deep = out.split("Deep Space markers")[1].split("\n\n")[0]
    assert "Black Hole " in deep and "Warp Point (value 1)" in deep and "Warp Point (value 2)" in deep
    assert "Homeworld damage (value 20, back value 15)" in out and "Destroyer (DD)" in out


def test_a_build_piped_into_a_reader_that_stops_lands_and_says_no_false_failure(tmp_path):
    """`pnpgen build | head -1`: the reader closing the pipe is no file error. It said "nothing was built or
    changed" (exit 1) of a build that had landed; now the shell's quiet 141."""
    build = subprocess.Popen([sys.executable, "-m", "pnpgen", "build", "--only", "calibration", "--out", tmp_path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    build.stdout.close()
    assert build.wait(timeout=60) == 141
    assert build.stderr.read() == b""
    assert (tmp_path / "space-empires-4x" / "duplex-calibration.pdf").is_file()
