"""Maps the repository's folders onto one import package, `pnpgen`, so that nothing pnpgen installs can clash
with another distribution's top-level names: generator/ is `pnpgen`, games/ is `pnpgen.games`, and the
bundled kits (data/) and built-in templates (templates/) are `pnpgen.data` and `pnpgen.templates`, package
data that pnpgen.resources finds through importlib.resources. An editable install in the clone reads these
folders in place; a wheel carries copies. pyproject.toml holds everything else (which files are package
data too); only this mapping needs code (setuptools' find cannot rename a folder's packages)."""
from setuptools import find_packages, setup

FOLDERS = {"pnpgen": "generator", "pnpgen.games": "games"}
RESOURCES = {"pnpgen.data": "data", "pnpgen.templates": "templates"}


def packages() -> list[str]:
    return [name for prefix, folder in FOLDERS.items()
            for name in [prefix, *(f"{prefix}.{sub}" for sub in find_packages(folder))]]


setup(packages=[*packages(), *RESOURCES], package_dir={**FOLDERS, **RESOURCES})
