"""manifest.json: every piece the kit holds and every file and placement the parts printed."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from pnpgen import __version__
from pnpgen.model import Kit
from pnpgen.pieces import Piece

MANIFEST = "manifest.json"


def piece_entries(pieces: list[Piece]) -> list[dict]:
    """Identical pieces folded into one entry with a count, in print order."""
    counts = Counter(pieces)
    entries, seen = [], set()
    for piece in pieces:
        if piece in seen:
            continue
        seen.add(piece)
        entries.append({
            "ref": piece.ref, "name": piece.name, "label": piece.label,
            "colour": piece.colour, "group": piece.group, "count": counts[piece],
            "front": {"template": piece.front.template, "params": piece.front.params},
            "back": {"template": piece.back.template, "params": piece.back.params} if piece.back else None,
        })
    return entries


def placement(file: str, page: int, side: str, slot, w: float, h: float, shape: str, bleed: float,
              piece: Piece) -> dict:
    """Where one piece sits on one page: the one shape every sheet part writes (points from the page's top-left
    corner; `face` the template drawn there), so exports, reprints and tests read every kit's pieces alike."""
    face = piece.front if side == "front" else piece.back
    return {"file": file, "page": page, "side": side, "x": round(slot.x, 3), "y": round(slot.y, 3),
            "w": round(w, 3), "h": round(h, 3), "shape": shape, "turned": slot.turned, "bleed": round(bleed, 3),
            "ref": piece.ref, "label": piece.label, "colour": piece.colour, "group": piece.group,
            "face": face.template}


def build_manifest(kit: Kit, pieces: list[Piece], options: dict, parts: dict, previous: dict | None,
                   given: dict) -> dict:
    """The new manifest; parts not built this time keep their previous entries. `options`: every option's
    value used (defaults too); `given`: those the user gave, which a reprint replays (pnpgen diff --write)."""
    from pnpgen.paper_use import printing_of_parts
    by_group = Counter(p.group for p in pieces)
    merged_parts = dict((previous or {}).get("parts", {}))
    merged_parts.update(parts)
    merged_parts = {name: merged_parts[name] for name in sorted(merged_parts)}
    return {
        "kit": kit.id,
        "title": kit.title,
        "generator": f"pnpgen {__version__}",
        "options": options,
        "given": given,
        "totals": {"pieces": len(pieces), "by_group": dict(by_group)},
        "inventory": inventory(kit, pieces),
        "pieces": piece_entries(pieces),
        "parts": merged_parts,
        "printing": printing_of_parts(merged_parts, options.get("duplex") or "long"),  # file: how to print it
    }


def inventory(kit: Kit, pieces: list[Piece]) -> list[dict]:
    """The box's component list: one line per table row, its pieces counted per colour and in all."""
    counts: dict = {}
    for piece in pieces:
        counts.setdefault(piece.ref, Counter())[piece.colour] += 1
    lines = []
    for table in kit.tables.values():
        for row in table.rows:
            ref = f"{table.id}.{row.label}"
            got = counts.pop(ref, None)  # rows sharing a label share a line
            if got is None:
                continue
            per_colour = {c.id: got[c.id] for c in kit.colours if got[c.id]}
            lines.append({"table": table.id, "ref": ref, "name": row.values.get("name") or row.label,
                          "per_colour": per_colour, "neutral": got["neutral"], "total": sum(got.values())})
    return lines


def read_previous(kit_out: Path) -> dict | None:
    try:
        return json.loads((kit_out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
