"""Gettext catalogues: a kit's PO file for a language, read through the kit reader (a PO file is kit input,
held to the text budget, its errors located), and the catalogue of the words pnpgen itself prints, shipped
with it (generator/locale/<lang>.po), which a kit's own PO file overrides entry by entry."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pnpgen import kit_files
from pnpgen.problems import display_path

LOCALE = "locale"                     # a kit's catalogues: locale/fr.po (or locale/fr/LC_MESSAGES/*.po)
TEMPLATE = "messages.pot"             # what `pnpgen translate` extracts, in locale/
CORE_LOCALE = Path(__file__).resolve().parent.parent / "locale"


@dataclass(frozen=True)
class Entry:
    """One translated string: its words (empty: none yet), whether a translator must look at it again
    (fuzzy: the source changed since), and where it lies (the PO file and the line of its msgid)."""

    string: str
    fuzzy: bool
    file: str
    line: int


def po_path(root: Path, language: str) -> Path:
    """The language's PO file in the kit: locale/<lang>.po, or the one file of locale/<lang>/LC_MESSAGES/
    (the layout of gettext tools) when that exists and the flat one does not."""
    flat = Path(root) / LOCALE / f"{language}.po"
    folder = Path(root) / LOCALE / language / "LC_MESSAGES"
    if not flat.exists() and folder.is_dir():
        found = sorted(folder.glob("*.po"))
        if found:
            return found[0]
    return flat


def read_catalog(path: Path, root: Path):
    """The Babel Catalog of a PO file inside `root` (the kit reader: a regular file, within the text budget);
    a line that is not PO is a KitFileError at that line."""
    from babel.messages.pofile import PoFileError, read_po
    text = kit_files.read_text(path, root)
    try:
        return read_po(text.splitlines(keepends=True), abort_invalid=True)
    except PoFileError as exc:
        said = re.sub(r" on \d+$", "", str(exc.args[0] if exc.args else exc))  # Babel's line counts from 0
        raise kit_files.KitFileError(path, f"not a valid PO file: {said.lower()} ({exc.line.strip()[:40]!r})",
                                     exc.lineno + 1) from None
    except (ValueError, LookupError) as exc:  # a header naming an unknown charset, a malformed plural rule
        raise kit_files.KitFileError(path, f"not a valid PO file: {exc}", 1) from None


def entries(path: Path, root: Path) -> dict[str, Entry]:
    """msgid -> Entry of a PO file (none when the file does not exist: every string is then untranslated)."""
    if not Path(path).exists() and not Path(path).is_symlink():
        return {}
    shown = display_path(path)
    out = {}
    for message in read_catalog(path, root):
        if not message.id or isinstance(message.id, tuple):  # the header; plural forms are not used by kits
            continue
        string = message.string if isinstance(message.string, str) else ""
        out[message.id] = Entry(string, message.fuzzy, shown, message.lineno or 0)
    return out


def core_entries(language: str) -> dict[str, Entry]:
    """The words pnpgen prints itself, in `language` (none when pnpgen ships no catalogue for it)."""
    for name in (language, language.split("_")[0]):
        path = CORE_LOCALE / f"{name}.po"
        if path.exists():
            return entries(path, CORE_LOCALE)
    return {}
