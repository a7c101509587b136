"""A virtual duplex printer: where the paper really puts each drawing of a back page, read from the PDF.

Written from printing.md's table, apart from pnpgen.duplex, so the tests can catch the code. The drawing is
read from the page's content stream: every clipped placement (`x y w h re W n` inside a `q ... Q`, as cairo
paints a face and the aid cards clip a card) with the transformation in force, in PDF points from the
bottom-left corner, and whether the art under it is drawn turned half a turn.
"""
from __future__ import annotations

from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4
TOLERANCE = 0.1 * MM


@dataclass(frozen=True)
class Drawn:
    x: float
    y: float
    w: float
    h: float
    upside_down: bool      # the art's y axis points the other way from the page's (turned half a turn)


def _times(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _box(ctm, x, y, w, h):
    a, b, c, d, e, f = ctm
    points = [(a * px + c * py + e, b * px + d * py + f) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def clipped_drawings(page) -> list[Drawn]:
    """Every clip rectangle the page draws inside, in drawing order, with the art's orientation at its first
    painting operation (a form XObject or a fill) after the clip."""
    ops = ContentStream(page.get_contents(), page.pdf).operations
    ctm, stack, found, pending = (1, 0, 0, 1, 0, 0), [], [], None
    last_rect = None
    for operands, op in ops:
        op = op.decode() if isinstance(op, bytes) else op
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop() if stack else ctm
        elif op == "cm":
            ctm = _times(tuple(float(v) for v in operands), ctm)
        elif op == "re":
            last_rect = (ctm, *(float(v) for v in operands))
        elif op in ("W", "W*") and last_rect is not None:
            pending = last_rect
        elif op in ("Do", "f", "f*", "B", "B*", "b", "b*", "Tj", "TJ") and pending is not None:
            rect_ctm, x, y, w, h = pending
            base_flip = rect_ctm[3] < 0                       # the page's own y-down transformation, if any
            found.append(Drawn(*_box(rect_ctm, x, y, w, h), upside_down=(ctm[3] < 0) != base_flip))
            pending = None
    return found


def where_paper_puts(back: Drawn, page_w: float, page_h: float, flip: str) -> Drawn:
    """Where a drawing on the back page lands on the front page's coordinates once the sheet is turned over
    on `flip` (printing.md: portrait long / landscape short mirror left-right, the others top-bottom), and
    whether it then stands the front's way up (a top-bottom turn stands everything on its head)."""
    landscape = page_w > page_h
    left_right = (flip == "long") != landscape
    if left_right:
        return Drawn(page_w - back.x - back.w, back.y, back.w, back.h, back.upside_down)
    return Drawn(back.x, page_h - back.y - back.h, back.w, back.h, not back.upside_down)


def misfits(front: list[Drawn], back: list[Drawn], page_w: float, page_h: float, flip: str,
            has_back: list[bool] | None = None) -> list[str]:
    """Each back drawing, flipped as paper flips, against the front drawing at the same place in the order
    (among the fronts that have a back: `has_back`, in drawing order, where one-sided pieces share the page):
    what lies more than 0.1 mm off, or stands the other way up."""
    if has_back is not None:
        if len(has_back) != len(front):
            return [f"{len(front)} drawings on the front for {len(has_back)} pieces"]
        front = [drawn for drawn, backed in zip(front, has_back) if backed]
    if len(front) != len(back):
        return [f"{len(front)} fronts but {len(back)} backs"]
    bad = []
    for number, (f, b) in enumerate(zip(front, back), start=1):
        landed = where_paper_puts(b, page_w, page_h, flip)
        off = max(abs(landed.x - f.x), abs(landed.y - f.y), abs(landed.w - f.w), abs(landed.h - f.h))
        if off > TOLERANCE:
            bad.append(f"piece {number}: back lands {off / MM:.2f} mm off its front")
        elif landed.upside_down != f.upside_down:
            bad.append(f"piece {number}: back lands upside down behind its front")
    return bad


def pdf_misfits(path, flip: str, back_pages: list[int], has_back: dict | None = None) -> tuple[int, list[str]]:
    """(backs checked, what is wrong) for a PDF whose `back_pages` (numbered from 1) each back the page
    before them; `has_back`: front page number -> which of its pieces have a back (default: all)."""
    reader = PdfReader(str(path))
    checked, bad = 0, []
    for number in back_pages:
        index = number - 2
        front, back = reader.pages[index], reader.pages[index + 1]
        width, height = float(front.mediabox.width), float(front.mediabox.height)
        fronts, backs = clipped_drawings(front), clipped_drawings(back)
        checked += len(backs)
        backed = (has_back or {}).get(number - 1)
        bad += [f"{path.name} p{index + 2}: {problem}" for problem in misfits(fronts, backs, width, height, flip, backed)]
    return checked, bad


def page_size(path, number: int) -> tuple[float, float]:
    box = PdfReader(str(path)).pages[number - 1].mediabox
    return float(box.width), float(box.height)


def lands_on(back: dict, front: dict, page: tuple[float, float], flip: str) -> bool:
    """A manifest back placement (top-left origin) turned over on `flip` lands on `front`'s box (0.1 mm),
    turned half a turn exactly where the paper stands it on its head."""
    landed = where_paper_puts(Drawn(back["x"], back["y"], back["w"], back["h"], back["turned"]), *page, flip)
    return (max(abs(landed.x - front["x"]), abs(landed.y - front["y"])) <= TOLERANCE
            and landed.upside_down == front.get("turned", False))
