"""Checks across files and against the rule counts, run on a kit whose files each passed their schema."""
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
    kit = with_free_data(kit)
    report = _Reporter(kit, problems)
    for check, needs in CHECKS:
        if not needs & broken:
            check(kit, report)


def with_free_data(kit: Kit) -> Kit:
    """The kit with its free data (the `data/` folder) read, as the texts see it in a build: the game module's
    checks run before the generic loader reads that folder, and the rules and aid texts quote it
    (kit.data.rules). Problems in the folder itself are reported by the generic loader, not here."""
    import dataclasses

    from pnpgen.components.load import load_data_files

    folder = kit.root / "data"
    if kit.data or not folder.is_dir():
        return kit
    data = load_data_files(kit.root, "data", kit.root / "kit.yaml", 0, Problems())
    return dataclasses.replace(kit, data=data) if data else kit


def _check_players(kit: Kit, report: _Reporter) -> None:
    low, high = kit.players
    if low > high:
        report.error("kit", "players.min", f"must not exceed players.max ({high})")
    if high > len(kit.colours):
        report.error("kit", "players.max", f"{high} players need {high} colours, the kit has {len(kit.colours)}")


def _check_units(kit: Kit, report: _Reporter) -> None:
    ship_size = kit.technologies.get("ship_size")
    sizes = {lv.level for lv in ship_size.levels} if ship_size else set()
    for code, unit in kit.units.items():
        at = f"units.{code}"
        if (unit.attack is None) != (unit.defence is None):
            report.error("units", f"{at}.attack", "attack and defence must both be given or both be null")
        if unit.attack is not None and unit.cls is None:
            report.error("units", f"{at}.class", "a unit with an attack needs a firing class")
        if unit.ship_size is not None and unit.ship_size not in sizes:
            report.error("units", f"{at}.ship_size",
                         f"Ship Size {unit.ship_size} is not a level of technologies.ship_size "
                         f"({', '.join(map(str, sorted(sizes))) or 'missing'})")
        for tech_id, level in unit.requires:
            _check_tech_level(kit, report, f"{at}.requires.{tech_id}", tech_id, level)
        _check_group_numbers(unit, report, at)


def _check_tech_level(kit, report, path, tech_id, level) -> None:
    tech = kit.technologies.get(tech_id)  # an unknown one: kit.yaml's checks name it
    if tech is not None and not tech.start < level <= tech.max:
        report.error("units", path, f"{tech.name} has levels {tech.start + 1}..{tech.max} to buy, not {level}")


def _check_group_numbers(unit, report, at) -> None:
    numbers = unit.group_numbers
    if not unit.groups and numbers != tuple(range(1, len(numbers) + 1)):
        report.error("units", f"{at}.counters", "only group counters take a list of group numbers")
    elif unit.groups and sorted(numbers) != list(range(1, len(numbers) + 1)):
        report.error("units", f"{at}.counters",
                     f"group numbers must run 1..{len(numbers)} without gaps or repeats, not {list(numbers)}")
    if not numbers:
        report.warn("units", f"{at}.counters", "no counters: this unit gets no counter on the sheets")


def _check_technologies(kit: Kit, report: _Reporter) -> None:
    turns = kit.game.sequence["turns_per_round"]
    for tid, tech in kit.technologies.items():
        at = f"technologies.{tid}.levels"
        for index, level in enumerate(tech.levels):
            here = f"{at}[{index}]"
            if index and level.level != tech.levels[index - 1].level + 1:
                report.error("technologies", f"{here}.level",
                             f"levels must climb by one: expected {tech.levels[index - 1].level + 1}, not {level.level}")
            if index == 0 and level.cost is not None:
                report.error("technologies", f"{here}.cost", "the starting level is owned already: its cost must be null")
            if index and level.cost is None:
                report.error("technologies", f"{here}.cost", "every level above the starting one needs a cost")
            if level.moves is not None and len(level.moves) != turns:
                report.error("technologies", f"{here}.moves",
                             f"needs one number per turn of a round ({turns}), not {len(level.moves)}")
        for attr in ("moves", "hull_capacity", "fighter"):
            given = [getattr(lv, attr) is not None for lv in tech.levels]
            if any(given) and not all(given[1:]):
                report.error("technologies", at, f"{attr} is given on some levels but not on every level above the first")


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


def _check_game(kit: Kit, report: _Reporter) -> None:
    game = kit.game
    for index, (code, count) in enumerate(game.starting_forces):
        here = f"setup.starting_forces[{index}]"
        unit = kit.units.get(code)  # an unknown one: kit.yaml's checks name it
        if unit is not None and count > unit.counters and not unit.groups:
            report.error("game", f"{here}.count", f"{count} {unit.name}s, but the kit has {unit.counters} counters")
    _check_scenarios(kit, report)
    _check_roll_table(kit, report, "space_wreck")
    _check_roll_table(kit, report, "black_hole")
    economy = game.economy
    if economy["homeworld"]["cp"] % economy["homeworld"]["loses_per_hit"]:
        report.warn("game", "economy.homeworld.loses_per_hit", "does not divide the Homeworld's CP evenly")
    if list(economy["colony_growth"]) != sorted(set(economy["colony_growth"])):
        report.error("game", "economy.colony_growth", "steps must rise, each larger than the last")
    if game.combat["always_hits"] > game.combat["die"]:
        report.error("game", "combat.always_hits", f"is not a face of a d{game.combat['die']}")


def _check_scenarios(kit: Kit, report: _Reporter) -> None:
    ids = Counter(s.id for s in kit.game.scenarios)
    for index, scenario in enumerate(kit.game.scenarios):
        here = f"scenarios[{index}]"
        if ids[scenario.id] > 1:
            report.error("game", f"{here}.id", f"scenario id {scenario.id!r} is used twice")
        if not kit.players[0] <= scenario.players <= kit.players[1]:
            report.error("game", f"{here}.players", f"must be within the kit's {kit.players[0]}-{kit.players[1]} players")
        if scenario.deep_space_markers > kit.deep_space.total:
            report.error("game", f"{here}.deep_space_markers",
                         f"{scenario.deep_space_markers} exceeds the {kit.deep_space.total} deep-space markers")


def _check_roll_table(kit, report, name) -> None:
    die = kit.game.combat["die"]
    covered = Counter()
    for index, row in enumerate(kit.game.tables[name]):
        here = f"tables.{name}[{index}]"
        low, high = row["roll"]
        if not 1 <= low <= high <= die:
            report.error("game", f"{here}.roll", f"must be [low, high] within 1..{die}, not {row['roll']}")
        covered.update(range(low, high + 1))
    gaps = [n for n in range(1, die + 1) if covered[n] != 1]
    if gaps:
        report.error("game", f"tables.{name}", f"every roll 1..{die} must appear exactly once; check {gaps}")


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


def _check_template_files(kit: Kit, report: _Reporter) -> None:
    from pnpgen.validate_texts import check_template_files
    check_template_files(kit.root, report.problems)


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


def _check_aids(kit: Kit, report: _Reporter) -> None:
    """The aid texts (aids/cards.yaml, aids/sheets.yaml) rendered and read against their schemas."""
    from pnpgen.aids.schema import CARDS_FILE, SHEETS_FILE, check_aid_file

    check_aid_file(kit, CARDS_FILE, report.problems)
    check_aid_file(kit, SHEETS_FILE, report.problems)


CHECKS = (  # each check with the files it reads
    (_check_players, frozenset()),
    (_check_units, frozenset({"units", "technologies"})),
    (_check_technologies, frozenset({"technologies", "game"})),
    (_check_mixes, frozenset({"markers"})),
    (_check_counters, frozenset({"counters", "game"})),
    (_check_game, frozenset({"game", "units", "technologies", "markers"})),
    (_check_templates, frozenset({"units", "markers", "counters"})),
    (_check_size, frozenset({"units", "markers", "counters", "game"})),
    (_check_template_files, frozenset()),
    (_check_aids, frozenset({"units", "technologies", "markers", "counters", "game"})),
)
