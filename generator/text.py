"""Text from kit folders: read as UTF-8 with located errors, and the small helpers every kit's texts use."""
from __future__ import annotations

from pathlib import Path

from pnpgen.problems import BuildError


class TextError(BuildError):
    """A text that cannot be rendered: the file, the line (0 if unknown) and what is wrong."""

    def __init__(self, file: str, line: int, message: str):
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")

    def __reduce__(self):  # raised in a build worker, it crosses back to the parent whole
        return (TextError, (self.file, self.line, self.message))


def join_and(items, word: str = "and") -> str:
    """['a', 'b', 'c'] -> 'a, b and c', the last word in the edition's language (' and ' is pnpgen's own; a
    kit marks any other, `_(" then ")`)."""
    from pnpgen.i18n.translator import words
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])}{words(f' {word} ')}{items[-1]}"


def read_text(path: Path, root: Path) -> str:
    """A kit text file (a regular file inside `root`, read through the kit reader) as UTF-8; a file that may
    not be read or is not text is a located error, not a traceback or a hang."""
    from pnpgen import kit_files
    from pnpgen.i18n import translator
    try:
        return translator.read_source(kit_files.read_text(path, root), path)  # in the edition's language
    except kit_files.KitFileError as exc:
        raise TextError(exc.file, exc.line, exc.message) from None
