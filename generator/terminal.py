"""What pnpgen prints, made safe for a terminal: the one door every message goes out through.

Messages name the kit's files and repeat its text, and a kit comes from anyone: a file named
`02-\\x1b]0;PWNED\\x07\\x1b[2J.md` printed raw retitles and clears the user's terminal. While a command runs,
its stdout and stderr are wrapped so every control character (C0 but tab and newline, DEL, C1) is written
as a visible escape (`\\x1b`); pnpgen's own progress line writes its codes through `control`.
"""
from __future__ import annotations

import contextlib
import re
import sys

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escaped(text: str) -> str:
    """`text` with every control character written as \\xNN."""
    return CONTROL.sub(lambda found: f"\\x{ord(found[0]):02x}", text)


class SafeStream:
    """A text stream that escapes what it is given; anything else is the wrapped stream's."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(escaped(text))

    def control(self, codes: str) -> None:
        """pnpgen's own terminal codes (the live progress line), written as they are."""
        self._stream.write(codes)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def safe(stream) -> SafeStream:
    """`stream` escaped (a stream bound before a command wrapped sys.stderr, say as a default argument)."""
    return stream if isinstance(stream, SafeStream) else SafeStream(stream)


@contextlib.contextmanager
def safe_output():
    """sys.stdout and sys.stderr escaped for the time of a command (then the ones before it, as they were)."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = safe(saved[0]), safe(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
