"""Input problems, each with the file, line and field it is about, collected and reported together."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, located so a user can go straight to it."""

    file: str
    line: int
    field: str
    message: str
    severity: str = "error"  # "error" or "warning"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        what = f"{self.field}: " if self.field else ""
        tag = "warning: " if self.severity == "warning" else ""
        return f"{where}: {tag}{what}{self.message}"


def display_path(path: Path | str) -> str:
    """Relative to the working directory when inside it, so messages read like `data/kit/units.yaml`."""
    path = Path(path)
    if not path.is_absolute():
        return str(path)
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


@dataclass
class Problems:
    """Collects problems while loading so every one is reported in a single run."""

    items: list[Problem] = field(default_factory=list)

    def error(self, file, line: int, field: str, message: str) -> None:
        self.items.append(Problem(display_path(file), line or 0, field, message, "error"))

    def warn(self, file, line: int, field: str, message: str) -> None:
        self.items.append(Problem(display_path(file), line or 0, field, message, "warning"))

    def errors(self, strict: bool = False) -> list[Problem]:
        return [p for p in self.items if strict or p.severity == "error"]

    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "warning"]


class KitError(Exception):
    """The kit cannot be built; carries every located problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line, p.field))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):  # raised in a build worker, it must cross back to the parent whole
        return (KitError, (self.problems,))


class UsageError(ValueError):
    """A command-line option that cannot be used (exit 2), found where the option is used: inside a part, a
    plain ValueError is the kit's or the code's problem and ends the build like any other failure (exit 1)."""


class BuildError(Exception):
    """A build step failed for a reason outside the data (a template, a font, a write)."""

    def problem_count(self) -> int:
        """How many problems the message says, for the closing "N error(s)" line: one, or each line under a
        heading that ends in a colon (a preflight's findings, --strict's warnings)."""
        lines = str(self).splitlines()
        return len(lines) - 1 if len(lines) > 1 and lines[0].endswith(":") else 1
