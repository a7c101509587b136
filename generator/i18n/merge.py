"""`pnpgen translate KIT --lang fr`: the kit's printed strings extracted, with their file:line, into the
template locale/messages.pot, and merged into the language's PO file by Babel's catalog update: a new
string is added untranslated, a changed one keeps its old translation marked fuzzy (the previous source
shown, `#| msgid`), a vanished one goes obsolete (`#~`, kept for a string that comes back), and every
translation still current is kept. Both files are written whole, byte for byte the same for the same kit
(no dates), so a translation's history in git shows only what changed."""
from __future__ import annotations

import datetime
import io
import os
from dataclasses import dataclass
from pathlib import Path

from pnpgen.i18n import catalogue
from pnpgen.i18n.extract import kit_strings
from pnpgen.problems import display_path
from pnpgen.whole_files import write_whole

FIXED_DATE = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)  # no clock in the files: stable diffs
WIDTH = 100


@dataclass(frozen=True)
class Merged:
    """What `translate` wrote and how the catalogue stands."""

    template: Path
    po: Path
    strings: int
    translated: int
    fuzzy: int
    untranslated: int
    obsolete: int


def template_of(root: Path, kit_doc: dict):
    """The Babel Catalog of every printed string, located relative to the kit (a string written in several
    places lists them all)."""
    from babel.messages.catalog import Catalog
    template = Catalog(project=kit_doc["title"], creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                       header_comment=f"# {kit_doc['title']}: the printed words of this kit (pnpgen translate).",
                       fuzzy=False)
    for found in kit_strings(root, kit_doc):
        rel = os.path.relpath(os.path.abspath(found.file), os.path.abspath(root))
        template.add(found.text, locations=[(Path(rel).as_posix(), found.line)])
    return template


def translate(root: Path, kit_doc: dict, language: str) -> Merged:
    """Write locale/messages.pot and merge it into the language's PO file (made when there is none)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po
    root = Path(root)
    template = template_of(root, kit_doc)
    folder = root / catalogue.LOCALE
    folder.mkdir(exist_ok=True)
    pot = folder / catalogue.TEMPLATE
    write_whole(pot, _po_bytes(template, write_po))
    po = catalogue.po_path(root, language)
    if po.exists():
        merged = catalogue.read_catalog(po, root)
    else:
        merged = Catalog(locale=language, project=kit_doc["title"], creation_date=FIXED_DATE,
                         revision_date=FIXED_DATE, fuzzy=False,
                         header_comment=f"# {kit_doc['title']}: {language} translation (pnpgen translate).")
    merged.update(template, update_header_comment=False)
    merged.creation_date = merged.revision_date = FIXED_DATE
    po.parent.mkdir(parents=True, exist_ok=True)
    write_whole(po, _po_bytes(merged, write_po, previous=True))
    entries = [m for m in merged if m.id]
    return Merged(pot, po, len(entries), sum(bool(m.string) and not m.fuzzy for m in entries),
                  sum(m.fuzzy for m in entries), sum(not m.string for m in entries), len(merged.obsolete))


def _po_bytes(catalog, write_po, previous: bool = False) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, include_previous=previous, sort_output=False)
    return out.getvalue()


def summary(merged: Merged, language_name: str) -> str:
    return (f"{display_path(merged.template)}: {merged.strings} strings. {display_path(merged.po)} ({language_name}): "
            f"{merged.translated} translated, {merged.fuzzy} fuzzy (to check), {merged.untranslated} to translate, "
            f"{merged.obsolete} obsolete.")
