"""Lay figure art on the laid-out pages: each art rendered once by cairo (vector, shipped font), then
drawn as a form XObject (booklet.pdfcopy) into the room its FigureBox reserved, scaled to fit, beneath the
page's own marks so callout lines and dots show on top of the art."""
from __future__ import annotations

import dataclasses
import io
import sys
import tempfile
from pathlib import Path

from pnpgen.preflight import art_overprints
from pnpgen.problems import BuildError
from pnpgen.render.art import Art
from pnpgen.render.pdf import ArtCache, PdfDocument


def render_arts(figures: dict, base: Path, places: dict | None = None, store_file: Path | None = None,
                keys: dict | None = None) -> dict:
    """Each figure's art drawn by cairo once (the same SVG twice, once): {(figure, index): Art}; images
    the art shows come from the kit folder `base`. Each art passes the overprint preflight (text over text,
    a line across text), or the build stops naming the chapter that places it (`places`: figure -> file).
    `store_file`: where the arts' recorded cairo calls are kept between builds (as the pieces' faces are),
    so an edit that typesets the text again replays the figures it did not change. `keys`: each art's content
    key ({(figure, index): key}, check_memo.drawing_key's) where the caller has worked it out already."""
    from pnpgen.render.check_memo import CheckMemo, drawing_key
    cache, rendered, findings, checked = ArtCache(base), {}, [], CheckMemo("figures", base)
    stored = StoredArts(store_file, base, cache) if store_file is not None else None
    for fig in figures.values():
        for index, art in enumerate(fig.arts):
            where = f"{(places or {}).get(fig.name, 'booklet')}: figure {fig.name} ({art.source})"
            key = (keys or {}).get((fig.name, index)) or drawing_key(art.svg, base)
            rendered[(fig.name, index)] = drawn = (stored.get(key, art.svg, where) if stored
                                                   else cache.get(art.svg, where))
            found = checked.findings(key, lambda: art_overprints(drawn))
            findings += [f"{where}: {finding}" for finding in found]
    checked.save()
    if stored:
        stored.save()
    if findings:
        raise BuildError("preflight: these booklet figures would print badly:\n" + "\n".join(findings))
    return rendered


class StoredArts:
    """Figure art replayed from its recorded calls, kept in one file under the drawing's content key (its
    SVG, the images and kit fonts it shows, the renderer): the same calls a fresh recording replays, so the
    same bytes. Art the recorder cannot take (cairosvg's, or a failure to be said) is drawn by `cache`."""

    def __init__(self, path: Path, base: Path, cache: ArtCache):
        from pnpgen.render.face_store import PackedFaceStore
        self.store, self.base, self.cache, self.arts = PackedFaceStore(path), base, cache, {}

    def get(self, key: str, svg: str, where: str):
        """The art of `svg` (content key `key`): from its stored calls, not yet replayed (see drawn), when the
        store has them."""
        if key not in self.arts:
            record = self.store.get(key)
            if record is None:
                record = self._record(svg)
                if record is None:
                    return self.cache.get(svg, where)
                self.store.put(key, record)
            self.arts[key] = Art(None, record["width"], record["height"], tuple(tuple(t) for t in
                                                                               record.get("texts", ())), record["ops"])
        return self.arts[key]

    def _record(self, svg: str) -> dict | None:
        from pnpgen.render import svg_ops
        try:
            return svg_ops.record(svg, self.base)
        except Exception:  # noqa: BLE001 - render_svg draws it again, and says what is wrong where
            return None

    def save(self) -> None:
        try:
            self.store.save(set(self.arts))
        except OSError:  # a store that cannot be written only costs the next build the recordings
            pass


FIGURE_TEXT = 6.0   # points: the smallest text a figure may print at the size its page gives it


def readable(figures: dict, rendered: dict, default) -> dict:
    """The figures, each widened where its printed width (its own, else `default(figure)`) would set its
    smallest text below FIGURE_TEXT: a card's 7 pt lines shown at half size are 3.5 pt. The layout still
    holds a figure to its column; what stays too small there is a finding (figure_text_sizes)."""
    out = {}
    for name, figure in figures.items():
        needed = max((FIGURE_TEXT * art.width / smallest
                      for art in (rendered[(name, i)] for i in range(len(figure.arts)))
                      if (smallest := min((t[0] for t in art.texts if str(t[5]).strip()), default=0)) > 0),
                     default=0.0)
        width = figure.width or default(figure)
        out[name] = dataclasses.replace(figure, width=round(needed + 0.5, 1)) if needed > width else figure
    return out


def figure_text_sizes(figures: dict, rendered: dict, placements: dict, places: dict | None = None) -> None:
    """Stop the build when a figure, scaled to the room its page gave it, prints text below FIGURE_TEXT:
    a piece drawn at a third of its size shows a 7 pt card line at 2.3 pt, legible to nobody. Each finding
    names the chapter, the figure, the page and the text, as drawn (the sizes cairo recorded, times the
    scale the layout chose), never read back from the PDF."""
    findings = []
    for key in sorted(k for k in placements if k in rendered):
        art, (page, _, _, w, _) = rendered[key], placements[key]
        scale = w / art.width if art.width else 1.0
        small = sorted({(round(size * scale, 1), str(text).strip()) for size, *_, text in art.texts
                        if size * scale < FIGURE_TEXT - 0.01 and str(text).strip()})
        if small:
            name, index = key
            source = figures[name].arts[index].source if name in figures else ""
            shown = ", ".join(f"{text!r} at {size:g} pt" for size, text in small[:4])
            more = f" and {len(small) - 4} more" if len(small) > 4 else ""
            findings.append(f"{(places or {}).get(name, 'booklet')}: figure {name} ({source}) on page {page}: "
                            f"text {shown}{more}, below the {FIGURE_TEXT:g} pt minimum at the size the page "
                            f"prints it ({scale * 100:.0f} %): show fewer pieces, or give the figure more room")
    if findings:
        raise BuildError("preflight: these booklet figures print text too small to read:\n" + "\n".join(findings))


def art_pdf(arts: list, folder: Path):
    """One page per art, each page exactly the art's size, read by pypdf."""
    from pypdf import PdfReader
    return PdfReader(io.BytesIO(art_pages(arts, folder)))


def art_pages(arts: list, folder: Path) -> bytes:
    """art_pdf's PDF, as cairo wrote it (in `folder`)."""
    path = folder / "figures.pdf"
    doc = PdfDocument(path, "figures", arts[0].width, arts[0].height)
    recorded: dict = {}   # one recording for an art placed twice: cairo writes it once, as one XObject
    for art in arts:
        if id(art) not in recorded:
            recorded[id(art)] = drawn(art)
        doc.new_page(art.width, art.height)
        doc.place(recorded[id(art)], 0, 0)
    doc.close()
    return path.read_bytes()


def drawn(art: Art) -> Art:
    """`art` with its cairo recording: a stored art (StoredArts) is replayed only here, when its page is drawn;
    its size, texts and calls (what the layout and the checks read) come from the store as they are, and a
    build whose figures' PDF is kept (KeptArtPages) replays none (SE4X: 17 arts)."""
    if art.recording is not None:
        return art
    from pnpgen.render.face_store import replay
    return replay({"width": art.width, "height": art.height, "ops": art.ops, "texts": art.texts}, unbounded=True)


class KeptArtPages:
    """The last art_pdf a document laid on its pages, kept in one file of the user's cache under what made it:
    the content key of each art (art_keys: {(figure, i): key}, its SVG, images, fonts and renderer), their
    order, and the code and cairo that write the PDF. A build into a new output folder whose figures did not
    change reads it instead of having cairo write 17 arts again (SE4X: 0.02-0.03 s). Signed with the user's
    key (pnpgen.signing): an entry that is not this user's, or is damaged, is drawn again."""

    def __init__(self, path: Path | None, art_keys: dict):
        self.path, self.art_keys = path, art_keys

    def reader(self, keys: list, arts: list, folder: Path):
        """data(keys, arts, folder), read by pypdf."""
        from pypdf import PdfReader
        return PdfReader(io.BytesIO(self.data(keys, arts, folder)))

    def data(self, keys: list, arts: list, folder: Path) -> bytes:
        """art_pages(arts, folder) for the arts `keys` names, from the file when it holds them (drawn when an
        art has no key)."""
        from pnpgen.signing import read_sealed, seal
        from pnpgen.whole_files import write_whole
        if self.path is None or any(key not in self.art_keys for key in keys):
            return art_pages(arts, folder)
        head = self._key(keys).encode("ascii") + b"\n"
        kept = read_sealed(self.path)
        if kept is not None and kept.startswith(head):
            return kept[len(head):]
        data = art_pages(arts, folder)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_whole(self.path, seal(head + data))
        except OSError:   # a cache that cannot be written only costs the next build the drawing
            pass
        return data

    def _key(self, keys: list) -> str:
        from pnpgen.output_cache import content_key, source_fingerprint
        from pnpgen.render import art, pdf, pdf_images, print_scaling
        from pnpgen.render.cairo_lib import cairo
        code = source_fingerprint(sys.modules[__name__], art, pdf, pdf_images, print_scaling)
        return content_key(code, cairo().cairo_version_string(), *(self.art_keys[key] for key in keys))


def figure_layer(rendered: dict, placements: dict, above=frozenset(), kept: KeptArtPages | None = None) -> tuple:
    """The figures' art as a layer for pdfcopy.lay_on: (the arts' PDF, [(page, art page, matrix, above)]).
    `rendered[(figure, i)]` is a cairo Art; `placements[(figure, i)]` is (page, x, y, w, h). The figures
    named in `above` go over the page's own drawing (a cover's pieces over its picture), the rest beneath it
    (callout lines over the art). `kept`: where the arts' PDF is kept between builds."""
    keys = sorted(k for k in placements if k in rendered)
    if not keys:
        return b"", []
    with tempfile.TemporaryDirectory() as folder:
        drawn = [rendered[k] for k in keys]
        arts = kept.data(keys, drawn, Path(folder)) if kept is not None else art_pages(drawn, Path(folder))
    places = []
    for index, key in enumerate(keys):
        page, x, y, w, _ = placements[key]
        scale = w / rendered[key].width
        places.append((page, index, (scale, 0, 0, scale, x, y), key[0] in above))
    return arts, places
