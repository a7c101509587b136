"""Every save counts (`build --watch`, `pnpgen serve`): a save at any moment, during the first build, between
a build landing and the next watch, or during another build, leads to a build that read it.

The watcher runs for real (watchfiles on a temporary folder); the build is a stand-in that reads the kit's
one file at its start and then takes a while, as a real build reads the kit first and then draws. Saves land
at random moments (a seeded random: a failure replays), each followed by a bounded wait for a build that
read it.
"""
from __future__ import annotations

import io
import random
import threading
import time
from pathlib import Path

from pnpgen import watch

WAIT_S = 5.0   # a save not built within this is lost (a build here takes well under 0.1 s)


class Session:
    """`watch.watch` in a thread over a folder holding `value.txt`; `built` lists what each build read."""

    def __init__(self, folder: Path, first_build_s: float = 0.0, build_s: float = 0.03):
        self.kit, self.out = folder / "kit", folder / "out"
        self.kit.mkdir(parents=True)
        self.file = self.kit / "value.txt"
        self.file.write_text("start")
        self.first_build_s, self.build_s = first_build_s, build_s
        self.built: list[str] = []
        self.started = threading.Event()   # the first build has read the kit
        self.stop = threading.Event()
        self.stream = io.StringIO()
        self.thread = threading.Thread(target=watch.watch, daemon=True,
                                       args=(self.kit, self.out, self.build_once, self.stop, self.stream))

    def build_once(self) -> str:
        value = self.file.read_text()
        first = not self.built
        self.built.append(value)
        self.started.set()
        time.sleep(self.first_build_s if first else random.uniform(0, self.build_s))
        return value

    def save(self, value: str) -> None:
        self.file.write_text(value)

    def wait_built(self, value: str) -> bool:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            if self.built and self.built[-1] == value and self.file.read_text() == value:
                return True
            time.sleep(0.005)
        return False

    def __enter__(self) -> "Session":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()


def test_a_save_during_the_first_build_is_built(tmp_path):
    """The save lands while the first build runs (it read the old file): a second build reads the new one."""
    lost = []
    for attempt in range(10):
        with Session(tmp_path / f"s{attempt}", first_build_s=0.15) as session:
            assert session.started.wait(WAIT_S)
            time.sleep(random.Random(attempt).uniform(0, 0.2))   # within the first build or just after it
            session.save(f"saved {attempt}")
            if not session.wait_built(f"saved {attempt}"):
                lost.append((attempt, session.built))
    assert not lost, lost


def test_saves_at_random_moments_are_each_built(tmp_path):
    """40 pairs of saves, the second at a random moment of the build the first started (before it, during it,
    just after it): the build after each pair read the second."""
    chance = random.Random(35)
    lost = []
    with Session(tmp_path, build_s=0.06) as session:
        assert session.started.wait(WAIT_S) and session.wait_built("start")
        for number in range(40):
            session.save(f"first {number}")
            time.sleep(chance.uniform(0, 0.12))
            session.save(f"second {number}")
            if not session.wait_built(f"second {number}"):
                lost.append((number, session.built[-3:]))
    assert not lost, lost
    assert "watching" in session.stream.getvalue()


def test_a_touch_that_changes_nothing_builds_nothing_again(tmp_path):
    """The watcher's news of a save a build already read (or of a file saved unchanged) starts no build."""
    with Session(tmp_path) as session:
        assert session.started.wait(WAIT_S) and session.wait_built("start")
        session.save("changed")
        assert session.wait_built("changed")
        builds = len(session.built)
        session.save("changed")
        time.sleep(0.5)
        assert len(session.built) == builds
