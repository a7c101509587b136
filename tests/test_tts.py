"""Tabletop Simulator export (`pnpgen build --for tts`) on tests/kits/mini: the saved-object JSON parsed and
checked against the images it names (every card id inside its sheet's grid, the cell it points at holds that
card's face, sheets within 10 x 7 and 4096 px, every image RGB, files where the file:/// URLs say)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops, ImageStat

from pnpgen.cli import main
from pnpgen.export.tts import MAX_COLS, MAX_ROWS, MAX_SIDE, cell_pixels, sheet_grid
from pnpgen.shapes import Shape

MINI = Path(__file__).parent / "kits" / "mini"


@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts-out")
    assert main(["build", "--data", str(MINI), "--out", str(out), "--for", "tts", "-q"]) == 0
    kit_out = out / "mini"
    saved = json.loads((kit_out / "tts" / "mini.json").read_text())
    return kit_out, saved, json.loads((kit_out / "manifest.json").read_text())


def local(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(unquote(parsed.path))


def image(url: str) -> Image.Image:
    path = local(url)
    assert path.is_file(), path
    im = Image.open(path)
    im.load()
    return im


def objects(saved, name):
    return [o for o in saved["ObjectStates"] if o["Name"] == name]


def check_deck(deck) -> list[tuple]:
    """Every card of a DeckCustom points inside its sheet; returns (card, sheet image, cell box) per card.
    Each sheet is decoded once (decoding it per card took two thirds of a 75-card deck's test)."""
    assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
    cells, decoded = [], {}
    for card in deck["ContainedObjects"]:
        assert card["Name"] == "Card"
        key, index = divmod(card["CardID"], 100)
        spec = deck["CustomDeck"][str(key)]
        assert card["CustomDeck"] == {str(key): spec}
        cols, rows = spec["NumWidth"], spec["NumHeight"]
        assert 2 <= cols <= MAX_COLS and 2 <= rows <= MAX_ROWS
        assert 0 <= index < cols * rows
        sheet = decoded.get(spec["FaceURL"]) or decoded.setdefault(spec["FaceURL"], image(spec["FaceURL"]))
        assert sheet.mode == "RGB" and max(sheet.size) <= MAX_SIDE
        assert sheet.width % cols == 0 and sheet.height % rows == 0
        cw, ch = sheet.width // cols, sheet.height // rows
        back = decoded.get(spec["BackURL"]) or decoded.setdefault(spec["BackURL"], image(spec["BackURL"]))
        assert back.mode == "RGB" and max(back.size) <= MAX_SIDE
        assert back.size == (sheet.size if spec["UniqueBack"] else (cw, ch))
        cells.append((card, sheet, ((index % cols) * cw, (index // cols) * ch, (index % cols + 1) * cw,
                                    (index // cols + 1) * ch)))
    return cells


def test_saved_object_holds_a_deck_bags_of_pieces_and_the_board(tts):
    _, saved, manifest = tts
    names = sorted(o["Name"] for o in saved["ObjectStates"])
    assert names == ["Bag"] * 4 + ["Custom_Board", "DeckCustom"]
    assert saved["SaveName"] == "Mini Test Kit"
    images = manifest["parts"]["tts"]["images"]
    assert all(i["mode"] == "RGB" and max(i["px"]) <= MAX_SIDE for i in images)


def test_card_ids_point_at_their_own_faces(tts):
    _, saved, _ = tts
    [deck] = objects(saved, "DeckCustom")
    cells = check_deck(deck)
    assert len(cells) == 12
    assert sorted({c["CardID"] for c, _, _ in cells}) == [100, 101, 102]   # 3 distinct fronts, 4 copies each
    by_title = {}
    for card, sheet, box in cells:
        by_title.setdefault(card["Nickname"], set()).add(card["CardID"])
    assert by_title == {"Action cards: Explore": {100}, "Action cards: Build": {101}, "Action cards: Trade": {102}}
    # the cells differ from one another and from the empty cells (white)
    _, sheet, _ = cells[0]
    crops = [sheet.crop(box) for _, sheet, box in cells]
    distinct = {c.tobytes() for c in crops}
    assert len(distinct) == 3
    spec = deck["CustomDeck"]["1"]
    empty = sheet.crop((sheet.width - sheet.width // spec["NumWidth"], sheet.height - sheet.height // spec["NumHeight"],
                        sheet.width, sheet.height))
    assert empty.getextrema() == ((255, 255), (255, 255), (255, 255))


def test_tiles_and_tokens_have_their_images_and_shapes(tts):
    _, saved, _ = tts
    bags = {b["Nickname"]: b["ContainedObjects"] for b in objects(saved, "Bag")}
    assert {k: len(v) for k, v in bags.items()} == {"Map tiles": 6, "Player tokens (red)": 8,
                                                    "Player tokens (blue)": 8, "Damage chits": 10}
    assert {o["CustomImage"]["CustomTile"]["Type"] for o in bags["Map tiles"]} == {1}           # hex
    assert {o["CustomImage"]["CustomTile"]["Type"] for o in bags["Player tokens (red)"]} == {2}  # circle
    assert {o["Name"] for o in bags["Damage chits"]} == {"Custom_Token"}                          # one-sided
    for bag in bags.values():
        for obj in bag:
            front = image(obj["CustomImage"]["ImageURL"])
            assert front.mode == "RGB" and max(front.size) <= MAX_SIDE
            if obj["Name"] == "Custom_Tile":
                back = image(obj["CustomImage"]["ImageSecondaryURL"])
                assert back.mode == "RGB" and back.size == front.size
    red, blue = bags["Player tokens (red)"][0], bags["Player tokens (blue)"][0]
    assert ImageStat.Stat(ImageChops.difference(image(red["CustomImage"]["ImageURL"]),
                                                image(blue["CustomImage"]["ImageURL"]))).mean != [0, 0, 0]


def test_board_is_an_image_at_print_resolution(tts):
    _, saved, _ = tts
    [board] = objects(saved, "Custom_Board")
    im = image(board["CustomImage"]["ImageURL"])
    assert im.mode == "RGB" and im.size == (3300, 2550)     # Letter landscape at 300 dpi


def test_grid_and_cell_sizes_stay_within_the_limits():
    poker = Shape("rect", 63.5 * 72 / 25.4, 88.9 * 72 / 25.4)
    assert sheet_grid(1) == (2, 2) and sheet_grid(3) == (3, 2) and sheet_grid(70) == (10, 7)
    assert sheet_grid(11) == (10, 2)
    for count in (1, 9, 10, 11, 69, 70):
        cols, rows = sheet_grid(count)
        cw, ch = cell_pixels(poker, cols, rows)
        assert cols * cw <= MAX_SIDE and rows * ch <= MAX_SIDE
        assert abs(cw / ch - poker.w / poker.h) < 0.01


def test_a_deck_of_more_than_seventy_faces_uses_two_sheets(tmp_path):
    kit = tmp_path / "kit"
    shutil.copytree(MINI, kit)
    rows = "\n".join(f'  - {{title: "Card {n}", cost: {n % 3}, text: "Text {n}"}}' for n in range(75))
    cards = kit / "components" / "cards.yaml"
    text = cards.read_text()
    head = text[:text.index("rows:")].replace("size: poker", "size: 20x28mm").replace("front: card-front", "front: tiny")
    cards.write_text(head + "rows:\n" + rows + "\n")
    (kit / "templates" / "tiny.svg.j2").write_text(   # small cards: small sheets, a quick test
        '{% import "_pieces.svg.j2" as p %}{{ p.ground(piece, "#fdf8ec") }}{{ p.text(title, 2, 6, 3) }}')
    kit_yaml = kit / "kit.yaml"
    kit_yaml.write_text(kit_yaml.read_text().split("counts:")[0])
    out = tmp_path / "out"
    assert main(["build", "--data", str(kit), "--out", str(out), "--for", "tts", "--only", "tts", "-q"]) == 0
    saved = json.loads((out / "mini" / "tts" / "mini.json").read_text())
    [deck] = objects(saved, "DeckCustom")
    cells = check_deck(deck)
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    assert [deck["CustomDeck"][k]["NumWidth"] * deck["CustomDeck"][k]["NumHeight"] for k in ("1", "2")] == [70, 10]
    assert [c["CardID"] for c, _, _ in cells] == [100 + n for n in range(70)] + [200 + n for n in range(5)]


def test_urls_follow_the_output_folder_when_it_moves(tmp_path):
    first, moved = tmp_path / "first", tmp_path / "moved"
    args = ["build", "--data", str(MINI), "--for", "tts", "--only", "tts", "-q"]
    assert main(args + ["--out", str(first)]) == 0
    shutil.move(str(first), str(moved))            # the cache moves with it
    assert main(args + ["--out", str(moved)]) == 0
    saved = json.loads((moved / "mini" / "tts" / "mini.json").read_text())
    [deck] = objects(saved, "DeckCustom")
    face = local(deck["CustomDeck"]["1"]["FaceURL"])
    assert face.is_relative_to(moved.resolve()) and face.is_file()


def test_only_naming_the_part_builds_it_without_for(tmp_path):
    assert main(["build", "--data", str(MINI), "--out", str(tmp_path), "--only", "tts", "-q"]) == 0
    assert (tmp_path / "mini" / "tts" / "mini.json").is_file()
    assert not (tmp_path / "mini" / "cards.pdf").exists()


def test_the_space_empires_counters_and_maps_go_to_the_table_too(tmp_path):
    """The game-module kit: a bag of two-sided square tiles per print group (every counter, at the kit's
    counter size), and each hex map as a board image."""
    from pnpgen.kit import load_kit
    from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT
    assert main(["build", "--out", str(tmp_path), "--for", "tts", "--only", "tts", "-q"]) == 0
    saved = json.loads((tmp_path / DEFAULT_KIT / "tts" / f"{DEFAULT_KIT}.json").read_text())
    kit, _ = load_kit(BUILTIN_DATA / DEFAULT_KIT)
    bags = objects(saved, "Bag")
    assert sum(len(b["ContainedObjects"]) for b in bags) == len(list(kit.component_pieces))
    tile = bags[0]["ContainedObjects"][0]
    assert tile["Name"] == "Custom_Tile" and tile["CustomImage"]["CustomTile"]["Type"] == 0
    front, back = image(tile["CustomImage"]["ImageURL"]), image(tile["CustomImage"]["ImageSecondaryURL"])
    assert front.mode == back.mode == "RGB" and front.size == back.size == (188, 188)   # 5/8 in at 300 dpi
    assert len(objects(saved, "Custom_Board")) == len(kit.maps)
