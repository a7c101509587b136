"""A stranger's kit, by the inputs the readers see: spreadsheets, deep SVG, names with terminal escapes, markup
that would parse in quadratic time, links out of the kit for the watcher, huge files beside the data, a
long group name. Each must end within seconds with exit 1 and a message naming the file and the line (or
sheet, row or cell), never traceback text nor the "could not say where" fallback.
"""
from __future__ import annotations

import io
import shutil
import time
import zipfile
from pathlib import Path

import pytest

MINI = Path(__file__).parent / "kits" / "mini"
UNLOCATED = "could not say where"
MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def xlsx(rows: bytes, strings: bytes = b"", title: str = "Tokens") -> bytes:
    """A minimal .xlsx by hand (one sheet, a shared-strings part): openpyxl itself writes inline strings,
    and a hostile file is written by hand anyway."""
    kinds = "application/vnd.openxmlformats-officedocument.spreadsheetml."
    parts = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{kinds}sheet.main+xml"/>'
        f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{kinds}worksheet+xml"/>'
        f'<Override PartName="/xl/sharedStrings.xml" ContentType="{kinds}sharedStrings+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{RELS}"><Relationship Id="rId1" '
        f'Type="{DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook {MAIN} xmlns:r="{DOC_RELS}"><sheets>'
        f'<sheet name="{title}" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{RELS}">'
        f'<Relationship Id="rId1" Type="{DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
        f'<Relationship Id="rId2" Type="{DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": f"<worksheet {MAIN}><sheetData>".encode() + rows + b"</sheetData></worksheet>",
        "xl/sharedStrings.xml": f"<sst {MAIN}>".encode() + strings + b"</sst>",
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for name, data in parts.items():
            book.writestr(name, data)
    return out.getvalue()


HEADER = b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
NAMES = b"<si><t>value</t></si><si><t>qty</t></si>"


def row(number: int, value: bytes, kind: bytes = b"") -> bytes:
    return b'<row r="%d"><c r="A%d"%s><v>%s</v></c><c r="B%d"><v>4</v></c></row>' % (number, number, kind, value, number)


def lying_size(data: bytes) -> bytes:
    """The sheet's member declares fewer bytes than it unpacks to (its header edited after zipping)."""
    book = zipfile.ZipFile(io.BytesIO(data))
    info = book.getinfo("xl/worksheets/sheet1.xml")
    edited = bytearray(data)
    for start, field in ((info.header_offset + 22, 4), (data.rindex(b"xl/worksheets/sheet1.xml") - 46 + 24, 4)):
        edited[start:start + field] = (info.file_size - 10).to_bytes(4, "little")
    return bytes(edited)


def kit_with(tmp_path: Path, name: str, data: bytes) -> Path:
    """The mini kit whose tokens come from components/<name>."""
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    (kit / "components" / name).write_bytes(data)
    tokens = kit / "components" / "tokens.yaml"
    tokens.write_text(tokens.read_text(encoding="utf-8").replace("rows: tokens.csv", f"rows: {name}"), encoding="utf-8")
    return kit


def located(result, *words: str) -> str:
    said = result.err + result.out
    assert result.code == 1, said
    assert "Traceback" not in said and UNLOCATED not in said, said
    for word in words:
        assert word in said, said
    return said


GOOD = xlsx(HEADER + row(2, b"1") + row(3, b"2"), NAMES)
SPREADSHEETS = [
    ("good", GOOD, None),
    ("word-in-number-cell", xlsx(HEADER + row(2, b"1") + row(3, b"abc"), NAMES), "tokens.xlsx:Tokens:3: A3: a cell"),
    ("bad-xml", xlsx(HEADER + b"<row r='2'><c r='A2'><v>1</v></row>", NAMES),
     "tokens.xlsx is not a readable .xlsx spreadsheet (ParseError: mismatched tag"),
    ("string-index", xlsx(HEADER + row(2, b"99", b' t="s"'), NAMES), "tokens.xlsx:Tokens:2: A2: a cell"),
    ("not-a-zip", b"PK\x03\x04 not really a zip", "tokens.yaml:11: rows: "),
    ("shared-strings", xlsx(HEADER + row(2, b"1"), NAMES + b"".join(b"<si><t>%d</t></si>" % n for n in range(150_000))),
     "over the sheet_cells budget"),
    ("cells", xlsx(HEADER + b"".join(row(n, b"1") for n in range(2, 60_000)), NAMES), "over the sheet_cells budget"),
    ("blank-rows", xlsx(HEADER + row(2, b"1") + row(1_000_000, b"1"), NAMES), "tokens.xlsx:Tokens:50002: "),
    ("expanded-bytes", xlsx(HEADER + row(2, b"1"), NAMES + b"<si><t>" + bytes(range(48, 112)) * 140_000 + b"</t></si>"),
     "over the sheet_kb budget"),
    ("size-lie", lying_size(GOOD), "sheet1.xml cannot be unpacked"),
]


@pytest.mark.parametrize("name, data, words", SPREADSHEETS, ids=[s[0] for s in SPREADSHEETS])
def test_a_hostile_spreadsheet_is_located_within_seconds(name, data, words, run_cli, tmp_path):
    kit = kit_with(tmp_path, "tokens.xlsx", data)
    start = time.process_time()
    result = run_cli("validate", "--quick", "--data", kit)
    assert time.process_time() - start < 5
    if words is None:
        assert result.code == 0, result.err
        return
    said = located(result, words)
    assert "tokens.xlsx" in said


def test_a_word_in_an_int_column_is_the_same_error_as_in_csv(run_cli, tmp_path):
    """A text cell where a number goes: the column's check says it, at the sheet's row, as for a CSV."""
    rows = HEADER + row(2, b"1") + b'<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3"><v>1</v></c></row>'
    kit = kit_with(tmp_path, "tokens.xlsx", xlsx(rows, NAMES + b"<si><t>two</t></si>"))
    located(run_cli("validate", "--quick", "--data", kit), "tokens.xlsx:Tokens:3: rows[1].value: must be a whole number")
    csv_kit = kit_with(tmp_path / "csv", "tokens.csv", b"value,qty\n1,8\ntwo,8\n")
    located(run_cli("validate", "--quick", "--data", csv_kit), "tokens.csv:3: rows[1].value: must be a whole number")


# Deeply nested SVG -------------------------------------------------------------------------------------------

def mini_copy(tmp_path: Path) -> Path:
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    return kit


def nest(depth: int) -> str:
    return "<g>" * depth + '<rect x="1" y="1" width="2" height="2"/>' + "</g>" * depth


def prepend(path: Path, text: str) -> None:
    path.write_text(text + path.read_text(encoding="utf-8"), encoding="utf-8")


@pytest.mark.parametrize("depth, art", [(3000, False), (3000, True), (90, False), (90, True)])
def test_deeply_nested_svg_is_located_before_anything_recurses(depth, art, run_cli, tmp_path):
    """3,000 nested groups in a face's template, or in an SVG art file it shows: the face's row and template
    (or the art file) named, no RecursionError; 90 levels still draw."""
    kit = mini_copy(tmp_path)
    template = kit / "templates" / "card-front.svg.j2"
    if art:
        (kit / "art" / "deep.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" '
                                              f'viewBox="0 0 10 10">{nest(depth)}</svg>', encoding="utf-8")
        prepend(template, '<image href="{{ "art/deep" ~ ".svg" }}" x="1" y="1" width="9" height="9"/>\n')
    else:
        prepend(template, nest(depth) + "\n")
    result = run_cli("build", "--data", kit, "--out", tmp_path / "out", "--only", "components", "--quiet")
    if depth < 100:
        assert result.code == 0, result.err
        return
    said = located(result, "nest more than 100 deep", "components/cards.yaml:")
    assert ("art/deep.svg" if art else "card-front.svg.j2: the SVG it made") in said


# Names a terminal cannot be hijacked by -----------------------------------------------------------------------

ESCAPES = "02-\x1b]0;PWNED\x07\x1b[2J.md"


@pytest.mark.parametrize("command", ["validate", "build"])
def test_control_characters_in_a_name_are_printed_escaped(command, run_cli, tmp_path):
    """A chapter named with a terminal's title and clear-screen codes, holding a bad template line: the
    message names the file with its codes written out (\\x1b), none of them raw, on stdout or stderr."""
    kit = mini_copy(tmp_path)
    (kit / "rules" / ESCAPES).write_text("# Two\n\n{% if %}\n", encoding="utf-8")
    result = run_cli(command, "--data", kit, *(("--out", tmp_path / "out") if command == "build" else ()))
    said = located(result, "02-\\x1b]0;PWNED\\x07\\x1b[2J.md:3")
    assert not any(ord(c) < 32 and c not in "\n\t" for c in said), repr(said)


def test_every_control_character_is_escaped_and_the_progress_line_keeps_its_own():
    from pnpgen.progress import Progress
    from pnpgen.terminal import SafeStream, escaped
    assert escaped("a\x1b[2Jb\x07\x9b\x7f\r\tc\n") == "a\\x1b[2Jb\\x07\\x9b\\x7f\\x0d\tc\n"
    raw = io.StringIO()
    raw.isatty = lambda: True
    progress = Progress(stream=SafeStream(raw))
    progress.start("cards\x1b[2J", 1, 2)
    assert raw.getvalue() == "\r\x1b[K[1/2] cards\\x1b[2J ..."


# Markup parsed in time linear in the text ------------------------------------------------------------------------

def test_an_aid_text_of_unclosed_font_tags_is_located_within_seconds(run_cli, tmp_path):
    """200,000 `<font` openers: the face-name regex scanned to the end for each (minutes); now its error."""
    kit = mini_copy(tmp_path)
    (kit / "aids").mkdir()
    (kit / "aids" / "cards.yaml").write_text('cards:\n  turn:\n    title: Turn\n    back: []\n    front:\n'
                                             '      - text: "' + "<font " * 200_000 + '"\n', encoding="utf-8")
    start = time.process_time()
    result = run_cli("build", "--data", kit, "--out", tmp_path / "out", "--quiet")
    assert time.process_time() - start < 10
    located(result, "aids/cards.yaml:6: cards.turn.front[0].text: the text's markup does not parse")


def test_a_huge_paragraph_of_unclosed_italics_is_located_within_seconds(run_cli, tmp_path):
    """A 900 KB paragraph of `*a ` (italics never closed): the italics regex tried every star against the
    rest of the line (hours); now parsed at once, and a paragraph past 50,000 characters is said at its line
    (reportlab wraps the rest of a paragraph again on every page)."""
    kit = mini_copy(tmp_path)
    chapter = kit / "rules" / "01-rules.md"
    lines = chapter.read_text(encoding="utf-8").count("\n")
    with chapter.open("a", encoding="utf-8") as text:
        text.write("\n" + "*a " * 300_000 + "\n")
    start = time.process_time()
    result = run_cli("build", "--data", kit, "--out", tmp_path / "out", "--only", "documents", "--quiet")
    assert time.process_time() - start < 10
    located(result, f"rules/01-rules.md:{lines + 2}: a paragraph of 899,999 characters (at most 50,000)")


def test_the_markup_parsers_are_linear_and_say_what_the_regexes_said():
    """Sizes that took minutes when the parsing was quadratic, each well under a second; on short random
    texts the linear parsers give what the regexes they replace gave."""
    import random
    import re

    from pnpgen.booklet.markdown import inline, italics
    from pnpgen.documents.charts import outside_jinja
    from pnpgen.documents.inline_icons import with_icons
    start = time.process_time()
    assert inline("*a " * 300_000).count("<i>") == 0
    assert outside_jinja("{{ " * 500_000 + ":x:") .endswith(":x:")
    assert with_icons("<b " * 300_000, {}, 9).startswith("<b ")
    assert time.process_time() - start < 2
    italic = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
    jinja = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
    pick = random.Random(40)
    for _ in range(20_000):
        text = "".join(pick.choice("*a b_\n.é{}%#") for _ in range(pick.randint(0, 14)))
        assert italics(text) == italic.sub(r"<i>\1</i>", text), repr(text)
        assert outside_jinja(text) == jinja.sub(" ", text), repr(text)


# The watcher never leaves the kit ---------------------------------------------------------------------------

def test_the_watcher_watches_the_kits_own_folders_and_follows_no_link(tmp_path):
    """`notes/usr -> /usr` and a link to a folder of the kit add no watch; the output, hidden folders and
    caches are left out; every folder watched is a real one inside the kit or the built-in templates."""
    from pnpgen.template_files import template_dirs
    from pnpgen.watch import watched_folders
    kit = mini_copy(tmp_path)
    (kit / "notes" / "deep").mkdir(parents=True)
    (kit / "notes" / "usr").symlink_to("/usr")
    (kit / "notes" / "again").symlink_to(kit / "rules")
    (kit / ".git" / "objects").mkdir(parents=True)
    (kit / "output" / "mini").mkdir(parents=True)
    folders = watched_folders(kit, kit / "output")
    inside = [f.relative_to(kit).as_posix() for f in folders if f.is_relative_to(kit)]
    assert sorted(inside) == sorted([".", "art", "boards", "components", "notes", "notes/deep", "rules", "templates"])
    builtin = [f for f in folders if not f.is_relative_to(kit)]
    assert all(any(f.is_relative_to(t) for t in template_dirs(kit) if not t.is_relative_to(kit)) for f in builtin)


def test_the_watcher_sees_a_file_in_a_folder_made_while_it_watches(tmp_path):
    """Each folder is watched alone, so a folder made later is watched afresh: a file saved in it rebuilds,
    its name said with its escape codes written out."""
    import threading

    from pnpgen.watch import watch
    kit = mini_copy(tmp_path)
    said, stop, builds = io.StringIO(), threading.Event(), []
    watcher = threading.Thread(target=watch, args=(kit, tmp_path / "out", lambda: builds.append(1) or "ok", stop, said))
    watcher.start()
    try:
        def wait_for(count: int) -> None:
            deadline = time.monotonic() + 20
            while len(builds) < count and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(builds) == count, said.getvalue()
        while "watching" not in said.getvalue() and watcher.is_alive():
            time.sleep(0.05)
        (kit / "notes").mkdir()  # an empty folder changes no file: nothing to build, but a new set to watch
        time.sleep(0.5)  # the new set of folders is being watched
        (kit / "notes" / "todo\x1b[2J.md").write_text("later\n", encoding="utf-8")
        wait_for(2)
    finally:
        stop.set()
        watcher.join(10)
    assert "todo\\x1b[2J.md" in said.getvalue() and "\x1b" not in said.getvalue()


# Digests read only what a build may read ----------------------------------------------------------------------

def test_a_huge_file_nothing_names_is_never_read(run_cli, tmp_path):
    """A 3 GB sparse file in the kit folder (no disk used), named by nothing: the build's input digests
    read it whole and the build failed on the memory budget. Now it is known by its stat, the build passes
    in seconds; named as a table's rows, it is refused by its size at its own file."""
    import os
    kit = mini_copy(tmp_path)
    huge = kit / "art" / "movie.mkv"
    with huge.open("wb") as sparse:
        sparse.truncate(3 * 2**30)
    start = time.process_time()
    assert run_cli("build", "--data", kit, "--out", tmp_path / "out", "--only", "manifest", "--quiet").code == 0
    assert time.process_time() - start < 10
    os.replace(huge, kit / "components" / "tokens.csv")
    located(run_cli("validate", "--quick", "--data", kit), "tokens.csv", "text_file_kb budget")


# Ids that name output files ----------------------------------------------------------------------------------

@pytest.mark.parametrize("file, old, line", [("components/cards.yaml", "group: cards", 8),
                                             ("a table file", None, None)])
def test_a_long_id_is_located_where_it_is_written(file, old, line, run_cli, tmp_path):
    """A print group of 300 letters ended in an error about the output folder ("File name too long"), with
    no place: an id names output files, so it is at most 64 characters, said at its line."""
    kit = mini_copy(tmp_path)
    long_id = "c" * 300
    if old is None:  # a table file whose name (its id, and its group's) is long (a file name has 255 at most)
        long_id = "c" * 200
        (kit / "components" / "cards.yaml").rename(kit / "components" / f"{long_id}.yaml")
        kit_yaml = kit / "kit.yaml"
        kit_yaml.write_text(kit_yaml.read_text(encoding="utf-8").replace("  cards: {marks: crop}\n", "")
                            .replace("tables: [cards,", f"tables: [{long_id},"), encoding="utf-8")
        located(run_cli("validate", "--quick", "--data", kit), f"{long_id}.yaml", "at most 64")
        return
    path = kit / file
    path.write_text(path.read_text(encoding="utf-8").replace(old, f"group: {long_id}"), encoding="utf-8")
    kit_yaml = kit / "kit.yaml"
    kit_yaml.write_text(kit_yaml.read_text(encoding="utf-8").replace("  cards: {marks: crop}\n", ""), encoding="utf-8")
    located(run_cli("build", "--data", kit, "--out", tmp_path / "out", "--quiet"),
            f"components/cards.yaml:{line}: group: must be an id of letters, digits, _ or - (at most 64)")
