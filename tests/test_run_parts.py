"""The parts' workers (pnpgen.run_parts), with parts that build nothing: each part in a process forked for it
alone, the shared libraries loaded only before the first part that needs them, a killed worker said in words,
a part's error raised in the parent and the other workers stopped. Real forks, under a second in all."""
from __future__ import annotations

import os
import signal
import sys
import time
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
    return SimpleNamespace(stage=SimpleNamespace(written=[], dir=None))


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
