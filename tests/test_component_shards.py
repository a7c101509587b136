"""The components part cut into shards (pnpgen.components.shards): its print files drawn in workers side by
side give the very files and manifest entry the whole part gives, and what it keeps in the user's cache is
written once, by the parent, whole; the parts' timings that order and cut a build are kept sealed in the
user's cache, so a new output folder has them and a kit folder cannot ship them."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pnpgen import run_parts
from pnpgen.cli import main
from pnpgen.part_cache import PartCache, seconds_file
from pnpgen.signing import seal

MINI = Path(__file__).parent / "kits" / "mini"

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2,
                                reason="shards run in workers only where a process can fork, on 2 cores or more")


def _build(out: Path) -> tuple[dict, dict]:
    """(the components entry of the manifest, {PDF name: bytes}) of a `--only components,boards` build of the mini kit (a part alone is built whole)."""
    assert main(["build", "--data", str(MINI), "--out", str(out), "--only", "components,boards", "--quiet"]) == 0
    manifest = json.loads((out / "mini" / "manifest.json").read_text(encoding="utf-8"))
    return manifest["parts"]["components"], {p.name: p.read_bytes() for p in sorted((out / "mini").glob("*.pdf"))}


def test_shards_draw_the_same_files_and_entry_as_the_whole_part(tmp_path, monkeypatch):
    """Whole, then cut into shards, each with the user's cache empty and then warm (a new output folder): the
    same PDFs byte for byte and the same entry (placements, cuts, warnings, faces counted once however many
    shards drew them); the faces the shards drew were kept whole by the parent (the warm build draws none)."""
    def twice(cache: str) -> list:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / cache))
        return [_build(tmp_path / cache / "out-empty"), _build(tmp_path / cache / "out-warm")]
    monkeypatch.setattr(run_parts, "MAX_SHARDS", 0)  # no shard count tried: built whole
    whole = twice("whole")
    assert len(whole[0][1]) >= 3 and whole[0][0]["faces"]["rendered"] == whole[0][0]["faces"]["distinct"] > 0
    monkeypatch.setattr(run_parts, "MAX_SHARDS", 3)
    monkeypatch.setattr(run_parts, "GAIN", -100.0)  # cut however short the part is
    planned = []
    monkeypatch.setattr(run_parts, "plan_jobs", _planned(run_parts.plan_jobs, planned))
    assert twice("cut") == whole
    assert len(planned) == 2 and all(len([job for job in jobs if job.members]) >= 2 for jobs in planned)
    assert whole[1][0]["faces"]["rendered"] == 0


def _planned(plan, jobs: list):
    def planned(*args):
        jobs.append(plan(*args))
        return jobs[-1]
    return planned


def test_timings_come_from_the_user_s_cache_sealed(tmp_path, monkeypatch):
    """A new output folder finds the kit's last timings; a file not sealed by this user's pnpgen (one a kit
    folder ships, or edited) is not read, and a value that is not a time is dropped."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    cache = PartCache(tmp_path / "out" / ".cache" / "mini" / "parts")
    cache.keep_seconds({"components": 0.5, "components/cards": 0.25}, MINI)
    assert PartCache(tmp_path / "other-out").seconds(MINI) == {"components": 0.5, "components/cards": 0.25}
    path = seconds_file(MINI, tmp_path)
    path.write_text(json.dumps({"booklet": 9.0}), encoding="utf-8")
    assert cache.seconds(MINI) == {}
    path.write_bytes(seal(json.dumps({"booklet": 9.0, "maps": -1, "cards": "slow", "sheets": 1e9}).encode()))
    assert cache.seconds(MINI) == {"booklet": 9.0}


def test_a_kit_whose_faces_say_something_says_it_as_the_whole_part(tmp_path, monkeypatch, capsys):
    """Which row a face's message names depends on which faces a process saw first: a shard that has
    something to say makes the part build whole, so the preflight's error (and a warning) read as they always
    did, whatever the shards were dealt."""
    import shutil
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    template = kit / "templates" / "chit.svg.j2"
    template.write_text(template.read_text().replace("pt(12)", "pt(4)"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))

    def said(shards: int) -> str:
        monkeypatch.setattr(run_parts, "MAX_SHARDS", shards)
        capsys.readouterr()
        assert main(["build", "--data", str(kit), "--out", str(tmp_path / f"out{shards}"), "--only", "components,boards",
                     "-q"]) == 1
        return capsys.readouterr().err
    monkeypatch.setattr(run_parts, "GAIN", -100.0)
    whole = said(0)
    assert "preflight: these pieces would print badly" in whole and "is 4 pt, below the 6 pt minimum" in whole
    assert said(3) == whole.replace("out0", "out3")
