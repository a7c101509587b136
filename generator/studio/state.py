"""What the studio page shows now (the view), and a way for the server's threads to wait for its next change.

The build thread is the only writer; every HTTP thread reads. The view is plain JSON-ready data: the kit's
title, the build's status, the problems of the last attempt, and the pieces and files of the last build
that succeeded (a failed build never replaces them: the page keeps the last good pictures beside the error).
"""
from __future__ import annotations

import re
import threading
from pathlib import Path

from pnpgen.problems import Problem
from pnpgen.studio.pictures import PictureStore, pictures_named

SENT_KEPT = 100_000   # names of pictures a page fetched, remembered (about 10 MB)
STATUS = ("status", "seconds", "built_at")   # the view's status line: what news() carries
LOCATION = re.compile(r"\S+\.\w+(:\d+)?")  # a file name with no spaces, then maybe its line: `cards.yaml:12`


def problem_view(problem: Problem) -> dict:
    where = f"{problem.file}:{problem.line}" if problem.line else problem.file
    return {"where": where, "field": problem.field, "message": problem.message, "severity": problem.severity}


def message_view(message: str) -> dict:
    """A build error's text (it names its own file and line, as `file:line: ...`)."""
    head, sep, rest = message.partition(": ")
    located = sep and LOCATION.fullmatch(head)
    return {"where": head if located else "", "field": "", "message": rest if located else message,
            "severity": "error"}


def message_views(message: str) -> list[dict]:
    """A build error's text, one entry a line: a heading that ends in a colon (a preflight's findings,
    --strict's warnings) and then each finding under it, located on its own (pnpgen.problems.BuildError)."""
    lines = [line for line in message.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        return [message_view(line) for line in lines]
    return [message_view(message)]


class StudioState:
    """The view, its version (a counter the page compares), the pictures it names and the files it may serve."""

    def __init__(self, title: str = ""):
        self.changed = threading.Condition()
        self.version = 0
        self.content = 0   # the version of all but the status: a change of status alone needs no new view fetched
        self.stopping = False
        self.pictures = PictureStore()
        self.view = {"title": title, "status": "starting", "seconds": None, "built_at": None,
                     "problems": [], "pieces": [], "files": []}
        self.files: dict[str, Path] = {}   # what /file/ serves: the build's own files, by relative path
        self.good = {"pieces": [], "files": []}   # the last build that succeeded, shown again after a failure
        self.proof_pictures: set[str] = set()
        self.watching = 0            # pages following /events now
        self.sent: set[str] = set()  # pictures a page fetched (it keeps them: their names are their bytes)

    def update(self, **changes) -> None:
        """A new view; the pictures kept are those it, the last good build and the last proof show."""
        with self.changed:
            self.view = {**self.view, **changes}
            self.version += 1
            self.content += bool(set(changes).difference(STATUS))
            shown = pictures_named(self.view["pieces"], self.view["files"], self.proof_pictures)
            self.pictures.keep_only(shown | pictures_named(self.good["pieces"], self.good["files"]))
            self.changed.notify_all()

    def succeeded(self, **changes) -> None:
        """A build landed: its pieces and files become the last good ones."""
        with self.changed:
            self.good = {"pieces": changes.get("pieces", self.view["pieces"]), "files": changes["files"]}
        self.update(**changes)

    def failed(self, problems: list[dict]) -> None:
        """An attempt failed: its problems beside the last good build's pictures."""
        with self.changed:
            good = dict(self.good)
        self.update(status="failed", problems=problems, **good)

    def follow(self, step: int) -> None:
        """A page starts (1) or stops (-1) following the view's changes."""
        with self.changed:
            self.watching += step
            self.changed.notify_all()

    def picture_sent(self, name: str) -> None:
        with self.changed:
            if len(self.sent) >= SENT_KEPT:
                self.sent.clear()   # bounded: at worst a build waits once more for pictures a page has
            self.sent.add(name)
            self.changed.notify_all()

    def wait_sent(self, names: set[str], timeout: float) -> bool:
        """Block until every picture of `names` went to a page (now or before: an edit undone shows pictures
        the page keeps), no page follows the view, the studio stops or `timeout` seconds pass: the build that
        follows takes both cores, and the page fetching a save's new pictures meanwhile waited for its turn.
        Whether they went."""
        with self.changed:
            return self.changed.wait_for(lambda: names <= self.sent or not self.watching or self.stopping, timeout)

    def allow_files(self, files: dict[str, Path]) -> None:
        with self.changed:
            self.files = dict(files)

    def allow_file(self, rel: str, path: Path) -> None:
        with self.changed:
            self.files = {**self.files, rel: path}

    def file(self, rel: str) -> Path | None:
        with self.changed:
            return self.files.get(rel)

    def snapshot(self) -> dict:
        with self.changed:
            return {**self.view, "version": self.version, "content": self.content}

    def news(self) -> dict:
        """What an event tells a page: the versions and the status line, enough to show a change of status
        alone ("building…" as a save is loaded) without fetching the whole view while the pieces are drawn."""
        with self.changed:
            return {"version": self.version, "content": self.content, **{k: self.view[k] for k in STATUS}}

    def wait_past(self, version: int, timeout: float) -> int:
        """Block until the version passes `version`, the studio stops or `timeout` seconds pass; the version."""
        with self.changed:
            self.changed.wait_for(lambda: self.version > version or self.stopping, timeout)
            return self.version

    def stop(self) -> None:
        with self.changed:
            self.stopping = True
            self.changed.notify_all()
