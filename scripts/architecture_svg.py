"""Draw docs/architecture.svg, the picture of pnpgen's layers, from the tables of docs/architecture.md.

The page's table "Every module's layer" is the one tests/test_architecture.py holds the code to; the picture
is drawn from it (and each layer's caption from the table "The layers, bottom up"), so it cannot drift: the
test draws it again and fails when the committed SVG differs.

    python scripts/architecture_svg.py           # rewrite docs/architecture.svg after editing the tables
"""
from __future__ import annotations

import re
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
SVG = DOC.with_suffix(".svg")
MODULES_HEADING = "## Every module's layer"
LAYERS_HEADING = "## The layers, bottom up"
MODULE_ROW = re.compile(r"^\| `(\w+)` \| (.*) \|$")
LAYER_ROW = re.compile(r"^\| \d+ \| `(\w+)` \| (.*?) \| .* \|$")

WIDTH, MARGIN, LABEL_WIDTH = 980, 16, 170
FONT, SIZE, LINE = "DejaVu Sans Mono, Menlo, Consolas, monospace", 12, 16
CHAR = SIZE * 0.602                         # a monospace glyph's advance, in px
TEXT_X = MARGIN + LABEL_WIDTH + 12
COLUMNS = int((WIDTH - MARGIN - TEXT_X - 10) // CHAR)
NOTE_COLUMNS = 22
PAD, GAP, TITLE = 10, 24, 40
FILLS = ("#fdf2d0", "#e3f1dc", "#dcebf6", "#ece3f4", "#f8e1e1", "#e0f2ef", "#f3ecdc", "#e6e6ea")


def section(text: str, heading: str) -> list[str]:
    """The lines of a `## ` section of the page."""
    assert heading in text, f"{DOC.relative_to(ROOT)} has no section {heading!r}"
    lines = []
    for line in text.split(heading, 1)[1].splitlines():
        if line.startswith("## "):
            break
        lines.append(line)
    return lines


def module_table(text: str) -> list[tuple[str, list[str]]]:
    """(layer, its modules as written) for each row of the table of every module's layer, bottom up."""
    return [(m.group(1), re.findall(r"`([\w.]+)`", m.group(2)))
            for m in map(MODULE_ROW.match, section(text, MODULES_HEADING)) if m]


def captions(text: str) -> dict[str, str]:
    """Each layer's caption: the start of its "what lives there", asides in brackets left out, up to the first
    `,`, `:` or `;`."""
    found = {}
    for match in map(LAYER_ROW.match, section(text, LAYERS_HEADING)):
        if match:
            plain = re.sub(r"\s*\([^)]*\)", "", match.group(2).replace("`", ""))
            found[match.group(1)] = re.split(r"[,:;]", plain, 1)[0].strip()
    return found


def words(modules: list[str]) -> list[str]:
    """The modules as words to wrap, siblings folded: `render.{art, pdf}` (a package's own module stays
    `render`)."""
    groups: dict[str, list[str]] = {}
    for module in modules:
        parent, _, name = module.rpartition(".")
        groups.setdefault(parent, []).append(name)
    items = [(name, 0, [name]) for name in groups.pop("", [])]   # a package's own module before its folder
    for parent, names in groups.items():
        names = sorted(names)
        folded = [f"{parent}.{{{names[0]},", *(f"{n}," for n in names[1:-1]), f"{names[-1]}}}"]
        items.append((parent, 1, [f"{parent}.{names[0]}"] if len(names) == 1 else folded))
    return [word for _, _, each in sorted(items) for word in each]


def wrap(items: list[str], columns: int) -> list[str]:
    lines = [""]
    for word in items:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > columns:
            lines.append("")
        lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
    return lines


def draw(text: str) -> str:
    """The SVG of the page's layers, top layer first, each a band of its modules, arrows pointing down."""
    layers, notes = module_table(text)[::-1], captions(text)
    count = len(layers)
    bands, y = [], TITLE
    for index, (layer, modules) in enumerate(layers):
        lines = wrap(words(modules), COLUMNS)
        note = wrap(notes.get(layer, "").split(), NOTE_COLUMNS)
        height = PAD * 2 + LINE * max(len(lines), len(note) + 1)
        bands.append((index, layer, lines, note, y, height))
        y += height + GAP
    height = y - GAP + MARGIN
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}" font-size="{SIZE}">',
           f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
           f'<text x="{MARGIN}" y="{MARGIN + 12}" font-size="15" font-weight="bold">pnpgen in {count} layers: '
           f'an import only goes down (drawn from docs/architecture.md)</text>']
    for index, layer, lines, note, top, band in bands:
        out.append(f'<rect x="{MARGIN}" y="{top}" width="{WIDTH - 2 * MARGIN}" height="{band}" rx="6" '
                   f'fill="{FILLS[index % len(FILLS)]}" stroke="#707070"/>')
        out.append(f'<text x="{MARGIN + 10}" y="{top + PAD + 12}" font-size="14" font-weight="bold">'
                   f'{count - index} {escape(layer)}</text>')
        out += [f'<text x="{MARGIN + 10}" y="{top + PAD + 12 + LINE * (n + 1)}" font-size="11" fill="#404040">'
                f'{escape(line)}</text>' for n, line in enumerate(note)]
        out += [f'<text x="{TEXT_X}" y="{top + PAD + 12 + LINE * n}">{escape(line)}</text>'
                for n, line in enumerate(lines)]
        if index + 1 < count:
            x, start = MARGIN + LABEL_WIDTH // 2, top + band + 2
            out.append(f'<path d="M{x} {start} V{start + GAP - 6} M{x - 5} {start + GAP - 11} L{x} {start + GAP - 5} '
                       f'L{x + 5} {start + GAP - 11}" fill="none" stroke="#404040" stroke-width="1.5"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> int:
    SVG.write_text(draw(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {SVG.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
