"""`pnpgen serve` in a process of its own, as a designer runs it, for the studio's tests and `make bench`.

Every wait has a deadline; `stop()` (or leaving the `with` block) ends the process by its id: Ctrl-C first,
then SIGKILL if it has not left within its time.
"""
from __future__ import annotations

import json
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from tests.browser import DIE_WITH_PARENT

URL = re.compile(r"pnpgen studio: (http://127\.0\.0\.1:\d+/)")


class ServeProcess:
    def __init__(self, kit: Path, out: Path, *options: str, seconds: float = 60.0):
        self.arguments = ["--data", str(kit), "--out", str(out), "--port", "0", *options]
        self.seconds = seconds
        self.lines: queue.Queue = queue.Queue()
        self.said: list[str] = []
        self.proc = None
        self.url = ""

    def __enter__(self) -> "ServeProcess":
        self.proc = subprocess.Popen([sys.executable, "-m", "pnpgen", "serve", *self.arguments], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     cwd=Path(__file__).resolve().parent.parent, preexec_fn=DIE_WITH_PARENT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        try:
            self.url = URL.search(self.wait_for("pnpgen studio:")).group(1)
        except BaseException:
            self.stop()
            raise
        return self

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, words: str, seconds: float | None = None) -> str:
        """The first new output line holding `words`."""
        deadline = time.monotonic() + (seconds or self.seconds)
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                if self.proc.poll() is not None and self.lines.empty():
                    break
                continue
            self.said.append(line)
            if words in line:
                return line
        raise AssertionError(f"pnpgen serve never said {words!r}; it said {self.said}")

    def get(self, path: str, **headers) -> tuple[int, dict, bytes]:
        return self.request(path, headers=headers)

    def token(self) -> str:
        """The token the studio put into its page (as the page reads it)."""
        return re.search(r'name="studio-token" content="([^"]+)"', self.get("")[2].decode()).group(1)

    def post(self, path: str, data: dict, **headers) -> tuple[int, dict, bytes]:
        """A JSON POST as the page sends it (its token in `headers`, if any)."""
        return self.request(path, json.dumps(data).encode(), {"Content-Type": "application/json", **headers})

    def request(self, path: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, dict, bytes]:
        request = urllib.request.Request(self.url + path.lstrip("/"), data=body, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def view(self) -> dict:
        return json.loads(self.get("view.json")[2])

    def wait_for_view(self, test, seconds: float | None = None) -> dict:
        deadline, view = time.monotonic() + (seconds or self.seconds), None
        while time.monotonic() < deadline:
            view = self.view()
            if test(view):
                return view
            time.sleep(0.05)
        raise AssertionError(f"the view never passed the test; last: status {view and view['status']}, "
                             f"problems {view and view['problems']}")

    def stop(self) -> int:
        """Ctrl-C, as a designer stops it; its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=20)
        self.reader.join(timeout=5)
        while not self.lines.empty():
            self.said.append(self.lines.get())
        return self.proc.returncode

    def __exit__(self, *exc) -> None:
        self.stop()


def write_cell(csv: Path, old: str, new: str) -> None:
    """Save a spreadsheet cell's new value the way an editor does (the whole file written again)."""
    text = csv.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {csv.name}"
    csv.write_text(text.replace(old, new, 1), encoding="utf-8")


def pieces_shown(ref: str, side: str = "front") -> str:
    """JavaScript: how many of `ref`'s pictures the page shows fully loaded (decoded, not broken)."""
    return (f"[...document.querySelectorAll('figure.piece[data-ref=\"{ref}\"] img.{side}')]"
            ".filter(i => i.complete && i.naturalWidth > 0).length")


VISIBLE = ("[...document.querySelectorAll('{}')]"
           ".filter(i => i.loading !== 'lazy' || i.getBoundingClientRect().top < innerHeight)")
# JavaScript: the number of pictures the page shows, once every one in view is loaded (else false); page
# thumbnails below the window load lazily, as the designer scrolls, and are not waited for
ALL_LOADED = (f"(imgs => imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0) && imgs.length)"
              f"({VISIBLE.format('#pieces img, #files img')})")
