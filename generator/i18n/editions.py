"""A kit's editions: the languages kit.yaml declares (`languages: [en, fr]`, the source first), which one a
load reads in, and where each lands.

The source edition is the kit as written: nothing is looked up, its output is what a kit without
`languages:` builds, in OUT/<kit>/. Every other edition is its own build in OUT/<kit>.<lang>/ (its kit id
`<kit>.<lang>`): beside the source's, not inside it, because a build lands by swapping its whole folder in
one rename (pnpgen.output), which would carry away an edition nested inside; side by side, each edition is
a normal build folder with its own lock, caches, marker and manifest, and `--lang all` rebuilds one
without touching the others.
"""
from __future__ import annotations

from pathlib import Path

from pnpgen import kit_files
from pnpgen.i18n import catalogue, checks, translator
from pnpgen.i18n.units import KIT_PRINTED, KitRules, Rule, translate_tree
from pnpgen.problems import KitError, Problems, display_path

ALL = "all"


def language_name(code: str) -> str:
    """'French' for fr (Babel's CLDR names, in English: the messages are English)."""
    from babel import Locale, UnknownLocaleError
    try:
        return Locale.parse(code).get_display_name("en") or code
    except (ValueError, UnknownLocaleError):
        return code


def edition_id(kit_id: str, language: str | None, languages: list) -> str:
    """The id (and output folder) of an edition: the kit's own for its source language, else <kit>.<lang>."""
    return kit_id if not language or not languages or language == languages[0] else f"{kit_id}.{language}"


def declared(root: Path) -> list[str]:
    """The languages kit.yaml declares, read without loading the kit ([] when it declares none or cannot
    be read: the load then says what is wrong, located)."""
    from pnpgen.yamlio import YamlSyntaxError, load_yaml
    try:
        raw = load_yaml(Path(root) / "kit.yaml", root)
    except (YamlSyntaxError, kit_files.KitFileError, OSError):
        return []
    languages = raw.get("languages") if isinstance(raw, dict) else None
    return [str(code) for code in languages] if isinstance(languages, list) else []


def requested(root: Path, language: str | None) -> list[str | None]:
    """The editions a command line asks for: `--lang all` every declared language (the source first, as
    None), one language, or the source (None)."""
    languages = declared(root) if language else []
    if language != ALL:
        return [None if languages and language == languages[0] else language]
    return [None, *languages[1:]]


def read_kit_doc(root: Path, language: str) -> dict:
    """kit.yaml checked, for `pnpgen translate`: it must declare `language`, and not as its source. A
    KitError, located, otherwise."""
    from pnpgen.schema import INVALID, Where
    from pnpgen.schemas import KIT
    from pnpgen.yamlio import YamlSyntaxError, load_yaml
    problems, kit_file = Problems(), Path(root) / "kit.yaml"
    translator.activate(None)
    try:
        raw = load_yaml(kit_file, root)
    except YamlSyntaxError as exc:
        problems.error(kit_file, exc.line, "", exc.message)
        raise KitError(problems.items) from None
    doc = KIT.check(raw, Where(kit_file, "", getattr(raw, "line", 1), problems))
    if doc is not INVALID:
        languages = doc["languages"]
        if language not in languages[1:]:
            line = raw.line_of("languages") if hasattr(raw, "line_of") else 1
            said = (f"{language!r} is the source language: translate into another" if languages[:1] == [language]
                    else f"declare it first: languages: [{', '.join(languages or ['en'])}, {language}] (the source first)")
            problems.error(kit_file, line, "languages", said)
    if problems.errors():
        raise KitError(problems.items)
    return doc


def start(root: Path, kit_doc: dict, raw_kit, language: str | None, problems: Problems) -> None:
    """Make `language` the one the rest of the load reads in (none for the source edition), with the kit's
    catalogue read and checked; kit.yaml's own words (title, colour names) translated in `kit_doc`. A
    language the kit does not declare, or a PO file that cannot be read, stops the load, located."""
    translator.activate(None)
    languages = kit_doc["languages"]
    if not language or (languages and language == languages[0]):
        return
    kit_file = Path(root) / "kit.yaml"
    if language not in languages:
        line = raw_kit.line_of("languages") if hasattr(raw_kit, "line_of") else 1
        known = ", ".join(languages) if languages else "none: add `languages: [en, ...]`, the source first"
        problems.error(kit_file, line, "languages", f"no {language!r} edition (the kit's languages: {known})")
        raise KitError(problems.items)
    po = catalogue.po_path(root, language)
    try:
        entries = catalogue.entries(po, root)
    except kit_files.KitFileError as exc:
        problems.error(exc.file, exc.line, "", exc.message)
        raise KitError(problems.items) from None
    checks.check_entries(entries, problems)
    rules = KitRules.of(root, kit_doc)
    translator.activate(translator.Translator(language, languages[0], entries, catalogue.core_entries(language),
                                              display_path(po), rules))
    translate_tree(kit_doc, rules.for_file(root / "kit.yaml") or Rule(KIT_PRINTED), translator.words)  # `translate:` too
    kit_doc["kit"] = edition_id(kit_doc["kit"], language, languages)


def finish(kit, kit_doc: dict, problems: Problems) -> None:
    """The loaded edition's checks: every printed string translated (warnings), every character printable."""
    active = translator.active()
    if active is None:
        return
    from pnpgen.i18n.extract import kit_strings
    checks.check_missing(kit_strings(kit.root, kit_doc), active, problems, language_name(active.language))
    checks.check_glyphs(active, checks.kit_fonts(kit), problems)
