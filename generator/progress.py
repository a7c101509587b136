"""What a build says while it runs: a live progress line on a terminal, plain and quiet otherwise.

`quiet` prints nothing but errors; `verbose` prints every step as a plain line; otherwise a terminal sees
one line per part as it runs, and a pipe (CI, a log file) sees only the closing summary.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TextIO


@dataclass
class Progress:
    quiet: bool = False
    verbose: bool = False
    stream: TextIO = field(default_factory=lambda: sys.stderr)

    @property
    def live(self) -> bool:
        return not self.quiet and not self.verbose and self.stream.isatty()

    def start(self, part: str, index: int, total: int) -> None:
        if self.live:
            self._control("\r\x1b[K")
            self.stream.write(f"[{index}/{total}] {part} ...")
            self.stream.flush()

    def finish(self, part: str, index: int, total: int, seconds: float) -> None:
        if self.live:
            self._control("\r\x1b[K")
            self.stream.write(f"[{index}/{total}] {part} {seconds:.2f} s\n")
        elif self.verbose:
            self.stream.write(f"{part}: {seconds:.2f} s\n")
        self.stream.flush()

    def detail(self, message: str) -> None:
        """Fine-grained steps (files written, faces rendered): only with --verbose."""
        if self.verbose:
            self.stream.write(f"  {message}\n")
            self.stream.flush()

    def _control(self, codes: str) -> None:
        """The progress line's own codes, past pnpgen.terminal's escaping (which every message goes through)."""
        getattr(self.stream, "control", self.stream.write)(codes)

    def warn(self, message: str) -> None:
        """A warning about this run only (not one a rebuild that finds nothing changed would repeat)."""
        self.stream.write(f"warning: {message}\n")
        self.stream.flush()

    def __call__(self, message: str) -> None:  # parts call ctx.log(message)
        self.detail(message)
