"""`make test` passes on a fresh machine: Python, libcairo and the virtual environment, nothing else.

Two guards: no test or script starts (or looks for) a program outside a short allow-list (pdffonts from
poppler-utils once made the suite fail wherever poppler was not installed), and a real build read back
with pypdf and pypdfium2 succeeds with a PATH that holds only python, pnpgen and sh.
"""
from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = sorted([*ROOT.glob("tests/*.py"), *ROOT.glob("scripts/*.py")])

# Programs a test or script may run: Python itself, our own command, the tools the README's two commands
# already need (make, git for the checkout, a POSIX shell) and the venv's own tools.
ALLOWED = {"python", "python3", "pnpgen", "make", "git", "sh", "bash", "pip", "pip3", "pytest"}
PYTHON_NAME = re.compile(r"python3?(\.\d+)?$")
# Programs one file may run where they are installed, its tests skipped (and saying so) where they are not:
# the studio's tests need a real browser, Chromium from the system's packages (.ci/run installs it).
OPTIONAL = {"chromium": {"tests/browser.py"}}

# module -> functions that run a program, and which positional argument names it
LAUNCHERS = {
    "subprocess": {name: 0 for name in ("run", "Popen", "call", "check_call", "check_output", "getoutput",
                                        "getstatusoutput")},
    "os": {"system": 0, "popen": 0, "posix_spawn": 0, "posix_spawnp": 0, "startfile": 0,
           **{f"exec{s}": 0 for s in ("l", "le", "lp", "lpe", "v", "ve", "vp", "vpe")},
           **{f"spawn{s}": 1 for s in ("l", "le", "lp", "lpe", "v", "ve", "vp", "vpe")}},
    "shutil": {"which": 0},
    "asyncio": {"create_subprocess_exec": 0, "create_subprocess_shell": 0},
}
SHELL_STRINGS = {("os", "system"), ("os", "popen"), ("subprocess", "getoutput"), ("subprocess", "getstatusoutput"),
                 ("asyncio", "create_subprocess_shell")}
PROGRAM_KEYWORDS = ("args", "cmd", "command", "file", "path", "program")


def shell_programs(script: str) -> list[str]:
    """The first word of every command in a shell string (split at ; & | and new lines)."""
    programs = []
    for part in re.split(r"[;&|\n]+|\$\(|`", script):
        try:
            words = [w for w in shlex.split(part) if not re.match(r"\w+=", w)]  # skip VAR=value prefixes
        except ValueError:
            words = part.split()
        if words:
            programs.append(words[0])
    return programs


def programs_in(node: ast.expr, shell: bool) -> list[str]:
    """The program(s) a launcher's argument names; '?' when the code does not say it literally."""
    if isinstance(node, ast.Attribute) and ast.unparse(node) == "sys.executable":
        return ["python"]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return shell_programs(node.value) if shell else [node.value]
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        first = programs_in(node.elts[0], shell=False)
        rest = node.elts[1:]
        if first and os.path.basename(first[0]) in ("sh", "bash") and len(rest) >= 2 \
                and isinstance(rest[0], ast.Constant) and rest[0].value == "-c":
            return first + programs_in(rest[1], shell=True)  # sh -c "...": check the script's commands too
        return first
    return ["?"]


def outside_programs(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """(line, program) for every call that runs or looks up a program not in ALLOWED."""
    tree = ast.parse(source, filename)
    modules, functions = {}, {}  # local name -> module; local name -> (module, function)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in LAUNCHERS:
                    modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module in LAUNCHERS:
            for alias in node.names:
                if alias.name in LAUNCHERS[node.module]:
                    functions[alias.asname or alias.name] = (node.module, alias.name)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules:
            target = (modules[func.value.id], func.attr)
        elif isinstance(func, ast.Name) and func.id in functions:
            target = functions[func.id]
        else:
            continue
        if target[1] not in LAUNCHERS[target[0]]:
            continue
        position = LAUNCHERS[target[0]][target[1]]
        argument = node.args[position] if len(node.args) > position else next(
            (k.value for k in node.keywords if k.arg in PROGRAM_KEYWORDS), None)
        shell = target in SHELL_STRINGS or any(
            k.arg == "shell" and not (isinstance(k.value, ast.Constant) and not k.value.value) for k in node.keywords)
        for program in programs_in(argument, shell) if argument is not None else ["?"]:
            name = os.path.basename(program)
            if name not in ALLOWED and not PYTHON_NAME.match(name):
                found.append((node.lineno, program))
    return found


@pytest.mark.parametrize("path", SCANNED, ids=[str(p.relative_to(ROOT)) for p in SCANNED])
def test_tests_and_scripts_run_no_program_the_venv_does_not_bring(path):
    found = outside_programs(path.read_text(encoding="utf-8"), str(path))
    rel = path.relative_to(ROOT).as_posix()
    found = [(line, program) for line, program in found if rel not in OPTIONAL.get(program, ())]
    assert not found, (
        f"{path.relative_to(ROOT)} runs programs a fresh machine may lack "
        f"({', '.join(f'line {line}: {program}' for line, program in found)}; '?' = not a literal name). "
        f"Read PDFs with pypdf or pypdfium2 instead, or run sys.executable / one of {sorted(ALLOWED)}.")


def test_the_scan_catches_outside_programs():
    source = '''
import os, shutil, subprocess as sp
from subprocess import check_output as co
sp.run(["pdffonts", "a.pdf"], capture_output=True)
co(("/usr/bin/qpdf", "--check", "a.pdf"))
shutil.which("mutool")
os.system("gs -q -o x.png a.pdf | cat")
sp.run("pdftoppm a.pdf x", shell=True)
sp.run(["sh", "-c", "pdfinfo a.pdf"])
sp.run(cmd)
sp.run([sys.executable, "-m", "pnpgen"])
sp.run(["git", "status"]); sp.run(["pnpgen", "build"]); os.system("make test")
'''
    assert outside_programs(source) == [(4, "pdffonts"), (5, "/usr/bin/qpdf"), (6, "mutool"), (7, "gs"),
                                        (7, "cat"), (8, "pdftoppm"), (9, "pdfinfo"), (10, "?")]


READ_BACK = """
import sys
from pathlib import Path
import pypdfium2
from pypdf import PdfReader

pdf = Path(sys.argv[1]) / "counters-red.pdf"
assert len(PdfReader(pdf).pages) >= 2 and "Red" in PdfReader(pdf).pages[0].extract_text()
document = pypdfium2.PdfDocument(str(pdf))
image = document[0].render(scale=0.5).to_pil()
assert image.size == (306, 396), image.size
document.close()
print("read back")
"""


def test_a_build_read_back_needs_only_python_pnpgen_and_sh_on_path(tmp_path):
    scripts = Path(sysconfig.get_path("scripts"))
    if not (scripts / "pnpgen").is_file():
        pytest.skip(f"pnpgen is not installed in {scripts} (run the tests through `make test`)")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "pnpgen").symlink_to(scripts / "pnpgen")  # its #! line names the venv's python
    (bin_dir / "sh").symlink_to("/bin/sh")
    # A symlink to the venv's python would lose the venv (Python finds pyvenv.cfg beside the path it was
    # started as), so `python` is a two-line script that starts the venv's interpreter by its full path.
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    (bin_dir / "python").chmod(0o755)
    env = {**os.environ, "PATH": str(bin_dir)}
    out = tmp_path / "out"

    build = subprocess.run(["pnpgen", "build", "--only", "counters", "--out", str(out), "--quiet"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert build.returncode == 0, build.stdout + build.stderr
    kit_out = next(p for p in out.iterdir() if p.is_dir() and not p.name.startswith("."))
    read = subprocess.run(["python", "-c", READ_BACK, str(kit_out)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert read.returncode == 0 and read.stdout.strip() == "read back", read.stdout + read.stderr
