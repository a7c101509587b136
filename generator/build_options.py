"""What a build is asked for, kept apart from the build itself: a command line's options become a
BuildOptions before it knows whether anything needs building, and a build into an up-to-date folder
(pnpgen.up_to_date) should not load the build's modules (the manifest, the output stage, the translator)
only to name them."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class BuildOptions:
    """What a build is asked for: where it goes, the paper and sizes, the parts and their options."""

    out: Path = Path("output")
    paper: str | None = None          # None: the kit's default
    counter_size: str | None = None   # None: the kit's default
    only: str | None = None
    extra: dict = field(default_factory=dict)  # options that parts add to the CLI
    strict: bool = False              # warnings found while building (a low-resolution image) fail the build
    cache: Path | None = None         # where parts keep their caches between builds (None: OUT/.cache)
    given: tuple | None = None        # the names of the options the command line gave (None: all set here)

    def given_names(self) -> set:
        """The options the user chose, as the manifest records them for a reprint to replay: those the
        command line gave; without one (a call from Python), paper and counter size when set and every extra."""
        if self.given is not None:
            return set(self.given)
        return {name for name in ("paper", "counter_size") if getattr(self, name) is not None} | set(self.extra)
