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
    import watchfiles

    _attempt(build_once, stream)
    paths = watched_paths(kit_root)
    announced = False
    for changes in watchfiles.watch(*paths, watch_filter=_relevant(out_dir), stop_event=stop_event,
                                    raise_interrupt=False, debounce=150, step=50,
                                    rust_timeout=200, yield_on_timeout=True):
        if not announced:  # the first yield proves the watcher is live: edits from now on are seen
            stream.write(f"watching {', '.join(str(p) for p in paths)} (Ctrl-C to stop)\n")
            stream.flush()
            announced = True
        if not changes:
            continue
        names = sorted({Path(p).name for _, p in changes})
        stream.write(f"changed: {', '.join(names)}\n")
        _attempt(build_once, stream)


def _attempt(build_once: Callable[[], str], stream) -> None:
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
