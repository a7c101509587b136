"""`pnpgen build --watch`: rebuild whenever a data or template file changes, until Ctrl-C.

A broken edit prints its located error and keeps watching; the last good output stays in place because
builds only ever land whole.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

from pnpgen.problems import BuildError, KitError
from pnpgen.render.templates import template_dirs


WAIT_MS = 150   # a burst of events (an editor's write, rename and chmod) ends when none came for STEP_MS; at most this
STEP_MS = 25    # how often the watcher looks at the events gathered
START_MS = 100  # the watcher's first answer, once it is live: the first build waits for it


def watched_paths(kit_root: Path) -> list[Path]:
    return [p for p in [Path(kit_root), *template_dirs(kit_root)] if p.exists()]


def _relevant(out_dir: Path) -> Callable:
    """Ignore the build's own output, staging folders, caches and editor droppings."""
    out_dir = out_dir.resolve()

    def keep(change, path: str) -> bool:
        p = Path(path).resolve()
        if p.is_relative_to(out_dir) or any(part.startswith(".") for part in p.parts[-3:]):
            return False
        return not p.name.endswith(("~", ".swp", ".tmp")) and "__pycache__" not in p.parts
    return keep


def watch(kit_root: Path, out_dir: Path, build_once: Callable[[], str], stop_event=None,
          stream=sys.stderr) -> int:
    """Build now, then again on every change; `build_once` returns a one-line summary or raises."""
    try:
        _watch(kit_root, out_dir, build_once, stop_event, stream)
    except KeyboardInterrupt:  # Ctrl-C in the middle of a build: that build never lands, the last good one stays
        pass
    stream.write("stopped watching\n")
    stream.flush()
    return 0


def _watch(kit_root: Path, out_dir: Path, build_once: Callable[[], str], stop_event, stream) -> None:
    """The watcher is live before the first build reads a file, so no save is ever between two watches; each
    build is followed by another until the files stand still (the digest after a build is the one before)."""
    import watchfiles

    from pnpgen.inputs import FolderDigest
    paths = watched_paths(kit_root)
    sources = FolderDigest(paths, (out_dir,))  # the digest a build started from, and the one after it
    changes_seen = watchfiles.watch(*paths, watch_filter=_relevant(out_dir), stop_event=stop_event,
                                    raise_interrupt=False, debounce=WAIT_MS, step=STEP_MS,
                                    rust_timeout=START_MS, yield_on_timeout=True)
    if next(changes_seen, None) is None:  # the watcher started (or was stopped): from now on, every save is seen
        return
    built = _build_until_still(build_once, sources, None, stream)
    stream.write(f"watching {', '.join(str(p) for p in paths)} (Ctrl-C to stop)\n")
    stream.flush()
    for changes in changes_seen:
        if not changes:
            continue
        names = sorted({Path(p).name for _, p in changes})
        stream.write(f"changed: {', '.join(names)}\n")
        built = _build_until_still(build_once, sources, built, stream)


def _build_until_still(build_once: Callable[[], str], sources, built: str | None, stream) -> str | None:
    """Build until a build's files are the ones it started from (a save the build may have read half of, or
    before, is built again); the digest of the last good build. A save already built (the watcher's news of
    what a build after it read) is not built again."""
    while True:
        before = sources.digest()
        if before is not None and before == built:
            return built
        built = before if _attempt(build_once, stream) else None
        if before is None or sources.digest() == before:
            return built


def _attempt(build_once: Callable[[], str], stream) -> bool:
    """One build, its outcome printed; whether it built."""
    start, summary = time.perf_counter(), None
    try:
        summary = build_once()
    except KitError as exc:
        for problem in exc.problems:
            stream.write(f"{problem}\n")
        stream.write("build failed; the last good output is unchanged. Still watching.\n")
    except BuildError as exc:  # a budget reached (pnpgen.budgets) too: the next save builds under it afresh
        stream.write(f"error: {exc}\nbuild failed; the last good output is unchanged. Still watching.\n")
    except Exception as exc:  # noqa: BLE001 - a watch outlives any one build's failure, without a traceback
        from pnpgen.cli import unexpected_failure
        stream.write(f"error: {unexpected_failure(exc)}\nbuild failed; the last good output is unchanged. "
                     f"Still watching.\n")
    else:
        stream.write(f"rebuilt {summary} in {time.perf_counter() - start:.2f} s\n")
    if summary is None:  # the next save builds in this process: no failed font face may outlive this build
        from pnpgen.render.font_reset import forget_failed_fonts
        forget_failed_fonts()
    stream.flush()
    return summary is not None
