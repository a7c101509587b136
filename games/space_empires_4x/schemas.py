"""The schema of each Space Empires 4X data file (technologies, marker kinds, game) and of the kit.yaml
`files:` that names them: each field with its type, whether it is required, and why it exists. Its counters
(units, markers, other counters) are component tables, whose columns are declared in their own files."""
from __future__ import annotations

from pnpgen.schema import (
    Choice, Field, Int, ListOf, MapOf, Nullable, Number, Record, Str, optional,
)
from pnpgen.schemas import MAX_STAT, TEMPLATE

RULES = Choice(("basic", "advanced"))

FILES = Record({
    "technologies": Field(Str()), "markers": Field(Str()), "game": Field(Str()),
    "maps": optional(Nullable(Str()), None, "folder of hex-map layouts, one YAML file per board"),
}, "the Space Empires 4X data files (its counters are component tables: components/)")

LEVEL = Record({
    "level": Field(Int(0, MAX_STAT)),
    "cost": Field(Nullable(Int(1, MAX_STAT)), doc="CP to buy this level; null for the starting level"),
    "moves": optional(Nullable(ListOf(Int(0, MAX_STAT), 1)), doc="Movement: hexes in each turn of a round"),
    "hull_capacity": optional(Nullable(Number(0)), doc="Shipyard: hull size one yard builds"),
    "fighter": optional(Nullable(Record({"attack": Field(Int(0, MAX_STAT)), "defence": Field(Int(0, MAX_STAT))}, "{attack, defence}"))),
}, "a technology level")

TECHNOLOGIES = Record({"technologies": Field(MapOf(Record({
    "name": Field(Str()),
    "rules": Field(RULES),
    "summary": Field(Str()),
    "levels": Field(ListOf(LEVEL, 2)),
}, "a technology")))}, "the technologies file")

MARKERS = Record({
    "kinds": Field(MapOf(Record({
        "name": Field(Str()),
        "affects": Field(ListOf(Choice(("movement", "combat", "economy", "units")), 1)),
        "duration": Field(Choice(("one-time", "permanent"))),
        "after": Field(Choice(("stays", "removed"))),
        "value": Field(Nullable(Choice(("cp", "number")))),
        "rules": Field(RULES),
        "effect": Field(Str()),
        "stats": optional(Nullable(Record({
            "class": Field(Choice(("A", "B", "C", "D", "E"))), "attack": Field(Int(0, MAX_STAT)),
            "defence": Field(Int(0, MAX_STAT)), "hull": Field(Int(1, MAX_STAT)), "shots": Field(Int(1, MAX_STAT)),
        }, "combat stats"))),
        "template": optional(Nullable(TEMPLATE)),
    }, "a marker kind"))),
}, "the markers file")

ROLL = ListOf(Int(1, MAX_STAT), 2)

GAME = Record({
    "setup": Field(Record({
        "starting_forces": Field(ListOf(Record({"unit": Field(Str()), "count": Field(Int(1, MAX_STAT))}, "{unit, count}"), 1)),
    }, "the set-up")),
    "scenarios": Field(ListOf(Record({
        "id": Field(Str(r"[a-z0-9][a-z0-9-]*", "a lower-case id")), "name": Field(Str()),
        "players": Field(Int(1, MAX_STAT)), "deep_space_markers": Field(Int(0, MAX_STAT)),
    }, "a scenario"), 1)),
    "sequence": Field(Record({
        "turns_per_round": Field(Int(1, 20)), "steps_per_turn": Field(ListOf(Str(), 1)),
    }, "the sequence of play")),
    "economy": Field(Record({
        "homeworld": Field(Record({"cp": Field(Int(1, MAX_STAT)), "loses_per_hit": Field(Int(1, MAX_STAT))}, "{cp, loses_per_hit}")),
        "colony_growth": Field(ListOf(Int(1, MAX_STAT), 1)),
        "carry_over_cap": Field(Int(0, MAX_STAT)),
        "group_size": Field(Record({"min": Field(Int(1, 100)), "max": Field(Int(1, 100))}, "{min, max}")),
    }, "the economy")),
    "combat": Field(Record({
        "die": Field(Int(2, 100)), "always_hits": Field(Int(1, MAX_STAT)), "fleet_size_ratio": Field(Int(2, MAX_STAT)),
        "fleet_size_bonus": Field(Int(1, MAX_STAT)), "classes": Field(ListOf(Str(), 1)), "terrain_class": Field(Str()),
    }, "the combat numbers")),
    "tables": Field(Record({
        "space_wreck": Field(ListOf(Record({"roll": Field(ROLL), "technology": Field(Str())}, "{roll, technology}"), 1)),
        "black_hole": Field(ListOf(Record({"roll": Field(ROLL), "result": Field(Choice(("survives", "destroyed")))},
                                          "{roll, result}"), 1)),
    }, "the dice tables")),
}, "the game file")

FILE_SCHEMAS = {"technologies": TECHNOLOGIES, "markers": MARKERS, "game": GAME}
