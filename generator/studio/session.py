"""`pnpgen serve`: build, show, and build again on every save (pnpgen.watch), with the page kept current.

One attempt, in order of what a designer waits for: load the kit (a located problem goes straight to the
page), draw the pieces' faces that changed and show them, then build the files and show their pages. A
failed attempt leaves the last good pieces and pages in the view, beside its problems. Builds and proofs
take turns (one lock): both write into the kit's output folder.
"""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Callable

from pnpgen.problems import BuildError, KitError
from pnpgen.studio.pictures import FacePictures, PagePictures, pictures_named
from pnpgen.studio.state import StudioState, message_view, message_views, problem_view

HEAD_START_S = 0.5  # the most a build waits for the page to fetch a save's new pictures before it takes the cores
PAINT_S = 0.1       # and then for the page to decode and show them: a build started at once slowed that by 0.1 s
PROOF_DPI = 192.0   # twice the browser's 96 CSS px an inch: a proof shown at print size stays sharp


class Studio:
    """The attempts and proofs behind the page; `load(texts=...)` returns (kit, warnings) or raises KitError
    (pnpgen.kit.load_kit: texts=False leaves the documents' texts for check_kit_texts)."""

    def __init__(self, state: StudioState, load: Callable, options):
        self.state, self.load, self.options = state, load, options
        self.faces = FacePictures(state.pictures, skip=(Path(options.out),))
        self.pages = PagePictures(state.pictures)
        self.turn = threading.Lock()
        self.kit = None          # the last kit that built, for proofs
        self.parts: list = []    # the parts it built: their libraries are loaded while the studio waits (idle)

    def attempt(self) -> str:
        """One build for pnpgen.watch: a one-line summary, or the located problem raised after the page has it."""
        from pnpgen import budgets
        with self.turn, budgets.enforced():  # each build afresh: a studio left open for hours never runs out
            start = time.perf_counter()
            self.state.update(status="building")
            try:
                return self._attempt(start)
            except KitError as exc:
                self.state.failed([problem_view(p) for p in exc.problems])
                raise
            except BuildError as exc:
                self.state.failed(message_views(str(exc)))
                raise
            except OSError as exc:  # a file the build reads or writes went away, or the disk is full
                self.state.failed([message_view(str(exc))])
                raise BuildError(str(exc)) from None

    def _attempt(self, start: float) -> str:
        from pnpgen.build import build
        from pnpgen.kit import check_kit_texts
        from pnpgen.render.font_reset import use_kit_fonts
        try:
            kit, warnings = self.load(texts=False)  # the documents' texts checked once the pieces show
        except KitError:
            self.load()  # a broken kit: every problem at once, the texts' too, as validate says them
            raise
        use_kit_fonts(kit.fonts)  # as build() does, before the first face is drawn: cairo keeps what a family meant
        shown_warnings = [problem_view(p) for p in warnings]
        pieces = self.faces.pieces(kit)  # at the size the kit was loaded at (--counter-size resizes tables)
        before = pictures_named(self.state.snapshot()["pieces"], [])
        self.state.update(title=kit.title, pieces=pieces, problems=shown_warnings, status="building pages")
        new = pictures_named(pieces, []) - before
        if new and self.state.wait_sent(new, HEAD_START_S) and self.state.watching:
            time.sleep(PAINT_S)   # fetched: the page decodes and paints them while the cores are still free
        shown_warnings += [problem_view(p) for p in check_kit_texts(kit, self.options.strict)]
        result = build(kit, self.options)
        files = self.pages.files(result.kit_out, result.files)
        self.kit, self.parts = kit, list(result.parts)
        self.state.allow_files({path.relative_to(result.kit_out).as_posix(): path for path in result.files})
        seconds = time.perf_counter() - start
        self.state.succeeded(pieces=pieces, files=files, status="built", seconds=round(seconds, 2), built_at=time.time(),
                          problems=shown_warnings + [message_view(w) | {"severity": "warning"}
                                                     for w in result.warnings])
        return f"{', '.join(result.parts) or 'manifest'} ({len(result.files)} files)"

    def idle(self) -> None:
        """Between saves: the last kit's memos forgotten and the libraries its parts need loaded once in this
        process, so each later build's workers fork with them (pnpgen.run_parts.between_builds)."""
        from pnpgen.run_parts import between_builds
        with self.turn:  # never beside a proof, which draws in this process
            between_builds(self.parts)

    def proof(self, ref: str, variant: str | None, colour: str | None) -> dict:
        """A piece's proof (pnpgen.proof) at print size: its two PNGs and the proof PDF, for the page."""
        from pnpgen.layout.proof import PNG_MARGIN_MM
        from pnpgen.proof import make_proofs
        with self.turn:
            if self.kit is None:
                raise ValueError("nothing has built yet: fix the problems shown, then open the proof")
            only = f"{ref}:{variant}" if variant else ref
            result = make_proofs(self.kit, only, self.options.out, colour=colour, dpi=PROOF_DPI,
                                 counter_size=self.options.counter_size)
            answer = {"ref": ref, "margin_mm": PNG_MARGIN_MM, "dpi": PROOF_DPI}
            self.state.proof_pictures = set()  # the last proof's pictures stay until the next proof
            kit_out = Path(self.options.out) / self.kit.id
            for path in result.files:
                rel = path.relative_to(kit_out).as_posix()
                if path.suffix == ".pdf":
                    self.state.allow_file(rel, path)
                    answer["pdf"] = rel
                else:
                    answer[path.stem.rsplit("-", 1)[1]] = self._proof_picture(path)
            return answer

    def _proof_picture(self, path: Path) -> dict:
        from PIL import Image
        data = path.read_bytes()
        name = self.state.pictures.add(data)
        self.state.proof_pictures.add(name)
        with Image.open(path) as image:
            width, height = image.size
        return {"picture": name, "w_mm": round(width / PROOF_DPI * 25.4, 2),
                "h_mm": round(height / PROOF_DPI * 25.4, 2)}


def serve(root: Path, options, load: Callable, port: int = 0, open_browser: bool = False,
          stream=sys.stderr) -> int:
    """Serve the studio on 127.0.0.1 and rebuild on every save until Ctrl-C (or SIGTERM)."""
    from pnpgen.studio.server import StudioServer, start
    from pnpgen.watch import watch
    state = StudioState()
    studio = Studio(state, load, options)
    try:
        server = StudioServer(state, studio.proof, port)
    except OSError as exc:  # the port is taken (another studio?) or not ours to bind
        raise ValueError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}; "
                         f"choose another with --port (0 picks a free one)") from None
    start(server)
    try:
        print(f"pnpgen studio: {server.url}  (Ctrl-C to stop)", flush=True)
        if open_browser:
            import webbrowser
            webbrowser.open(server.url)
        return watch(root, options.out, studio.attempt, stream=stream, idle=studio.idle)
    finally:
        state.stop()
        server.shutdown()
        server.server_close()
