"""Translated editions (pnpgen.i18n, docs/translations.md): the bilingual test kit (the mini kit with
`languages: [en, fr]` and locale/fr.po) builds in both languages alike, with no English left in the French
PDFs; `pnpgen translate` merges as a translator expects; what a translation breaks is found where it is."""
from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from babel.messages.pofile import read_po

from pnpgen.cli import main
from pnpgen.i18n import typography, units
from pnpgen.kit import load_kit
from pnpgen.problems import KitError
from tests.conftest import edit

KIT = Path(__file__).parent / "kits" / "bilingual"
TYPESET = Path(__file__).parent / "kits" / "typeset"
GENERATOR = Path(__file__).parent.parent / "generator"
CORE_ENGLISH = ("Print at 100", "Contents", "Rules booklet", "duplex calibration", "Backs not on", "players")


def pdf_text(folder: Path) -> str:
    """Every PDF's text under `folder`, whitespace (narrow no-break spaces too) made single spaces."""
    texts = []
    for path in sorted(folder.rglob("*.pdf")):
        document = pdfium.PdfDocument(str(path))
        texts += [page.get_textpage().get_text_range() for page in document]
    return " ".join(" ".join(texts).split())


def pages(folder: Path) -> dict:
    """{PDF: [(width, height) of each page]} in points."""
    return {path.relative_to(folder).as_posix(): [tuple(round(v, 2) for v in page.get_size())
                                                  for page in pdfium.PdfDocument(str(path))]
            for path in sorted(folder.rglob("*.pdf"))}


@pytest.fixture(autouse=True)
def source_language_after():
    """Tests after these read kits in their source language, as a new process would."""
    yield
    from pnpgen.i18n import translator
    translator.activate(None)


@pytest.fixture(scope="module")
def editions(tmp_path_factory):
    out = tmp_path_factory.mktemp("editions")
    assert main(["build", "--data", str(KIT), "--lang", "all", "--out", str(out), "--quiet"]) == 0
    return out / "bilingual", out / "bilingual.fr"


@pytest.fixture
def kit(tmp_path) -> Path:
    target = tmp_path / "bilingual"
    shutil.copytree(KIT, target)
    return target


def _printed(msgid: str) -> str:
    """The words of a source string as a PDF shows them: up to its first placeholder, without markup."""
    words = re.split(r"\{\{|\{%", msgid)[0].replace("**", "")
    return " ".join(words.split())


def test_both_editions_build_alike_and_french_has_no_english_left(editions):
    english, french = editions
    assert pages(english) == pages(french)  # every file, page count and page size
    en_text, fr_text = pdf_text(english), pdf_text(french)
    checked = 0
    for message in read_po(open(KIT / "locale" / "fr.po", encoding="utf-8")):
        words = _printed(message.id) if message.id else ""
        if len(words) < 3 or message.string == message.id:
            continue
        assert words in en_text, f"{words!r} is not printed in the English edition"
        assert not re.search(rf"\b{re.escape(words)}\b", fr_text), f"{words!r} is left in English in the French edition"
        checked += 1
    assert checked >= 30
    for words in CORE_ENGLISH:
        assert words in en_text and words not in fr_text
    import pypdf  # pdfium reads a no-break space as a space; pypdf gives the character cairo drew
    assert "rectos\xa0? Imprimez" in pypdf.PdfReader(french / "cards.pdf").pages[0].extract_text()


def test_french_spacing_is_set_in_the_words_read():
    from pnpgen.text import read_text
    load_kit(KIT, language="fr")
    chapter = read_text(KIT / "rules" / "01-rules.md", KIT)  # reportlab draws U+00A0 with the space's glyph
    assert "Seules les collines rapportent\xa0: {{ table(" in chapter
    load_kit(KIT)
    assert "Only the hills score: {{" in read_text(KIT / "rules" / "01-rules.md", KIT)


def test_editions_manifests_count_the_same_pieces(editions):
    import json
    english, french = (json.loads((folder / "manifest.json").read_text()) for folder in editions)
    assert english["kit"] == "bilingual" and french["kit"] == "bilingual.fr"
    assert english["totals"] == french["totals"]
    assert [p["count"] for p in english["pieces"]] == [p["count"] for p in french["pieces"]]


def test_translate_writes_the_committed_catalogue_again(kit, run_cli):
    before = (kit / "locale" / "fr.po").read_bytes(), (kit / "locale" / "messages.pot").read_bytes()
    result = run_cli("translate", "--data", kit, "--lang", "fr")
    assert result.code == 0 and "0 fuzzy" in result.out and "0 to translate" in result.out
    assert ((kit / "locale" / "fr.po").read_bytes(), (kit / "locale" / "messages.pot").read_bytes()) == before


def test_translate_round_trip(kit, run_cli):
    edit(kit / "components" / "cards.yaml", "on a tile you hold.", "on a tile you control.")
    edit(kit / "boards" / "board.yaml", 'text: "My Game"', 'text: "Nebula"')
    _, warnings = load_kit(kit, language="fr")  # before translate: not in the catalogue at all
    assert "boards/board.yaml:17: warning: no French translation in " in "\n".join(str(w) for w in warnings)
    assert run_cli("translate", "--data", kit, "--lang", "fr").code == 0
    catalog = read_po(open(kit / "locale" / "fr.po", encoding="utf-8"))
    changed = catalog.get("Pay **2** and put a new token on a tile you control.")
    assert changed.fuzzy and changed.string.startswith("Payez **2**")          # old words kept, to check
    assert '#| msgid "Pay **2** and put a new token on a tile you hold."' in (kit / "locale" / "fr.po").read_text()
    assert catalog.get("Nebula").string == ""                                  # new: to translate
    assert "My Game" in catalog.obsolete and catalog.get("My Game") is None   # gone: obsolete, kept aside
    assert catalog.get("Explore").string == "Explorer" and not catalog.get("Explore").fuzzy
    assert ("boards/board.yaml", 17) in catalog.get("Nebula").locations
    _, warnings = load_kit(kit, language="fr")
    said = "\n".join(str(w) for w in warnings)
    assert re.search(r"components/cards.yaml:15: warning: the French translation at \S*fr.po:\d+ is fuzzy", said)
    assert re.search(r"boards/board.yaml:17: warning: no French translation yet at \S*locale/fr.po:\d+", said)
    with pytest.raises(KitError):
        load_kit(kit, strict=True, language="fr")


def translate_again(kit: Path, msgid: str, change) -> int:
    """The French translation of `msgid` changed by `change` (through Babel, as a translator's tool would
    write it); the PO line of its msgid."""
    import io

    from babel.messages.pofile import write_po
    path = kit / "locale" / "fr.po"
    catalog = read_po(open(path, encoding="utf-8"))
    catalog[msgid].string = change(catalog[msgid].string)
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=False)
    path.write_bytes(out.getvalue())
    return read_po(open(path, encoding="utf-8"))[msgid].lineno


ONLY_HILLS = "Only the hills score: {{ table('tiles', section='scoring', columns=['terrain', 'points']) }}"


@pytest.mark.parametrize("msgid, old, new, said", [
    (ONLY_HILLS, " : {{ table('tiles', section='scoring', columns=['terrain', 'points']) }}", ".",
     "placeholders (lost {{table('tiles',section='scoring',columns=['terrain','points'])}})"),
    ("Pay **2** and put a new token on a tile you hold.", "Payez **2** et", "Payez 2 et", "markup (lost **, **)"),
])
def test_a_broken_placeholder_or_markup_is_an_error_at_its_po_line(kit, msgid, old, new, said):
    line = translate_again(kit, msgid, lambda text: text.replace(old, new))
    with pytest.raises(KitError) as caught:
        load_kit(kit, language="fr")
    assert f"locale/fr.po:{line}: msgstr: the translation must keep the source's {said}" in str(caught.value)
    load_kit(kit)  # the source edition does not read the French catalogue


def test_a_po_file_that_is_not_po_is_located(kit):
    line = edit(kit / "locale" / "fr.po", 'msgstr "Explorer"', 'msgstr "Explorer"\nmsgtxt "Explorez"') + 1
    with pytest.raises(KitError) as caught:
        load_kit(kit, language="fr")
    assert (f"locale/fr.po:{line}: not a valid PO file: unknown or misformatted keyword ('msgtxt \"Explorez\"')"
            in str(caught.value))


def test_an_undeclared_language_is_located(kit):
    with pytest.raises(KitError) as caught:
        load_kit(kit, language="de")
    assert "kit.yaml:6: languages: no 'de' edition (the kit's languages: en, fr)" in str(caught.value)


def test_a_too_long_translation_is_found_at_its_po_line(kit, run_cli, tmp_path):
    line = translate_again(kit, "Look at the top tile of the stack and place it next to one of your tiles.",
                           lambda text: " ".join([text] * 12))
    result = run_cli("build", "--data", kit, "--lang", "fr", "--only", "components", "--out", tmp_path / "out")
    assert result.code == 1
    assert "text does not fit" in result.err and f"/locale/fr.po:{line})" in result.err


def test_a_character_the_kit_fonts_lack_is_found(tmp_path):
    kit = tmp_path / "typeset"
    shutil.copytree(TYPESET, kit)
    edit(kit / "kit.yaml", "paper: letter", "paper: letter\nlanguages: [en, fr]")
    (kit / "locale").mkdir()
    (kit / "locale" / "fr.po").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                          'msgid "Each turn"\nmsgstr "À chaque tour"\n', encoding="utf-8")
    with pytest.raises(KitError) as caught:
        load_kit(kit, language="fr")
    assert "locale/fr.po:5: msgstr: font Kit Sans has no glyph for À (U+00C0)" in str(caught.value)


def test_french_typography():
    assert typography.french("Prix : 3 ! « Oui » ; non?") == "Prix\xa0: 3\xa0! «\xa0Oui\xa0»\xa0; non\xa0?"
    kept = "Gagnez :credit: {{ x }}: <b>a</b>: http://x.org/a"
    assert typography.french(kept) == "Gagnez :credit: {{ x }}\xa0: <b>a</b>\xa0: http://x.org/a"
    assert typography.apply("es", "¿Listo? ¡Sí!") == "¿Listo? ¡Sí!"
    assert typography.decimal(1.5, "fr") == "1,5" and typography.decimal(1.5, "en") == "1.5"


def test_chapters_are_translated_paragraph_by_paragraph():
    source = ("# Title\n\nA paragraph\non two lines.\n\n- an item\n  more of it\n- {{ x }}\n\n"
              "```\ncode\n```\n\n| a | b |\n\n{{ table('x') }}\n")
    found = [(u.line, u.marker, u.text) for u in units.markdown_units(source)]
    assert found == [(1, "# ", "Title"), (3, "", "A paragraph\non two lines."), (6, "- ", "an item\n  more of it")]
    table = {"Title": "Titre", "an item\n  more of it": "un point\nde plus"}
    said = units.translate_markdown(source, lambda text: table.get(text, text))
    assert said.startswith("# Titre\n\nA paragraph") and "- un point\n  de plus\n- {{ x }}" in said


def test_every_core_word_has_french_and_spanish():
    from pnpgen.i18n.catalogue import core_entries
    literals = set()
    for path in GENERATOR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "core_words" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                literals.add(node.args[0].value)
    for path in (GENERATOR.parent / "templates").glob("*.j2"):  # pnpgen's own templates' _("...")
        literals.update(re.findall(r'_\("([^"]+)"\)', path.read_text(encoding="utf-8")))
    assert len(literals) > 15 and "GLUE" in literals
    for language in ("fr", "es"):
        entries = core_entries(language)
        assert literals <= set(entries), sorted(literals - set(entries))
        assert all(e.string and not e.fuzzy for e in entries.values())


def test_a_kit_builds_in_its_own_language_whatever_was_loaded_since(tmp_path):
    english, _ = load_kit(KIT)
    load_kit(KIT, language="fr")  # the last load: French is active
    from pnpgen.build import build
    from pnpgen.build_options import BuildOptions
    result = build(english, BuildOptions(out=tmp_path, only="components"))
    assert result.kit_out == tmp_path / "bilingual"
    assert "Print at 100 %" in pdf_text(result.kit_out) and "Imprimez" not in pdf_text(result.kit_out)


def test_lang_reaches_every_reading_command(run_cli):
    said = run_cli("list", "--data", KIT, "--lang", "fr")
    assert said.code == 0 and said.out.startswith("Kit duo: Un prototype") and "colours Rouge, Bleu" in said.out
    assert run_cli("validate", "--data", KIT, "--lang", "fr", "--strict", "--quick").code == 0
    wrong = run_cli("list", "--data", KIT, "--lang", "all")
    assert wrong.code == 2 and "--lang all builds every edition" in wrong.err


def test_gettext_folder_layout_is_read(kit):
    folder = kit / "locale" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (kit / "locale" / "fr.po").rename(folder / "bilingual.po")
    french, warnings = load_kit(kit, language="fr")
    assert french.title == "Kit duo" and not warnings


def test_the_calibration_sheet_follows_an_edited_translation_of_the_title(kit, tmp_path):
    """The calibration sheet prints the kit's title in the edition's language, so its cached part is keyed by
    the catalogue too (keyed by kit.yaml alone, a retranslated title was served stale from the cache)."""
    out = tmp_path / "out"
    build = ["build", "--data", str(kit), "--lang", "fr", "--only", "calibration", "--out", str(out), "--quiet"]
    assert main(build) == 0
    assert "Kit duo" in pdf_text(out)
    edit(kit / "locale" / "fr.po", 'msgstr "Kit duo"', 'msgstr "Kit à deux"')
    assert main(build) == 0
    assert "Kit à deux" in pdf_text(out) and "Kit duo" not in pdf_text(out)


def test_kit_yaml_is_read_as_written_whatever_edition_the_process_loaded_before(kit):
    """kit.yaml's words are translated once, by the edition being loaded (editions.start): read through the
    previous load's catalogue (the watcher's, serve's), an edited title translation was never seen and a
    source edition loaded after the French one printed the French title."""
    assert load_kit(kit, language="fr")[0].title == "Kit duo"
    edit(kit / "locale" / "fr.po", 'msgstr "Kit duo"', 'msgstr "Kit à deux"')
    assert load_kit(kit, language="fr")[0].title == "Kit à deux"
    assert load_kit(kit)[0].title == "Duo Test Kit"
