"""How much paper each file of a build takes and on how many sides it prints, read back from its manifest,
so the build's summary can say what a player will feed the printer: pages, sheets of which paper (a
double-sided file takes one sheet for each front and its back), and "print double-sided, flip on the long
edge" or "print one-sided" (duplexing a one-sided file puts the next sheet's fronts on its backs). A
document's reading copy points to its imposed copy, the one to print; a poster of a paper's size is that
paper, printed to its edges."""
from __future__ import annotations

import json
from pathlib import Path

from pnpgen.documents import imposed_copy
from pnpgen.duplex import FLIP_WORDS
from pnpgen.paper import PAPER

PAPER_NAMES = {"letter": "Letter", "a4": "A4", "a3": "A3", "a2": "A2", "tabloid": "Tabloid",
               "half-letter": "half-Letter", "half-a4": "A5"}
SAME_SIZE = 1.0  # points: a poster this close to a paper's size, either way round, is that paper


def paper_of_files(kit_out: Path) -> dict[str, str]:
    """{file path relative to the kit's folder: "6 pages, 3 sheets of Letter; print double-sided, flip on the
    long edge"} for every file the manifest lists; {} without a readable manifest (the summary then names
    the files alone)."""
    manifest = read_manifest(kit_out)
    duplex = (manifest.get("options") or {}).get("duplex") or "long"
    return {path: (f"{_describe(entry, part, backs)}; {sides}{shared_said(entry)}{extra_said(entry)}" if entry else sides)
            for path, entry, part, backs, sides in _printed_files(manifest, duplex)}


def shared_said(entry: dict) -> str:
    """Where a file's last pieces went, or whose last pieces it holds (kit.yaml sheets.<group>.remainders):
    a player printing one file alone must know the other."""
    went, holds = entry.get("last_pieces_in"), entry.get("holds") or []
    words = ""
    if isinstance(went, dict) and went.get("file"):
        words += "; its last {count} pieces print in {file}".format(count=went.get("pieces"),
                                                                                 file=went["file"])
    if holds:
        words += "; also holds the last pieces of {files}".format(
            files=", ".join(f"{h.get('file')} ({h.get('pieces')})" for h in holds if isinstance(h, dict)))
    return words


def extra_said(entry: dict) -> str:
    """Tiles that took more sheets than the paper alone needs (pnpgen.maps.tiling: the fewest that keep every
    text whole on one tile) say so, and why."""
    extra = entry.get("extra_sheets")
    if not isinstance(extra, int) or extra <= 0:
        return ""
    return f"; {extra} sheet{'s' if extra > 1 else ''} more than the paper alone needs, so that no seam cuts a text"


def printing_of_parts(parts: dict, duplex: str) -> dict[str, str]:
    """{file: how to print it} for the manifest: "print double-sided, flip on the long edge" (and how to
    bind it), "print one-sided", or, for a document's reading copy, which file to print instead."""
    return {path: sides for path, _, _, _, sides in _printed_files({"parts": parts}, duplex)}


def read_manifest(kit_out: Path) -> dict:
    try:
        manifest = json.loads((kit_out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def _printed_files(manifest: dict, duplex: str):
    """(path, entry or None for a reading copy, part, has backs, how to print it) for every file listed."""
    for part in (manifest.get("parts") or {}).values():
        if not isinstance(part, dict):
            continue
        backs = _files_with_backs(part.get("placements") or [])
        entries = [e for e in part.get("files") or [] if isinstance(e, dict) and "path" in e and "pages" in e]
        paths = {entry["path"] for entry in entries}
        for entry in entries:
            imposed = imposed_copy(entry["path"])
            if imposed in paths:
                yield entry["path"], None, part, False, _reading_copy(entry, imposed)
            else:
                has_backs = entry["path"] in backs
                yield entry["path"], entry, part, has_backs, sides_of(entry, part, has_backs, duplex)


def is_two_sided(entry: dict, part: dict, has_backs: bool) -> bool:
    """A file with backs, an imposed booklet, or any file of a part printed duplex (aid cards, counters)."""
    return has_backs or "binding" in entry or "duplex" in part or "duplex" in (part.get("sheet") or {})


def sides_of(entry: dict, part: dict, has_backs: bool, duplex: str) -> str:
    """How to print the file: both sides with the build's one flip (a booklet then folded and stapled), or
    one side only."""
    if not is_two_sided(entry, part, has_backs):
        return "print one-sided"
    binding = "; fold the stack in half and staple on the fold" if "binding" in entry else ""
    return f"print double-sided, {FLIP_WORDS.get(duplex, FLIP_WORDS['long'])}{binding}"


def sheets_of(entry: dict, part: dict, has_backs: bool) -> int:
    """Sheets of paper one file takes: its own count where the part gave one; else two pages a sheet for
    a double-sided file (an imposed booklet, a file with backs, any file of a part printed duplex: aid
    cards, counter sheets), one for any other."""
    if "sheets" in entry:
        return entry["sheets"]
    return -(-entry["pages"] // 2) if is_two_sided(entry, part, has_backs) else entry["pages"]


def _describe(entry: dict, part: dict, has_backs: bool) -> str:
    pages, sheets = entry["pages"], sheets_of(entry, part, has_backs)
    paper = PAPER_NAMES.get(entry.get("paper"), entry.get("paper") or "paper")
    if paper == "poster" and entry.get("page_size"):
        paper = _poster_paper(entry["page_size"])
    return f"{_count(pages, 'page')}, {_count(sheets, 'sheet')} of {paper}"


def _reading_copy(entry: dict, imposed: str) -> str:
    """A document also written imposed: its pages are to read on screen, the imposed copy is to print."""
    paper = PAPER_NAMES.get(entry.get("paper"), entry.get("paper") or "paper")
    return f"{_count(entry['pages'], 'page')} of {paper} to read on screen; to print: {imposed}"


def _poster_paper(page_size: list) -> str:
    """"A3, borderless" for a poster the size of a known paper, either way round; else its size."""
    size = sorted(page_size)
    for name, (width, height) in PAPER.items():
        if abs(size[0] - width) <= SAME_SIZE and abs(size[1] - height) <= SAME_SIZE:
            return f"{PAPER_NAMES[name]}, borderless"
    w, h = (round(v * 25.4 / 72) for v in page_size)
    return f"{w} x {h} mm poster paper"


def _files_with_backs(placements: list) -> set:
    return {p.get("file") for p in placements if isinstance(p, dict) and "back" in (p.get("side"), p.get("face"))}


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
