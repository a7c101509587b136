"""A kit's rulings: the points where the kit settles what its rules sources leave open, or departs from them
(data/rules.yaml `rulings:`), numbered in the order of that file. Every kit's texts may quote them.

A text quotes a ruling as {{ ruling('bids') }}, which prints its words and then its mark, "(kit ruling 3)",
or marks a whole section with {{ ruling_mark('teams') }}. A Kit rulings chapter lists every ruling under the
same number ({% for r in rulings() %}: number, id, title, where, text, source), so a reader who meets a mark
finds the entry, and a ruling cannot be printed without its mark or left out of the list. A ruling's words
may quote the data ({{ data.rules.upgrade.cp_per_hull }}); they are rendered like any other kit text.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Callable

from pnpgen.i18n.translator import core_words
from pnpgen.model import Kit
from pnpgen.problems import Problems

MARK = "(kit ruling {number})"
SOURCE = "data/rules.yaml"


FORMAT = "a mapping keyed by each ruling's id: `bids: {title: ..., where: ..., source: ..., text: ...}`"


def check_rulings_file(data_folder: Path, data: dict, problems: Problems) -> None:
    """The data folder's rules file, where every text finds the rulings, holds a mapping: one whose top is a
    list or a text (a file linked to another of the kit, say) is an error at the file, found at load."""
    rules = data.get("rules")
    if rules is None or isinstance(rules, dict):
        return
    files = [data_folder / f"rules{suffix}" for suffix in (".yaml", ".yml", ".csv")]
    file = next((f for f in files if f.exists()), files[0])
    problems.error(file, 1, "", f"holds {_held(rules)}, where the kit's texts read a mapping: `rulings:` (the Kit "
                                "rulings, {id: {title, where, source, text}}) beside the facts they quote")


def _held(value) -> str:
    return "a list" if isinstance(value, list) else "a text" if isinstance(value, str) else f"the value {value!r}"


def ruling_ids(kit: Kit) -> list[str]:
    """The ids of the kit's rulings in the order its Kit rulings chapter numbers them (from 1): a mapping's
    keys, or a list's items' `id` (a kit's own texts may keep them as a list, 4X Space Euro's do)."""
    rules = (kit.data or {}).get("rules")
    given = (rules.get("rulings") if isinstance(rules, dict) else None) or {}
    if isinstance(given, list):
        return [item.get("id") for item in given if isinstance(item, dict)]
    return list(given) if isinstance(given, dict) else []


def ruling_names(kit: Kit, render: Callable[[str], str]) -> dict:
    """The three names a kit text may use; `render` turns a ruling's words (Jinja) into plain text."""
    rules = (kit.data or {}).get("rules")
    given = (rules.get("rulings") if isinstance(rules, dict) else None) or {}
    entries = given if isinstance(given, dict) else {}
    numbers = {rid: number for number, rid in enumerate(entries, 1)}

    def not_by_id() -> ValueError:
        """A kit's own texts may read a list (data.rules.rulings); these three need the rulings by id."""
        line = rules.line_of("rulings") if hasattr(rules, "line_of") else 0
        return ValueError(f"{SOURCE}{f':{line}' if line else ''}: rulings holds {_held(given)}, but ruling(), "
                          f"ruling_mark() and rulings() read {FORMAT}")

    def entry(rid: str) -> dict:
        if not isinstance(given, dict):
            raise not_by_id()
        if rid not in entries:
            raise ValueError(f"no ruling {rid!r} in {SOURCE} rulings (known: {', '.join(entries) or 'none'})")
        item = entries[rid]
        missing = [key for key in ("title", "where", "source") if not isinstance(item, dict) or not item.get(key)]
        if missing:
            raise ValueError(f"ruling {rid!r} in {SOURCE} needs {', '.join(missing)} "
                             "(the Kit rulings chapter prints them)")
        return item

    def ruling_mark(rid: str) -> str:
        entry(rid)
        return core_words(MARK).format(number=numbers[rid])

    def ruling(rid: str) -> str:
        text = entry(rid).get("text")
        if not text:
            raise ValueError(f"ruling {rid!r} in {SOURCE} has no text to quote: mark its section with ruling_mark")
        return f"{render(text)} {ruling_mark(rid)}"

    def rulings() -> list[SimpleNamespace]:
        if not isinstance(given, dict):
            raise not_by_id()
        return [SimpleNamespace(number=numbers[rid], id=rid, title=item["title"], where=item["where"],
                                text=render(item["text"]) if item.get("text") else None,
                                source=render(item["source"]))
                for rid, item in ((rid, entry(rid)) for rid in entries)]

    return {"ruling": ruling, "ruling_mark": ruling_mark, "rulings": rulings}
