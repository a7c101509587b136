"""The build, read top to bottom like the pipeline: pieces, then each selected part, then the manifest."""
from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pnpgen.build_options import BuildOptions
from pnpgen.i18n import translator
from pnpgen.manifest import MANIFEST, build_manifest, read_previous
from pnpgen.model import Kit
from pnpgen.pieces import Piece
from pnpgen.lengths import parse_length
from pnpgen.out_folder import CACHE, check_out
from pnpgen.owned_folders import CACHE_MARKER, MARKER, copied_here, is_own_build, mark_cache_folder
from pnpgen.output import BuildLock, OutputStage
from pnpgen.pdf_update import mark_print_scaling
from pnpgen.inputs import Inputs
from pnpgen.part_cache import PartCache, part_key
from pnpgen.parts import select_parts
from pnpgen.problems import BuildError
from pnpgen.progress import Progress


@dataclass
class BuildContext:
    """What a part gets: the kit, its pieces, the options, and a staged place to write its files."""

    kit: Kit
    pieces: list[Piece]
    options: BuildOptions
    stage: OutputStage
    log: Callable[[str], None]  # detail lines, shown with --verbose
    code_key: str = ""  # digest of the generator's code, fonts and built-in templates (a kit's own are in kit_files): part of any cache key a part keeps
    kit_files: tuple | None = None  # (kit-relative path, content digest) of every kit file, as the build hashed them

    @property
    def paper(self) -> str:
        return self.options.paper or self.kit.paper

    @property
    def counter_size(self) -> str:
        return self.options.counter_size or self.kit.counter_size

    @property
    def cache_dir(self) -> Path:
        """A folder parts may keep render caches in between builds; never part of the output."""
        return cache_root(self.options) / self.kit.id   # made and marked by the build (pnpgen.owned_folders)

    def option(self, name: str, default=None):
        return self.options.extra.get(name, default)


@dataclass
class BuildResult:
    """What a build wrote and said: the kit's folder, its files, seconds, the parts built, its warnings."""

    kit_out: Path
    files: list[Path]
    seconds: float
    parts: list[str]
    warnings: list[str] = field(default_factory=list)


MM = 72 / 25.4
COUNTER_SIZE_PT = (5 * MM, 3 * 72)   # what a counter may measure: 5 mm to 3 in, as kit.yaml's counter_size
MAX_GUTTER_MM = 25.4
MAX_BACK_OFFSET_MM = 20.0


def check_counter_size(text: str) -> float:
    """--counter-size parsed (points) and bounded: 0, 1/0in or 50in is a clear message, not a crash or a disk full."""
    low, high = COUNTER_SIZE_PT
    points = parse_length(text)
    if not low <= points <= high:
        raise ValueError(f"--counter-size must be between 5mm and 3in, not {text!r}")
    return points


def check_options(kit: Kit, options: BuildOptions) -> None:
    """Options out of range stop with a clear message (ValueError: exit 2) before any work is done."""
    if options.counter_size is not None:  # the kit's own counter_size passed the same bounds in its schema
        check_counter_size(options.counter_size)
    extra = options.extra
    gutter = extra.get("gutter")
    if gutter is not None and not 0 <= float(gutter) <= MAX_GUTTER_MM:
        raise ValueError(f"--gutter must be between 0 and {MAX_GUTTER_MM:g} mm, not {gutter:g}")
    offset = extra.get("back_offset")
    if offset:
        try:
            x, y = (float(v) for v in str(offset).split(","))
        except ValueError:
            raise ValueError(f"--back-offset wants two numbers in mm like 1.5,-0.5, not {offset!r}") from None
        if not (abs(x) <= MAX_BACK_OFFSET_MM and abs(y) <= MAX_BACK_OFFSET_MM):
            raise ValueError(f"--back-offset must be within \u00b1{MAX_BACK_OFFSET_MM:g} mm each way, not {offset!r}")


def build(kit: Kit, options: BuildOptions, progress: Progress | None = None,
          inputs: Inputs | None = None) -> BuildResult:
    """Check the options, lock the output folder (one build at a time), build every part into a stage, land it.
    `inputs`: the input files as hashed before the kit was loaded (the caller's), else hashed here."""
    check_options(kit, options)
    translator.activate(kit.edition)  # the kit's language, whichever kit was loaded last
    progress = progress or Progress(quiet=True)
    start = time.perf_counter()
    # a part built only on request (--for tts) is also built when --only names it
    parts = [part for part in select_parts(options.only)
             if part.applies(kit) and (part.wanted(options.extra) or options.only)]
    kit_out = Path(options.out) / kit.id
    check_out(options.out, kit.root, kit.id)
    if inputs is None or inputs.kit_out != kit_out:
        from pnpgen.up_to_date import digest_memo
        inputs = Inputs(kit.root, kit_out, digest_memo(kit.root))
    with BuildLock(kit_out):
        result = _build_locked(kit, options, progress, parts, kit_out, start, inputs)
    inputs.keep_memo()
    return result


def cache_root(options: BuildOptions) -> Path:
    return Path(options.cache) if options.cache else Path(options.out) / ".cache"


def check_by_building(kit: Kit, options: BuildOptions, progress: Progress | None = None) -> BuildResult:
    """`validate`: the whole build (every face and template rendered, text fitted, preflight, layout) run into
    a scratch folder that is then deleted, so validate finds whatever build would, by the same road, and
    writes nothing in any output folder. Its caches (faces, sheets, parts) live in the user's cache folder,
    one per kit folder (stored faces name the kit's images by path), so a second validate replays what did
    not change (a cold one costs what a cold build does); the few most recent are kept. Warnings come back in
    the result (--strict: a BuildError, as for build)."""
    import tempfile

    from pnpgen.resources import cache_folder
    caches = cache_folder("validate")
    with tempfile.TemporaryDirectory(prefix="pnpgen-validate-") as scratch:
        cache = _validate_cache(caches, kit.root) if caches else Path(scratch) / ".cache"
        with BuildLock(cache / kit.id):  # two validates of one kit take turns with its caches
            return build(kit, dataclasses.replace(options, out=Path(scratch), cache=cache), progress)


VALIDATE_CACHES_KEPT = 8       # kit folders whose validate caches are kept (the most recently validated)
VALIDATE_CACHE_IDLE = 3600     # seconds: a cache older than the kept ones goes only after an hour unused


def _validate_cache(caches: Path, root: Path) -> Path:
    """This kit folder's validate cache (made, marked as used now); older ones beyond the kept few removed."""
    import hashlib
    import os
    import shutil
    folder = caches / hashlib.sha1(os.path.realpath(root).encode()).hexdigest()[:16]
    folder.mkdir(exist_ok=True)
    os.utime(folder)
    others = sorted((p for p in caches.iterdir() if p.is_dir() and p != folder), key=lambda p: -p.stat().st_mtime)
    for old in others[VALIDATE_CACHES_KEPT - 1:]:
        if time.time() - old.stat().st_mtime > VALIDATE_CACHE_IDLE:
            shutil.rmtree(old, ignore_errors=True)
    return folder


def shipped_output(kit: Kit, options: BuildOptions, kit_out: Path) -> list[str]:
    """A warning when the kit folder ships an output folder (its author's build or cache, or anyone's): what
    it holds is never taken as this build's; the build replaces it (a folder pnpgen made) or refuses."""
    from pnpgen import kit_files
    from pnpgen.problems import display_path
    if options.cache or not kit_files.within(os.path.abspath(options.out), os.path.abspath(kit.root)):
        return []
    places = [kit_out] * copied_here(kit_out, MARKER, kit.id) + \
        [Path(options.out) / CACHE / kit.id] * copied_here(Path(options.out) / CACHE / kit.id, CACHE_MARKER, kit.id)
    return [f"{display_path(place)}: the kit folder ships this output folder, which pnpgen did not build here: "
            f"nothing in it is used; this build replaces it" for place in places]


def _build_locked(kit: Kit, options: BuildOptions, progress: Progress, parts: list, kit_out: Path,
                  start: float, inputs: Inputs) -> BuildResult:
    from pnpgen.run_parts import run_parts  # process pools: imported only by a build that may draw, before
    # its stage exists (an interrupt inside an import would stop a build that cannot yet clean up after itself)
    from pnpgen.render.font_reset import use_kit_fonts
    use_kit_fonts(kit.fonts)  # before any part draws (or forks the workers that do)
    from pnpgen.signing import user_key
    user_key()  # read (or made) once, before the workers fork: they sign their cache entries with it
    pieces = list(kit.component_pieces)
    for warning in shipped_output(kit, options, kit_out):
        progress.warn(warning)
    mark_cache_folder(cache_root(options) / kit.id, kit.id)
    own_before = is_own_build(kit_out, kit.id)  # else its files are no part of this build, its manifest unread
    with OutputStage(kit_out, kit.id) as stage:
        ctx = BuildContext(kit, pieces, options, stage, progress, inputs.shared, tuple(inputs.kit))
        shown_options = {"paper": ctx.paper, "counter_size": ctx.counter_size,
                         **{k: v for k, v in sorted(options.extra.items())}}
        cache = PartCache(cache_root(options) / kit.id / "parts")
        keys = {part.name: part_key(inputs.fingerprint(part.ignores + part.ignores_of(kit), part.reads), part.name,
                                    shown_options | part.key_extra(ctx))
                for part in parts}
        results = run_parts(ctx, parts, cache, keys, progress)
        mark_print_scaling(stage.dir / rel for rel in stage.written)  # every PDF asks viewers not to scale
        warnings = list(dict.fromkeys(w for name in sorted(results) for w in results[name].get("warnings", ())))  # a
        # chart a booklet and a record sheet both print says its problem once
        if warnings and options.strict:  # before anything lands: the previous output stays whole
            raise BuildError("--strict: these warnings are errors:\n" + "\n".join(warnings))
        given = {name: shown_options[name] for name in sorted(options.given_names()) if name in shown_options}
        manifest = build_manifest(kit, pieces, shown_options, results, read_previous(kit_out) if own_before else None,
                                  given)
        stage.write_json(MANIFEST, manifest)
        written = [kit_out / rel for rel in stage.written]
    return BuildResult(kit_out, written, time.perf_counter() - start, [p.name for p in parts], warnings)

