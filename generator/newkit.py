"""`pnpgen new`: copy a kit (data and templates) into a folder the designer owns, ready to build.

The copy gets its own kit id (from the folder name) so its output never overwrites the original's.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from pnpgen import kit_files, resources
from pnpgen.kit_folder import KIT_FILE

TEMPLATES_README = """\
The kit's own face templates live in this folder: a template here overrides the built-in one of the same
name, and the built-in version is used for every template not found here. A table names its templates in
its YAML (`front: my-face`, `back: my-back`); a row may name its own (`front:` in the row).
"""
COPIES_README = """\
Copies of the built-in templates (the board, map tiles and their assembly pages, the macros of
_pieces.svg.j2 and _board.svg.j2) are here too, so you can change them. Delete any copy you do not change.
"""
BUILTIN_README = """\
The built-in templates (the board, map tiles and their assembly pages, the macros of _pieces.svg.j2 and
_board.svg.j2) are not copied here. To change one, copy it here from pnpgen's own templates folder:
{folder}
"""


BLANK_KIT = resources.blank_kit()  # `pnpgen new --blank`: a new game's starting point


def kit_id_for(folder: Path) -> str:
    slug = re.sub(r"[^a-z0-9-]+", "-", folder.resolve().name.lower()).strip("-")
    return slug or "my-kit"


def new_kit(source: Path, target: Path, with_templates: bool = True) -> Path:
    """Copy `source` (a kit folder) to `target` and give the copy its own id."""
    target = Path(target)
    if target.exists() and any(target.iterdir()):
        raise ValueError(f"{target} already exists and is not empty: choose a new folder")
    existed = target.exists()
    try:
        shutil.copytree(source, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", ".*"),
                        copy_function=_kit_file_copier(Path(source)))
    except kit_files.KitFileError:  # nothing half-copied is left behind
        shutil.rmtree(target, ignore_errors=True)
        if existed:
            target.mkdir()
        raise
    templates = target / "templates"
    templates.mkdir(exist_ok=True)
    if with_templates:
        for template in sorted(resources.builtin_templates().glob("*.svg.j2")):
            if not (templates / template.name).exists():
                shutil.copy2(template, templates / template.name)
    readme = TEMPLATES_README + (
        COPIES_README if with_templates else BUILTIN_README.format(folder=resources.builtin_templates()))
    (templates / "README.txt").write_text(readme, encoding="utf-8")
    _rename_kit(target / KIT_FILE, kit_id_for(target))
    return target


def _kit_file_copier(source: Path):
    """copytree's way to copy each file of a kit: read through the kit reader (a regular file inside `source`),
    so a link out of the kit or a FIFO among files no build reads is an error, never copied in or waited on."""
    def copy(from_path, to_path):
        Path(to_path).write_bytes(kit_files.read_bytes(from_path, source))
        return to_path
    return copy


def _rename_kit(kit_file: Path, kit_id: str) -> None:
    """Change only the `kit:` line, so the designer's comments and layout survive."""
    text = kit_file.read_text(encoding="utf-8")
    renamed, count = re.subn(r"(?m)^kit:\s*\S+", f"kit: {kit_id}", text, count=1)
    if count != 1:
        raise ValueError(f"{kit_file}: no `kit:` line to rename")
    kit_file.write_text(renamed, encoding="utf-8")
