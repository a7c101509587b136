"""Space Empires 4X's model: its checked rows and files read by attribute (`unit.hull`, `unit['class']`),
wrapped rather than copied, so a column a designer adds is seen by every text at once. The classes add only
what the data does not say: the numbers its charts and chapters derive (upkeep, upgrades, mix counts...)."""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.model import Kit


class Facts:
    """A checked mapping read by attribute or by key; a missing one is an AttributeError a text reports."""

    def __init__(self, mapping=(), /, **more):
        self._values = dict(mapping, **more)

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._values:
            raise AttributeError(name)
        return self._values[name]

    def __getitem__(self, key):
        return self._values[key]


class Unit(Facts):
    """A row of the units table: its id is its code, its qty its counter limit (group numbers 1..qty)."""

    code = property(lambda self: self.id)
    cls = property(lambda self: self["class"])
    requires = property(lambda self: tuple(sorted((self["requires"] or {}).items())))  # (technology, level)
    counters = property(lambda self: self.qty)
    group_numbers = property(lambda self: tuple(range(1, self.qty + 1)))
    combat = property(lambda self: self.attack is not None)

    @property
    def maintenance(self) -> int:
        """The rule: a ship's upkeep equals its hull size, unless the unit is exempt."""
        return self.hull if self.pays_maintenance else 0


class Level(Facts):
    """A technology level; its moves and fighter values as tuples the charts join."""

    moves = property(lambda self: tuple(self["moves"]) if self["moves"] else None)
    fighter = property(lambda self: (self["fighter"]["attack"], self["fighter"]["defence"]) if self["fighter"]
                       else None)


class Technology(Facts):
    """A technology of the research chart: its first level is owned at the start, the others are bought."""

    def __init__(self, tid: str, values: dict):
        super().__init__(values, id=tid, levels=tuple(Level(level) for level in values["levels"]))

    start = property(lambda self: self.levels[0].level)
    max = property(lambda self: self.levels[-1].level)
    upgrades = property(lambda self: self.levels[1:])


class Mix(Facts):
    """A marker table as the texts see it: markers shuffled face down (`entries`: kind, value, count) and the
    face-up ones (the Homeworld). Its rule count is the table's `counts:`."""

    def __init__(self, name: str, rows: list[dict]):
        def entries(face_up: bool):
            return tuple(Facts(kind=r["kind"], value=r["value"], count=r["qty"]) for r in rows
                         if bool(r.get("face_up")) == face_up)
        super().__init__(name=name, entries=entries(False), face_up=entries(True))

    count = total = property(lambda self: sum(e.count for e in self.entries))  # the texts quote both names
    hexes = property(lambda self: self.count + sum(e.count for e in self.face_up))  # one a marker, face up too


class Game(Facts):
    """data/game.yaml: set-up, scenarios, sequence, economy, combat and dice tables."""

    def __init__(self, values: dict):
        super().__init__(values, scenarios=tuple(Facts(s) for s in values["scenarios"]),
                         starting_forces=tuple((f["unit"], f["count"]) for f in values["setup"]["starting_forces"]))

    def homeworld_steps(self) -> tuple[int, ...]:
        """20, 15, 10, 5: the Homeworld's value after each hit, derived from its value and loss per hit."""
        homeworld = self.economy["homeworld"]
        return tuple(range(homeworld["cp"], 0, -homeworld["loses_per_hit"]))


@dataclass(frozen=True, kw_only=True)
class Se4xKit(Kit):
    """A Space Empires 4X kit: the generic kit plus the game's own data files and counter tables, wrapped."""

    units: dict[str, Unit]
    technologies: dict[str, Technology]
    marker_kinds: dict[str, Facts]
    home_system: Mix
    deep_space: Mix
    counters: dict[str, Facts]  # the counter tables' rows by their `set` (counters.numeral.copies)
    game: Game
