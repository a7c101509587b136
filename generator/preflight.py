"""Preflight: what would print badly, found before it prints. Every glyph a face draws was measured as it
was drawn (pnpgen.render.face_store.glyph_box); here each is held against the piece's cut path and the
minimum size of its kind of piece (a card's text 7 pt, a counter's, token's or tile's 6 pt, as published
counters print), and its colour against the ground drawn under it (pnpgen.render.ink_lines). Findings name
the text so a designer can find it in the template."""
from __future__ import annotations

import math
from dataclasses import dataclass

from pnpgen.contrast import contrast_ratio, hex_colour
from pnpgen.i18n.translator import noted
from pnpgen.lengths import parse_length
from pnpgen.overlaps import OVERLAP, overlapping_pairs
from pnpgen.shapes import Shape, hex_corners

MIN_TEXT = parse_length("6pt")       # a counter's, token's or tile's smallest text, as published counters print
CARD_TEXT = parse_length("7pt")      # a card's: held in the hand, read at arm's length
BOOKLET_TEXT = parse_length("8pt")   # a rules booklet's body: read in paragraphs, as publishers set it (8-10 pt);
                                     # its tables, captions, headers and footers keep MIN_TEXT
CARD_SIDE = parse_length("40mm")     # a rect or square piece whose shorter side is this or more is a card
CUT_MARGIN = parse_length("1mm")     # text closer to a cut than this is cut into by an ordinary hand
CONTRAST = 4.5                       # WCAG 2 AA for body text: text against its ground, relative luminance
KINDS = ("card", "counter")
SIZE_SLACK = 0.01                    # points: what a size given in mm (pt(7) = 2.469 mm) loses to rounding


@dataclass(frozen=True)
class Rules:
    min_text: float = MIN_TEXT
    cut_margin: float = CUT_MARGIN
    card_text: float = CARD_TEXT
    contrast: float = CONTRAST


def preflight_rules(kit) -> Rules:
    """The kit's own limits (kit.yaml `preflight:`), or the defaults."""
    own = getattr(kit, "preflight", None) or {}
    defaults = Rules()
    return Rules(parse_length(own["min_text"]) if own.get("min_text") else defaults.min_text,
                 parse_length(own["cut_margin"]) if own.get("cut_margin") else defaults.cut_margin,
                 parse_length(own["card_text"]) if own.get("card_text") else defaults.card_text,
                 float(own["contrast"]) if own.get("contrast") else defaults.contrast)


def piece_kind(shape: Shape, declared: str | None = None) -> str:
    """'card' or 'counter' (a counter, token or tile): the table's own `kind`, else a square or rect piece
    whose shorter side is at least CARD_SIDE (40 mm) is a card; smaller ones, circles and hexes are not."""
    if declared in KINDS:
        return declared
    return "card" if shape.kind in ("square", "rect") and min(shape.w, shape.h) >= CARD_SIDE - 1e-6 else "counter"


def check_face(texts, shape: Shape, bleed: float, rules: Rules, sources=(), kind: str = "counter",
               fine=()) -> list[str]:
    """Findings for one face: runs of text below the minimum size of its kind of piece, or too near (or
    over) the cut path. `sources`: (label, first, end) of the glyphs an image drew (a kit's SVG icon, "the
    icon :credit: (art/credit.svg)"): a run among them is named with its label, since the template does not
    hold it. `fine`: the indexes of the texts a template marks as fine print (class="fine-print"), held to
    the counters' floor on a card too."""
    small, near = [], []
    text_runs = runs(texts, bleed)
    fine = set(fine)
    for run, indexes in zip(text_runs, _run_indexes(text_runs)):
        named = _named(run, indexes[0], sources) + noted(_text(run))  # a translation: its PO line
        floor = rules.card_text if kind == "card" and not fine.issuperset(indexes) else rules.min_text
        smallest = min(size for size, _, _ in run)
        if smallest < floor - SIZE_SLACK:
            small.append((named, sorted({round(size, 1) for size, _, _ in run if size < floor - SIZE_SLACK}), floor))
        gap = min(clearance(box, shape) for _, _, box in run)
        if gap < rules.cut_margin - 0.03:  # 0.01 mm: what the rounding of a layout leaves
            near.append((named, gap))
    what = "a card's" if kind == "card" else "the"
    findings = [f"text {text} is {_list(sizes)} pt, below {what} {floor:g} pt minimum" for text, sizes, floor in small]
    findings += [f"text {text} comes within {max(gap, 0) * 25.4 / 72:.2f} mm of the cut line "
                 f"(keep {rules.cut_margin * 25.4 / 72:g} mm clear)" for text, gap in near]
    return findings


def _named(run, first: int, sources) -> str:
    """The run's text quoted, and where it comes from when an image drew it."""
    label = next((label for label, start, end in sources if start <= first < end), None)
    return repr(_text(run)) + (f" in {label}" if label else "")


def runs(texts, bleed: float) -> list[list]:
    """Glyphs grouped into runs of text: the same line, each glyph close after the one before."""
    out, last = [], None
    for size, x0, y0, x1, y1, glyph in texts:
        box = (x0 - bleed, y0 - bleed, x1 - bleed, y1 - bleed)
        joined = last is not None and abs(last[0] - size) < 0.01 and abs(box[3] - last[1][3]) < size * 0.6 \
            and -size * 0.35 <= box[0] - last[1][2] <= size * 0.9
        if joined:
            out[-1].append((size, glyph if box[0] - last[1][2] < size * 0.15 else " " + glyph, box))
        else:
            out.append([(size, glyph, box)])
        last = (size, box)
    return out


def _text(run) -> str:
    text = "".join(glyph for _, glyph, _ in run)
    return text if len(text) <= 40 else text[:37] + "..."


def clearance(box, shape: Shape) -> float:
    """How far (points) the box stays inside the shape's cut path; negative when it crosses it."""
    x0, y0, x1, y1 = box
    corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    if shape.kind == "circle":
        r = shape.w / 2
        return min(r - math.hypot(x - r, y - r) for x, y in corners)
    if shape.kind == "hex":
        polygon = hex_corners(shape.w / 2, shape.h / 2, shape.w, shape.h, shape.orientation)
        return min(_inside_distance(point, polygon) for point in corners)
    straight = min(x0, y0, shape.w - x1, shape.h - y1)
    if shape.kind == "rect" and shape.radius:
        r = shape.radius
        for cx, cy in ((r, r), (shape.w - r, r), (r, shape.h - r), (shape.w - r, shape.h - r)):
            for x, y in corners:
                if (x < r or x > shape.w - r) and (y < r or y > shape.h - r) and abs(x - cx) <= r and abs(y - cy) <= r:
                    straight = min(straight, r - math.hypot(x - cx, y - cy))
    return straight


def _inside_distance(point, polygon) -> float:
    """Signed distance from a point to the edges of a convex clockwise polygon (positive inside)."""
    px, py = point
    out = math.inf
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        ex, ey = bx - ax, by - ay
        length = math.hypot(ex, ey) or 1
        out = min(out, ((px - ax) * ey - (py - ay) * ex) / -length)
    return out


def _list(values) -> str:
    return ", ".join(f"{v:g}" for v in values)


TINT = 0.2       # a line or shape this close in lightness to the ground it lies on is a tint (a watermark)


def overprints(texts, ink, bleed: float = 0.0) -> list[str]:
    """Findings for one drawing: runs of text whose ink boxes overlap another run's, and runs a visible
    stroked line crosses. `texts` as for check_face, `ink` what pnpgen.render.ink_lines.read_ink found in its
    calls, both in the drawing's points; `bleed` is taken off the positions the messages give."""
    orders = ink.text_orders if len(ink.text_orders) == len(texts) else [math.inf] * len(texts)
    text_runs = runs(texts, 0.0)
    spans = [(_text(run), _union(box for _, _, box in run), max(orders[i] for i in run_indexes))
             for run, run_indexes in zip(text_runs, _run_indexes(text_runs))]
    findings = [f"text {a!r} overprints text {b!r} at {_at(box, bleed)}{noted(a) or noted(b)}"
                for a, b, box in _text_overlaps(spans)]
    for text, box, order in spans:
        crossing = next((line for line in ink.near(box) if _line_crosses(line, box)
                         and not ink.hidden(box, line[5], order)
                         and abs(line[6] - ink.ground(box, line[5])) >= TINT), None)
        if crossing is not None:
            what = "a line" if crossing[0] else "the edge of a filled shape"
            findings.append(f"text {text!r} at {_at(box, bleed)} is crossed by {what} from "
                            f"{_point(crossing[1:3], bleed)} to {_point(crossing[3:5], bleed)}{noted(text)}")
    return findings


def contrasts(texts, ink, rules: Rules, bleed: float = 0.0, image_name=None) -> list[str]:
    """Findings for one drawing: text whose colour stands out from the ground drawn under it by less than
    the rules' contrast ratio (WCAG's, of relative luminances), and text set over a picture with no opaque
    shape drawn between them as its backing. `ink`: what pnpgen.render.ink_lines.read_ink found in the
    drawing's calls; a drawing whose calls were not kept (ink without a colour per text) has none.
    `image_name(path)`: how the message names a picture (default: its folder and file)."""
    if len(ink.text_colours) != len(texts):
        return []
    findings, seen = [], set()
    for order, (rgb, alpha), text in zip(ink.text_orders, ink.text_colours, texts):
        box = text[1:5]
        ground, picture = ink.backing(box, order)
        words = text[5].strip()
        if not words or (words, picture) in seen:
            continue
        if picture is not None:
            seen.add((words, picture))
            findings.append(f"text {words!r} at {_at(box, bleed)} is set over the image {(image_name or _image_name)(picture)} "
                            f"with no backing: draw an opaque shape under the text{noted(words)}")
            continue
        ink_colour = tuple(alpha * c + (1 - alpha) * g for c, g in zip(rgb, ground))
        ratio = contrast_ratio(ink_colour, ground)
        if ratio < rules.contrast - 0.005 and (words, None) not in seen:
            seen.add((words, None))
            findings.append(f"text {words!r} ({hex_colour(ink_colour)} on {hex_colour(ground)}) has a contrast of "
                            f"{ratio:.1f}:1, below {rules.contrast:g}:1{noted(words)}")
    return findings


def _image_name(path: str) -> str:
    parts = str(path).replace("\\", "/").split("/")
    return "/".join(parts[-2:])


def art_overprints(art) -> list[str]:
    """overprints() of a drawn Art (a figure): none when it was drawn without a record of its calls."""
    if art.ops is None:
        return []
    from pnpgen.render.ink_lines import read_ink
    return overprints(art.texts, read_ink(art.ops))


def art_checks(art, rules: Rules) -> list[str]:
    """What a board or hex map would print badly, drawn at the size it prints: text below the smallest size
    (a board is read across the table, as counters are: rules.min_text), text over text or under a line,
    and text too faint on the fill under it or set on a picture (contrasts)."""
    found = small_texts(art.texts, rules.min_text)
    if art.ops is None:
        return found
    from pnpgen.render.ink_lines import read_ink
    ink = read_ink(art.ops)
    return found + overprints(art.texts, ink) + contrasts(art.texts, ink, rules)


def small_texts(texts, floor: float) -> list[str]:
    """Runs of text set below `floor` points, each once with where it starts (a map repeats its labels)."""
    said, out = set(), []
    for run in runs(texts, 0.0):
        sizes = sorted({round(size, 1) for size, _, _ in run if size < floor - SIZE_SLACK})
        if sizes and (_text(run), tuple(sizes)) not in said:
            said.add((_text(run), tuple(sizes)))
            out.append(f"text {_text(run)!r} at {_at(_union(box for _, _, box in run), 0.0)} is {_list(sizes)} pt, "
                       f"below the {floor:g} pt minimum{noted(_text(run))}")
    return out


def _text_overlaps(spans) -> list:
    """(text, other text, shared box) of every two runs whose ink overlaps by more than OVERLAP each way,
    in the order of their left edges (pnpgen.overlaps: a grid, not every pair)."""
    ordered = sorted(spans, key=lambda span: span[1][0])
    return [(ordered[a][0], ordered[b][0], shared)
            for a, b, shared in overlapping_pairs([span[1] for span in ordered], OVERLAP)]


def _line_crosses(line, box) -> bool:
    """Whether a stroked segment (its ink, half its width each side) enters the box shrunk by OVERLAP."""
    half, x0, y0, x1, y1 = line[:5]
    grow = half - OVERLAP
    left, top, right, bottom = box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow
    if max(x0, x1) < left or min(x0, x1) > right or max(y0, y1) < top or min(y0, y1) > bottom:
        return False
    low, high = 0.0, 1.0   # Liang-Barsky: the part of the segment inside the box
    for step, start, lo, hi in ((x1 - x0, x0, left, right), (y1 - y0, y0, top, bottom)):
        if abs(step) < 1e-9:
            if start < lo or start > hi:
                return False
            continue
        a, b = (lo - start) / step, (hi - start) / step
        low, high = max(low, min(a, b)), min(high, max(a, b))
        if low > high:
            return False
    return True


def _run_indexes(text_runs) -> list[list[int]]:
    """The indexes into the texts of each of their runs (runs() keeps their order)."""
    out, index = [], 0
    for run in text_runs:
        out.append(list(range(index, index + len(run))))
        index += len(run)
    return out


def _union(boxes) -> tuple:
    boxes = list(boxes)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _at(box, bleed: float) -> str:
    return f"{_point(box[:2], bleed)}-{_point(box[2:], bleed)}"


def _point(point, bleed: float) -> str:
    return f"({(point[0] - bleed) * 25.4 / 72:.1f}, {(point[1] - bleed) * 25.4 / 72:.1f}) mm"
