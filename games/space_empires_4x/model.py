"""Space Empires 4X's model: units, technologies, system markers and their mixes, counter sets, the game's
numbers, and the Kit that carries them beside every kit's generic fields. Units, mixes and counter sets are
read from the kit's counter tables (load.py): the rows are where their numbers live; this is how the charts
and chapters see them."""
from __future__ import annotations

from dataclasses import dataclass, field

from pnpgen.model import Kit


@dataclass(frozen=True)
class Unit:
    code: str
    name: str
    cls: str | None
    attack: int | None
    defence: int | None
    hull: int
    cost: int
    ship_size: int | None
    requires: tuple[tuple[str, int], ...]
    pays_maintenance: bool
    movement: str
    groups: bool
    group_numbers: tuple[int, ...]
    rules: str
    note: str | None

    @property
    def counters(self) -> int:
        return len(self.group_numbers)

    @property
    def maintenance(self) -> int:
        """The rule: a ship's upkeep equals its hull size, unless the unit is exempt."""
        return self.hull if self.pays_maintenance else 0

    @property
    def combat(self) -> bool:
        return self.attack is not None


@dataclass(frozen=True)
class Level:
    level: int
    cost: int | None
    moves: tuple[int, ...] | None = None
    hull_capacity: float | None = None
    fighter: tuple[int, int] | None = None  # (attack, defence)


@dataclass(frozen=True)
class Technology:
    id: str
    name: str
    rules: str
    summary: str
    levels: tuple[Level, ...]

    @property
    def start(self) -> int:
        return self.levels[0].level

    @property
    def max(self) -> int:
        return self.levels[-1].level

    @property
    def upgrades(self) -> tuple[Level, ...]:
        return self.levels[1:]


@dataclass(frozen=True)
class MarkerKind:
    id: str
    name: str
    affects: tuple[str, ...]
    duration: str
    after: str
    value: str | None
    rules: str
    effect: str
    stats: dict | None


@dataclass(frozen=True)
class MixEntry:
    kind: str
    value: int | None
    count: int


@dataclass(frozen=True)
class Mix:
    """A marker table as a set of system markers: those shuffled face down (`entries`) and the face-up ones.
    Its rule count is the table's `counts:`; this is how the texts see it."""

    name: str
    entries: tuple[MixEntry, ...]
    face_up: tuple[MixEntry, ...] = ()

    @property
    def count(self) -> int:
        """The markers shuffled face down (the face-up Homeworld is not one of them)."""
        return sum(e.count for e in self.entries)

    total = count  # the texts quote both names


@dataclass(frozen=True)
class CounterSet:
    """The rows of a counter table that share a `set` (the six Group size numerals), as the texts name them."""

    id: str
    name: str
    per: str                      # "colour" or "neutral"
    copies: int                   # copies of each of its counters
    values: tuple                 # each counter's front value (or words)


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    players: int
    deep_space_markers: int


@dataclass(frozen=True)
class Game:
    """Set-up, sequence, economy, combat and tables: the numbers the rules text and aids quote."""

    starting_forces: tuple[tuple[str, int], ...]
    scenarios: tuple[Scenario, ...]
    sequence: dict
    economy: dict
    combat: dict
    tables: dict

    def homeworld_steps(self) -> tuple[int, ...]:
        """20, 15, 10, 5: the Homeworld's value after each hit, derived from its value and loss per hit."""
        hw = self.economy["homeworld"]
        return tuple(range(hw["cp"], 0, -hw["loses_per_hit"]))


@dataclass(frozen=True, kw_only=True)
class Se4xKit(Kit):
    """A Space Empires 4X kit: the generic kit plus the game's own data files."""

    units: dict[str, Unit]
    technologies: dict[str, Technology]
    marker_kinds: dict[str, MarkerKind]
    home_system: Mix
    deep_space: Mix
    counters: dict[str, CounterSet]
    game: Game
