"""The paper the user usually prints on, as their system says it: $PAPERSIZE, then /etc/papersize (libpaper),
then the territory of their paper locale (LC_ALL, LC_PAPER, LANG: Letter in the Americas' Letter countries,
A4 elsewhere). None when nothing says (a C or POSIX locale): the summary then claims nothing.

The build summary compares it with the paper a build used: a kit's own paper (kit.yaml `paper:`) that
differs from it is said in the summary's first line, since printing A4 files on Letter paper crops them.
"""
from __future__ import annotations

import os
from pathlib import Path

LETTER_TERRITORIES = {"US", "CA", "MX", "CL", "CO", "CR", "GT", "PA", "PH", "PR", "SV", "VE", "DO", "NI", "BZ"}
NAMES = {"letter": "letter", "a4": "a4"}


def usual_paper(environ=None, papersize_file: Path = Path("/etc/papersize")) -> str | None:
    """"letter", "a4" or None."""
    environ = os.environ if environ is None else environ
    named = (environ.get("PAPERSIZE") or "").strip().lower()
    if named:
        return NAMES.get(named)
    try:
        lines = papersize_file.read_text(encoding="utf-8").splitlines()
        first = next((line.strip().lower() for line in lines if line.strip() and not line.startswith("#")), "")
        if first:
            return NAMES.get(first)
    except (OSError, UnicodeDecodeError):
        pass
    locale = next((environ[key] for key in ("LC_ALL", "LC_PAPER", "LANG") if environ.get(key)), "")
    territory = locale.split(".")[0].split("@")[0].partition("_")[2].upper()
    if not territory:
        return None
    return "letter" if territory in LETTER_TERRITORIES else "a4"


def paper_said(manifest: dict, usual: str | None) -> str:
    """The summary's first-line words about the paper: ", on A4, the kit's own paper (you usually print on
    Letter: --paper letter prints on it)" when the build used a kit's paper other than the usual one, and
    the user did not ask for it; "" otherwise."""
    from pnpgen.paper_use import PAPER_NAMES
    used = (manifest.get("options") or {}).get("paper")
    if not used or not usual or used == usual or "paper" in (manifest.get("given") or {}):
        return ""
    return (f", on {PAPER_NAMES.get(used, used)}, the kit's own paper (you usually print on "
            f"{PAPER_NAMES.get(usual, usual)}: --paper {usual} prints on it)")
