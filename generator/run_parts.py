"""Run the selected parts: each from the cache when its inputs are unchanged, the others built side by side.

Parts are independent (each writes its own files into the stage), so the ones that must be built run two
at a time on a machine that can fork, each in a worker process forked for it alone: a whole-kit build then
takes about as long as its largest parts, not their sum, and no part's leftovers raise the next one's peak
memory. The build context reaches the workers through the fork, not through pickling; each worker sends back
the part's manifest entry and the files it wrote. Output stays deterministic: every
part's bytes depend only on its inputs, never on what ran beside it.
"""
from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from multiprocessing.reduction import ForkingPickler

from pnpgen.output import signals_held
from pnpgen.part_cache import PartCache
from pnpgen.parts import load_needs, shared_loads
from pnpgen.pdf_update import mark_print_scaling
from pnpgen import budgets
from pnpgen.problems import BuildError, KitError, UsageError
from pnpgen.workers import die_with_parent

WORKERS = 2


def run_parts(ctx, parts: list, cache: PartCache, keys: dict, progress) -> dict:
    """{part name: manifest entry} for every part, in the parts' order."""
    results, todo = {}, []
    for part in parts:
        entry = cache.fetch(part.name, keys[part.name], ctx.stage)
        if entry is None:
            todo.append(part)
        else:
            ctx.log(f"{part.name}: nothing changed, output reused")
            results[part.name] = entry
    took = cache.seconds()
    todo.sort(key=lambda part: -took.get(part.name, part.weight))  # longest first: the last to start is short
    files = {}
    for done, (part, entry, written, seconds) in enumerate(_build_all(ctx, todo), 1):
        cache.store(part.name, keys[part.name], ctx.stage, written, entry)
        results[part.name], took[part.name], files[part.name] = entry, seconds, written
        progress.finish(part.name, done, len(todo), seconds)
    _check_no_file_twice(parts, results)
    for part in parts:  # the files listed in the parts' order, whichever finished first
        ctx.stage.written.extend(rel for rel in files.get(part.name, ()) if rel not in ctx.stage.written)
    if todo:
        cache.keep_seconds(took)
    return {part.name: results[part.name] for part in parts}


def _check_no_file_twice(parts: list, results: dict) -> None:
    """Two parts writing one file would leave only the last one's: a kit's `booklet` print group and its
    booklet, say. Stopped here, before anything lands, naming both parts."""
    owner = {}
    for part in parts:
        for entry in results[part.name].get("files", ()):
            path = entry.get("path") if isinstance(entry, dict) else None
            if path in owner:
                raise BuildError(f"{path} would be written by both the {owner[path]} part and the {part.name} part: "
                                 f"rename one of them (a print group is named by its table's `group`, or its id)")
            if path is not None:
                owner[path] = part.name


def _build_all(ctx, parts: list):
    if len(parts) < 2 or "fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2:
        for part in parts:
            yield (part, *_build_one(ctx, part))
        return
    shared, waiting, running, done = shared_loads(parts, WORKERS), list(parts), {}, {}
    try:
        for part in parts:  # said in the order they started (longest first), a failure too: see _failed
            while part.name not in done:
                while waiting and len(running) < WORKERS and not _failed(done):
                    load_needs(waiting[0], shared)
                    worker = _Worker(waiting.pop(0))
                    running[worker.part.name] = worker
                    worker.start(ctx)  # in `running` first: a Ctrl-C as it starts stops it with the others
                if waiting:  # while the workers run: what the next part needs, so it starts as a slot frees
                    load_needs(waiting[0], shared)
                ready = multiprocessing.connection.wait([worker.reader for worker in running.values()])
                for worker in [w for w in running.values() if w.reader in ready]:
                    outcome = worker.outcome()  # a Ctrl-C as it is read leaves the worker in `running`, stopped
                    del running[worker.part.name]  # below: else, blocked writing the rest, it would hold the exit
                    done[worker.part.name] = outcome
            yield (part, *_result(part, done.pop(part.name)))  # a failure raised here stops the later parts
    except BaseException:  # a failed part, Ctrl-C or SIGTERM: stop the other workers now, do not wait for them
        for worker in running.values():
            worker.stop()
        for worker in running.values():
            worker.join()
        raise
    finally:
        gc.unfreeze()  # this process's objects collected again (`pnpgen serve` and `watch` build many times)


def _failed(done: dict) -> bool:
    """Whether a part has failed: no other part starts then. The parts that started before it are waited
    for, and the first failure in the parts' order is the one said (as when they ran one after the other),
    so a broken kit says the same error on every build, not whichever part happened to fail first: a bad
    row of a table is said at its row by the components part, not at a figure of the booklet that shows it."""
    return any(not succeeded for succeeded, _ in done.values())


class _Worker:
    """One part built in a process forked for it alone: it starts with the parent's memory as it is now (the
    shared libraries loaded so far, nothing another part left behind) and ends with the part, so no part's
    leftovers raise the next one's peak. Its result comes back through a pipe; the context through the fork."""

    def __init__(self, part):
        self.part, self.process, self.reader = part, None, None

    def start(self, ctx) -> None:
        fork = multiprocessing.get_context("fork")
        self.reader, writer = fork.Pipe(duplex=False)
        try:
            # Ctrl-C or SIGTERM are held while the worker forks: one landing inside a fork handler would be
            # lost (Python ignores exceptions there) and the build would run on; held, it is raised right after.
            # Only this thread holds them: under `build --watch` the watching thread can take the signal, and
            # Python then raises it here all the same, even inside start(); stop() and join() then pass over
            # a worker not started (joining it was an AssertionError that hid the Ctrl-C: watch built on).
            with signals_held():
                sys.stdout.flush(), sys.stderr.flush()  # nothing buffered is written twice, by parent and worker
                gc.freeze()  # the worker's collections skip the parent's objects: fewer pages copied on write
                process = fork.Process(target=_work, args=(ctx, self.part, writer, os.getpid()), name=self.part.name)
                process.start()
                self.process = process  # only once started: a Ctrl-C can still land inside start() (below)
        finally:
            writer.close()  # the worker holds the only writer: its end is this reader's end of file

    def outcome(self):
        """(True, the part's result) or (False, its exception); (False, None) when the worker died first."""
        try:
            outcome = self.reader.recv()
        except EOFError:
            outcome = (False, None)
        except Exception as exc:  # noqa: BLE001 - sent whole, but it cannot be read back here (unpickled)
            outcome = (False, BuildError(f"the {self.part.name} part: its result could not be read back: {exc}"))
        self.join()
        return outcome

    def stop(self) -> None:
        if self.process is not None and self.process.is_alive():
            try:
                os.killpg(self.process.pid, signal.SIGTERM)  # the worker and everything it started
            except (AttributeError, OSError):
                self.process.terminate()

    def join(self) -> None:
        if self.process is not None:
            self.process.join(timeout=5)
            if self.process.is_alive():  # past the SIGTERM (stopped, or stuck where it is not delivered)
                self.process.kill()
                self.process.join()
        if self.reader is not None:
            self.reader.close()


def _work(ctx, part, writer, parent: int) -> None:
    """A part's worker: builds it, sends back what it built or why it could not."""
    _worker_signals(parent)
    try:
        outcome = (True, _build_one(ctx, part))
    except BaseException as exc:  # noqa: BLE001 - raised again in the parent, as a pool's worker would
        outcome = (False, exc)
    try:
        data = ForkingPickler.dumps(outcome)
    except Exception as exc:  # noqa: BLE001 - what cannot be pickled is said in words instead
        data = ForkingPickler.dumps((False, part_failure(part.name, exc if outcome[0] else outcome[1])))
    try:
        writer.send_bytes(data)
    except OSError:  # the parent is stopping this worker (or gone): no one to tell
        pass
    writer.close()


def _result(part, outcome):
    """A worker's result; a worker the kernel killed (its CPU budget's hard limit, or the memory killer) is
    said as such."""
    succeeded, value = outcome
    if succeeded:
        return value
    if value is None:
        raise BuildError(f"the {part.name} part: its worker was killed, most likely past the cpu_seconds budget "
                         f"({budgets.active().cpu_seconds} s of CPU) or out of memory; simplify the kit, or "
                         f"{budgets.how_to_raise('cpu_seconds')}")
    raise value


def _worker_signals(parent: int) -> None:
    """Workers leave Ctrl-C to the parent (which stops them) and die quietly on SIGTERM, without tracebacks.
    Each leads a process group of its own, so stopping it also stops the processes a part starts in turn
    (the counter faces' render pool), instead of leaving them to fail on a broken pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked while the parent held them (signals_held): take them again
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if hasattr(os, "setpgrp"):
        os.setpgrp()
    die_with_parent(parent)
    budgets.worker_limits()


def part_failure(name: str, exc: BaseException) -> BuildError:
    """An exception no step of the part located, said with the part and what to do."""
    if isinstance(exc, MemoryError):
        return budgets.memory_error(f"the {name} part")
    if isinstance(exc, OSError) and isinstance(exc.strerror, int):  # cairocffi's: (cairo's words, its status)
        return BuildError(f"the {name} part: cairo could not write a file ({exc.errno}): check that the output "
                          f"folder is writable and the disk has room (or no file size limit is reached)")
    if isinstance(exc, OSError):
        return BuildError(f"the {name} part: {exc.filename or 'a file'}: {exc.strerror or exc}: check that the "
                          f"output folder is writable and the disk has room")
    if type(exc) is ValueError:  # a check of ours that no step located: its words say what is wrong
        return BuildError(f"the {name} part: {exc}")
    return BuildError(f"the {name} part: {type(exc).__name__}: {exc}")


def _build_one(ctx, part):
    """(manifest entry, files written, seconds) of building one part; any failure a BuildError naming it."""
    start, before = time.perf_counter(), set(ctx.stage.written)
    try:
        entry = part.build(ctx)
    except (BuildError, KitError):
        raise
    except Exception as exc:  # noqa: BLE001 - no traceback reaches a user
        from pnpgen.cairo_missing import is_missing_cairo
        if isinstance(exc, UsageError) or is_missing_cairo(exc):  # a wrong option (exit 2: --map nowhere), or
            raise  # no libcairo: the CLI says each its own way
        raise part_failure(part.name, exc) from None
    written = [rel for rel in ctx.stage.written if rel not in before]
    mark_print_scaling(ctx.stage.dir / rel for rel in written)  # here: in the worker, beside the other parts
    return entry, written, time.perf_counter() - start
