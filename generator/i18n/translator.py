"""The language being printed: every reader of a kit's words (YAML, chapters, templates' `_()`) and every
place pnpgen prints words of its own asks the active Translator. None is active for the source edition,
whose words are read as written (its output is byte for byte what a kit without languages builds). Set by
load_kit before any file is read, it reaches the build's forked workers with the rest of the process."""
from __future__ import annotations

from dataclasses import dataclass, field

from pnpgen.i18n import typography, units
from pnpgen.i18n.catalogue import Entry


@dataclass
class Translator:
    """A language's catalogue (the kit's entries over pnpgen's own) and what was printed from it."""

    language: str
    source: str                       # the kit's source language (its first)
    kit: dict[str, Entry]             # the kit's PO file
    core: dict[str, Entry]            # pnpgen's own words in this language
    po_file: str                      # the kit's PO file as messages name it
    rules: units.KitRules | None = None  # which strings of which files are printed words
    printed: dict[str, str] = field(default_factory=dict)  # printed words -> "locale/fr.po:12" (for findings)

    def entry(self, text: str) -> Entry | None:
        """The usable translation of `text`: a non-empty one that is not fuzzy, the kit's before pnpgen's."""
        for table in (self.kit, self.core):
            found = table.get(text)
            if found and found.string and not found.fuzzy:
                return found
        return None

    def words(self, text: str) -> str:
        """`text` in this language with its typography, or as written when there is no usable translation
        (the load warns of it, located)."""
        if not isinstance(text, str) or not text.strip():
            return text
        found = self.entry(text)
        if found is None:
            return text
        printed = typography.apply(self.language, found.string)
        self.printed.setdefault(printed, f"{found.file}:{found.line}")
        return printed


    def yaml(self, tree, path):
        """A YAML tree just read from `path`, its printed words translated in place (pnpgen.i18n.units)."""
        rule = self.rules.for_file(path) if self.rules else None
        if rule is not None:
            units.translate_tree(tree, rule, self.words)
        return tree

    def source_text(self, source: str, path) -> str:
        """A chapter's source paragraph by paragraph, or a Jinja YAML file's (aid cards) printed values, in
        this language before its Jinja runs, so placeholders stay in the words a translator sees."""
        if str(path).endswith(".md"):
            return units.translate_markdown(source, self.words)
        rule = self.rules.for_file(path) if self.rules and str(path).endswith((".yaml", ".yml")) else None
        return units.translate_yaml_source(source, rule, self.words) if rule else source


_ACTIVE: list = [None]


def activate(translator: Translator | None) -> None:
    """The language the next reads and drawings print in (None: the source language, words as written)."""
    _ACTIVE[0] = translator


def active() -> Translator | None:
    return _ACTIVE[0]


def words(text):
    """A kit's printed words in the active language (as written in the source edition)."""
    translator = _ACTIVE[0]
    return translator.words(text) if translator else text


def read_yaml(tree, path):
    """A kit's YAML tree as the active language reads it (pnpgen.yamlio calls this on every file it parses)."""
    translator = _ACTIVE[0]
    return translator.yaml(tree, path) if translator else tree


def read_source(source: str, path) -> str:
    """A text file's source (a chapter, an aid file) as the active language reads it, before its Jinja runs."""
    translator = _ACTIVE[0]
    return translator.source_text(source, path) if translator else source


def core_words(text: str) -> str:
    """Words pnpgen prints itself ('(continued)', the print instructions), in the active language."""
    return words(text)


def origin(printed: str) -> str | None:
    """Where printed words came from ('locale/fr.po:12'), for a finding about them (a text that does not
    fit, a line crossing it): the translation printed whole, else the one a line of it was wrapped from;
    None for words printed as written."""
    translator = _ACTIVE[0]
    if translator is None or not isinstance(printed, str) or not printed.strip():
        return None
    found = translator.printed.get(printed)
    if found is None and len(printed.strip()) >= 4:
        found = next((where for words, where in translator.printed.items() if printed.strip() in words), None)
    return found


def noted(printed: str) -> str:
    """' (translation: locale/fr.po:12)' after a finding about translated words; '' otherwise."""
    where = origin(printed)
    return f" (translation: {where})" if where else ""


def language() -> str | None:
    """The active language (None: the source edition)."""
    translator = _ACTIVE[0]
    return translator.language if translator else None
