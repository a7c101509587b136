"""Maps the repository's folders onto one import package, `pnpgen`, so that nothing pnpgen installs can clash
with another distribution's top-level names: generator/ is `pnpgen`, games/ is `pnpgen.games`. pyproject.toml
holds everything else; only this mapping needs code (setuptools' find cannot rename a folder's packages)."""
from setuptools import find_packages, setup

FOLDERS = {"pnpgen": "generator", "pnpgen.games": "games"}


def packages() -> list[str]:
    return [name for prefix, folder in FOLDERS.items()
            for name in [prefix, *(f"{prefix}.{sub}" for sub in find_packages(folder))]]


setup(packages=packages(), package_dir=FOLDERS)
