"""The parts' workers (pnpgen.run_parts), with parts that build nothing: each part in a process forked for it
alone, the shared libraries loaded only before the first part that needs them, a killed worker said in words,
a part's error raised in the parent and the other workers stopped. Real forks, under a second in all."""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from pnpgen import parts as parts_module
from pnpgen import run_parts
from pnpgen.parts import Part
from pnpgen.problems import BuildError

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or (os.cpu_count() or 1) < 2,
                                reason="parts run in workers only where a process can fork, on 2 cores or more")

LOADED = []  # the fake shared libraries loaded in this process, in order; a worker sees what its fork saw
LEFT_BEHIND = []  # what parts built in this process before: a worker running two parts would show the first


def _ctx():
    return SimpleNamespace(stage=SimpleNamespace(written=[], dir=Path("/nonexistent")))


def _part(name, build, needs=()):
    return Part(name=name, build=build, needs=needs)


def _reports(ctx):
    """A part's manifest entry: its process, what it found loaded and left behind when it started."""
    seen = {"pid": os.getpid(), "loaded": list(LOADED), "left": list(LEFT_BEHIND)}
    LEFT_BEHIND.append("something")
    return seen


@pytest.fixture
def fake_loads(monkeypatch):
    monkeypatch.setattr(parts_module, "SHARED_LOADS",
                        {name: (lambda name=name: name in LOADED or LOADED.append(name)) for name in ("a", "b")})
    monkeypatch.setattr(run_parts, "WORKERS", 2)
    LOADED.clear()
    yield
    LOADED.clear()


def _built(parts):
    return [(part.name, entry) for part, entry, written, seconds in run_parts._build_all(_ctx(), parts)]


def test_each_part_runs_in_a_process_of_its_own_forked_with_only_what_it_needs_loaded(fake_loads):
    """Five parts in two workers: five processes, none the parent's; none saw another part's leftovers; the
    parts needing only `a` forked before `b` (which three parts need) was loaded; results in the given order."""
    parts = [_part("p1", _reports, ("a",)), _part("p2", _reports, ("a",)), _part("p3", _reports, ("a", "b")),
             _part("p4", _reports, ("b",)), _part("p5", _reports, ("a", "b"))]
    built = _built(parts)
    assert [name for name, _ in built] == ["p1", "p2", "p3", "p4", "p5"]
    pids = {entry["pid"] for _, entry in built}
    assert len(pids) == 5 and os.getpid() not in pids
    assert all(entry["left"] == [] for _, entry in built)
    seen = {name: entry["loaded"] for name, entry in built}
    assert seen["p1"] == seen["p2"] == ["a"]
    assert seen["p3"] == seen["p4"] == seen["p5"] == ["a", "b"]
    assert LOADED == ["a", "b"] and LEFT_BEHIND == []  # loaded in the parent once; the parts ran elsewhere


def test_a_library_fewer_parts_need_than_there_are_workers_is_left_to_them(fake_loads):
    built = _built([_part("p1", _reports, ("a", "b")), _part("p2", _reports, ("a",)), _part("p3", _reports, ("a",))])
    assert [entry["loaded"] for _, entry in built] == [["a"], ["a"], ["a"]] and LOADED == ["a"]


def _killed(ctx):
    os.kill(os.getpid(), signal.SIGKILL)  # as the kernel kills a worker past its CPU budget's hard limit


def _slow(ctx):
    time.sleep(30)


def _gone(pids: list[int]) -> bool:
    """Whether every one of these workers has ended and been reaped (a zombie still takes signal 0)."""
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True


@pytest.fixture
def started(monkeypatch) -> list[int]:
    """The process ids of the workers started, as they start."""
    pids, start = [], run_parts._Worker.start

    def recorded(worker, ctx):
        start(worker, ctx)
        pids.append(worker.process.pid)
    monkeypatch.setattr(run_parts._Worker, "start", recorded)
    return pids


def _fails(ctx):
    raise BuildError("the p2 part: cards.csv, line 3: no such face")


@pytest.mark.parametrize("build, words", [(_killed, "the p2 part: its worker was killed, most likely past the "
                                                    "cpu_seconds budget"),
                                          (_fails, "the p2 part: cards.csv, line 3: no such face")],
                         ids=["killed", "failed"])
def test_a_failed_part_is_raised_and_the_other_workers_are_stopped_at_once(fake_loads, started, build, words):
    """The build stops within seconds, not after the slow part's 30 s (which started after it): its worker
    is stopped and reaped."""
    start = time.monotonic()
    results = run_parts._build_all(_ctx(), [_part("p2", build), _part("p1", _slow)])
    with pytest.raises(BuildError) as raised:
        list(results)
    assert str(raised.value).startswith(words)
    assert time.monotonic() - start < 10
    assert len(started) == 2 and _gone(started)


def _fails_late(ctx):
    time.sleep(0.5)
    raise BuildError("the p1 part: units.csv, line 7: attack must be a number")


def test_the_first_failure_in_the_parts_order_is_said_whichever_failed_first(fake_loads, started):
    """A broken row breaks several parts (its counters, and the booklet's figure that shows it): the error
    said is the first part's on every build, not the one that happened to end first; no part starts after
    a failure."""
    parts = [_part("p1", _fails_late), _part("p2", _fails), _part("p3", _reports)]
    with pytest.raises(BuildError) as raised:
        _built(parts)
    assert str(raised.value) == "the p1 part: units.csv, line 7: attack must be a number"
    assert len(started) == 2 and _gone(started)


def _unpicklable(ctx):
    return {"entry": lambda: None}


class _TwoArguments(Exception):
    def __init__(self, first, second):
        super().__init__(first)  # pickled with its first alone: it cannot be made again from that


def _unreadable(ctx):
    return {"entry": _TwoArguments("one", "two")}


@pytest.mark.parametrize("build, words", [(_unpicklable, "the p1 part: "),
                                          (_unreadable, "the p1 part: its result could not be read back: ")],
                         ids=["unpicklable", "unreadable"])
def test_a_result_that_cannot_cross_back_is_said_as_the_part_s_failure(fake_loads, build, words):
    with pytest.raises(BuildError) as raised:
        _built([_part("p1", build), _part("p2", _reports)])
    assert str(raised.value).startswith(words)


def test_nothing_buffered_in_the_parent_is_written_twice(fake_loads, capfd):
    sys.stdout.write("said once")  # unflushed when the workers fork
    _built([_part("p1", _reports), _part("p2", _reports)])
    assert capfd.readouterr().out == "said once"


def _large(ctx):
    return "x" * 1_000_000  # more than a pipe holds: the worker waits, writing, until the parent reads it all


def _interrupted(self):
    raise KeyboardInterrupt


def test_ctrl_c_while_a_result_is_read_stops_the_worker_writing_it(fake_loads, started, monkeypatch):
    """Left writing into a pipe no one reads, the worker would hold the parent's exit (multiprocessing joins
    its children then) for ever: a `build --watch` stopped by Ctrl-C hung so."""
    monkeypatch.setattr(run_parts._Worker, "outcome", _interrupted)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _built([_part("p1", _large), _part("p2", _large)])
    assert time.monotonic() - start < 10
    assert len(started) == 2 and _gone(started)


def test_ctrl_c_inside_a_worker_s_start_is_said_as_a_ctrl_c(fake_loads, monkeypatch):
    """Under `build --watch` the watching thread can take the signal, so the held Ctrl-C is raised even
    inside Process.start(): the worker not started must not be joined (an AssertionError that hid the
    Ctrl-C, and `--watch` went on watching instead of stopping)."""
    import multiprocessing.process

    def interrupted(process):
        raise KeyboardInterrupt
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _built([_part("p1", _reports), _part("p2", _reports)])


# Shards: a part whose work is cut (pnpgen.parts.Split) into members built in workers of their own

def _members(ctx, members):
    """A shard: set up, then each member with the process that built it."""
    yield None
    for member in members:
        ctx.stage.written.append(f"{member}.txt")
        yield member, {"pid": os.getpid()}
    return {"pid": os.getpid()}


def _joined(ctx, built, kept):
    return {"members": [member for member, _ in built], "pids": {result["pid"] for _, result in built},
            "shards": len(kept)}


def _split_part(name="p", run=_members, join=_joined, build=lambda ctx: {"whole": True}):
    split = parts_module.Split(bundles=(("a",), ("b", "c"), ("d",)), order=("a", "b", "c", "d"), weights={},
                               run=run, join=join)
    return Part(name=name, build=build, split=lambda ctx: split)


@pytest.fixture
def cut(fake_loads, monkeypatch):
    """Every part with a Split cut into shards, however short it is."""
    monkeypatch.setattr(run_parts, "GAIN", -100.0)


def test_a_part_is_cut_into_shards_joined_in_its_order(cut):
    """Its members built in two or three processes (none the parent's), the entry and the files written in
    the part's order whichever shard built them; each member's seconds kept. A part alone is built whole."""
    took = {}
    built = list(run_parts._build_all(_ctx(), [_split_part(), _part("q", _reports)], took))
    [(part, entry, written, seconds)] = [one for one in built if one[0].name == "p"]
    assert entry["members"] == ["a", "b", "c", "d"] and written == ["a.txt", "b.txt", "c.txt", "d.txt"]
    assert entry["shards"] >= 2 and len(entry["pids"]) == entry["shards"] and os.getpid() not in entry["pids"]
    assert {"p/a", "p/b", "p/c", "p/d", "p/"} <= set(took) and seconds > 0
    assert [entry for _, entry in _built([_split_part()])] == [{"whole": True}]


def test_shards_that_cannot_stand_for_the_part_make_it_build_whole(cut):
    """A shard whose faces said something (join gives None): the part is built whole, as without shards."""
    part, took = _split_part(join=lambda ctx, built, kept: None), {}
    built = [(p.name, entry) for p, entry, _, _ in run_parts._build_all(_ctx(), [part, _part("q", _reports)], took)]
    assert dict(built)["p"] == {"whole": True}
    assert [job.members for job in run_parts.plan_jobs(None, [part], took)] == [None]  # next time: whole at once


def _failing_shard(ctx, members):
    yield None
    for member in members:
        if member == "c":
            raise BuildError("a shard's words")
        time.sleep(0.2 if member == "d" else 0)
        yield member, {}
    return {}


def _whole_fails(ctx):
    raise BuildError("the p part: cards.csv, line 3: no such face")


@pytest.mark.parametrize("build, expected", [(lambda ctx: {"whole": True}, {"whole": True}),
                                             (_whole_fails, "the p part: cards.csv, line 3: no such face")])
def test_a_failing_shard_makes_the_part_build_whole_and_say_its_own_error(cut, started, build, expected):
    """Which shard meets an error first depends on how the members were dealt: the part built whole says it
    as it always did (or builds, if the shard's error was its own); the other shards are stopped."""
    parts = [_split_part(run=_failing_shard, build=build), _part("q", _reports)]
    if isinstance(expected, dict):
        assert dict(_built(parts))["p"] == expected
    else:
        with pytest.raises(BuildError, match=expected):
            _built(parts)
    assert _gone(started)


WAIT = multiprocessing.connection.wait


def _all_at_once(readers, timeout=None):
    """multiprocessing.connection.wait as if the running workers all ended at the same moment."""
    for reader in readers:
        WAIT([reader])
    return list(readers)


def _first_shard_fails(ctx, members):
    yield None
    if "a" in members:
        raise BuildError("a shard's words")
    yield from ((member, {}) for member in members)
    return {}


def test_a_shard_ending_with_the_one_that_failed_is_not_read_twice(cut, started, monkeypatch):
    """Two shards of a part end together, one failed: the failure stops its sibling, which is then not read
    as if still running (it was: KeyError 'p:0', seen once in a loaded test run); the part is built whole."""
    monkeypatch.setattr(multiprocessing.connection, "wait", _all_at_once)
    part = _split_part(run=_first_shard_fails)
    assert dict(_built([part, _part("q", _reports)]))["p"] == {"whole": True}
    assert _gone(started)


def _killed_shard(ctx, members):
    yield None
    if "a" in members:
        os.kill(os.getpid(), signal.SIGKILL)
    yield from ((member, {}) for member in members)
    return {}


def test_a_killed_shard_is_said_as_its_part_killed(cut, started):
    with pytest.raises(BuildError, match="the p part: its worker was killed"):
        _built([_split_part(run=_killed_shard), _part("q", _reports)])
    assert _gone(started)


def test_a_part_is_cut_only_where_its_shards_end_the_build_sooner():
    """Eclipse's timings: the components part longer than the boards and documents together is cut, its
    longest file alone; beside a longer part it is built whole (its shards would only cost their set-up)."""
    split = parts_module.Split(bundles=(("pieces",), ("tiles", "technology"), ("tokens",), ("cards",)),
                               order=("tokens", "tiles", "cards", "pieces", "technology"), weights={},
                               run=_members, join=_joined)
    part = Part(name="components", build=_reports, split=lambda ctx: split)
    took = {"components": 1.0, "components/pieces": 0.5, "components/tiles": 0.2, "components/technology": 0.05,
            "components/tokens": 0.15, "components/cards": 0.05, "components/": 0.02, "boards": 0.3,
            "documents": 0.35}
    jobs = run_parts.plan_jobs(None, [part, _part("boards", _reports), _part("documents", _reports)], took)
    shards = [job.members for job in jobs if job.part is part]
    assert len(shards) == 2 and ("pieces",) in shards and ("tokens", "tiles", "cards", "technology") in shards
    took |= {"boards": 2.0}
    assert [job.members for job in run_parts.plan_jobs(None, [part, _part("boards", _reports)], took)] == [None, None]


def test_the_longest_starts_first_once_a_worker_is_busy():
    """The booklet (the longest) needs reportlab, which this process has yet to load: with no worker busy, a
    job needing less starts first (its core would idle while the parent loads); then the booklet, loaded."""
    booklet, maps = _part("booklet", _reports, ("cairo", "reportlab")), _part("maps", _reports, ("cairo",))
    jobs = [run_parts._Job(part, None, 1.0, part.name) for part in (booklet, maps)]
    assert run_parts.next_job(jobs, ["cairo", "reportlab"], set(), busy=False).part is maps
    assert run_parts.next_job(jobs, ["cairo", "reportlab"], {"cairo"}, busy=True).part is booklet
    assert run_parts.next_job(jobs, ["cairo"], set(), busy=False).part is booklet


def test_between_builds_every_library_the_parts_need_is_loaded_and_the_next_workers_start_with_it(
        fake_loads, monkeypatch):
    """`build --watch` and `pnpgen serve` between their builds (run_parts.between_builds): every library the
    last build's parts need is loaded here, `b` too, which one part alone needs (a single build leaves it to
    that part's worker, above), so each worker of the next build starts with both instead of loading its own."""
    parts = [_part("p1", _reports, ("a", "b")), _part("p2", _reports, ("a",)), _part("p3", _reports, ("a",))]
    monkeypatch.setattr(parts_module, "all_parts", lambda: parts + [_part("unbuilt", _reports, ("b",))])
    run_parts.between_builds(["p2", "p3"])
    assert LOADED == ["a"]  # only what the parts built need
    run_parts.between_builds(["p1", "p2", "p3"])
    assert LOADED == ["a", "b"]
    assert [entry["loaded"] for _, entry in _built(parts)] == [["a", "b"]] * 3 and LOADED == ["a", "b"]


def test_between_builds_the_last_kit_is_forgotten():
    """The memos a build keeps about its kit (charts built, their context, its load key: pnpgen.kit_memos) hold
    it alive; a watcher loads the kit anew on every save and kept each earlier one (SE4X: 5 MB a save, past
    140 MB after a dozen). Between builds they are emptied and the kit goes."""
    import gc
    import weakref

    from pnpgen.kit import load_kit
    from tests.conftest import DEFAULT_KIT_DIR
    kit, _ = load_kit(DEFAULT_KIT_DIR)  # its texts checked: its charts built, kept with their context
    gone = weakref.ref(kit.component_pieces[0])
    del kit
    gc.collect()
    assert gone() is not None  # the memos hold it: what follows shows something
    run_parts.between_builds([])
    gc.collect()
    assert gone() is None
