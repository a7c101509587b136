"""The schema of each Space Empires 4X data file (units, technologies, markers, counters, game) and of the
kit.yaml `files:` that names them: each field with its type, whether it is required, and why it exists."""
from __future__ import annotations

from pnpgen.schema import (
    Bool, Choice, Either, Field, Int, ListOf, MapOf, Nullable, Number, Record, Str, optional,
)
from pnpgen.schemas import MAX_COUNT, MAX_STAT, TEMPLATE

RULES = Choice(("basic", "advanced"))

FILES = Record({
    "units": Field(Str()), "technologies": Field(Str()), "markers": Field(Str()),
    "counters": Field(Str()), "game": Field(Str()),
    "maps": optional(Nullable(Str()), None, "folder of hex-map layouts, one YAML file per board"),
}, "the Space Empires 4X data files")

UNIT = Record({
    "name": Field(Str()),
    "class": Field(Nullable(Choice(("A", "B", "C", "D", "E"))), doc="firing class, null if it never fires"),
    "attack": Field(Nullable(Int(0, MAX_STAT)), doc="attack strength, null for non-combat units"),
    "defence": Field(Nullable(Int(0, MAX_STAT)), doc="defence strength, null for non-combat units"),
    "hull": Field(Int(0, MAX_STAT), doc="hits it can take; also its upkeep and its technology ceiling"),
    "cost": Field(Int(0, MAX_STAT), doc="price in CP"),
    "ship_size": Field(Nullable(Int(1, MAX_STAT)), doc="Ship Size level needed to build it"),
    "requires": optional(MapOf(Int(1, MAX_STAT)), {}, "other technologies needed, {technology: level}"),
    "pays_maintenance": Field(Bool(), doc="pays its hull size in upkeep each Economic Phase"),
    "movement": Field(Choice(("tech", "current", "one", "carried", "none"))),
    "groups": Field(Bool(), doc="group counters, numbered 1..N"),
    "counters": Field(Either((Int(0, MAX_COUNT), ListOf(Int(1, MAX_COUNT), 1))), doc="counter limit per colour, or the group numbers"),
    "back": Field(Choice(("group", "colony", "moved", "same")), doc="what the other side shows"),
    "rules": Field(RULES),
    "note": optional(Nullable(Str())),
    "template": optional(Nullable(TEMPLATE), doc="front face template, to override the default"),
    "back_template": optional(Nullable(TEMPLATE), doc="back face template, to override the default"),
}, "a unit")

UNITS = Record({"units": Field(MapOf(UNIT))}, "the units file")

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

MIX_ENTRY = Record({
    "kind": Field(Str()),
    "value": optional(Nullable(Int(1, MAX_STAT)), doc="CP value or number, for kinds that print one"),
    "count": Field(Int(1, MAX_STAT)),
}, "a mix entry {kind, value, count}")

MIX = Record({
    "total": Field(Int(1, MAX_STAT), doc="the rule count the mix must add up to"),
    "mix": Field(ListOf(MIX_ENTRY, 1)),
    "face_up": optional(ListOf(MIX_ENTRY), []),
}, "a marker mix")

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
    "home_system": Field(MIX),
    "deep_space": Field(MIX),
}, "the markers file")

SIDES = Either((
    Record({"steps": Field(Choice(("homeworld", "colony"))), "from": optional(Int(0, MAX_STAT), 0)}, "{steps, from}"),
    Record({"values": Field(ListOf(Int(0, MAX_STAT), 1))}, "{values: [...]}"),
    Record({"front": Field(Either((Str(), Choice(("",))))), "back": Field(Either((Str(), Choice(("",)))))},
           "{front, back}"),
))

COUNTERS = Record({"counters": Field(MapOf(Record({
    "name": Field(Str()),
    "per": Field(Choice(("colour", "neutral"))),
    "copies": Field(Int(0, MAX_COUNT)),
    "sides": Field(SIDES),
    "rules": Field(RULES),
    "template": optional(Nullable(TEMPLATE)),
}, "a counter set")))}, "the counters file")

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

FILE_SCHEMAS = {"units": UNITS, "technologies": TECHNOLOGIES, "markers": MARKERS, "counters": COUNTERS, "game": GAME}
