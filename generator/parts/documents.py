"""The documents part: each of the kit's documents (the rules booklet, reference sheets) typeset from
Markdown chapters with the kit's data."""
from __future__ import annotations

from generator.parts import Part


def build(ctx) -> dict:
    from generator.documents.make import build_document  # reportlab and pypdf load only when needed
    from generator.output_cache import OutputCache
    cache, files = OutputCache(ctx.cache_dir / "documents"), []
    for name, settings in ctx.kit.documents.items():
        files += build_document(ctx, name, settings, cache)
    cache.prune()
    ctx.log(f"documents: {len(files)} files")
    return {"files": files}


PART = Part(name="documents", build=build, order=55, aliases=("docs",),
            doc="the kit's rules booklet and reference documents, from Markdown",
            applies=lambda kit: bool(kit.documents) and not kit.has_game_module, ignores=("templates", "art"),
            needs=("reportlab", "pypdf"))
