"""The documents part: each of the kit's documents (the rules booklet, reference sheets) typeset from
Markdown chapters with the kit's data."""
from __future__ import annotations

import dataclasses

from pnpgen.parts import Part


def build(ctx) -> dict:
    from pnpgen.documents.make import build_document  # reportlab and pypdf load only when needed
    from pnpgen.output_cache import OutputCache
    cache, made = OutputCache(ctx.cache_dir / "documents"), {"files": [], "chapters": [], "figures": [], "warnings": []}
    for name, settings in ctx.kit.documents.items():
        for field, values in build_document(ctx, name, settings, cache).items():
            made[field] += values
    cache.prune()
    ctx.log("documents: " + ", ".join(f"{f['path']} {f['pages']} pages" for f in made["files"]))
    warnings = made.pop("warnings")   # a paragraph's bold or italic the kit's fonts lack (pnpgen.documents.paragraphs)
    return made | {"figures": sorted(set(made["figures"]))} | ({"warnings": warnings} if warnings else {})


PART = Part(name="documents", build=build, order=55, aliases=("docs",),
            doc="the kit's rules booklet and reference documents, from Markdown",
            applies=lambda kit: bool(kit.documents) and not kit.has_game_module,  # a module names its own (parts)
            needs=("cairo", "reportlab"))  # cairo: its figures (map_figures) draw with it; no pypdf (print_scaling)


def named(name: str, **settings) -> Part:
    """The documents part under the name a game module's kits know it by, with that module's settings
    (what its figures need, what its texts never read): GameModule.parts lists it, so it applies only there."""
    return dataclasses.replace(PART, name=name, applies=lambda kit: bool(kit.documents), **settings)
