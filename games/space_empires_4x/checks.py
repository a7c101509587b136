"""Space Empires 4X's counter checks that its data files cannot yet declare (kit.yaml `checks:` holds the
rest): group numbers, marker mixes, counter steps, face templates and the kit's printed size."""
from __future__ import annotations

from collections import Counter

from pnpgen.model import Kit
from pnpgen.games.space_empires_4x.model import Mix
from pnpgen.problems import Problems


class _Reporter:
    """Locates a problem by (file key, field path) using the line index the loader kept."""

    def __init__(self, kit: Kit, problems: Problems):
        self.kit, self.problems = kit, problems

    def error(self, file_key: str, path: str, message: str) -> None:
        file, line = self.kit.locate(file_key, path)
        self.problems.error(file, line, path, message)

    def warn(self, file_key: str, path: str, message: str) -> None:
        file, line = self.kit.locate(file_key, path)
        self.problems.warn(file, line, path, message)


def check_kit(kit: Kit, problems: Problems, broken: frozenset = frozenset()) -> None:
    """Run every check whose files all passed their schema (`broken` names the files that did not)."""
    report = _Reporter(kit, problems)
    for check, needs in CHECKS:
        if not needs & broken:
            check(kit, report)


def _check_units(kit: Kit, report: _Reporter) -> None:
    for code, unit in kit.units.items():
        _check_group_numbers(unit, report, f"units.{code}")


def _check_group_numbers(unit, report, at) -> None:
    numbers = unit.group_numbers
    if not unit.groups and numbers != tuple(range(1, len(numbers) + 1)):
        report.error("units", f"{at}.counters", "only group counters take a list of group numbers")
    elif unit.groups and sorted(numbers) != list(range(1, len(numbers) + 1)):
        report.error("units", f"{at}.counters",
                     f"group numbers must run 1..{len(numbers)} without gaps or repeats, not {list(numbers)}")
    if not numbers:
        report.warn("units", f"{at}.counters", "no counters: this unit gets no counter on the sheets")


def _check_mixes(kit: Kit, report: _Reporter) -> None:
    used = set()
    for mix in (kit.home_system, kit.deep_space):
        used |= _check_mix(kit, report, mix)
    for kid in kit.marker_kinds:
        if kid not in used:
            report.warn("markers", f"kinds.{kid}", "is in no mix, so no marker of this kind is printed")


def _check_mix(kit: Kit, report: _Reporter, mix: Mix) -> set:
    seen = Counter()
    for part, entries in (("mix", mix.entries), ("face_up", mix.face_up)):
        for index, entry in enumerate(entries):
            here = f"{mix.name}.{part}[{index}]"
            kind = kit.marker_kinds.get(entry.kind)  # an unknown one: kit.yaml's checks name it
            seen[(entry.kind, entry.value)] += 1
            if kind is not None and kind.value and entry.value is None:
                report.error("markers", f"{here}.value", f"{kind.name} markers print a {kind.value} value: give one")
            elif kind is not None and not kind.value and entry.value is not None:
                report.error("markers", f"{here}.value", f"{kind.name} markers print no value")
            if seen[(entry.kind, entry.value)] == 2:
                report.error("markers", here, f"{entry.kind} {entry.value or ''} is listed twice: add the counts")
    return {e.kind for e in mix.entries + mix.face_up}


def _check_counters(kit: Kit, report: _Reporter) -> None:
    for cid, cset in kit.counters.items():
        steps = cset.sides.get("steps")
        if steps is None:
            continue
        available = len(kit.game.homeworld_steps()) if steps == "homeworld" else len(kit.game.economy["colony_growth"])
        if cset.sides.get("from", 0) >= available:
            report.error("counters", f"counters.{cid}.sides.from", f"the {steps} has only {available} steps")


def _check_templates(kit: Kit, report: _Reporter) -> None:
    """A face template named in the data must exist in the kit's templates/ folder or the built-in one."""
    from pnpgen.render.templates import SUFFIX, template_dirs, template_path

    named = [("units", f"units.{code}.{field}", getattr(unit, field))
             for code, unit in kit.units.items() for field in ("template", "back_template")]
    named += [("markers", f"kinds.{kid}.template", kind.template) for kid, kind in kit.marker_kinds.items()]
    named += [("counters", f"counters.{cid}.template", cset.template) for cid, cset in kit.counters.items()]
    for file_key, path, name in named:
        if name and template_path(kit.root, name) is None:
            folders = " or ".join(str(d) for d in template_dirs(kit.root))
            report.error(file_key, path, f"template {name}{SUFFIX} not found in {folders}")


MAX_PIECES = 20_000  # counters in one kit: the standard kit has about 1,000; more would be days of printing


def _check_size(kit: Kit, report: _Reporter) -> None:
    """A kit too large to print stops here, at the biggest contributor, before anything is expanded or drawn."""
    per_colour = max(len(kit.colours), 1)
    sources = [(len(u.group_numbers) * per_colour, "units", f"units.{code}.counters") for code, u in kit.units.items()]
    sources += [(c.copies * (per_colour if c.per == "colour" else 1) * _sides_count(kit, c), "counters",
                 f"counters.{cid}.copies") for cid, c in kit.counters.items()]
    sources += [(kit.home_system.count * per_colour, "markers", "home_system.total"),
                (kit.deep_space.count, "markers", "deep_space.total")]
    total = sum(n for n, _, _ in sources)
    if total > MAX_PIECES:
        biggest = max(sources)
        report.error(biggest[1], biggest[2], f"the kit would print {total} counters, more than {MAX_PIECES}: "
                                             f"{biggest[0]} of them come from here")


def _sides_count(kit: Kit, cset) -> int:
    """How many pieces one copy of a counter set makes (one per step or value, else one)."""
    sides = cset.sides
    if sides.get("steps") == "homeworld":
        return max(len(kit.game.homeworld_steps()), 1)
    if sides.get("steps") == "colony":
        return max(len(kit.game.economy["colony_growth"]), 1)
    return max(len(sides.get("values") or [0]), 1)


CHECKS = (  # each check with the files it reads
    (_check_units, frozenset({"units"})),
    (_check_mixes, frozenset({"markers"})),
    (_check_counters, frozenset({"counters", "game"})),
    (_check_templates, frozenset({"units", "markers", "counters"})),
    (_check_size, frozenset({"units", "markers", "counters", "game"})),
)
