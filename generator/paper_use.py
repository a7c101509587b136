"""How much paper each file of a build takes, read back from its manifest, so the build's summary can say
what a player will feed the printer: pages, and sheets of which paper (a double-sided file takes one sheet
for each front and its back)."""
from __future__ import annotations

import json
from pathlib import Path


PAPER_NAMES = {"letter": "Letter", "a4": "A4", "a3": "A3", "half-letter": "half-Letter", "half-a4": "A5"}


def paper_of_files(kit_out: Path) -> dict[str, str]:
    """{file path relative to the kit's folder: "6 pages, 3 sheets of letter"} for every file the manifest
    lists; {} without a readable manifest (the summary then names the files alone)."""
    try:
        manifest = json.loads((kit_out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out = {}
    for part in (manifest.get("parts") or {}).values():
        if not isinstance(part, dict):
            continue
        backs = _files_with_backs(part.get("placements") or [])
        for entry in part.get("files") or []:
            if isinstance(entry, dict) and "path" in entry and "pages" in entry:
                out[entry["path"]] = _describe(entry, part, entry["path"] in backs)
    return out


def sheets_of(entry: dict, part: dict, has_backs: bool) -> int:
    """Sheets of paper one file takes: its own count where the part gave one; else two pages a sheet for
    a double-sided file (an imposed booklet, a file with backs, any file of a part printed duplex: aid
    cards, counter sheets), one for any other."""
    if "sheets" in entry:
        return entry["sheets"]
    two_sided = has_backs or "binding" in entry or "duplex" in part or "duplex" in (part.get("sheet") or {})
    return -(-entry["pages"] // 2) if two_sided else entry["pages"]


def _describe(entry: dict, part: dict, has_backs: bool) -> str:
    pages, sheets = entry["pages"], sheets_of(entry, part, has_backs)
    paper = PAPER_NAMES.get(entry.get("paper"), entry.get("paper") or "paper")
    if paper == "poster" and entry.get("page_size"):
        w, h = (round(v * 25.4 / 72) for v in entry["page_size"])
        paper = f"{w} x {h} mm poster paper"
    return f"{_count(pages, 'page')}, {_count(sheets, 'sheet')} of {paper}"


def _files_with_backs(placements: list) -> set:
    return {p.get("file") for p in placements if isinstance(p, dict) and "back" in (p.get("side"), p.get("face"))}


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
