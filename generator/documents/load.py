"""Which documents a kit typesets: those named in kit.yaml `documents:`, or a booklet from rules/; their chapter
files in reading order."""
from __future__ import annotations

from pathlib import Path

from pnpgen.problems import Problems

DEFAULT_BOOKLET = {"chapters": "rules", "title": None, "page": "half", "impose": True, "cover": True,
                   "back_cover": None}


def check_documents(root: Path, documents: dict | None, kit_file: Path, lines: dict, problems: Problems) -> dict:
    """{id: settings} with each document's chapters checked to exist inside the kit."""
    from pnpgen.components.load import inside
    if documents is None:
        documents = {"booklet": DEFAULT_BOOKLET} if any((root / "rules").glob("*.md")) else {}
    out = {}
    for name, doc in documents.items():
        line = lines.get(("kit", f"documents.{name}.chapters"), ("", 0))[1]
        path = inside(root, doc["chapters"])
        if path is None:
            problems.error(kit_file, line, f"documents.{name}.chapters", f"{doc['chapters']!r} points outside the kit folder")
        elif not (path.is_dir() and any(path.glob("*.md"))) and not (path.is_file() and path.suffix == ".md"):
            problems.error(kit_file, line, f"documents.{name}.chapters",
                           f"{doc['chapters']!r} is neither a folder of .md chapters nor a .md file")
        else:
            for chapter in _links_out(root, path):  # its text would be printed: refused, as any kit file
                problems.error(chapter, 0, "", "links to a file outside the kit folder")
            _check_back_cover(path, doc.get("back_cover"), kit_file,
                              lines.get(("kit", f"documents.{name}.back_cover"), ("", 0))[1], name, problems)
            half = doc["page"] == "half"
            out[name] = {**doc, "impose": half if doc["impose"] is None else doc["impose"],
                         "cover": half if doc["cover"] is None else doc["cover"]}
    return out


def check_files_apart(documents: dict, tables, kit_file: Path, lines: dict, problems: Problems) -> None:
    """A print group named like a document would have the components part and the documents part write one
    file side by side; said here, at load, since the two parts run at once and one could read the other's
    half-written file before the build's own check of written files (run_parts) sees the clash. It is located
    at the table's `group:` (or its file, whose name is its group): a kit with no `documents:` entry has no
    line of its own for the booklet."""
    from pnpgen.documents import imposed_copy
    for name in documents:
        for file in (f"{name}.pdf", imposed_copy(f"{name}.pdf")):
            group = file.removesuffix(".pdf")
            for table in (t for t in tables if t.group == group):
                problems.error(table.file, table.lines.get("group", 1), "group",
                               f"{file} would be written by both the components part and the documents part "
                               f"(documents.{name}): rename the print group {group!r} or the document")


def _check_back_cover(chapters: Path, back_cover: str | None, kit_file: Path, line: int, name: str,
                      problems: Problems) -> None:
    """A named back cover must be one of the document's chapter files (it is printed last, whatever its
    name, so a chapter added later still goes inside the booklet)."""
    if back_cover is None:
        return
    files = sorted(chapters.glob("*.md")) if chapters.is_dir() else [chapters]
    if back_cover not in {f.name for f in files}:
        known = ", ".join(f.name for f in files)
        problems.error(kit_file, line, f"documents.{name}.back_cover",
                       f"{back_cover!r} is not a chapter file of the document (its chapters: {known})")


def _links_out(root: Path, chapters: Path) -> list[Path]:
    files = sorted(chapters.glob("*.md")) if chapters.is_dir() else [chapters]
    return [f for f in files if not f.resolve().is_relative_to(root.resolve())]


def chapter_files(kit, chapters: str, back_cover: str | None = None) -> list:
    """The chapter files in reading order: by name, the one named as the back cover last."""
    path = (kit.root / chapters)
    files = sorted(path.glob("*.md")) if path.is_dir() else [path]
    return sorted(files, key=lambda f: f.name == back_cover)


def check_cover(cover: dict | None, colours: tuple, kit_file: Path, lines: dict, problems: Problems) -> None:
    """Every colour the cover's picture names is a kit colour (or neutral), located at its list item."""
    if not cover or not cover.get("colours"):
        return
    known = {c.id for c in colours} | {"neutral"}
    for number, colour in enumerate(cover["colours"]):
        if colour not in known:
            line = lines.get(("kit", f"cover.colours[{number}]"), lines.get(("kit", "cover.colours"), ("", 0)))[1]
            problems.error(kit_file, line, f"cover.colours[{number}]",
                           f"{colour!r} is not a colour of the kit (its colours: {', '.join(sorted(known))})")
