"""Aid texts: a kit's `aids/cards.yaml`, Jinja over YAML, turned into reportlab flowables.

The file is rendered with the kit's numbers first (so a Jinja mistake names its exact line), then parsed.
Each card face is a list of blocks: `heading`, `text`, `bullets` or `chart` (a chart of the kit's charts.yaml).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.platypus import Flowable

from pnpgen.documents.paragraphs import paragraph

from pnpgen.aids.styles import chart_look, styles
from pnpgen.documents.charts import build_chart
from pnpgen.documents.table_flow import table_flowable
from pnpgen.model import Kit
from pnpgen.problems import BuildError, KitError, Problems, display_path
from pnpgen.yamlio import LocatedDict
from pnpgen.aids.sources import BLOCK_KINDS, CARDS_FILE, aids_path


@dataclass(frozen=True)
class CardText:
    """One card kind: its title, how many copies (per colour or a count), and its two faces' blocks."""

    id: str
    title: str
    per_colour: bool
    faces: dict          # "front"/"back" -> list of block dicts
    where: dict          # "front"/"back" -> "file:line" of that face


def load_aid_yaml(kit: Kit, rel: Path, schema=None) -> tuple[LocatedDict, str]:
    """An aid file rendered with the kit's numbers, read and checked against its schema (generator/aids/schema.py,
    or the one given); returns it and its display name, or raises KitError with every located problem."""
    from pnpgen.aids.schema import check_aid_file

    problems = Problems()
    from pnpgen.aids.aid_memo import rendered
    doc = check_aid_file(kit, rel, problems, schema, rendered)
    if doc is None or problems.errors():
        raise KitError(problems.items)
    return doc, display_path(aids_path(kit, rel))


def load_card_texts(kit: Kit) -> list[CardText]:
    doc, name = load_aid_yaml(kit, CARDS_FILE)
    return [_card_text(card_id, doc["cards"], name) for card_id in doc["cards"]]


def _card_text(card_id: str, cards: LocatedDict, name: str) -> CardText:
    raw = cards[card_id]
    faces = {side: raw[side] for side in ("front", "back")}   # located lists: each block keeps its line
    return CardText(card_id, str(raw["title"]), raw.get("per", "colour") == "colour", faces,
                    {side: f"{name}:{raw.line_of(side)}: cards.{card_id}.{side}" for side in faces})


def block_flowables(kit: Kit, blocks: list, width: float, where: str, context: dict, look=None,
                    kinds: tuple = BLOCK_KINDS, extra=None, places: list | None = None) -> list[Flowable]:
    """The flowables of one card face (or sheet page), in order; `context` holds the names the kit's charts
    use, `look` how its charts print (default: the aid cards'); `extra(kind, value, width)` draws the kinds
    beyond the cards' (a record sheet's lines and forms); `places`, when given, gets each flowable's block
    as 'file:line: field[index]' (a sheet names the block too tall for any page)."""
    out: list[Flowable] = []
    for index, block in enumerate(blocks):
        kind = next((k for k in kinds if isinstance(block, dict) and k in block), None)
        if kind is None:
            raise BuildError(f"{where}: each block needs one of {', '.join(kinds)}; got {block!r}")
        place = _block_where(where, blocks, index)
        made = _block(kit, kind, block[kind], width, place, context, look) if kind in BLOCK_KINDS \
            else extra(kind, block[kind], width)
        out += made
        if places is not None:
            places += [place] * len(made)
    return out


def _block_where(where: str, blocks, index: int) -> str:
    """'file:LINE: field' of a face made 'file:BLOCK LINE: field[index]' where the blocks know their lines."""
    file, _, rest = where.partition(": ")
    if not hasattr(blocks, "line_of") or ":" not in file:
        return where
    return f"{file.rsplit(':', 1)[0]}:{blocks.line_of(index)}: {rest}[{index}]"


def _block(kit: Kit, kind: str, value, width: float, where: str, context: dict, look=None) -> list[Flowable]:
    """One block's flowables; its text's icons placed and characters checked (pnpgen.documents.paragraphs)."""
    style = styles()
    if kind == "heading":
        return [paragraph(str(value), style["heading"], where)]
    if kind == "text":
        return [paragraph(" ".join(str(value).split()), style["body"], where)]
    if kind == "bullets":
        return [paragraph(" ".join(str(item).split()), style["bullet"], where, bulletText="\u2022") for item in value]
    if str(value) not in kit.charts:
        raise BuildError(f"{where}: unknown chart {value!r} (known: {', '.join(kit.charts)})")
    from pnpgen.aids.aid_memo import chart
    made = kit.charts[str(value)]   # its place as build_chart says it (messages: relative to the working folder)
    table = chart(made.id, lambda: build_chart(made, context), f"{made.file}:{made.lines.get('', 0)}: charts.{made.id}")
    return [table_flowable(table, width, look or chart_look(), where)]
