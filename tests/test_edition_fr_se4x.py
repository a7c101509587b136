"""Space Empires 4X's French edition (data/space-empires-4x/locale/fr.po): it builds with --strict (every string
translated, placeholders kept, every text fits, no missing glyph), no English source string is left in its
PDFs, and it has the English edition's files, page counts, page sizes, piece counts and placements.

The English side is the goldens (tests/golden/space-empires-4x/, what test_golden.py holds the English build
to), so one French build is all this module makes."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pnpgen.cli import main
from tests.edition_helpers import printed, read_pdfs
from tests.conftest import DEFAULT_KIT_DIR

GOLDEN = Path(__file__).parent / "golden" / "space-empires-4x"
CATALOGUE = DEFAULT_KIT_DIR / "locale" / "fr.po"


@pytest.fixture(autouse=True)
def source_language_after():
    """Tests after these read kits in their source language, as a new process would."""
    yield
    from pnpgen.i18n import translator
    translator.activate(None)


@pytest.fixture(scope="module")
def french(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("se4x-fr")
    assert main(["build", "--data", str(DEFAULT_KIT_DIR), "--lang", "fr", "--strict", "--out", str(out),
                 "--quiet"]) == 0
    return out / "space-empires-4x.fr"


@pytest.fixture(scope="module")
def english() -> dict:
    return {"text": json.loads((GOLDEN / "text.json").read_text(encoding="utf-8")),
            "manifest": json.loads((GOLDEN / "manifest.json").read_text(encoding="utf-8"))}


def test_same_files_page_counts_and_sizes(french, english):
    pdfs = read_pdfs(french)
    assert sorted(pdfs) == sorted(english["text"])
    for name, golden in english["text"].items():
        assert len(pdfs[name]["sizes"]) == golden["pages"], name
        assert pdfs[name]["sizes"] == golden["sizes"], name


def test_no_english_source_string_left(french, english):
    """Every translated string's English words print in the English edition and not in the French one. A
    string translated as itself (Destroyer, Supernova, MS Pipeline, CP) is the same word in both languages,
    and a unit's code is printed as a code in every edition (Miner, Decoy: kit.yaml says so); neither is
    looked for."""
    import yaml
    codes = {row["id"] for row in yaml.safe_load((DEFAULT_KIT_DIR / "components" / "units.yaml").read_text())["rows"]}
    en_text = " ".join(" ".join(" ".join(page.split()) for page in pdf["text"]) for pdf in english["text"].values())
    fr_text = " ".join(pdf["text"] for pdf in read_pdfs(french).values())
    checked, left = 0, []
    for message in read_po(open(CATALOGUE, encoding="utf-8")):
        words = printed(message.id) if message.id else ""
        if len(words) < 3 or words in message.string or words in codes or message.fuzzy:
            continue
        assert message.string, f"{message.id!r} has no French translation"
        if words not in en_text:
            continue  # words the edition prints through other words (a chart's choice, a join's last word)
        checked += 1
        if re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", fr_text):
            left.append(words)
    assert not left, f"English left in the French edition: {left[:10]}"
    assert checked >= 400
    for english_word in ("Economic Phase", "Homeworld", "Player aid", "Kit rulings", "Print at 100"):
        assert english_word in en_text and english_word not in fr_text


def rounded(value):
    """A manifest value with its floats rounded as the goldens store them (scripts/golden.py)."""
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [rounded(item) for item in value]
    return round(value, 6) if isinstance(value, float) else value


def test_same_pieces_and_placements(french, english):
    fr_manifest = rounded(json.loads((french / "manifest.json").read_text(encoding="utf-8")))
    en_manifest = english["manifest"]
    assert fr_manifest["kit"] == "space-empires-4x.fr"
    assert fr_manifest["totals"] == en_manifest["totals"]
    pieces = lambda m: [(p["group"], p["colour"], p["count"], p["front"]["template"], p["back"]["template"])  # noqa: E731
                        for p in m["pieces"]]
    assert pieces(fr_manifest) == pieces(en_manifest)
    placed = lambda m: [(c["card"], c["colour"], c["front"]["page"], c["front"]["card"], c["front"]["frame"],  # noqa: E731
                         c["back"]["page"], c["back"]["card"], c["back"]["frame"]) for c in m["parts"]["cards"]["cards"]]
    assert placed(fr_manifest) == placed(en_manifest)  # the aid cards' backs land where the English ones do
    assert fr_manifest["parts"]["components"]["cuts"] == en_manifest["parts"]["components"]["cuts"]
    assert fr_manifest["parts"]["calibration"] == en_manifest["parts"]["calibration"]
    assert fr_manifest["parts"]["maps"]["files"] == en_manifest["parts"]["maps"]["files"]
    assert fr_manifest["parts"]["sheets"]["files"] == en_manifest["parts"]["sheets"]["files"]


def test_game_terms_and_typography(french):
    """The French terms of the sources print, and the maps' words are French, spaced before a colon."""
    import pypdf
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(french / "booklet.pdf").pages)
    for term in ("Transporteur", "Chasseur", "Cuirassé", "Chantier naval", "Point de distorsion", "Trou noir",
                 "Machine du Jugement", "Terraformation", "Phase Économie", "Monde natal", "Système natal"):
        assert term in text, term
    assert "Glossaire" in text and "Attaquant :" in text
    caption = pypdf.PdfReader(french / "maps" / "duel-small-poster.pdf").pages[0].extract_text()
    for words in ("Space Empires 4X : Duel, petite galaxie", "Piste des tours : 3 tours, puis la Phase Économie",
                  "Piste des manches", "Système natal Rouge (26 hexs)", "triangle, motif diagonales"):
        assert words in " ".join(caption.replace("\xa0", " ").split()), words


def test_the_covers_print_french(french):
    """Every word the designed covers print is French (kit.yaml's credits come through locale/fr.po, pnpgen's
    own cover words through its catalogue), with a no-break space before the credits' colons and semicolons."""
    import pypdf
    pages = pypdf.PdfReader(french / "booklet.pdf").pages
    front, back = pages[0].extract_text(), pages[-1].extract_text()
    for words in ("Kit à imprimer et jouer", "Livret de règles", "Pour 1–4 joueurs", "Version du kit 1.0"):
        assert words in front, words
    back = " ".join(back.split(" \n")).replace("\n", " ")
    for words in ("Dans ce kit", "Comment imprimer", "Crédits", "Space Empires 4X : ce kit suit deux résumés",
                  "aucun des deux ne nomme l'auteur ni l'éditeur du jeu", "Ce kit à imprimer et jouer : chaque pion",
                  "par pnpgen ; le texte des règles"):
        assert words in back.replace("\xa0", " "), words
    for english in ("Rules booklet", "players", "Credits", "neither names", "written afresh"):
        assert english not in front + back, english
    from pnpgen.documents.cover_data import cover_of
    from pnpgen.kit import load_kit
    kit, _ = load_kit(DEFAULT_KIT_DIR, language="fr", texts=False)   # the text extractors read U+00A0 as a space
    credits = cover_of(kit, "booklet", {"title": None}, "long").credits
    assert "Space Empires 4X\xa0: ce kit" in credits[0] and "pnpgen\xa0; le texte" in credits[1], credits
