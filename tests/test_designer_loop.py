"""The designer's loop: a kit of one's own, and watch mode rebuilding on every change."""
import json
import queue
import signal
import subprocess
import sys
import threading
import time

from tests.conftest import DEFAULT_KIT_DIR, edit


def test_new_copies_the_kit_under_its_own_id(run_cli, tmp_path):
    folder = tmp_path / "My Fleet"
    result = run_cli("new", folder, "--no-templates")
    assert result.code == 0, result.err
    assert (folder / "components/units.yaml").read_text() == (DEFAULT_KIT_DIR / "components/units.yaml").read_text()
    assert "kit: my-fleet" in (folder / "kit.yaml").read_text()
    built = run_cli("build", "--data", folder, "--out", tmp_path / "out", "--only", "manifest", "--quiet")
    assert built.code == 0 and (tmp_path / "out" / "my-fleet" / "manifest.json").exists()


def test_new_refuses_a_folder_that_holds_files(run_cli, tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    result = run_cli("new", tmp_path / "taken")
    assert result.code == 2 and "not empty" in result.err


def test_a_new_unit_type_in_yaml_reaches_the_inventory_without_code(run_cli, kit_copy, tmp_path):
    unit = ("  - id: XX\n    name: Experimental\n    class: B\n    attack: 5\n    defence: 2\n    hull: 2\n"
            "    cost: 18\n    ship_size: 4\n    pays_maintenance: true\n    movement: tech\n"
            "    groups: true\n    qty: 3\n    rules: basic\n")
    with (kit_copy / "components/units.yaml").open("a") as f:  # a row at the end of the units table
        f.write(unit)
    listing = run_cli("list", "--data", kit_copy)
    assert "Units: 380 (95 per colour)" in listing.out and "Experimental (XX)" in listing.out
    assert run_cli("build", "--data", kit_copy, "--out", tmp_path, "--only", "manifest", "--quiet").code == 0
    manifest = json.loads((tmp_path / "space-empires-4x" / "manifest.json").read_text())
    labels = sorted(p["label"] for p in manifest["pieces"] if p["ref"] == "units.XX" and p["colour"] == "red")
    assert labels == ["XX 1", "XX 2", "XX 3"]


class Watcher:
    """`pnpgen build --watch` in a subprocess, its stderr read line by line with time limits."""

    def __init__(self, kit_dir, out_dir, only="manifest"):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pnpgen", "build", "--watch", "--data", str(kit_dir), "--out", str(out_dir),
             "--only", only, "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, words, seconds=20.0):
        seen, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            seen.append(line)
            if words in line:
                return seen
        raise AssertionError(f"no line with {words!r} within {seconds} s; saw {seen}")

    def quiet_for(self, seconds):
        time.sleep(seconds)
        drained = []
        while not self.lines.empty():
            drained.append(self.lines.get())
        return drained

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def test_watch_rebuilds_once_per_change_and_survives_a_broken_edit(kit_copy, tmp_path, run_cli):
    out = tmp_path / "out"
    manifest = out / "space-empires-4x" / "manifest.json"
    watcher = Watcher(kit_copy, out)
    try:
        watcher.wait_for("watching")
        first = json.loads(manifest.read_text())
        assert next(l for l in first["inventory"] if l["ref"] == "units.DN")["total"] == 8

        edit(kit_copy / "components/units.yaml", "    qty: 2\n    rules: basic\n  - id: CO",
             "    qty: 3\n    rules: basic\n  - id: CO")
        seen = watcher.wait_for("rebuilt")
        assert any("units.yaml" in line for line in seen)
        assert len([l for l in seen + watcher.quiet_for(1.0) if l.startswith("rebuilt")]) == 1
        after_edit = manifest.read_bytes()
        assert next(l for l in json.loads(after_edit)["inventory"] if l["ref"] == "units.DN")["total"] == 12

        line = edit(kit_copy / "components/units.yaml", "    cost: 9\n", "    cost: [9\n")
        seen = watcher.wait_for("Still watching")
        assert any("units.yaml:" in l and "not valid YAML" in l for l in seen), seen
        assert manifest.read_bytes() == after_edit

        edit(kit_copy / "components/units.yaml", "    cost: [9\n", "    cost: 9\n")
        watcher.wait_for("rebuilt")
    finally:
        code = watcher.stop()
    assert code == 0
    # each watch build took the road a fresh build takes (pnpgen.up_to_date): the build after it reuses its output
    landed = manifest.stat()
    assert run_cli("build", "--data", kit_copy, "--out", out, "--only", "manifest", "--quiet").code == 0
    assert (manifest.stat().st_ino, manifest.stat().st_mtime_ns) == (landed.st_ino, landed.st_mtime_ns)


def test_ctrl_c_during_a_build_stops_cleanly_and_lands_nothing(kit_copy, tmp_path):
    out = tmp_path / "out"
    watcher = Watcher(kit_copy, out, only="counters,maps,booklet")  # a first build that takes a while
    deadline = time.monotonic() + 60  # Ctrl-C once the build is under way (its stage made), however busy the machine
    while not (out.exists() and any(out.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert watcher.proc.poll() is None
    code = watcher.stop()
    seen = watcher.quiet_for(0.2)
    assert code == 0 and "stopped watching" in seen and not any("Traceback" in line for line in seen), seen
    assert not out.exists() or not [p for p in out.iterdir() if p.name.startswith(".staging")]
