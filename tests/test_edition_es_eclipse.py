"""Eclipse's Spanish edition (data/eclipse/locale/es.po): it builds with --strict (every string translated,
placeholders kept, every text fits, no missing glyph), no English source string is left in its PDFs, and it
has the English edition's files, page counts, page sizes, piece counts and placements.

Eclipse has no goldens, so the Spanish edition (output/eclipse.es, as `--lang all` puts it beside
output/eclipse) is compared with the English one built from the same data (kit_build's, tests/conftest.py,
built --strict as this one is: no edition is ever another's input, so two builds make what one makes)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pnpgen.cli import main
from tests.edition_helpers import printed, read_pdfs

KIT = Path(__file__).resolve().parent.parent / "data" / "eclipse"
CATALOGUE = KIT / "locale" / "es.po"


@pytest.fixture(autouse=True)
def source_language_after():
    """Tests after these read kits in their source language, as a new process would."""
    yield
    from pnpgen.i18n import translator
    translator.activate(None)


@pytest.fixture(scope="module")
def editions(tmp_path_factory, kit_build) -> dict:
    out = tmp_path_factory.mktemp("eclipse-es")
    assert main(["build", "--data", str(KIT), "--lang", "es", "--strict", "--out", str(out), "--quiet"]) == 0
    return {"en": kit_build("eclipse"), "es": out / "eclipse.es"}


@pytest.fixture(scope="module")
def pdfs(editions) -> dict:
    return {language: read_pdfs(folder) for language, folder in editions.items()}


def test_same_files_page_counts_and_sizes(pdfs):
    assert sorted(pdfs["es"]) == sorted(pdfs["en"])
    assert len(pdfs["es"]) >= 24
    for name, english in pdfs["en"].items():
        assert pdfs["es"][name]["sizes"] == english["sizes"], name


def test_no_english_source_string_left(pdfs):
    """Every translated string's English words that print in the English edition are not in the Spanish one.
    A string translated as itself (the Greek-letter star names, Eclipse, Orbital, Interceptor) is the same
    word in both languages and is not looked for; neither are words of three letters or fewer, nor the file
    names the booklet's back cover lists."""
    en_text = " ".join(pdf["text"] for pdf in pdfs["en"].values())
    es_text = " ".join(pdf["text"] for pdf in pdfs["es"].values())
    es_text = re.sub(r"[\w<>-]+\.pdf", "", es_text)  # file names (the back cover's) are ids, never translated
    checked, left = 0, []
    for message in read_po(open(CATALOGUE, encoding="utf-8")):
        words = printed(message.id) if message.id else ""
        assert not message.fuzzy, message.id
        if len(words) < 4 or words in message.string:
            continue
        assert message.string, f"{message.id!r} has no Spanish translation"
        if words not in en_text:
            continue  # words the edition prints through other words (a join's last word, a table's choice)
        checked += 1
        if re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", es_text):
            left.append(words)
    assert not left, f"English left in the Spanish edition: {left[:10]}"
    assert checked >= 250
    for english in ("Kit rulings", "Print at 100", "YOUR TURN", "Reputation track", "Front:", "Ion Cannon"):
        assert english in en_text and english not in es_text, english


def test_same_pieces_and_placements(editions):
    manifests = {language: json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
                 for language, folder in editions.items()}
    es, en = manifests["es"], manifests["en"]
    assert es["kit"] == "eclipse.es" and en["kit"] == "eclipse"
    assert es["totals"] == en["totals"]
    pieces = lambda m: [(p["group"], p["colour"], p["count"], p["front"]["template"], (p["back"] or {}).get("template"))  # noqa: E731
                        for p in m["pieces"]]
    assert pieces(es) == pieces(en)
    assert sum(p["count"] for p in es["pieces"]) == sum(p["count"] for p in en["pieces"]) > 800
    assert es["parts"]["components"]["cuts"] == en["parts"]["components"]["cuts"]
    assert es["parts"]["calibration"] == en["parts"]["calibration"]
    # the same board files, pages and paper; the tiles' seams follow each edition's own text (its widths)
    sheets = lambda m: [{k: v for k, v in f.items() if k not in ("tiles", "seams_cut")}  # noqa: E731
                        for f in m["parts"]["boards"]["files"]]
    assert sheets(es) == sheets(en)
    assert es["parts"]["documents"]["files"] == en["parts"]["documents"]["files"]
    # every piece on the same page, side and spot (its ref and label follow the edition's language)
    where = lambda m: [(p["file"], p["page"], p["side"], p["x"], p["y"], p["w"], p["h"], p["colour"], p["face"])  # noqa: E731
                       for p in m["parts"]["components"]["placements"]]
    assert where(es) == where(en) and len(where(en)) > 1000


def test_spanish_game_terms(pdfs):
    """The source's Spanish words print: the six actions, the ships, parts, resources and phases."""
    es_text = " ".join(pdf["text"] for pdf in pdfs["es"].values())
    for term in ("Explorar", "Influir", "Investigar", "Mejorar", "Construir", "Mover", "Interceptor", "Crucero",
                 "Acorazado", "Base estelar", "Agujeros de gusano", "Dinero", "Ciencia", "Materiales",
                 "Fase de acción", "Mantenimiento", "Limpieza", "Cañón de plasma", "Nave antigua",
                 "Centro Galáctico", "Embajador", "TRAIDOR", "Carta de traidor", "Regla del kit", "TU TURNO", "Anverso:"):
        assert term in es_text, term
    booklet = pdfs["es"]["booklet.pdf"]["text"]
    assert "63,5 x 100 mm" in booklet           # a decimal as Spanish writes it
    assert "Las piezas básicas son Cañón de iones, Comp. electrones, Casco" in booklet   # names chosen at run time translate


def test_the_covers_print_spanish(editions):
    """Every word the designed covers print is Spanish (kit.yaml's credits through locale/es.po), and the
    player count carries its kit ruling's mark, numbered as the Spanish Kit rulings chapter lists it."""
    import pypdfium2 as pdfium
    import yaml
    document = pdfium.PdfDocument(str(editions["es"] / "booklet.pdf"))
    front, back = (" ".join(document[i].get_textpage().get_text_range().split()) for i in (0, len(document) - 1))
    number = list(yaml.safe_load((KIT / "data" / "rules.yaml").read_text(encoding="utf-8"))["rulings"]).index(
        "player_count") + 1
    for words in ("Libro de reglas", f"Para 2–6 jugadores (regla del kit {number})", "Versión del kit 1.0"):
        assert words in front, words
    for words in ("En este kit", "Cómo imprimir", "Créditos", "que no nombra a ningún autor ni editorial",
                  "Este juego de repuesto: cada pieza"):
        assert words in back, words
    for english in ("Rules booklet", "players", "kit ruling", "Credits", "names no designer", "written afresh"):
        assert english not in front + back, english
    chapter = " ".join(" ".join(document[i].get_textpage().get_text_range().split()) for i in range(len(document)))
    assert f"{number}. De dos a seis jugadores." in chapter
