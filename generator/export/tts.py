"""A Tabletop Simulator export (`pnpgen build --for tts`), into output/<kit>/tts/:

- `<deck>-sheet-N.png`: the faces of a deck of cards (a table of rect pieces, per colour where the table is
  per colour), up to 10 x 7 to an image, RGB, at most 4096 px a side; `<deck>-back.png` (one back for the
  deck) or `<deck>-back-sheet-N.png` (a back per card, in the same grid);
- `<deck>-NN-<label>-<side>.png`: every distinct face of the other pieces (squares, circles, hexes), for
  Custom_Tile objects (both sides) or Custom_Token objects (one-sided squares);
- `<board>.png`: every board at up to 300 dpi, no side over 4096 px (a Custom_Board);
- `<kit>.json`: a saved object that loads all of it: a DeckCustom per deck (CustomDeck, DeckIDs and
  ContainedObjects of Card, CardID = deck key * 100 + index on the sheet), a Bag of tiles or tokens per
  deck of other pieces, and the boards; images are local file:/// URLs of where the build puts them.

Copy `<kit>.json` into "Tabletop Simulator/Saves/Saved Objects" (README: Tabletop Simulator).
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

from pnpgen.lengths import parse_length
from pnpgen.export.decks import (
    ExportArts, decks, distinct_faces, pixels, rasterise, safe_name, save_png,
)

FOLDER = "tts"
MAX_SIDE = 4096            # px: Tabletop Simulator's limit for an image side
MAX_COLS, MAX_ROWS = 10, 7  # faces on one deck sheet
MIN_GRID = 2               # the smallest grid Tabletop Simulator's deck import takes (2 x 2)
DPI = 300                  # tiles, tokens and boards: at most this, less where 4096 px demands it
CARD_SCALE_IN = 2.5        # a card at scale 1 is about a poker card, 2.5 in across
CARD_MAX = parse_length("130mm")   # the longest side of a rect that is still a card
TILE_TYPE = {"square": 0, "hex": 1, "circle": 2}   # Custom_Tile Type: 0 box, 1 hex, 2 circle, 3 rounded


def sheet_grid(count: int) -> tuple[int, int]:
    """(columns, rows) of a deck sheet holding `count` faces (count <= 70)."""
    cols = max(MIN_GRID, min(MAX_COLS, count))
    return cols, max(MIN_GRID, math.ceil(count / cols))


def cell_pixels(shape, cols: int, rows: int) -> tuple[int, int]:
    """One card's size on the sheet: 300 dpi, or less so that the whole grid stays within 4096 px."""
    dpi = min(DPI, MAX_SIDE * 72 / (cols * shape.w), MAX_SIDE * 72 / (rows * shape.h))
    return int(shape.w * dpi / 72), int(shape.h * dpi / 72)


def is_card(shape) -> bool:
    """Rects up to tarot size are cards (a deck); larger rects (boards, strips) are tiles like the rest."""
    return shape.kind == "rect" and max(shape.w, shape.h) <= CARD_MAX


def _guid(*parts) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, z: float, scale: float = 1.0, face_down: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


class Export:
    def __init__(self, ctx):
        self.ctx, self.kit = ctx, ctx.kit
        self.arts = ExportArts(ctx.kit)
        self.final = (Path(ctx.options.out) / ctx.kit.id / FOLDER).resolve()  # where the files land
        self.images: list[dict] = []
        self.next_key = 1

    def url(self, name: str) -> str:
        return (self.final / name).as_uri()

    def save(self, image, name: str, role: str, dpi: float | None = None) -> str:
        save_png(image, self.ctx.stage.path(f"{FOLDER}/{name}"), dpi or 72)
        self.images.append({"path": f"{FOLDER}/{name}", "role": role, "px": list(image.size), "mode": image.mode})
        return self.url(name)

    # cards -------------------------------------------------------------------------------------------------
    def deck(self, deck, x: float, z: float) -> dict:
        from PIL import Image
        shape = deck.table.shape
        fronts, front_of = distinct_faces(deck, "front", self.arts, 0.0)
        backs, back_of = distinct_faces(deck, "back", self.arts, 0.0)
        cells, cell_of = [], []   # a cell is a distinct (front, back) pair
        for f, b in zip(front_of, back_of):
            if (f, b) not in cells:
                cells.append((f, b))
            cell_of.append(cells.index((f, b)))
        unique_back = len(backs) > 1
        per_sheet = MAX_COLS * MAX_ROWS
        custom, ids, cards = {}, [], []
        cw, ch = cell_pixels(shape, *sheet_grid(min(len(cells), per_sheet)))   # one card size for the deck
        for sheet_no, start in enumerate(range(0, len(cells), per_sheet), 1):
            chunk = cells[start:start + per_sheet]
            cols, rows = sheet_grid(len(chunk))
            face_sheet = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255))
            back_sheet = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255)) if unique_back else None
            for i, (f, b) in enumerate(chunk):
                at = ((i % cols) * cw, (i // cols) * ch)
                face_sheet.paste(rasterise(fronts[f][0], cw, ch), at)
                if back_sheet is not None and b >= 0:
                    back_sheet.paste(rasterise(backs[b][0], cw, ch), at)
            key = self.next_key
            self.next_key += 1
            face_url = self.save(face_sheet, f"{deck.name}-sheet-{sheet_no}.png", "deck sheet")
            if back_sheet is not None:
                back_url = self.save(back_sheet, f"{deck.name}-back-sheet-{sheet_no}.png", "deck back sheet")
            else:
                back = rasterise(backs[0][0], cw, ch) if backs else Image.new("RGB", (cw, ch), (255, 255, 255))
                back_url = self.save(back, f"{deck.name}-back.png", "deck back") if sheet_no == 1 else \
                    self.url(f"{deck.name}-back.png")
            custom[str(key)] = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": cols, "NumHeight": rows,
                                "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0 if shape.radius else 1}
            for n, (piece, cell) in enumerate(zip(deck.pieces, cell_of)):
                if start <= cell < start + per_sheet:
                    card_id = key * 100 + (cell - start)
                    ids.append((n, card_id, key, piece))
        ids.sort(key=lambda t: t[0])
        sideways = shape.w > shape.h
        scale = round(min(shape.w, shape.h) / 72 / CARD_SCALE_IN, 4)
        for n, card_id, key, piece in ids:
            cards.append({"GUID": _guid(deck.name, n), "Name": "Card", "Nickname": piece.name,
                          "Description": "", "CardID": card_id, "CustomDeck": {str(key): custom[str(key)]},
                          "SidewaysCard": sideways, "Transform": _transform(x, z, scale, face_down=True)})
        if len(cards) == 1:
            return cards[0]
        return {"GUID": _guid(deck.name), "Name": "DeckCustom", "Nickname": f"{deck.table.name}" +
                (f" ({deck.colour})" if deck.table.per_colour else ""), "Description": "",
                "SidewaysCard": sideways, "Transform": _transform(x, z, scale, face_down=True), "CustomDeck": custom,
                "DeckIDs": [c["CardID"] for c in cards], "ContainedObjects": cards}

    # tiles and tokens ----------------------------------------------------------------------------------------
    def pieces(self, deck, x: float, z: float) -> dict:
        shape = deck.table.shape
        dpi = min(DPI, MAX_SIDE * 72 / max(shape.w, shape.h))
        size = (pixels(shape.w, dpi), pixels(shape.h, dpi))
        urls = {}
        for side in ("front", "back"):
            faces, index = distinct_faces(deck, side, self.arts, 0.0)
            shared = len(faces) == 1 and len(deck.pieces) > 1
            names = []
            for n, (art, piece) in enumerate(faces, 1):
                name = f"{deck.name}-{side}" if shared else f"{deck.name}-{n:02d}-{safe_name(piece.label)}-{side}"
                names.append(self.save(rasterise(art, *size), f"{name}.png", f"{shape.kind} {side}", dpi))
            urls[side] = [names[i] if i >= 0 else "" for i in index]
        token = shape.kind == "square" and not any(p.back for p in deck.pieces) and not shape.radius
        scale = round(max(shape.w, shape.h) / 72, 4)   # about an inch a unit
        contained = []
        for n, piece in enumerate(deck.pieces):
            image = {"ImageURL": urls["front"][n], "ImageSecondaryURL": urls["back"][n], "ImageScalar": 1.0,
                     "WidthScale": 0.0}
            if token:
                image["CustomToken"] = {"Thickness": 0.1, "MergeDistancePixels": 15.0, "Stackable": True}
            else:
                kind = 3 if shape.kind in ("square", "rect") and shape.radius else TILE_TYPE.get(shape.kind, 0)
                image["CustomTile"] = {"Type": kind, "Thickness": 0.1, "Stackable": True, "Stretch": True}
            contained.append({"GUID": _guid(deck.name, n), "Name": "Custom_Token" if token else "Custom_Tile",
                              "Nickname": piece.name, "Description": "", "Transform": _transform(x, z, scale),
                              "CustomImage": image})
        return {"GUID": _guid(deck.name, "bag"), "Name": "Bag", "Nickname": f"{deck.table.name}" +
                (f" ({deck.colour})" if deck.table.per_colour else ""), "Description": "",
                "Transform": _transform(x, z), "ContainedObjects": contained}

    # boards ------------------------------------------------------------------------------------------------
    def boards(self, z: float) -> list[dict]:
        from pnpgen.boards.files import board_art
        cache = _art_cache(self.kit)
        drawn = []
        for board in self.kit.boards:
            for colour in (self.kit.colours if board.per_colour else (None,)):
                name = f"{board.id}-{colour.id}" if colour else board.id
                drawn.append((name, board.name + (f" ({colour.name})" if colour else ""),
                              board_art(self.ctx, board, colour, cache)))
        drawn += self.hex_maps(cache)
        objects, x = [], 0.0
        for name, nickname, art in drawn:
            dpi = min(DPI, MAX_SIDE * 72 / max(art.width, art.height))
            image = rasterise(art, min(MAX_SIDE, pixels(art.width, dpi)), min(MAX_SIDE, pixels(art.height, dpi)))
            url = self.save(image, f"{safe_name(name)}.png", "board", dpi)
            objects.append({"GUID": _guid("board", name), "Name": "Custom_Board", "Nickname": nickname,
                            "Description": "", "Transform": _transform(x, z, art.width / 72 / 10), "CustomImage": {
                                "ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}})
            x += art.width / 72 + 2
        return objects

    def hex_maps(self, cache) -> list:
        """The kit's hex maps, drawn as the maps part draws them."""
        from pnpgen.maps.draw import compose, map_svg
        drawn = [(f"map-{m.id}", f"Map: {m.id}", map_svg(self.kit, compose(self.kit, m, self.ctx.counter_size)))
                 for m in self.kit.maps]
        return [(name, title, cache.get(svg, name)) for name, title, svg in drawn]


def _art_cache(kit):
    from pnpgen.render.pdf import ArtCache
    return ArtCache(kit.root)   # images in the kit folder resolve against it


def with_defaults(obj: dict) -> dict:
    """The fields every saved object states (white tint, unlocked; cards go to hands), for it and its contents."""
    out = {"GUID": obj["GUID"], "Name": obj["Name"], "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
           "Locked": False, "Hands": obj["Name"] in ("Card", "DeckCustom"), **obj}
    if "ContainedObjects" in out:
        out["ContainedObjects"] = [with_defaults(o) for o in out["ContainedObjects"]]
    return out


def saved_object(kit, objects: list[dict]) -> dict:
    objects = [with_defaults(o) for o in objects]
    return {"SaveName": kit.title, "GameMode": kit.title, "Date": "", "VersionNumber": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Table": "", "Sky": "", "Note": f"{kit.title}: made by pnpgen", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {}}


def build(ctx) -> dict:
    export = Export(ctx)
    objects, x_cards, x_tiles = [], 0.0, 0.0
    for deck in decks(ctx.kit):
        if is_card(deck.table.shape):
            objects.append(export.deck(deck, x_cards, 0.0))
            x_cards += deck.table.shape.w / 72 + 1.5
        else:
            objects.append(export.pieces(deck, x_tiles, -6.0))
            x_tiles += 3.0
    objects += export.boards(12.0)
    rel = f"{FOLDER}/{ctx.kit.id}.json"
    ctx.stage.write_text(rel, json.dumps(saved_object(ctx.kit, objects), indent=2, ensure_ascii=False) + "\n")
    ctx.log(f"tts: {len(objects)} objects, {len(export.images)} images")
    return {"saved_object": rel, "objects": len(objects), "images": export.images}
