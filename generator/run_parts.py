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
from dataclasses import dataclass
from multiprocessing.reduction import ForkingPickler

from pnpgen.kit_memos import forget_all
from pnpgen.output import signals_held
from pnpgen.part_cache import PartCache
from pnpgen import parts as registry
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
    took = cache.seconds(ctx.kit.root)  # this kit's last timings, from the user's cache: a new folder has them
    files = {}
    try:
        for done, (part, entry, written, seconds) in enumerate(_build_all(ctx, todo, took), 1):
            cache.store(part.name, keys[part.name], ctx.stage, written, entry)
            results[part.name], took[part.name], files[part.name] = entry, seconds, written
            if not entry.get("warnings"):  # nothing said: its shards may stand for it again
                took.pop(whole_mark(part), None)
            progress.finish(part.name, done, len(todo), seconds)
    finally:  # a failed build's too: a part whose shards said something is built whole next time at once
        if todo:
            cache.keep_seconds(took, ctx.kit.root)
    _check_no_file_twice(parts, results)
    for part in parts:  # the files listed in the parts' order, whichever finished first
        ctx.stage.written.extend(rel for rel in files.get(part.name, ()) if rel not in ctx.stage.written)
    return {part.name: results[part.name] for part in parts}


def between_builds(names) -> None:
    """What a process that builds again and again (`build --watch`, `pnpgen serve`) does between its builds:
    forget the last kit (pnpgen.kit_memos: else every earlier kit stays alive), and load here every shared
    library that the parts named (the last build's) need, so each later build's workers fork with them loaded
    instead of loading their own. A single build loads here only what more parts need than there are workers
    (shared_loads): for it, loading first is time before the first part starts. A watcher that began on an
    output folder already built (its first build reused whole) loaded nothing, and every save then paid
    reportlab and the shipped fonts parsed in each worker that draws with them (0.17 s: the booklet's and the
    aid cards'). Only the libraries: pnpgen's own modules stay imported where they are used, so a worker reads
    pnpgen's code as it is on disk, as before (the parts' keys hash it)."""
    forget_all()
    wanted = set(names)
    for part in registry.all_parts():
        if part.name in wanted:
            load_needs(part, list(registry.SHARED_LOADS))


def whole_mark(part) -> str:
    """The timings' mark of a part whose shards could not stand for it (a face's message, a shard's error):
    it is built whole until a build of it says nothing, so a kit with a standing warning is not built twice."""
    return f"{part.name}/whole"


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


def _parallel() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and (os.cpu_count() or 1) >= 2


def _build_all(ctx, parts: list, took: dict | None = None):
    """(part, entry, files written, seconds) of each part, in the order they started (longest first). `took`:
    seconds of earlier builds by part (and by shard member, `part/member`), updated with this build's."""
    took = {} if took is None else took
    # a part built alone is built here, whole, as before: `--only components` keeps its own drawing pool
    jobs = plan_jobs(ctx, parts, took) if _parallel() and len(parts) > 1 else _whole_jobs(parts, took)
    if len(jobs) < 2 or not _parallel():
        for job in jobs:
            yield (job.part, *_build_one(ctx, job.part))
        return
    yield from _run_jobs(ctx, jobs, took)


def _run_jobs(ctx, jobs: list, took: dict):
    shared, waiting, running = shared_loads([job.part for job in jobs], WORKERS), list(jobs), {}
    # the parts, longest first as a whole (a part cut into shorter shards keeps its place: a bad row is said
    # by the components part, not by the booklet's figure that shows it)
    order = sorted({job.part.name: job.part for job in jobs}.values(),
                   key=lambda part: -_seconds(took, part.name, part.weight))
    done, shards, loaded = {}, {}, set()  # part name -> outcome; -> {shard: outcome}; libraries loaded here
    try:
        for part in order:  # said in this order (longest first), a failure too: see _failed
            while part.name not in done:
                while len(running) < WORKERS:
                    job = next_job([job for job in waiting if not _failed(done, order, job.part)], shared,
                                   loaded, bool(running))
                    if job is None:
                        break
                    _load(job, shared, loaded)
                    waiting.remove(job)
                    worker = _Worker(job)
                    running[worker.job.name] = worker
                    worker.start(ctx)  # in `running` first: a Ctrl-C as it starts stops it with the others
                if waiting:  # while the workers run: what the next part needs, so it starts as a slot frees
                    _load(waiting[0], shared, loaded)
                ready = multiprocessing.connection.wait([worker.reader for worker in running.values()])
                for worker in [w for w in running.values() if w.reader in ready]:
                    if running.get(worker.job.name) is not worker:  # a shard its failed sibling stopped (and
                        continue  # joined) just now, ready with it: its outcome is no one's (was a KeyError)
                    outcome = worker.outcome()  # a Ctrl-C as it is read leaves the worker in `running`, stopped
                    del running[worker.job.name]  # below: else, blocked writing the rest, it would hold the exit
                    if worker.job.split is None:
                        done[worker.job.part.name] = outcome
                    else:
                        _shard_done(ctx, worker.job, outcome, jobs, shards, done, waiting, running, took)
            yield (part, *_result(part, done.pop(part.name)))  # a failure raised here stops the later parts
    except BaseException:  # a failed part, Ctrl-C or SIGTERM: stop the other workers now, do not wait for them
        _stop(running.values())
        raise
    finally:
        gc.unfreeze()  # this process's objects collected again (`pnpgen serve` and `watch` build many times)


def next_job(waiting: list, shared: list, loaded: set, busy: bool):
    """The job to start in a free worker: the longest waiting, unless no worker is busy and it needs a library
    this process has yet to load: then one that needs none, or the fewest (the cores would stand idle while
    the parent loads). Once a worker is busy, the parent's loading takes the core the longest will use:
    Space Empires 4X's booklet waits for reportlab while its maps are drawn, instead of starting third."""
    if not waiting:
        return None
    missing = [[name for name in shared if name in job.part.needs and name not in loaded] for job in waiting]
    if busy or not missing[0]:
        return waiting[0]
    return waiting[missing.index(min(missing, key=len))]


def _load(job, shared: list, loaded: set) -> None:
    load_needs(job.part, shared)
    loaded.update(name for name in shared if name in job.part.needs)


def _stop(workers) -> None:
    workers = list(workers)
    for worker in workers:
        worker.stop()
    for worker in workers:
        worker.join()


def _failed(done: dict, order: list | None = None, part=None) -> bool:
    """Whether a part has failed: no other part starts then. The parts that started before it are waited
    for, and the first failure in the parts' order is the one said (as when they ran one after the other),
    so a broken kit says the same error on every build, not whichever part happened to fail first: a bad
    row of a table is said at its row by the components part, not at a figure of the booklet that shows it.
    The shards of a part that started before the failed one still start (or it is built whole): its own
    outcome comes first."""
    failed = [name for name, (succeeded, _) in done.items() if not succeeded]
    if not failed or part is None or order is None:
        return bool(failed)
    names = [p.name for p in order]
    return min(names.index(name) for name in failed) < names.index(part.name)


def _shard_done(ctx, job, outcome, jobs: list, shards: dict, done: dict, waiting: list, running: dict,
                took: dict) -> None:
    """A shard has ended: when it failed, its part is built whole instead (its error then said as the part
    would say it alone, whichever shard met it first), or said as killed; when it was the part's last, the
    shards' results are joined into the part's entry."""
    part = job.part
    mine = [other for other in jobs if other.part is part and other.split is not None]
    shards.setdefault(part.name, {})[job.name] = outcome
    succeeded, value = outcome
    if not succeeded:
        waiting[:] = [other for other in waiting if other.part is not part]
        _stop([running.pop(other.name) for other in mine if other.name in running])
        if value is None:  # killed: its CPU budget or the memory killer, as a part's worker
            done[part.name] = outcome
        else:
            took[whole_mark(part)] = 1.0
            waiting.insert(0, _Job(part, None, job.seconds, part.name))
        return
    if len(shards[part.name]) < len(mine):
        return
    built = {member: (result, written, seconds) for other in mine
             for member, result, written, seconds in shards[part.name][other.name][1][0]}
    kept = [shards[part.name][other.name][1][1] for other in mine]
    totals = [shards[part.name][other.name][1][2] for other in mine]
    members = [member for member in job.split.order if member in built]
    for member in members:
        took[f"{part.name}/{member}"] = built[member][2]
    took[f"{part.name}/"] = max(total - sum(seconds for _, _, _, seconds in shards[part.name][other.name][1][0])
                                for other, total in zip(mine, totals))
    try:
        entry = job.split.join(ctx, [(member, built[member][0]) for member in members], kept)
    except Exception:  # noqa: BLE001 - the shards could not be joined: the part built whole says why, if anything
        entry = None
    if entry is None:
        took[whole_mark(part)] = 1.0
        waiting.insert(0, _Job(part, None, job.seconds, part.name))
        return
    written = [rel for member in members for rel in built[member][1]]
    done[part.name] = (True, (entry, written, sum(totals)))


class _Worker:
    """One part built in a process forked for it alone: it starts with the parent's memory as it is now (the
    shared libraries loaded so far, nothing another part left behind) and ends with the part, so no part's
    leftovers raise the next one's peak. Its result comes back through a pipe; the context through the fork."""

    def __init__(self, job):
        self.job, self.part, self.process, self.reader = job, job.part, None, None

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
                process = fork.Process(target=_work, args=(ctx, self.job, writer, os.getpid()), name=self.job.name)
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


def _work(ctx, job, writer, parent: int) -> None:
    """A part's (or a shard's) worker: builds it, sends back what it built or why it could not."""
    _worker_signals(parent)
    part = job.part
    try:
        outcome = (True, _build_one(ctx, part) if job.split is None else _build_shard(ctx, job))
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


def _build_shard(ctx, job):
    """([(member, result, files written, seconds)], what the shard keeps, seconds) of one shard of a part:
    its generator (Split.run) yields once set up, then each member as it is built."""
    start, built = time.perf_counter(), []
    run = job.split.run(ctx, list(job.members))
    try:
        next(run)  # set up: the members' seconds are their own
        while True:
            at, mark = time.perf_counter(), len(ctx.stage.written)
            try:
                member, result = next(run)
            except StopIteration as stop:
                kept = stop.value
                break
            built.append((member, result, ctx.stage.written[mark:], time.perf_counter() - at))
    except (BuildError, KitError):
        raise
    except Exception as exc:  # noqa: BLE001 - no traceback reaches a user
        from pnpgen.cairo_missing import is_missing_cairo
        if isinstance(exc, UsageError) or is_missing_cairo(exc):
            raise
        raise part_failure(job.part.name, exc) from None
    mark_print_scaling(ctx.stage.dir / rel for _, _, written, _ in built for rel in written)
    return built, kept, time.perf_counter() - start


@dataclass
class _Job:
    """What one worker builds: a whole part (members None), or a shard of it (these members of its Split)."""

    part: object
    members: tuple | None
    seconds: float  # expected: the longest start first
    name: str
    split: object = None


SHARD_OVERHEAD = 0.05  # seconds a shard costs beyond its members (its caches read, what it keeps sent back)
FORK = 0.01  # seconds a worker's fork and its result's way back cost
MAX_SHARDS = 4
GAIN = 0.02  # seconds: a part is cut only where its shards are expected to end the build this much sooner


def _whole_jobs(parts: list, took: dict) -> list:
    return sorted((_Job(part, None, _seconds(took, part.name, part.weight), part.name) for part in parts),
                  key=lambda job: -job.seconds)  # longest first: the last to start is short


def _seconds(took: dict, name: str, default: float) -> float:
    value = took.get(name)
    return value if isinstance(value, (int, float)) and 0 <= value < 3600 else default


def plan_jobs(ctx, parts: list, took: dict) -> list:
    """The workers' jobs, longest first: each part whole, or a part whose Split pays cut into the shards that
    are expected to end the whole build soonest (each part's and member's seconds from the kit's last
    build, `took`; before any, the parts' weights and the members' shares of them)."""
    jobs = _whole_jobs(parts, took)
    for part in parts:
        split = part.split(ctx) if part.split is not None and whole_mark(part) not in took else None
        if split is not None and len(split.bundles) > 1:
            others = [job for job in jobs if job.part is not part]
            jobs = others + (_shards(part, split, took, others) or [job for job in jobs if job.part is part])
    return sorted(jobs, key=lambda job: -job.seconds)


def _shards(part, split, took: dict, others: list) -> list | None:
    """The part's shards whose expected end of the build is soonest, None when built whole ends it as soon."""
    whole = _seconds(took, part.name, part.weight)
    members = [member for bundle in split.bundles for member in bundle]
    weights = sum(split.weights.get(member, 1) for member in members) or 1
    guess = {member: _seconds(took, f"{part.name}/{member}", whole * split.weights.get(member, 1) / weights)
             for member in members}
    overhead = _seconds(took, f"{part.name}/", SHARD_OVERHEAD) + FORK
    bundles = [(bundle, sum(guess[member] for member in bundle)) for bundle in split.bundles]
    rest = [job.seconds for job in others]
    if all(f"{part.name}/{member}" in took for member in members):  # whole as one shard, timed alike: the
        whole = sum(guess.values()) + overhead  # part's own last time may come from a quieter or busier build
    best, soonest = None, makespan(rest + [whole], WORKERS)
    for count in range(2, min(len(bundles), MAX_SHARDS) + 1):
        shards = [_Job(part, tuple(member for member in split.order if member in dealt), seconds + overhead,
                       f"{part.name}:{number}", split)  # each shard builds its members in the part's order
                  for number, (dealt, seconds) in enumerate(deal(bundles, count))]
        end = makespan(rest + [shard.seconds for shard in shards], WORKERS)
        # each shard more is CPU more (its set-up, the whole of it): worth it only where the build would wait
        # for it with a core idle, not on a machine that other work keeps busy (4X Space Euro cut in three
        # beside its documents: 1.14x the CPU and wall under load, for 0.06x less by this count)
        if end < soonest - GAIN - (len(shards) - 1) * overhead:
            best, soonest = shards, end
    return best


def deal(bundles: list, count: int) -> list:
    """[(members, seconds)] of `count` shards: the bundles [(members, seconds)] dealt longest first, each to the
    shard with the least so far (ties: the first), so the shards come out about even."""
    shards = [([], 0.0) for _ in range(count)]
    for members, seconds in sorted(bundles, key=lambda bundle: -bundle[1]):
        number = min(range(count), key=lambda n: shards[n][1])
        shards[number] = (shards[number][0] + list(members), shards[number][1] + seconds)
    return [(members, seconds) for members, seconds in shards if members]


def makespan(seconds: list, workers: int) -> float:
    """When `workers` workers taking jobs of these seconds longest first would end the last."""
    ends = [0.0] * workers
    for value in sorted(seconds, reverse=True):
        ends[ends.index(min(ends))] += value
    return max(ends)
