"""Jinja's way into kit files: templates, includes and imports read through pnpgen.kit_files.

Jinja's FileSystemLoader opens whatever a name leads to: a symlinked template or templates/ subfolder
pointing out of the kit, a FIFO that blocks the build for ever. This loader looks names up in its folders
in order (the kit's first, then pnpgen's own) and reads each through the kit reader with the root that
folder belongs to, so the same rules hold for `{% include %}` as for any other kit file.
"""
from __future__ import annotations

import os
from pathlib import Path

import jinja2
from jinja2.loaders import split_template_path

from pnpgen import kit_files


class KitLoader(jinja2.BaseLoader):
    """Templates from (folder, the root it may read within) pairs, searched in order."""

    def __init__(self, folders):
        self.folders = [(Path(folder), Path(root)) for folder, root in folders]

    def get_source(self, environment, template: str):
        pieces = split_template_path(template)  # a '..' in the name is TemplateNotFound
        for folder, root in self.folders:
            path = folder.joinpath(*pieces)
            if not os.path.lexists(path):
                continue
            source = kit_files.read_text(path, root)
            stamp = _stamp(path)
            return source, str(path), lambda path=path, stamp=stamp: _stamp(path) == stamp
        raise jinja2.TemplateNotFound(template)

    def list_templates(self) -> list[str]:
        found = set()
        for folder, root in self.folders:
            if folder.is_dir():
                found.update(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                             if kit_files.is_kit_file(p, root))
        return sorted(found)


def _stamp(path: Path):
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino
