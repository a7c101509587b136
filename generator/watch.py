"""`pnpgen build --watch`: rebuild whenever a data or template file changes, until Ctrl-C.

A broken edit prints its located error and keeps watching; the last good output stays in place because
builds only ever land whole. The watcher never leaves the kit: it watches the kit's own real folders, each
alone (a recursive watch follows links, and a `notes/usr -> /usr` link put 16,353 inotify watches on the
system's folders), and watches afresh when a folder is made or removed.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Callable

from pnpgen.problems import BuildError, KitError
from pnpgen.template_files import template_dirs
from pnpgen.terminal import safe


MAX_FOLDERS = 2000  # a kit has tens; past this many the rest are not watched (and the watch says so)


WAIT_MS = 150   # a burst of events (an editor's write, rename and chmod) ends when none came for STEP_MS; at most this
STEP_MS = 10    # how often the watcher looks at the events gathered: a save is seen STEP_MS to twice that after it
                # (25 ms made it 26-50 ms of the studio's save -> picture; an editor's burst takes a few ms)
START_MS = 100  # the watcher's first answer, once it is live: the first build waits for it


def watched_paths(kit_root: Path) -> list[Path]:
    return [p for p in [Path(kit_root), *template_dirs(kit_root)] if p.exists()]


def watched_folders(kit_root: Path, out_dir: Path) -> list[Path]:
    """Every real folder under the kit and its template folders, links never followed, the build's output
    and hidden folders (caches, version control) left out: what each gets a watch of its own."""
    out = Path(out_dir).resolve()
    folders: list[Path] = []
    seen: set[Path] = set()
    for root in watched_paths(kit_root):
        for current, names, _ in os.walk(root):  # os.walk lists a link to a folder but never goes into it
            if Path(current) in seen:  # the kit's own templates/, a template folder and the kit's
                names.clear()
                continue
            seen.add(Path(current))
            folders.append(Path(current))
            names[:] = sorted(n for n in names if _own_folder(Path(current) / n, out))
            if len(folders) >= MAX_FOLDERS:
                return folders
    return folders


def _own_folder(path: Path, out: Path) -> bool:
    return not (path.is_symlink() or path.name.startswith(".") or path.name == "__pycache__"
                or path.resolve().is_relative_to(out))


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
          stream=None, idle: Callable[[], None] | None = None) -> int:
    """Build now, then again on every change; `build_once` returns a one-line summary or raises. What it
    says goes out escaped (pnpgen.terminal: the names of changed files are the kit's). `idle`: called after
    each build has said its outcome, before the watcher waits for the next save (the last kit forgotten, what
    the next build will need loaded now: pnpgen.run_parts.between_builds); what it fails on is that build's."""
    stream = safe(stream or sys.stderr)
    try:
        _watch(kit_root, out_dir, build_once, stop_event, stream, idle or (lambda: None))
    except KeyboardInterrupt:  # Ctrl-C in the middle of a build: that build never lands, the last good one stays
        pass
    stream.write("stopped watching\n")
    stream.flush()
    return 0


def _watch(kit_root: Path, out_dir: Path, build_once: Callable[[], str], stop_event, stream,
           idle: Callable[[], None]) -> None:
    """The watcher is live before the first build reads a file, so no save is ever between two watches; each
    build is followed by another until the files stand still (the digest after a build is the one before)."""
    import watchfiles

    from pnpgen.inputs import FolderDigest
    sources = FolderDigest(watched_paths(kit_root), (out_dir,))  # the digest a build started from, and after it
    built, announced = None, False
    while True:  # once per set of folders: a folder made or removed starts a watch of the new set
        folders = watched_folders(kit_root, out_dir)
        changes_seen = watchfiles.watch(*folders, watch_filter=_relevant(out_dir), stop_event=stop_event,
                                        raise_interrupt=False, debounce=WAIT_MS, step=STEP_MS, recursive=False,
                                        rust_timeout=START_MS, yield_on_timeout=True)
        if next(changes_seen, None) is None:  # the watcher is live (or was stopped): from now on every save is seen
            return
        built = _build_until_still(build_once, sources, built, stream)  # what changed while no watch was live
        if not announced:
            _announce(kit_root, folders, stream)
            announced = True
        _when_idle(idle)
        for changes in changes_seen:
            if not changes:
                continue
            names = sorted({Path(p).name for _, p in changes})
            stream.write(f"changed: {', '.join(names)}\n")
            built = _build_until_still(build_once, sources, built, stream)
            _when_idle(idle)
            if watched_folders(kit_root, out_dir) != folders:
                break
        else:
            return  # stopped


def _when_idle(idle: Callable[[], None]) -> None:
    """The watcher's idle work, in this thread (never beside a build: a fork while another thread imports
    can leave the worker's import lock held). A save landing meanwhile is seen all the same (the watch is
    live) and built right after. A failure here is the next build's to meet and say."""
    try:
        idle()
    except Exception:  # noqa: BLE001 - e.g. no libcairo: the build that needs it says so, located
        pass


def _announce(kit_root: Path, folders: list, stream) -> None:
    more = f"; only the first {MAX_FOLDERS} folders are watched" if len(folders) >= MAX_FOLDERS else ""
    stream.write(f"watching {', '.join(str(p) for p in watched_paths(kit_root))} ({len(folders)} folders, "
                 f"links not followed{more}) (Ctrl-C to stop)\n")
    stream.flush()


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
        from pnpgen.cli_common import unexpected_failure
        stream.write(f"error: {unexpected_failure(exc)}\nbuild failed; the last good output is unchanged. "
                     f"Still watching.\n")
    else:
        stream.write(f"rebuilt {summary} in {time.perf_counter() - start:.2f} s\n")
    if summary is None:  # the next save builds in this process: no failed font face may outlive this build
        from pnpgen.render.font_reset import forget_failed_fonts
        forget_failed_fonts()
    stream.flush()
    return summary is not None
