"""Maps the repository's folders onto one import package, `pnpgen`, so that nothing pnpgen installs can clash
with another distribution's top-level names: generator/ is `pnpgen`, games/ is `pnpgen.games`, and the
bundled kits (data/) and built-in templates (templates/) are `pnpgen.data` and `pnpgen.templates`, package
data that pnpgen.resources finds through importlib.resources. An editable install in the clone reads these
folders in place; a wheel carries copies. pyproject.toml holds everything else (which files are package
data too); only this mapping needs code (setuptools' find cannot rename a folder's packages)."""
import shutil

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

FOLDERS = {"pnpgen": "generator", "pnpgen.games": "games"}
RESOURCES = {"pnpgen.data": "data", "pnpgen.templates": "templates"}


def packages() -> list[str]:
    return [name for prefix, folder in FOLDERS.items()
            for name in [prefix, *(f"{prefix}.{sub}" for sub in find_packages(folder))]]


class FreshBuildPy(build_py):
    """Copies the packages into an emptied build/lib. setuptools keeps that folder between builds and only
    adds to it, so a file deleted from a kit since the last `pip wheel .` or `pipx install .` in this clone
    would still ship (and a bundled kit prints every rules/*.md it holds)."""

    def run(self):
        if not getattr(self, "editable_mode", False):   # an editable install builds nothing to go stale
            shutil.rmtree(self.build_lib, ignore_errors=True)
        super().run()


setup(packages=[*packages(), *RESOURCES], package_dir={**FOLDERS, **RESOURCES}, cmdclass={"build_py": FreshBuildPy})
