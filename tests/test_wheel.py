"""pnpgen installed as a designer installs it: a wheel in a fresh virtual environment, run from a folder
outside the clone, with no file of the clone in reach.

The wheel is built from a copy of the sources (so no build/ or egg-info lands in the clone) without build
isolation (setuptools comes with the test extras: no download). The new environment gets no pip and no
dependencies of its own: a .pth file lends it this environment's site-packages, where pnpgen itself is
only the clone's editable install, whose import hook a .pth line does not run. So the `pnpgen` that runs
can only be the wheel's, which the first test checks before the others rely on it. One module fixture
runs every command once, in order, as a designer would; the tests read what each step left.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen import __version__

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("setup.py", "pyproject.toml", "README.md", "generator", "games", "data", "templates")
GAME = "4x-space-euro"   # the smallest bundled game to build
STALE = Path("build/lib/pnpgen/data/eclipse/rules/99-deleted.md")


def build_wheel(folder: Path) -> Path:
    source = folder / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", ".*"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    # what an earlier `pip wheel .` in a clone leaves behind: a file since deleted from a kit (must not ship)
    (source / STALE).parent.mkdir(parents=True)
    (source / STALE).write_text("deleted from the kit since the last build")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "--quiet", "--wheel-dir", str(folder / "dist"), str(source)],
                   check=True, capture_output=True, timeout=120)
    return next((folder / "dist").glob("pnpgen-*.whl"))


def make_venv(folder: Path, wheel: Path) -> Path:
    """A venv without pip whose dependencies are this environment's; the wheel installed into it."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)}))
    lent = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (site / "borrowed-dependencies.pth").write_text("\n".join(sorted(lent)) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                    "--no-deps", "--no-index", "--quiet", str(wheel)], check=True, capture_output=True, timeout=120)
    return venv


def site_files(venv: Path) -> set[str]:
    """Every file of the new environment but bytecode (Python may write that beside the modules it runs)."""
    return {str(p.relative_to(venv)) for p in venv.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


STEPS = {   # name: what a designer types after `pnpgen`, in this order, in a new, empty folder
    "version": ["--version"],
    "new blank": ["new", "--blank", "mygame"],
    "validate blank": ["validate", "--data", "mygame"],
    "build blank": ["build", "--data", "mygame"],
    "list game": ["list", GAME],
    "build game": ["build", GAME, "--quiet"],
    "new from game": ["new", "--from", GAME, "mine"],
    "validate copy": ["validate", "mine"],
    "unknown kit": ["build", "no-such-game"],
}
PACKAGES = ("pnpgen", "pnpgen.games", "pnpgen.data", "pnpgen.templates")
WHERE = ("import importlib.resources, pnpgen.resources; "   # each package's folder: pnpgen's = importlib.resources'
         f"print(*(f'{{pnpgen.resources.package_folder(n)}}={{importlib.resources.files(n)}}' for n in {PACKAGES}))")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """Build, install, then run every step from an empty folder with only the new venv on PATH and a home
    folder of its own (so the user's cache is seen to land there). {step: CompletedProcess}, and places."""
    top = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(top)
    venv = make_venv(top, wheel)
    work, home = top / "work", top / "home"
    work.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "XDG_", "VIRTUAL_ENV"))}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin", HOME=str(home),
               PYTHONDONTWRITEBYTECODE="1")
    before = site_files(venv)
    runs = {name: subprocess.run(["pnpgen", *args], cwd=work, env=env, capture_output=True, text=True, timeout=240)
            for name, args in STEPS.items()}
    runs["where"] = subprocess.run(["python", "-c", WHERE], cwd=work, env=env, capture_output=True, text=True,
                                   timeout=60)
    return {"runs": runs, "wheel": wheel, "venv": venv, "work": work, "home": home,
            "written": site_files(venv) - before}


def ok(installed, step: str) -> subprocess.CompletedProcess:
    done = installed["runs"][step]
    assert done.returncode == 0, f"{step}: {done.args} -> {done.returncode}\n{done.stdout}{done.stderr}"
    return done


def test_the_pnpgen_that_runs_is_the_wheels(installed):
    assert ok(installed, "version").stdout.strip() == f"pnpgen {__version__}"
    site = installed["venv"].resolve()
    found = ok(installed, "where").stdout.split()
    assert len(found) == len(PACKAGES)
    for pair in found:   # pnpgen's own lookup = importlib.resources' answer, inside the new venv
        ours, theirs = pair.split("=")
        assert ours == theirs and Path(ours).resolve().is_relative_to(site), pair
        assert not Path(ours).resolve().is_relative_to(ROOT), pair


def test_the_wheel_carries_its_package_data(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    assert {n.split("/")[0] for n in names} == {"pnpgen", f"pnpgen-{__version__}.dist-info"}
    for kit in (p for p in (ROOT / "data").iterdir() if (p / "kit.yaml").is_file()):
        shipped = {n for n in names if n.startswith(f"pnpgen/data/{kit.name}/")}
        files = {f"pnpgen/data/{p.relative_to(ROOT / 'data').as_posix()}" for p in kit.rglob("*")
                 if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith(".")}
        assert shipped == files, kit.name
    for folder, pattern in (("templates", "*.svg.j2"), ("generator/fonts", "*.ttf")):
        wanted = {p.name for p in (ROOT / folder).glob(pattern)}
        assert wanted and wanted <= {n.rsplit("/", 1)[-1] for n in names}, folder
    assert "pnpgen/blank_kit/kit.yaml" in names
    assert "pnpgen/studio/page.html" in names  # what `pnpgen serve` sends to the browser
    assert {"pnpgen/locale/fr.po", "pnpgen/locale/es.po"} <= set(names)  # pnpgen's own words in French and Spanish
    fields = {f"pnpgen/games/{p.relative_to(ROOT / 'games').as_posix()}" for p in (ROOT / "games").glob("*/fields/*.yaml")}
    assert fields and fields <= set(names)  # a game module's declared fields: it cannot load its kit without them
    assert not any("__pycache__" in n for n in names)
    assert STALE.relative_to("build/lib").as_posix() not in names


def test_a_blank_game_starts_validates_and_builds_outside_the_clone(installed):
    ok(installed, "new blank")
    assert "the data is valid" in ok(installed, "validate blank").stdout
    ok(installed, "build blank")
    out = installed["work"] / "output" / "mygame"   # ./output of the folder it ran in
    cards = PdfReader(out / "cards.pdf")
    width, height = (float(v) for v in cards.pages[0].mediabox[2:])
    assert sorted((round(width), round(height))) in ([612, 792], [595, 842])  # Letter or A4 (either way round)
    assert len(cards.pages) >= 2 and len(cards.pages) % 2 == 0          # fronts and backs
    booklet = "".join(page.extract_text() for page in PdfReader(out / "booklet.pdf").pages)
    assert "My Game" in booklet


def test_a_bundled_game_builds_outside_the_clone_into_the_current_folder(installed, kit_build):
    listing = ok(installed, "list game").stdout
    ok(installed, "build game")
    out = installed["work"] / "output" / GAME
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert f"Total: {manifest['totals']['pieces']} pieces" in listing
    # the same bytes as the clone's own build of that kit: the wheel carries the kit and its templates whole
    clone = kit_build(GAME)
    ours = sorted(p.relative_to(clone) for p in clone.rglob("*.pdf"))
    assert ours and sorted(p.relative_to(out) for p in out.rglob("*.pdf")) == ours
    for rel in ours:
        assert (out / rel).read_bytes() == (clone / rel).read_bytes(), rel
    assert len(PdfReader(out / "cards.pdf").pages) >= 2


def test_new_from_copies_a_bundled_game_to_start_from(installed):
    ok(installed, "new from game")
    copy = installed["work"] / "mine"
    assert "kit: mine" in (copy / "kit.yaml").read_text(encoding="utf-8")
    assert (copy / "templates" / "board.svg.j2").is_file()   # the built-in templates come along
    assert "the data is valid" in ok(installed, "validate copy").stdout


def test_an_unknown_kit_name_says_which_kits_there_are(installed):
    done = installed["runs"]["unknown kit"]
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert GAME in done.stderr and "eclipse" in done.stderr


def test_nothing_lands_in_site_packages_and_caches_go_to_the_users_cache(installed):
    assert installed["written"] == set()
    cache = installed["home"] / ".cache" / "pnpgen"
    assert (cache / "code").is_dir() and any((cache / "fontconfig").glob("fonts-*.conf"))
    assert sorted(p.name for p in installed["work"].iterdir()) == ["mine", "mygame", "output"]

