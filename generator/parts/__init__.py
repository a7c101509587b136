"""The registry of buildable parts: the core's (components, boards, documents, exports) and a game module's.

Each module in this package that defines `PART = Part(...)` is a part: adding a kind of output is one
module here, its templates and its tests, with no change to the build or the CLI. A game module lists its
own parts (GameModule.parts); they apply only to kits of that module.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

from pnpgen.problems import UsageError


@dataclass(frozen=True)
class Option:
    """A command-line option a part adds to `pnpgen build` (argparse flags and keywords)."""

    flags: tuple
    kwargs: dict


@dataclass(frozen=True)
class Part:
    name: str
    build: Callable  # (BuildContext) -> dict placed in the manifest under parts[name]
    order: int = 50
    doc: str = ""
    aliases: tuple = ()
    options: tuple = field(default_factory=tuple)
    applies: Callable = lambda kit: True  # does this kit hold what the part prints?
    wanted: Callable = lambda extra: True  # (BuildOptions.extra) -> was it asked for? (e.g. --for tts)
    key_extra: Callable = lambda ctx: {}   # (BuildContext) -> what else its output depends on (cache key)
    ignores: tuple = ()  # kit-relative folders and files the part never reads: editing them keeps its cache
    reads: tuple | None = None  # only these kit files are keyed (the rest of its inputs is in key_extra)
    ignores_of: Callable = lambda kit: ()  # (kit) -> more of them, where they depend on the kit's module
    needs: tuple = ()  # names in SHARED_LOADS: the libraries its build loads (see shared_loads); pypdf for
    # a part whose PDFs the post-pass marks (pnpgen.pdf_update: reportlab's, not those written marked)
    # rough seconds of a build of the default kit: parts start longest first (after a build, its own timings)
    weight: float = 1.0
    split: Callable | None = None  # (BuildContext) -> Split, or None: built whole (pnpgen.run_parts deals shards)


@dataclass(frozen=True)
class Split:
    """A part's work cut into members (a components part's print files) that shards build in workers of their
    own, like parts, so that one long part does not leave a core idle at the end of a build. Members of one
    bundle go to one shard together (files that share a sheet); a shard builds its members in the part's order.
    `run(ctx, members)` is a generator run in the shard's worker: it yields (member, result) as each member is
    built and returns what the shard alone knows (caches used, memos to keep); `join(ctx, [(member, result)]
    in the part's order, [shard results])`, in the parent, gives the part's manifest entry, or None when the
    shards cannot stand for the whole (the part is then built whole, as without shards, so a kit with
    something to say says it as it always did)."""

    bundles: tuple  # ((member, ...), ...): the members each shard takes together
    order: tuple  # (member, ...): every member, in the part's order (its files and entry keep it)
    weights: dict  # member -> relative size (pieces): its share of the part's seconds before any is timed
    run: Callable
    join: Callable


def _load_cairo() -> None:
    from pnpgen.render.cairo_lib import cairo
    cairo()  # cairosvg (0.03 s, 3 MB) only where a part draws SVG beyond svg_ops' subset: none in SE4X


def _load_reportlab() -> None:
    import reportlab.platypus  # noqa: F401
    from pnpgen.fonts import register_reportlab_fonts_for_forks
    register_reportlab_fonts_for_forks()


def _load_pypdf() -> None:
    import pypdf  # noqa: F401


# Libraries several parts load, each costing 0.1-0.2 s of a process's time (cairo; reportlab and the shipped
# fonts parsed; pypdf)
SHARED_LOADS = {"cairo": _load_cairo, "reportlab": _load_reportlab, "pypdf": _load_pypdf}


def shared_loads(parts: list[Part], workers: int) -> list[str]:
    """What more of `parts` need than there are workers: loaded in this process (load_needs) before the
    worker of a part needing it forks, every later worker then starts with one shared copy instead of loading
    its own. Loading here is time the parent spends before that part starts, so it pays only where every
    worker would load the same library anyway (measured: 2 workers, cold SE4X 4.7 -> 3.4 s median; an edit
    that rebuilds 2 parts needing cairo was slower with cairo loaded first). What fewer parts need is left to
    their workers, which also keeps it out of the others' memory."""
    wanted = [need for part in parts for need in part.needs]
    return [name for name in SHARED_LOADS if wanted.count(name) > workers]


def load_needs(part: Part, shared: list[str]) -> None:
    """Load, in this process, those of `shared` that `part` needs (each library once: the loaders are
    idempotent). A part forked before a library is loaded starts without it in its memory: the parts that
    need only cairo start before reportlab and its fonts (25 MB) are read."""
    for name in shared:
        if name in part.needs:
            SHARED_LOADS[name]()


def all_parts() -> list[Part]:
    """The core's parts (this package) and every game module's (pnpgen.game_modules)."""
    from pnpgen import game_modules
    parts = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if isinstance(getattr(module, "PART", None), Part):
            parts.append(module.PART)
    parts += game_modules.all_parts()
    names = [n for p in parts for n in (p.name, *p.aliases)]
    duplicated = {n for n in names if names.count(n) > 1}
    if duplicated:
        raise RuntimeError(f"parts registered twice: {sorted(duplicated)}")
    return sorted(parts, key=lambda p: (p.order, p.name))


MANIFEST_ONLY = "manifest"  # `--only manifest`: no part at all, just manifest.json (the manifest is always written)


def select_parts(only: str | None) -> list[Part]:
    """The parts named in --only (comma-separated, aliases allowed), or all of them."""
    parts = all_parts()
    if not only:
        return parts
    by_name = {n: p for p in parts for n in (p.name, *p.aliases)}
    chosen, unknown = [], []
    for name in (n.strip() for n in only.split(",") if n.strip()):
        if name == MANIFEST_ONLY:
            continue
        if name in by_name:
            if by_name[name] not in chosen:
                chosen.append(by_name[name])
        else:
            unknown.append(name)
    if unknown:
        known = ", ".join([p.name for p in parts] + [MANIFEST_ONLY])
        raise UsageError(f"unknown part(s) {', '.join(unknown)} for --only (known: {known})")
    return sorted(chosen, key=lambda p: (p.order, p.name))
