"""Rules chapters: every rules/*.md of the kit, in file-name order, rendered with Jinja and parsed.

Chapters ask for generated content with helpers: {{ table('units', section='basic') }}, {{ figure('counter-anatomy') }},
{{ scenario_map(s) }}. An unknown name is an error at the chapter's file and line.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from games.space_empires_4x.booklet.figures import FIGURES
from generator.booklet.markdown import Block, parse
from generator.model import Kit
from generator.problems import BuildError, display_path
from games.space_empires_4x.facts import home_hexes
from games.space_empires_4x.text import render_file

RULES_DIR = "rules"


@dataclass(frozen=True)
class Chapter:
    path: Path
    blocks: tuple[Block, ...]


def chapter_files(kit: Kit) -> list[Path]:
    files = sorted((kit.root / RULES_DIR).glob("*.md"))
    if not files:
        raise BuildError(f"{display_path(kit.root / RULES_DIR)}: no rules chapters (*.md) for the booklet")
    return files


def unit_label(unit) -> str:
    """'Cruiser (CA)', but 'Miner' where the code is the name."""
    return unit.name if unit.code == unit.name else f"{unit.name} ({unit.code})"


def helpers(kit: Kit, tables, counter_size: str) -> dict:
    """Jinja functions that leave a directive line for the story builder, and two derived facts. `tables`
    places the kit's charts: table('units', section='basic', columns=[...]) (generator/documents/charts.py)."""
    def figure(name: str) -> str:
        if name not in FIGURES:
            raise KeyError(f"unknown figure {name!r} (known: {', '.join(sorted(FIGURES))})")
        return f"\n[[figure:{name}]]\n"

    def scenario_map(scenario) -> str:
        return f"\n[[scenario-map:{scenario.id}]]\n"

    return {"table": tables, "figure": figure, "scenario_map": scenario_map, "unit_label": unit_label,
            "home_hexes": home_hexes(kit), "counter_size": counter_size}


def load_chapters(kit: Kit, tables, counter_size: str) -> list[Chapter]:
    """`counter_size` is the size this build prints counters at (the kit's default or --counter-size);
    `tables` keeps the charts the chapters place (a ChartTables)."""
    extra = helpers(kit, tables, counter_size)
    return [Chapter(path, tuple(parse(render_file(kit, path, extra)))) for path in chapter_files(kit)]


def directives(chapters: list[Chapter], kind: str) -> list[tuple[str, Path]]:
    """(argument, chapter file) of every directive of one kind, in reading order."""
    return [(b.arg, c.path) for c in chapters for b in c.blocks if b.kind == "directive" and b.text == kind]
