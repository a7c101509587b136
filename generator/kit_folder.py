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


def bundled_kits() -> list[str]:
    """The names of the kits that come with pnpgen, as `pnpgen build NAME` takes them."""
    return sorted(p.name for p in BUILTIN_DATA.iterdir() if (p / KIT_FILE).is_file())


def find_kit(kit: str | None = None, data_dir: str | Path | None = None) -> Path:
    """The kit folder: --data DIR if given, else KIT as a kit folder, else KIT as a bundled kit's name, else
    KIT as a folder (whose missing kit.yaml the loader reports). A name that is none of these, or a --data
    folder that is not there, is a wrong command line (ValueError), said here: `serve` and `build --watch`
    would otherwise wait for ever on a folder they cannot watch."""
    if data_dir is not None:
        if not Path(data_dir).is_dir():
            raise ValueError(f"--data {data_dir}: no such folder; start a kit there with "
                             f"`pnpgen new --blank {data_dir}`")
        return Path(data_dir)
    name = kit or DEFAULT_KIT
    as_path = Path(name)
    if as_path.is_dir() and (as_path / KIT_FILE).exists():
        return as_path
    if name in bundled_kits():
        return BUILTIN_DATA / name
    if as_path.is_dir():
        return as_path
    raise ValueError(f"{name}: no such kit folder here, nor a kit that comes with pnpgen "
                     f"({', '.join(bundled_kits())}); start one with `pnpgen new --blank {name}`")
