"""The faces' drawing keys remembered between builds (pnpgen.render.face_keys): kept under a salt that an edit
to anything a template render reads changes, and that an edit to a component table's rows leaves alone (the
rows are in each face itself)."""
from __future__ import annotations

from types import SimpleNamespace

from pnpgen.pieces import face
from pnpgen.render.face_keys import FaceKeys, render_salt

TABLE = "components/units.yaml"


def salt_of(kit, **digests) -> str:
    files = {TABLE: "rows-1", "templates/unit-front.svg.j2": "template-1", "kit.yaml": "kit-1"} | digests
    return render_salt(SimpleNamespace(code_key="code", kit=kit, kit_files=tuple(sorted(files.items()))))


def test_the_salt_forgets_on_a_template_or_kit_yaml_edit_and_not_on_a_row_edit(default_kit):
    salt = salt_of(default_kit)
    assert salt and salt_of(default_kit, **{TABLE: "rows-2"}) == salt
    assert salt_of(default_kit, **{"templates/unit-front.svg.j2": "template-2"}) != salt
    assert salt_of(default_kit, **{"kit.yaml": "kit-2"}) != salt
    assert render_salt(SimpleNamespace(code_key="", kit=default_kit, kit_files=())) == ""  # a reprint: none kept


def test_a_key_is_read_back_under_its_salt_only(tmp_path):
    path, shape = tmp_path / "keys.json", ("square", 45.0)
    front = face("unit-front", row={"class": "DD", "attack": 4})
    kept = FaceKeys(path, "salt-1")
    kept.put(front, shape, 2.83, "drawing-key", ["a warning"])
    kept.save()
    assert FaceKeys(path, "salt-1").get(front, shape, 2.83) == ("drawing-key", ["a warning"])
    assert FaceKeys(path, "salt-1").get(face("unit-front", row={"class": "DD", "attack": 5}), shape, 2.83) is None
    assert FaceKeys(path, "salt-2").get(front, shape, 2.83) is None
    path.write_bytes(b"not sealed")
    assert FaceKeys(path, "salt-1").get(front, shape, 2.83) is None  # only this user's pnpgen's file is read


def test_a_new_output_folder_replays_the_faces_an_earlier_build_drew(tmp_path, monkeypatch):
    """The drawings and their keys live in the user's cache, not the output folder's: a build into a new folder
    renders no template and draws no face, and prints the same bytes; a store not sealed by this user's
    pnpgen is not read (every face drawn again)."""
    import shutil
    from pathlib import Path

    from pnpgen.cli import main
    from pnpgen.render import piece_faces
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    rendered, document = [], piece_faces.face_document
    monkeypatch.setattr(piece_faces, "face_document", lambda *a, **k: rendered.append(1) or document(*a, **k))

    def components(out: str) -> dict:
        assert main(["build", "--data", str(kit), "--out", str(tmp_path / out), "-q", "--only", "components"]) == 0
        return {p.name: p.read_bytes() for p in (tmp_path / out).rglob("*.pdf") if ".cache" not in p.parts}
    first = components("first")
    assert rendered and not list((tmp_path / "first").rglob("piece-faces.bin"))
    rendered.clear()
    assert components("second") == first and rendered == []
    for store in (tmp_path / "user-cache").rglob("piece-faces/*.bin"):
        store.write_bytes(b"not sealed")
    assert components("third") == first and rendered


def test_a_store_that_cannot_be_written_costs_only_the_renders(tmp_path, monkeypatch):
    """The user's cache full or read-only: the build still succeeds (its faces are drawn again next time)."""
    import shutil
    from pathlib import Path

    from pnpgen.cli import main
    from pnpgen.render.face_store import PackedFaceStore

    def refuse(self, keep):
        raise OSError(28, "No space left on device")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.setattr(PackedFaceStore, "save", refuse)
    kit = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "kits" / "mini", kit)
    assert main(["build", "--data", str(kit), "--out", str(tmp_path / "out"), "-q", "--only", "components"]) == 0
