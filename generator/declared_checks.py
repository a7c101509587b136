"""Cross-file checks a kit declares in kit.yaml (`checks:`), run over its files: what a designer can say without
code, each problem located at the data's own file and line and naming the rule.

A rule reads one path (pnpgen.declared_paths says how paths are written) in one of these ways, and is checked
against what the rest of the rule gives:
- `each` (every value found; a field a mapping leaves out reads as null): `in` (a key or item of what another
  path reaches, or of any of a list of paths), `equals` / `at_least` / `at_most` / `multiple_of` (a number, or
  the number at a path), `given` (true: not null; false: null; a path: given exactly where the path finds a
  value that is not null for it, `markers:kinds.{kind}.value`),
  `together` (each mapping found gives all of these fields or none), `needs` ({field: other}: a mapping that
  gives `field` gives `other` too); `unless` skips a value where a path gives true;
- `each_key` (every key of the mappings found): `in`;
- `sum` (the numbers found, added up) and `count` (the entries of each list or mapping found): `equals`,
  `at_least`, `at_most`;
- `rises`: the numbers of each list climb, each above the one before (`by`: by exactly that much);
- `unique`: no value comes twice (`fields`: no two mappings found give the same values of these fields);
- `covers`: the [low, high] ranges of each list cover 1..`up_to` (a die's faces), each number once;
- `all_or_none`: the values of each list or mapping are given on every item or on none.
A rule with `warning: true` reports a warning instead of an error.

The rules run under the budgets (pnpgen.budgets): all of them together get the `template_seconds` of CPU one
text gets, and one path may reach `check_values` values; past either, the rule then running is the error,
at its line. What a rule derives from another path (a bound, `unless`, `given`) is worked out once per path.
"""
from __future__ import annotations

import difflib
import operator
from collections import Counter
from pathlib import Path

from pnpgen import budgets
from pnpgen.declared_paths import Found, Sources, is_wild, split
from pnpgen.kit_folder import KIT_FILE
from pnpgen.problems import Problems
from pnpgen.schema import Bool, Either, Field, Int, ListOf, MapOf, Number, Record, Str, optional

PATH = Str(r"[A-Za-z0-9_][A-Za-z0-9_./-]*(:[A-Za-z0-9_*.{}+=-]+)?",
           "FILE:FIELD.FIELD such as units:units.*.requires or components/ships.yaml:rows.*.name (or a FILE alone)")
NUMBER = Either((Number(), PATH))
PATHS = Either((PATH, ListOf(PATH, min_items=1)))
FIELD = Str(r"[A-Za-z0-9_-]+", "a field name")

CHECK = Record({
    "rule": Field(Str(), doc="the rule's name, a sentence quoted in every finding"),
    "warning": optional(Bool(), False, "report a finding as a warning, not an error"),
    "each": optional(PATH, None, "every value found here ..."),
    "each_key": optional(PATH, None, "every key of the mappings found here ..."),
    "sum": optional(PATH, None, "the numbers found here, added up, ..."),
    "count": optional(PATH, None, "the entries of each list or mapping found here ..."),
    "rises": optional(PATH, None, "the numbers of each list found here climb"),
    "unique": optional(PATH, None, "no value found here comes twice"),
    "covers": optional(PATH, None, "the [low, high] ranges of each list found here cover 1..up_to once"),
    "all_or_none": optional(PATH, None, "the values of each list found here are given on every item or none"),
    "in": optional(PATHS, None, "... is a key of the mapping here (or an item of the list, or the value); a list: "
                                 "of any of these paths"),
    "equals": optional(NUMBER, None, "... is this number, or the number at this path"),
    "at_least": optional(NUMBER, None, "... is no less than this number (or the number at this path)"),
    "at_most": optional(NUMBER, None, "... is no more than this number (or the number at this path)"),
    "multiple_of": optional(NUMBER, None, "... divides by this number (or the number at this path)"),
    "given": optional(Either((Bool(), PATH)), None, "... is given (true) or left null (false); a path: given "
                       "exactly where the path finds a value that is not null"),
    "together": optional(ListOf(FIELD, min_items=2), None, "... gives all of these fields or none"),
    "needs": optional(MapOf(FIELD, key=FIELD), None, "{field: other}: ... gives `other` where it gives `field`"),
    "unless": optional(PATH, None, "each: skip a value where this path gives true"),
    "by": optional(Number(), None, "rises: each number is the one before plus this"),
    "fields": optional(ListOf(FIELD, min_items=1), None, "unique: no two mappings give the same values of these"),
    "up_to": optional(Either((Int(1, 10 ** 6), PATH)), None, "covers: the highest number (a die's faces)"),
}, "a rule: {rule, each or each_key or sum or count or rises or unique or covers or all_or_none, ...}")

# What a rule reads -> (what it is checked with, at least one of them needed; what it may add).
KINDS = {
    "each": (("in", "equals", "at_least", "at_most", "multiple_of", "given", "together", "needs"), ("unless",)),
    "each_key": (("in",), ()),
    "sum": (("equals", "at_least", "at_most"), ()),
    "count": (("equals", "at_least", "at_most"), ()),
    "rises": ((), ("by",)),
    "unique": ((), ("fields",)),
    "covers": (("up_to",), ()),
    "all_or_none": ((), ()),
}
COMPARISONS = (("equals", "", operator.eq), ("at_least", "at least ", operator.ge),
               ("at_most", "at most ", operator.le), ("multiple_of", "a multiple of ", lambda n, m: m and n % m == 0))
PATH_FIELDS = ("each", "each_key", "sum", "count", "rises", "unique", "covers", "all_or_none", "in", "equals",
               "at_least", "at_most", "multiple_of", "given", "unless", "up_to")


def check_declared(rules: list, docs: dict, broken: frozenset, lines: dict, root: Path, problems: Problems) -> None:
    """Run every rule over `docs` (file key -> checked data; `kit` is kit.yaml) and any kit file a rule names
    by its path; a rule reading a file that failed its schema (`broken`) is skipped, that file's problems are
    reported already. A budget reached (CPU, values) is an error at the rule then running; the rest are not run."""
    sources, kit_file = Sources(docs, lines, root), Path(root) / KIT_FILE
    index = 0
    try:
        with budgets.template_clock("the declared checks"):
            for index, rule in enumerate(rules):
                try:
                    _check_rule(rule, f"checks[{index}]", sources, broken, kit_file, problems)
                except budgets.BudgetExceeded as exc:
                    if exc.name != "check_values":  # one rule's too many values; the others still run
                        raise
                    _over_budget(rule, index, exc, sources, kit_file, problems)
    except budgets.BudgetExceeded as exc:
        _over_budget(rules[index], index, exc, sources, kit_file, problems)


def _over_budget(rule: dict, index: int, exc: Exception, sources: Sources, kit_file: Path, problems: Problems):
    line = sources.lines.get(("kit", f"checks[{index}]"), (kit_file, 0))[1]
    problems.error(kit_file, line, f"checks[{index}]", f"{rule['rule']}: {exc}")


def _check_rule(rule: dict, here: str, sources: Sources, broken: frozenset, kit_file: Path,
                problems: Problems) -> None:
    """One rule run, its findings located at the data; a rule that cannot be run says why at its own line."""
    line = sources.lines.get(("kit", here), (kit_file, 0))[1]
    skipped = bool({split(p)[0] for p in _paths(rule)} & broken)  # a stand-in file reaches nothing: no verdict
    problem = _shape_problem(rule) or _file_problem(rule, sources) or (not skipped and _path_problem(rule, sources))
    if problem and _said_already(problem, problems):
        return  # the file's own error (its YAML, say), reported at its line already: said once
    if problem:
        problems.error(kit_file, line, here, f"{rule['rule']}: {problem}")
    elif not skipped:
        kind = next(k for k in KINDS if rule[k])
        sources.filled.clear()
        RUNS[kind](rule, kind, sources, _Report(rule, sources, problems, line))
        for name in [n for n, ever in sources.filled.items() if not ever]:
            problems.error(kit_file, line, here, f"{rule['rule']}: {{{name}}} stands for nothing: no `{{{name}}}` "
                                                 f"step in `{kind}`'s path and no field {name} beside its values")


def _said_already(problem: str, problems: Problems) -> bool:
    """Whether `problem` (a file's read error, `rel:line: message`) is an error reported at that file's line."""
    return any(problem.endswith(f":{p.line}: {p.message}") and Path(p.file).as_posix().endswith(problem.split(":")[0])
               for p in problems.errors())


def _paths(rule: dict) -> list[str]:
    return [p for k in PATH_FIELDS for p in _listed(rule[k]) if isinstance(p, str)]


def _shape_problem(rule: dict) -> str | None:
    kinds = [k for k in KINDS if rule[k]]
    if len(kinds) != 1:
        return f"give one of {', '.join(KINDS)} (the rule gives {', '.join(kinds) or 'none'})"
    needed, extra = KINDS[kinds[0]]
    tests = [k for k in CHECK.fields if k not in KINDS and k not in ("rule", "warning") and rule[k] is not None]
    stray = [k for k in tests if k not in needed + extra]
    if stray:
        return f"`{kinds[0]}` is not checked with {', '.join(stray)} ({', '.join(needed + extra) or 'nothing more'})"
    if needed and not set(tests) & set(needed):
        return f"give `{kinds[0]}` with {_one_of(needed)}"
    return None


def _one_of(names) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _file_problem(rule: dict, sources: Sources) -> str | None:
    for file_key in dict.fromkeys(split(p)[0] for p in _paths(rule)):
        if not sources.knows(file_key):
            return (f"no data file {file_key!r} (files: {', '.join(sources.names())}, or a kit file's path such as "
                    f"components/ships.yaml)")
        reason = sources.load(file_key)
        if reason:
            return reason
    return None


def _path_problem(rule: dict, sources: Sources) -> str | None:
    """A path that reaches nothing for a field no mapping on its way has: the rule's own path, and each other
    path that stands alone (one with `{name}` is filled per value, and may miss on purpose)."""
    kind = next(k for k in KINDS if rule[k])
    for spec in [rule[kind], *(p for p in _paths(rule) if p != rule[kind] and "{" not in p)]:
        why = sources.missing(spec)
        if why:
            return f"{spec} reaches nothing: {why}"
    return None


class _Report:
    """A finding of one rule, located at the data's own line and naming the rule and its line in kit.yaml: the
    data or the rule may be the mistake (a mistyped count), and the designer must see where each is."""

    def __init__(self, rule: dict, sources: Sources, problems: Problems, rule_line: int):
        self.rule, self.sources, self.rule_line = rule, sources, rule_line
        self.say = problems.warn if rule["warning"] else problems.error

    def __call__(self, file_key: str, path: str, message: str) -> None:
        file, line = self.sources.locate(file_key, path)
        self.say(file, line, path, f"{self.rule['rule']}: {message} (rule: {KIT_FILE}:{self.rule_line})")


def _each(rule, kind, sources: Sources, report: _Report) -> None:
    file_key, found = sources.find(rule[kind], nulls=kind == "each")
    if kind == "each_key":
        found = [Found(f"{f.path}.{k}" if f.path else str(k), k, f.names, f.value)
                 for f in found if isinstance(f.value, dict) for k in f.value]
    for item in found:
        if rule["unless"] and sources.derived("unless", rule["unless"], item, _any_true):
            continue
        for path, message in _item_problems(rule, item, sources):
            report(file_key, path, message)


def _item_problems(rule, item: Found, sources: Sources):
    value = item.value
    known_at = [sources.fill(spec, item) for spec in _listed(rule["in"])]  # None: a {name} it cannot fill
    if known_at and None not in known_at and value is not None:
        known = set().union(*(_known(sources, spec) for spec in known_at))
        if str(value) not in known:
            near = difflib.get_close_matches(str(value), sorted(known), n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            yield item.path, f"{value!r} is not one of them ({hint}known: {', '.join(_sorted(known)) or 'none'})"
    yield from _given_problems(rule["given"], item, sources)
    if _is_number(value):
        wanted = _broken_comparison(rule, value, sources, item)
        if wanted:
            yield item.path, f"is {_show(value)}, the rules call for {wanted}"
    if isinstance(value, dict):
        yield from _field_problems(rule, item.path, value)


def _listed(specs) -> list:
    """A field that takes one path or a list of them (`in`), as a list."""
    return specs if isinstance(specs, list) else [specs] if specs else []


def _given_problems(given, item: Found, sources: Sources):
    """A value given where the rules call for none, or missing where they call for one, saying why."""
    wanted, because = _given(given, item, sources)
    if wanted is None or (item.value is not None) == wanted:
        return
    if wanted:
        yield item.path, f"is not given: the rules call for a value{f' ({because})' if because else ''}"
    else:
        yield item.path, f"is {item.value!r}: the rules call for none ({because and because + ': '}leave it null)"


def _given(given, item: Found, sources: Sources) -> tuple:
    """(whether the value must be given, why): `given: true/false` as written; a path, true where it
    finds a value that is not null for this item (None, no verdict, where it finds nothing)."""
    if not isinstance(given, str):
        return given, ""
    return sources.derived("given", given, item, _given_by) or (None, "")


def _given_by(found: list[Found]) -> tuple:
    if not found:
        return None, ""
    shown = next((f for f in found if f.value is not None), found[0])
    value = "null" if shown.value is None else repr(shown.value)
    return shown.value is not None, f"{shown.path} is {value}"


def _any_true(found: list[Found]) -> bool:
    return any(f.value is True for f in found)


def _field_problems(rule, path: str, record: dict):
    fields = rule["together"] or []
    given = [f for f in fields if record.get(f) is not None]
    if given and len(given) < len(fields):
        missing = [f for f in fields if f not in given]
        yield f"{path}.{given[0]}", (f"{' and '.join(given)} given without {' and '.join(missing)}: give "
                                     f"{', '.join(fields)} together or none")
    for field, other in (rule["needs"] or {}).items():
        if record.get(field) is not None and record.get(other) is None:
            yield f"{path}.{other}", f"{field} is given, so {other} must be too"


def _sum(rule, kind, sources: Sources, report: _Report) -> None:
    file_key, found = sources.find(rule["sum"])
    total = sum(f.value for f in found if _is_number(f.value))
    wanted = _broken_comparison(rule, total, sources, None)
    if wanted:
        steps = split(rule["sum"])[1]
        holder = ".".join(steps[:next((i for i, s in enumerate(steps) if is_wild(s)), len(steps))])
        report(file_key, holder, f"the entries add up to {_show(total)}, the rules call for {wanted}")


def _count(rule, kind, sources: Sources, report: _Report) -> None:
    file_key, found = sources.find(rule["count"])
    for item in found:
        if isinstance(item.value, (list, dict)):
            wanted = _broken_comparison(rule, len(item.value), sources, item)
            if wanted:
                report(file_key, item.path, f"holds {len(item.value)} entries, the rules call for {wanted}")


def _rises(rule, kind, sources: Sources, report: _Report) -> None:
    file_key, groups = sources.groups(rule["rises"])
    for _, members in groups:
        numbers = [m for m in members if _is_number(m.value)]
        for before, item in zip(numbers, numbers[1:]):
            if rule["by"] is not None and item.value != before.value + rule["by"]:
                report(file_key, item.path, f"expected {_show(before.value + rule['by'])}, not {_show(item.value)}")
            elif rule["by"] is None and item.value <= before.value:
                report(file_key, item.path, f"{_show(item.value)} does not rise above the {_show(before.value)} "
                                            "before it")


def _unique(rule, kind, sources: Sources, report: _Report) -> None:
    file_key, found = sources.find(rule["unique"])
    first = {}
    for item in found:
        key, shown = _unique_key(item.value, rule["fields"])
        if key is None:
            continue
        if key in first:
            line = sources.locate(file_key, first[key])[1]
            report(file_key, item.path, f"{shown} is given twice (first at {first[key]}, line {line})")
        first.setdefault(key, item.path)


def _unique_key(value, fields) -> tuple:
    """(what two values must not share, how a finding shows it); (None, '') for a value not compared: a null,
    or with `fields` a value that is no mapping or gives none of them (a field left out is null)."""
    if not fields:
        return (None, "") if value is None else (str(value), repr(value))
    if not isinstance(value, dict) or all(value.get(f) is None for f in fields):
        return None, ""
    key = tuple(str(value.get(f)) if value.get(f) is not None else None for f in fields)
    return key, "{" + ", ".join(f"{f}: {_shown_value(value.get(f))}" for f in fields) + "}"


def _shown_value(value) -> str:
    return "null" if value is None else str(value)


def _covers(rule, kind, sources: Sources, report: _Report) -> None:
    top = _bound(rule["up_to"], sources, None)[0]
    if not isinstance(top, int):
        return
    file_key, groups = sources.groups(rule["covers"])
    for holder, members in groups:
        covered = Counter()
        for item in members:
            span = [item.value, item.value] if isinstance(item.value, int) else item.value
            if not (isinstance(span, list) and len(span) == 2 and all(isinstance(n, int) for n in span)
                    and 1 <= span[0] <= span[1] <= top):
                report(file_key, item.path, f"must be [low, high] within 1..{top}, not {item.value}")
                continue
            covered.update(range(span[0], span[1] + 1))
        gaps = [n for n in range(1, top + 1) if covered[n] != 1]
        if gaps:
            report(file_key, holder, f"every roll 1..{top} must appear exactly once; check {gaps}")


def _all_or_none(rule, kind, sources: Sources, report: _Report) -> None:
    file_key, groups = sources.groups(rule["all_or_none"])
    for holder, members in groups:
        missing = [m.path for m in members if m.value is None]
        if missing and len(missing) < len(members):
            report(file_key, holder, f"given on {len(members) - len(missing)} of {len(members)}, "
                                     f"not on {', '.join(missing)}")


RUNS = {"each": _each, "each_key": _each, "sum": _sum, "count": _count, "rises": _rises, "unique": _unique,
        "covers": _covers, "all_or_none": _all_or_none}


def _broken_comparison(rule, number, sources: Sources, beside: Found | None) -> str | None:
    """The first of the rule's comparisons `number` fails, said as what the rules call for:
    'at most 4 (players.max)'; None when it passes them all (or a bound's path reaches no number)."""
    for key, words, holds in COMPARISONS:
        if rule[key] is None:
            continue
        bound, named = _bound(rule[key], sources, beside)
        if bound is not None and not holds(number, bound):
            return f"{words}{_show(bound)}{named}"
    return None


def _bound(spec, sources: Sources, beside: Found | None) -> tuple:
    """(number, ' (where it is)') of a number or a path's first number; (None, '') when it reaches none."""
    if not isinstance(spec, str):
        return spec, ""
    return sources.derived("bound", spec, beside, _first_number) or (None, "")


def _first_number(found: list[Found]) -> tuple:
    number = next((f for f in found if _is_number(f.value)), None)
    return (number.value, f" ({number.path})") if number else (None, "")


def _known(sources: Sources, spec: str) -> set[str]:
    """The names a value may be: the keys of the mappings `spec` reaches, the items of its lists, or the values
    themselves (worked out once per path: a rule over thousands of rows reads its list once)."""
    if ("known", spec) not in sources.memo:
        known = set()
        for f in sources.find(spec)[1]:
            items = f.value if isinstance(f.value, (dict, list)) else [f.value] if f.value is not None else []
            known |= {str(k) for k in items if not isinstance(k, (dict, list))}
        sources.memo[("known", spec)] = known
    return sources.memo[("known", spec)]


def _sorted(names: set[str]) -> list[str]:
    return sorted(names, key=lambda n: (0, float(n), n) if _numeric(n) else (1, 0, n))


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _show(number) -> str:
    return str(int(number)) if isinstance(number, float) and number.is_integer() else str(number)
