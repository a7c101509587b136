"""Translated editions: one kit printed in each language its kit.yaml declares (`languages: [en, fr]`).

The words a kit prints are looked up, as they are read, in the language's gettext catalogue (locale/fr.po):
`units` says which strings of which files are printed words (the same rule for reading a translation and for
extracting the template), `catalogue` reads PO files through the kit reader, `translator` is the active
language every reader and drawer asks, `typography` sets a language's spacing and numbers, `checks` finds
what a translation broke, `extract` writes the template and merges it (`pnpgen translate`), and `editions`
says where each edition lands. docs/translations.md is the design and the user's guide.
"""
