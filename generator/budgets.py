"""What one command may spend on the machine that runs it, enforced by the kernel and the sandbox, not by
looking for patterns in a kit's text.

A kit is input from anyone. Its templates and texts can loop, recurse and compute, so the sandbox alone
cannot tell a slow template from a hostile one: the process itself is limited. While a command runs:

- memory: the address space may grow by at most `memory_mb` (RLIMIT_AS, inherited by every worker the build
  forks); an allocation past it is a MemoryError, reported as this budget;
- CPU: one template, chapter or text, and the kit's declared checks together, may use `template_seconds` of
  CPU (a profiling timer), the whole command `cpu_seconds` per process (RLIMIT_CPU: SIGXCPU, and a forked
  worker is killed by the kernel a few seconds later if it does not stop);
- output: one piece face's SVG at most `face_kb`, one rendered chapter or aid text at most `chapter_kb`;
- input: one CSV, YAML or Markdown file of the kit at most `text_file_kb`, one font file at most `font_file_kb`,
  each refused by its size before it is read; one spreadsheet at most `sheet_kb` of XML once unzipped and
  `sheet_cells` cells and shared strings, counted in the unzipped bytes before openpyxl parses them;
- the sandbox: no text longer than `text_chars` and no whole number longer than `int_digits` digits;
- declared checks (kit.yaml `checks:`): one path may reach at most `check_values` values.

Defaults are many times what the kits in data/ use (the largest build: under 450 MB of address space and
10 s of CPU). A kit is input from anyone, so kit.yaml's `budgets:` may only lower them: more comes from the
person who builds (`--budget NAME=VALUE`, or their own budgets.yaml: pnpgen.budget_grants), up to the
CEILINGS. A kit that asks for more than it was granted is told how the user may grant it.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import sys
import threading
from pathlib import Path

from pnpgen.problems import BuildError

try:
    import resource
except ImportError:  # not a Unix: the sandbox's limits still apply, the kernel's do not
    resource = None


@dataclasses.dataclass(frozen=True)
class Budgets:
    memory_mb: int = 2048        # address space a command may add to what it had when it started
    cpu_seconds: int = 300       # CPU of one process of a command (the build and each of its workers)
    template_seconds: int = 5    # CPU of one template, chapter or text rendered
    face_kb: int = 4096          # one piece face's SVG
    chapter_kb: int = 2048       # one chapter or aid text after its Jinja ran
    text_chars: int = 1_000_000  # the longest text a template may make
    int_digits: int = 1000       # the longest whole number a template may make
    text_file_kb: int = 4096     # one CSV, YAML or Markdown file of the kit (kit.yaml itself is held to the default)
    font_file_kb: int = 30720    # one font file of the kit's fonts/ folder
    check_values: int = 100_000  # the values one path of a declared check (kit.yaml `checks:`) may reach
    sheet_kb: int = 8192         # one spreadsheet's XML once unzipped (a deck is tens of KB)
    sheet_cells: int = 100_000   # cells read from one spreadsheet, and its shared strings


CEILINGS = Budgets(memory_mb=16384, cpu_seconds=3600, template_seconds=300, face_kb=262144, chapter_kb=262144,
                   text_chars=100_000_000, int_digits=100_000, text_file_kb=262144,
                   font_file_kb=262144, check_values=10_000_000, sheet_kb=262144, sheet_cells=10_000_000)
DOCS = {
    "memory_mb": "address space a build may add, in MiB",
    "cpu_seconds": "CPU seconds of the build and of each of its workers",
    "template_seconds": "CPU seconds of one template, chapter or text",
    "face_kb": "size of one piece face's SVG, in KiB",
    "chapter_kb": "size of one chapter or aid text after Jinja, in KiB",
    "text_chars": "the longest text a template may make",
    "int_digits": "the digits of the largest whole number a template may make",
    "text_file_kb": "size of one CSV, YAML or Markdown file of the kit, in KiB",
    "font_file_kb": "size of one font file of the kit, in KiB",
    "check_values": "the values one path of a declared check may reach",
    "sheet_kb": "one spreadsheet's XML once unzipped, in KiB",
    "sheet_cells": "cells read from one spreadsheet, and its shared strings",
}
GRACE_SECONDS = 5  # a worker past its CPU budget that does not stop is killed by the kernel this much later
_active = Budgets()
_granted = Budgets()  # what the person who builds allows this command (pnpgen.budget_grants)
_asked: dict[str, int] = {}  # what the kit asked for past the grant, so a budget reached can say so
_limits = {"memory": None, "cpu": None, "command": False}  # the bases enforced() set, so apply() can move them


class BudgetExceeded(BuildError):
    """A budget of budgets.py was reached: says which, and how the person who builds may grant more."""

    def __init__(self, name: str, what: str = ""):
        self.name = name
        value = getattr(_active, name)
        super().__init__(f"{what + ': ' if what else ''}over the {name} budget ({DOCS[name]}: {value}); "
                         f"simplify the kit, or {how_to_raise(name)}")

    def __reduce__(self):  # raised in a build worker, it crosses back to the parent whole
        return (_rebuilt, (self.name, str(self)))


def _rebuilt(name: str, message: str) -> BudgetExceeded:
    exc = BudgetExceeded.__new__(BudgetExceeded)
    BuildError.__init__(exc, message)
    exc.name = name
    return exc


def active() -> Budgets:
    return _active


def config_file() -> Path:
    """This user's budgets.yaml (pnpgen.budget_grants reads it), where other tools keep their settings:
    $XDG_CONFIG_HOME/pnpgen (default ~/.config/pnpgen) on Linux and other Unix systems,
    ~/Library/Application Support/pnpgen on macOS, %APPDATA%\\pnpgen on Windows. Only a path."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_CONFIG_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".config"  # the spec ignores a relative value
    return base / "pnpgen" / "budgets.yaml"


def how_to_raise(name: str) -> str:
    """How the person who builds may give a kit more of budget `name` (never the kit itself): the value the kit
    asked for, or twice what it has, up to the ceiling."""
    value, ceiling = getattr(_active, name), getattr(CEILINGS, name)
    if value >= ceiling:
        return f"{ceiling} is the most pnpgen allows"
    more = min(max(_asked.get(name, 0), value * 2), ceiling)
    return (f"if you trust the kit, grant it more as the person who builds: `--budget {name}={more}` on the "
            f"command line, or `{name}: {more}` in {config_file()} (a kit's own budgets: may only lower it)")


@contextlib.contextmanager
def granted(budgets: Budgets):
    """A command's budgets as the person who builds grants them (pnpgen.budget_grants): the most any kit of
    the command may have, each build's start (enforced) and each kit's ceiling (for_kit)."""
    global _granted
    saved = _granted
    _granted = budgets
    try:
        yield
    finally:
        _granted = saved


def for_kit(settings: dict | None) -> tuple[Budgets, dict[str, int]]:
    """(the budgets a kit gets, {name: what it asked for past the grant}): kit.yaml's `budgets:` lowers the
    granted ones and never raises them (a kit is input from anyone)."""
    asked = {k: v for k, v in (settings or {}).items() if v is not None}
    given = {k: min(v, getattr(_granted, k)) for k, v in asked.items()}
    return dataclasses.replace(_granted, **given), {k: v for k, v in asked.items() if v > given[k]}


@contextlib.contextmanager
def enforced(budgets: Budgets | None = None):
    """Run a command under the budgets: soft kernel limits set now, the previous ones back afterwards (a
    soft limit can always be raised again to the hard one, so a test process or `--watch` goes on)."""
    global _active
    saved_active, saved_limits, saved_asked = _active, dict(_limits), dict(_asked)
    previous = {name: _getrlimit(name) for name in ("memory", "cpu")}
    old_handler = _install_sigxcpu()
    _limits.update(memory=None, cpu=None, command=True)  # measured afresh: this command's start is the base
    try:
        _asked.clear()
        _set(budgets or _granted)
        yield
    finally:
        _active = saved_active
        _limits.update(saved_limits)
        _asked.clear()
        _asked.update(saved_asked)
        for name, value in previous.items():
            _setrlimit(name, value)
        if old_handler is not None:
            signal.signal(signal.SIGXCPU, old_handler)


def apply(budgets: Budgets, asked: dict[str, int] | None = None) -> None:
    """The kit's own budgets (for_kit), once it is read: the limits move to them for the rest of the command.
    Outside a command (a kit loaded by a test or a script) nothing changes: a kit's settings never outlive
    the command that read them. `asked`: what it wanted past them, for the message if one runs out."""
    if _limits["command"]:
        _asked.clear()
        _asked.update(asked or {})
        _set(budgets)


def _set(budgets: Budgets) -> None:
    global _active
    _active = budgets
    if resource is None:
        return
    base = _limits["memory"] or _address_space()
    _limits["memory"] = base
    if base is not None:
        _soft("memory", base + budgets.memory_mb * 2 ** 20)
    used = _limits["cpu"] if _limits["cpu"] is not None else _cpu_used()
    _limits["cpu"] = used
    _soft("cpu", int(used) + budgets.cpu_seconds)


def worker_limits() -> None:
    """In a forked worker: a hard CPU limit a little past the soft one, so a worker stuck in C code (which
    never runs the SIGXCPU handler) is killed by the kernel rather than spinning on."""
    if resource is None or _limits["cpu"] is None:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or hard > soft + GRACE_SECONDS):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + GRACE_SECONDS))


@contextlib.contextmanager
def template_clock(what: str):
    """One template, chapter or text may use `template_seconds` of CPU: a profiling timer raises
    BudgetExceeded in it when it runs over (main thread only; elsewhere the process budget still holds)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    def over(signum, frame):
        raise BudgetExceeded("template_seconds", what)
    previous_handler = signal.signal(signal.SIGPROF, over)
    previous_timer = signal.setitimer(signal.ITIMER_PROF, _active.template_seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, *previous_timer)
        signal.signal(signal.SIGPROF, previous_handler)


def check_size(text: str, name: str, what: str) -> str:
    """`text` when it is within the `face_kb` or `chapter_kb` budget `name`; BudgetExceeded otherwise."""
    if len(text) > getattr(_active, name) * 1024:
        raise BudgetExceeded(name, what)
    return text


def memory_error(what: str) -> BudgetExceeded:
    """A MemoryError, said as the budget it is (the address-space limit, or the machine's own memory)."""
    return BudgetExceeded("memory_mb", what)


def _install_sigxcpu():
    if resource is None or threading.current_thread() is not threading.main_thread():
        return None
    def over(signum, frame):
        current = _getrlimit("cpu")
        if current is not None and current[0] != resource.RLIM_INFINITY:
            _soft("cpu", current[0] + 30)  # room to unwind: the kernel repeats SIGXCPU every second past it
        raise BudgetExceeded("cpu_seconds")
    return signal.signal(signal.SIGXCPU, over)


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _address_space() -> int | None:
    """This process's address space now, in bytes (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return None


_RLIMITS = {"memory": "RLIMIT_AS", "cpu": "RLIMIT_CPU"}


def _getrlimit(name: str):
    if resource is None or not hasattr(resource, _RLIMITS[name]):
        return None
    return resource.getrlimit(getattr(resource, _RLIMITS[name]))


def _setrlimit(name: str, value) -> None:
    if value is None:
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(getattr(resource, _RLIMITS[name]), value)


def _soft(name: str, soft: int) -> None:
    current = _getrlimit(name)
    if current is None:
        return
    hard = current[1]
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    _setrlimit(name, (soft, hard))
