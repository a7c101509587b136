"""Cross-file checks a kit declares in kit.yaml (`checks:`), run over its data files: what a designer can say
without code, each problem located at the data's own file and line and naming the rule.

Two kinds of rule:
- `each` (or `each_key`) + `in`: every value (or key) found at one path is a key of the mapping (or an item
  of the list) at another, e.g. every technology a unit requires is a technology;
- `sum` + `equals`: the numbers found at one path add up to a number (or the number at another path), e.g.
  the deep-space mix holds the markers the rules call for.

A path is `FILE:FIELD.FIELD...`, FILE one of the data files the kit's game module reads (kit.yaml `files:`),
`*` any key of a mapping or item of a list.
"""
from __future__ import annotations

import difflib
import re

from pnpgen.problems import Problems
from pnpgen.schema import Either, Field, Int, Record, Str, optional

PATH = Str(r"[a-z_][a-z0-9_]*:[A-Za-z0-9_*.-]+", "FILE:FIELD.FIELD such as units:units.*.requires")

CHECK = Record({
    "rule": Field(Str(), doc="the rule's name, quoted in the error"),
    "each": optional(PATH, None, "every value found here ..."),
    "each_key": optional(PATH, None, "... or every key of the mappings found here ..."),
    "in": optional(PATH, None, "... must be a key of the mapping here (or an item of the list)"),
    "sum": optional(PATH, None, "the numbers found here add up to ..."),
    "equals": optional(Either((Int(0, 10 ** 9), PATH)), None, "... this number, or the number at this path"),
}, "{rule, each or each_key, in} or {rule, sum, equals}")


def check_declared(rules: list, docs: dict, broken: frozenset, lines: dict, kit_file, problems: Problems) -> None:
    """Run every rule whose files all passed their schema (`broken` names the files that did not)."""
    for index, rule in enumerate(rules):
        here = f"checks[{index}]"
        at = lines.get(("kit", here), (kit_file, 0))[1]
        paths = [rule[k] for k in ("each", "each_key", "in", "sum") if rule[k]]
        paths += [rule["equals"]] if isinstance(rule["equals"], str) else []
        unknown = sorted({p.split(":", 1)[0] for p in paths} - set(docs))
        if unknown or not _well_formed(rule):
            files = ", ".join(sorted(docs)) or "none: checks read a game module's files (kit.yaml files:)"
            problems.error(kit_file, at, here, f"{rule['rule']}: " + (
                f"no data file {', '.join(map(repr, unknown))} (files: {files})" if unknown else
                "give `each` or `each_key` with `in`, or `sum` with `equals`"))
            continue
        if {p.split(":", 1)[0] for p in paths} & broken:
            continue  # that file's own problems are reported already
        _run(rule, docs, lines, problems)


def _well_formed(rule: dict) -> bool:
    membership = bool(rule["each"]) + bool(rule["each_key"]) == 1 and rule["in"] and not rule["sum"]
    count = rule["sum"] and rule["equals"] is not None and not (rule["each"] or rule["each_key"] or rule["in"])
    return bool(membership or count)


def _run(rule: dict, docs: dict, lines: dict, problems: Problems) -> None:
    def error(file_key: str, path: str, message: str) -> None:
        file, line = _locate(lines, file_key, path)
        problems.error(file, line, path, f"{rule['rule']}: {message}")

    if rule["sum"]:
        file_key, found = _found(docs, rule["sum"])
        total = sum(v for _, v in found if isinstance(v, (int, float)) and not isinstance(v, bool))
        wanted, named = rule["equals"], ""
        if isinstance(wanted, str):
            named = f" ({wanted.split(':', 1)[1]})"
            wanted = next((v for _, v in _found(docs, wanted)[1]), None)
        if total != wanted:
            parent = _parent(rule["sum"].split(":", 1)[1])
            error(file_key, parent, f"the entries add up to {total:g}, the rules call for {wanted}{named}")
        return
    source = rule["each"] or rule["each_key"]
    file_key, found = _found(docs, source, keys=bool(rule["each_key"]))
    known = {str(k) for _, names in _found(docs, rule["in"])[1] if isinstance(names, (dict, list)) for k in names}
    for path, value in found:
        if value is not None and str(value) not in known:
            near = difflib.get_close_matches(str(value), sorted(known), n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            error(file_key, path, f"{value!r} is not one of them ({hint}known: {', '.join(sorted(known))})")


def _found(docs: dict, spec: str, keys: bool = False) -> tuple[str, list]:
    """(file key, [(dotted path, value)]) of every node `spec` reaches; with `keys`, the keys of the mappings
    reached, each at its own path."""
    file_key, path = spec.split(":", 1)
    nodes = [("", docs[file_key])]
    for step in path.split("."):
        nodes = [pair for where, node in nodes for pair in _step(where, node, step)]
    if keys:
        nodes = [(_join(where, str(k)), k) for where, node in nodes if isinstance(node, dict) for k in node]
    return file_key, nodes


def _step(where: str, node, step: str) -> list:
    if isinstance(node, dict):
        chosen = node.items() if step == "*" else ([(step, node[step])] if step in node else [])
        return [(_join(where, str(k)), v) for k, v in chosen]
    if isinstance(node, list) and step == "*":
        return [(f"{where}[{i}]", v) for i, v in enumerate(node)]
    return []


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _parent(path: str) -> str:
    """`deep_space.mix.*.count` -> `deep_space.mix`: a sum's error points at what holds its entries."""
    return path.split(".*", 1)[0]


def _locate(lines: dict, file_key: str, path: str) -> tuple:
    """(file, line) of a field, or of its nearest parent that has one."""
    while (file_key, path) not in lines and path:
        path = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", path)
    return lines.get((file_key, path), ("?", 0))
