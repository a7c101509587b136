"""Where a kit is: the folder named on the command line, or a bundled kit (data/ in a clone, package data
of pnpgen in a wheel: pnpgen.resources).

Kept apart from the loader (pnpgen.kit) so that finding a kit imports nothing: a build that finds its
output up to date needs the folder, never the YAML, the schemas or Jinja.
"""
from __future__ import annotations

from pathlib import Path

from pnpgen import resources

BUILTIN_DATA = resources.builtin_kits()
DEFAULT_KIT = "space-empires-4x"
KIT_FILE = "kit.yaml"


def find_kit(kit: str | None = None, data_dir: str | Path | None = None) -> Path:
    """The kit folder: --data DIR if given, else KIT as a path, else KIT as a name under data/."""
    if data_dir is not None:
        return Path(data_dir)
    name = kit or DEFAULT_KIT
    as_path = Path(name)
    if as_path.is_dir() and (as_path / KIT_FILE).exists():
        return as_path
    return BUILTIN_DATA / name
