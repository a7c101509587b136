"""Every save counts (`build --watch`, `pnpgen serve`): a save at any moment, during the first build, between
a build landing and the next watch, or during another build, leads to a build that read it.

The watcher runs for real (watchfiles on a temporary folder); the build is a stand-in that reads the kit's
one file at its start and then takes a while, as a real build reads the kit first and then draws. Saves land
at random moments (a seeded random: a failure replays), each followed by a bounded wait for a build that
read it.
"""
from __future__ import annotations

import io
import os
import random
import re
import threading
import time
from pathlib import Path

from pnpgen import watch

WAIT_S = 5.0   # a save not built within this is lost (a build here takes well under 0.1 s)


def within_wait(seen) -> bool:
    """Whether seen() comes true within WAIT_S (polled every 5 ms)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if seen():
            return True
        time.sleep(0.005)
    return False


class WatchThread:
    """A watcher run on its own thread for a `with` block (self.thread, self.stop), ended and joined after."""

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()


class Session(WatchThread):
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

    def save_whole(self, value: str) -> None:
        """A save as most editors make it: written beside the kit, then moved over the file in one step (a
        save in place passes through an empty file, a real change a watcher may catch and build)."""
        staged = self.kit.parent / "staged.txt"
        staged.write_text(value)
        os.replace(staged, self.file)

    def wait_built(self, value: str) -> bool:
        return within_wait(lambda: self.built and self.built[-1] == value and self.file.read_text() == value)


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
        session.save_whole("changed")
        os.utime(session.file)
        time.sleep(0.5)
        assert len(session.built) == builds


# The same through the studio (issue 35): each save reaches what the page shows -----------------------------

class StudioSession(WatchThread):
    """`pnpgen serve`'s session without its server: the real watcher, kit loading and list of pieces of the
    blank kit; stand-ins for drawing their pictures and for the build of the files (the first one slow, as a
    first build is). `shown()` reads the view the page reads from /view.json."""

    def __init__(self, folder: Path, monkeypatch, first_build_s: float = 0.3):
        from pnpgen.build import BuildResult
        from pnpgen.build_options import BuildOptions
        from pnpgen.cli import main
        from pnpgen.kit import load_kit
        from pnpgen.studio.session import Studio
        from pnpgen.studio.state import StudioState
        self.kit, self.out = folder / "kit", folder / "out"
        assert main(["new", "--blank", str(self.kit)]) == 0
        self.builds, self.first_build_s = 0, first_build_s
        self.started = threading.Event()

        def build(kit, options):   # the files' part of an attempt: the pictures are already on the page
            self.builds += 1
            self.started.set()
            time.sleep(self.first_build_s if self.builds == 1 else random.uniform(0, 0.05))
            return BuildResult(self.out / kit.id, [], 0.0, ["components"])
        monkeypatch.setattr("pnpgen.build.build", build)
        # a face's picture is named by its parameters, undrawn: what is tested is which save the page shows
        monkeypatch.setattr("pnpgen.studio.pictures.FacePictures._picture",
                            lambda faces, arts, face, *rest: f"{hash(face.key) & 0xFFFFFFFF:08x}.png")
        self.state = StudioState()
        studio = Studio(self.state, lambda texts=True: load_kit(self.kit, texts=texts), BuildOptions(out=self.out))
        self.stop = threading.Event()
        self.thread = threading.Thread(target=watch.watch, daemon=True,
                                       args=(self.kit, self.out, studio.attempt, self.stop, io.StringIO()))

    def save(self, card: str, title: str) -> None:
        """A card's new title, saved as an editor does (the whole file written again)."""
        rows = self.kit / "components" / "cards.yaml"
        rows.write_text(re.sub(rf"(\{{title: ){card}[^,]*", rf"\g<1>{title}", rows.read_text()))

    def shown(self, *titles: str) -> bool:
        """Within WAIT_S, a built view whose cards carry every one of `titles`."""
        def seen() -> bool:
            view = self.state.snapshot()
            return view["status"] == "built" and set(titles) <= {p["label"] for p in view["pieces"]}
        return within_wait(seen)


def test_saves_at_random_moments_each_reach_the_studios_page(tmp_path, monkeypatch):
    """50 saves: 5 during the first build (which read the kit before them), 45 at random moments of the builds
    the saves before them started, each changing one of two cards: every one is on the page within WAIT_S."""
    chance, lost = random.Random(3535), []
    for attempt in range(5):
        with StudioSession(tmp_path / f"first{attempt}", monkeypatch) as session:
            assert session.started.wait(WAIT_S)
            time.sleep(chance.uniform(0, 0.3))   # within the first build's files, or just after
            session.save("Explore", f"First{attempt}")
            if not session.shown(f"First{attempt}"):
                lost.append(("first build", attempt))
    with StudioSession(tmp_path / "random", monkeypatch, first_build_s=0.0) as session:
        assert session.shown("Explore", "Trade")
        for number in range(45):
            card = ("Explore", "Trade")[number % 2]
            session.save(card, f"{card}{number}")
            time.sleep(chance.uniform(0, 0.08))   # the next save lands before, during or after this one's build
            if number % 2 and not session.shown(f"Explore{number - 1}", f"Trade{number}"):
                lost.append(("random", number, session.state.snapshot()["status"]))
    assert not lost, lost
