"""`pnpgen serve`: the studio page, read as a real headless Chromium shows it, and its server over HTTP.

One `pnpgen serve` process on a copy of the mini kit serves the whole module (its start and first build
are the slow part); the designer's loop edits the kit's CSV, breaks it and mends it, and leaves it as found.
"""
import http.client
import io
import json
import socket
import time
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from pnpgen.cli import main
from pnpgen.studio.pictures import FACE_DPI
from pnpgen.studio.state import message_view
from tests.browser import Browser, chromium_path
from tests.studio_helpers import ALL_LOADED, ServeProcess, pieces_shown, write_cell

MINI = Path(__file__).parent / "kits" / "mini"
NO_CHROMIUM = "no Chromium on this machine: apt-get install -y chromium (.ci/run installs it)"


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    import shutil
    folder = tmp_path_factory.mktemp("studio")
    kit = folder / "mini"
    shutil.copytree(MINI, kit)
    with ServeProcess(kit, folder / "out") as served:
        served.kit, served.out = kit, folder / "out" / "mini"
        served.wait_for_view(lambda view: view["status"] == "built")
        yield served
    assert served.proc.returncode == 0, served.said  # Ctrl-C ends it cleanly
    assert "stopped watching" in served.said[-1]
    assert not [line for line in served.said if "Traceback" in line or "request failed" in line]


@pytest.fixture(scope="module")
def browser():
    if chromium_path() is None:
        pytest.skip(NO_CHROMIUM)
    with Browser() as opened:
        yield opened


def manifest(studio) -> dict:
    return json.loads((studio.out / "manifest.json").read_text())


def png_of(studio, name: str) -> Image.Image:
    status, headers, data = studio.get(f"pic/{name}")
    assert status == 200 and headers["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(data))


# The server, over plain HTTP ------------------------------------------------------------------------------

def test_the_view_holds_every_piece_and_every_page_of_the_build(studio):
    view, built = studio.view(), manifest(studio)
    shown = sorted((p["ref"], p["colour"], p["count"]) for p in view["pieces"])
    assert shown == sorted((p["ref"], p["colour"], p["count"]) for p in built["pieces"])
    token = next(p for p in view["pieces"] if p["ref"] == "tokens.5")
    assert "tokens.csv:4" in token["source"]  # the row to edit, named under the picture's tooltip
    two_sided = {p["ref"] for p in built["pieces"] if p["back"]}
    for piece in view["pieces"]:
        front = png_of(studio, piece["front"])
        assert front.size == (round(piece["w_mm"] / 25.4 * FACE_DPI), round(piece["h_mm"] / 25.4 * FACE_DPI))
        assert (piece["back"] is not None) == (piece["ref"] in two_sided)
    pdfs = sorted(f["path"] for part in built["parts"].values() for f in part.get("files", ()))
    assert sorted(f["path"] for f in view["files"]) == pdfs
    for file in view["files"]:
        assert len(file["pages"]) == len(PdfReader(studio.out / file["path"]).pages)
        first = png_of(studio, file["pages"][0]["picture"])
        assert first.width == pytest.approx(file["pages"][0]["w_pt"] / 72 * 50, abs=1)


def test_pictures_are_sent_once_and_cached_for_good(studio):
    name = studio.view()["pieces"][0]["front"]
    status, headers, _ = studio.get(f"pic/{name}")
    assert status == 200 and "immutable" in headers["Cache-Control"] and headers["ETag"] == f'"{name}"'
    assert studio.get(f"pic/{name}", **{"If-None-Match": f'"{name}"'})[0] == 304
    assert studio.get("view.json")[1]["Cache-Control"] == "no-store"


@pytest.mark.parametrize("path", ["/file/../kit.yaml", "/file/..%2F..%2Fmini%2Fkit.yaml", "/file//etc/passwd",
                                  "/file/%2Fetc%2Fpasswd", "/pic/../../etc/passwd", "/../../etc/passwd",
                                  "/file/boards/../../mini/kit.yaml", "/kit.yaml"])
def test_only_the_builds_own_files_are_served(studio, path):
    connection = http.client.HTTPConnection("127.0.0.1", int(studio.url.rsplit(":", 1)[1].strip("/")), timeout=10)
    connection.request("GET", path)  # sent as written: urllib would tidy the dots away
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    assert answer.status == 404 and b"kit: mini" not in body and b"root:" not in body


def test_a_pdf_of_the_build_is_served_and_a_foreign_host_is_refused(studio):
    status, headers, data = studio.get("file/cards.pdf")
    assert status == 200 and headers["Content-Type"] == "application/pdf"
    assert data == (studio.out / "cards.pdf").read_bytes()
    assert studio.get("view.json", Host="studio.example.com")[0] == 403  # a DNS name rebound to 127.0.0.1


@pytest.mark.parametrize("host, status", [("localhost:8765", 200), ("127.0.0.1", 200), ("[::1]:8765", 200),
                                          ("127.0.0.1.nip.io", 403), ("localhost.example.com:8765", 403),
                                          ("", 403)])
def test_only_loopback_host_names_are_answered(studio, host, status):
    assert studio.get("view.json", Host=host)[0] == status


def test_a_build_errors_location_is_split_off_for_the_page():
    located = message_view("mygame/components/cards.yaml:12: cards row Scout: text does not fit")
    assert (located["where"], located["message"]) == ("mygame/components/cards.yaml:12", "cards row Scout: text does not fit")
    unlocated = message_view("another build is writing output/mini right now: try again")
    assert (unlocated["where"], unlocated["message"]) == ("", "another build is writing output/mini right now: try again")


def test_preflight_findings_are_one_a_line_each_located():
    from pnpgen.studio.state import message_views
    shown = message_views("preflight: these pieces would print badly:\nkit/cards.yaml:14: cards row Explore: text "
                          "'one' overprints text 'two'\nkit/tiles.yaml:3: tiles row A: art outside the bleed")
    assert [(v["where"], v["message"][:14]) for v in shown] == [
        ("", "preflight: the"), ("kit/cards.yaml:14", "cards row Expl"), ("kit/tiles.yaml:3", "tiles row A: a")]
    assert message_views("kit/cards.yaml:2: a: b\nmore of it") == [message_view("kit/cards.yaml:2: a: b\nmore of it")]


def test_a_proof_of_no_such_piece_says_what_there_is(studio):
    token = {"X-Pnpgen-Token": studio.token()}
    status, _, body = studio.post("proof", {"ref": "cards.Explor"}, **token)
    assert status == 422 and "did you mean cards.Explore" in json.loads(body)["error"]
    assert studio.post("proof", {}, **token)[0] == 400


def _files_below(folder: Path) -> dict:
    return {str(p): p.stat().st_mtime_ns for p in folder.rglob("*")} if folder.exists() else {}


@pytest.mark.parametrize("method, headers", [
    ("GET", {}),                                                       # a link, an <img>, a GET from any page
    ("POST", {}),                                                      # no token
    ("POST", {"X-Pnpgen-Token": "guessed"}),
    ("POST", {"token": True, "Origin": "https://evil.example"}),       # another site's page, token or not
    ("POST", {"token": True, "Origin": "http://127.0.0.1:1"}),         # another server on this machine
    ("POST", {"token": True, "Sec-Fetch-Site": "cross-site"}),
    ("POST", {"token": True, "Sec-Fetch-Site": "same-site"}),
])
def test_only_the_studios_own_page_draws_a_proof(studio, method, headers):
    """Issue 40: a GET of /proof from a page on another site (Host 127.0.0.1) drew a proof and wrote files.
    Now nothing is drawn or written: GETs change nothing, and a proof is a POST carrying the page's token
    from the studio's own page."""
    headers = {**headers, "Host": "127.0.0.1"}
    if headers.pop("token", False):
        headers["X-Pnpgen-Token"] = studio.token()
    before, pictures = _files_below(studio.out.parent), studio.view()
    if method == "GET":
        status = studio.get("proof?ref=cards.Trade&colour=&variant=", **headers)[0]
    else:
        status = studio.post("proof", {"ref": "cards.Trade"}, **headers)[0]
    assert status in (403, 405)
    assert _files_below(studio.out.parent) == before and studio.view() == pictures
    assert not (studio.out / "proofs" / "cards.Trade-front.png").exists()


def test_the_studios_own_page_draws_a_proof_over_http(studio):
    status, _, body = studio.post("proof", {"ref": "cards.Trade"}, **{"X-Pnpgen-Token": studio.token(),
                                  "Origin": studio.url.rstrip("/"), "Sec-Fetch-Site": "same-origin"})
    assert status == 200 and json.loads(body)["pdf"] == "proofs/proof.pdf"
    assert (studio.out / "proofs" / "cards.Trade-front.png").exists()


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}])
def test_another_sites_page_reads_nothing(studio, headers):
    for path in ("", "view.json", "file/cards.pdf", f"pic/{studio.view()['pieces'][0]['front']}"):
        assert studio.get(path, **headers)[0] == 403


def test_the_server_listens_on_loopback_only(studio):
    assert studio.url.startswith("http://127.0.0.1:")
    port = int(studio.url.rsplit(":", 1)[1].strip("/"))
    for family, address in [(socket.AF_INET, ip) for ip in _own_addresses()]:
        with socket.socket(family) as probe:
            probe.settimeout(2)
            assert probe.connect_ex((address, port)) != 0, f"the studio answers on {address}"


def _own_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (none on a machine without a network)."""
    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return []
    return [ip for ip in names if not ip.startswith("127.")]


def test_a_studio_left_open_is_not_held_to_one_commands_cpu_budget(studio):
    """The budgets hold each build, not the studio's whole life: between builds the process has no CPU limit of
    its own (a designer's afternoon of saves would otherwise end in SIGXCPU after `cpu_seconds`)."""
    limits = Path(f"/proc/{studio.proc.pid}/limits")
    if not limits.exists():
        pytest.skip("no /proc on this machine")
    cpu = next(line for line in limits.read_text().splitlines() if line.startswith("Max cpu time"))
    assert cpu.split()[3] == "unlimited", cpu


def test_a_taken_port_is_a_clear_message(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--data", str(MINI), "--out", str(tmp_path), "--port", str(port)])
    assert code == 2 and f"cannot serve on 127.0.0.1:{port}" in capsys.readouterr().err
    assert main(["serve", "--data", str(MINI), "--port", "70000"]) == 2


# In the browser -------------------------------------------------------------------------------------------

def test_the_page_shows_every_piece_and_page(studio, browser):
    browser.open(studio.url)
    view = studio.view()
    pictures = sum(1 + (p["back"] is not None) for p in view["pieces"])
    pages = sum(len(f["pages"]) for f in view["files"])
    assert browser.wait_for(ALL_LOADED) == pictures + pages
    assert browser.evaluate("document.querySelectorAll('figure.piece').length") == len(view["pieces"])
    assert browser.evaluate("document.getElementById('title').textContent") == "Mini Test Kit"
    assert browser.evaluate("document.getElementById('problems').children.length") == 0


def test_the_designers_loop_edit_break_and_mend(studio, browser):
    """A saved CSV cell shows by itself, with only the changed pictures fetched again; a broken file shows
    its located error beside the last good pictures; the fix clears it."""
    csv = studio.kit / "components" / "tokens.csv"
    browser.open(studio.url)
    browser.wait_for(ALL_LOADED)
    browser.evaluate("performance.setResourceTimingBufferSize(10000)")
    before = studio.view()
    card = next(p["front"] for p in before["pieces"] if p["ref"] == "cards.Explore")
    old_token = png_of(studio, next(p["front"] for p in before["pieces"]
                                    if p["ref"] == "tokens.5" and p["colour"] == "red"))
    try:
        write_cell(csv, "\n5,1", "\n4,1")
        assert browser.wait_for(f"{pieces_shown('tokens.4')} === 2")  # red and blue, loaded in the page
        assert browser.evaluate(pieces_shown("tokens.5")) == 0
        glowing = browser.evaluate("[...document.querySelectorAll('figure.piece.changed')].map(f => f.dataset.ref)")
        assert set(glowing) == {"tokens.4"}  # the changed pieces are marked for the eye, and only they
        browser.wait_for(f"document.getElementById('status').dataset.status === 'built' && {ALL_LOADED}")
        new_token = browser.evaluate("document.querySelector('figure.piece[data-ref=\"tokens.4\"][data-colour=\"red\"]"
                                     " img.front').src").rsplit("/", 1)[1]
        assert _differ(old_token, png_of(studio, new_token))
        fetched = browser.evaluate("performance.getEntriesByType('resource').map(e => e.name)"
                                   ".filter(n => n.includes('/pic/')).map(n => n.split('/').pop())")
        assert fetched.count(card) == 1 and fetched.count(new_token) == 1  # the unchanged card: never again

        csv.write_text("value,qty\nfive,4\n2,3\n4,1\n", encoding="utf-8")
        where = browser.wait_for("[...document.querySelectorAll('#problems .where')].map(e => e.textContent).join()")
        assert "tokens.csv:2" in where
        assert browser.evaluate("document.getElementById('problems').textContent").count("value") >= 1
        assert browser.evaluate("document.getElementById('status').dataset.status") == "failed"
        assert browser.evaluate(pieces_shown("tokens.4")) == 2 and browser.evaluate(ALL_LOADED)  # the last good
    finally:
        csv.write_text("value,qty\n1,4\n2,3\n5,1\n", encoding="utf-8")
    browser.wait_for("document.getElementById('problems').children.length === 0 && "
                     "document.getElementById('status').dataset.status === 'built'")
    assert browser.wait_for(f"{pieces_shown('tokens.5')} === 2")


def test_a_saved_row_renders_only_its_own_faces(tmp_path, monkeypatch):
    """The studio's face pass renders again only what may have changed (it rendered every face of the kit
    on every save: 874 on Space Empires 4X, 0.8 s of each save): a row's faces, a template's faces."""
    import shutil
    from pnpgen.export.decks import ExportArts
    from pnpgen.kit import load_kit
    from pnpgen.studio.pictures import FacePictures, PictureStore
    kit = tmp_path / "mini"
    shutil.copytree(MINI, kit)
    rendered = []
    svg = ExportArts.svg
    monkeypatch.setattr(ExportArts, "svg", lambda self, face, *a: rendered.append(face.template) or svg(self, face, *a))
    faces = FacePictures(PictureStore())
    first = faces.pieces(load_kit(kit)[0])
    everything = len(rendered)
    assert faces.pieces(load_kit(kit)[0]) == first and len(rendered) == everything   # nothing changed: none
    write_cell(kit / "components" / "tokens.csv", "\n5,1", "\n3,1")
    again = faces.pieces(load_kit(kit)[0])
    assert set(rendered[everything:]) == {"token"} and len(rendered) - everything == 4   # the row's 2 sides, 2 colours
    assert [p["front"] for p in again if p["ref"] != "tokens.3"] == [p["front"] for p in first if p["ref"] != "tokens.5"]
    chit = kit / "templates" / "chit.svg.j2"
    chit.write_text(chit.read_text() + "\n")   # a template: only the faces it draws are rendered again
    done = len(rendered)
    assert faces.pieces(load_kit(kit)[0]) == again and set(rendered[done:]) == {"chit"}


def test_a_template_or_data_edit_redraws_the_faces_that_read_it(studio):
    """Faces not made again when only another row changed (pnpgen.studio.pictures) are still made again
    when anything else they read changes: a template, a file beside the tables."""
    template = studio.kit / "templates" / "card-front.svg.j2"
    old = template.read_text()
    fronts = lambda view: {p["front"] for p in view["pieces"] if p["ref"].startswith("cards.")}
    before = studio.view()
    try:
        template.write_text(old.replace("#fdf8ec", "#ecf3fd"))
        after = studio.wait_for_view(lambda view: view["status"] == "built" and view["version"] > before["version"]
                                     and not fronts(view) & fronts(before))
        assert {p["front"] for p in after["pieces"] if not p["ref"].startswith("cards.")} == \
               {p["front"] for p in before["pieces"] if not p["ref"].startswith("cards.")}
    finally:
        template.write_text(old)
    studio.wait_for_view(lambda view: view["status"] == "built" and fronts(view) == fronts(before))


def test_a_build_that_fails_after_the_pieces_showed_keeps_the_last_good_pictures(studio, browser):
    """Another build holds the output folder (a `pnpgen build` in a terminal): the studio's build stops after
    the new pieces were drawn; the page shows why and the last good pictures, every one still served."""
    from pnpgen.output import BuildLock
    csv = studio.kit / "components" / "tokens.csv"
    browser.open(studio.url)
    browser.wait_for(ALL_LOADED)
    try:
        with BuildLock(studio.out):
            write_cell(csv, "\n5,1", "\n4,1")
            browser.wait_for("document.getElementById('status').dataset.status === 'failed'")
            assert "another build is writing" in browser.evaluate("document.getElementById('problems').textContent")
            assert browser.wait_for(f"{pieces_shown('tokens.5')} === 2 && {ALL_LOADED}")
            assert browser.evaluate(pieces_shown("tokens.4")) == 0
            view = studio.view()
            named = [p[side] for p in view["pieces"] for side in ("front", "back") if p[side]]
            named += [page["picture"] for f in view["files"] for page in f["pages"]]
            assert [studio.get(f"pic/{name}")[0] for name in named] == [200] * len(named)  # a new tab sees them
    finally:
        csv.write_text("value,qty\n1,4\n2,3\n5,1\n", encoding="utf-8")
    browser.wait_for("document.getElementById('status').dataset.status === 'built' && "
                     "document.getElementById('problems').children.length === 0")


def _differ(a: Image.Image, b: Image.Image) -> bool:
    from PIL import ImageChops
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None


def test_a_click_opens_the_proof_at_print_size_with_its_cut_line(studio, browser):
    browser.open(studio.url)
    browser.wait_for(ALL_LOADED)
    browser.evaluate("document.querySelector('figure.piece[data-ref=\"cards.Explore\"]').click()")
    loaded = "(i => i && i.complete && i.naturalWidth > 0)(document.querySelector('img.proof-front'))"
    browser.wait_for(f"{loaded} && document.querySelector('img.proof-back').complete")
    width_px = browser.evaluate("document.querySelector('img.proof-front').getBoundingClientRect().width")
    assert width_px / 96 * 25.4 == pytest.approx(63.5 + 2 * 3.0, abs=0.3)  # CSS: 96 px an inch; + the margin
    name = browser.evaluate("document.querySelector('img.proof-front').src").rsplit("/", 1)[1]
    proof = png_of(studio, name).convert("RGB")
    assert proof.tobytes() == Image.open(studio.out / "proofs" / "cards.Explore-front.png").convert("RGB").tobytes()
    margin = round(3.0 / 25.4 * 192)
    row = [proof.getpixel((x, proof.height // 2)) for x in range(margin - 4, margin + 2)]
    assert any(r > 180 and g < 80 and b > 180 for r, g, b in row)  # the magenta cut line beside the edge
    assert "cards.yaml:" in browser.evaluate("document.querySelector('#proof .source').textContent")
    pdf = browser.evaluate("document.querySelector('#proof a').getAttribute('href')").split("?")[0]
    assert studio.get(pdf.lstrip("/"))[0] == 200


def test_a_missing_kit_folder_is_refused_before_serving(tmp_path, capsys):
    """A mistyped --data folder must not start a server that watches nothing and never recovers."""
    missing = tmp_path / "mygmae"
    assert main(["serve", "--data", str(missing), "--port", "0"]) == 2
    assert main(["build", "--data", str(missing), "--watch"]) == 2
    err = capsys.readouterr().err
    assert err.count(f"--data {missing}: no such folder") == 2 and "Traceback" not in err


def test_a_served_builds_options_hold_only_build_options():
    """`serve` runs for hours and takes its budgets per build (its `rebuilds` default): that is how the
    command runs, not an option of the build, so a served build's manifest must not record it."""
    from pnpgen.cli import command_parser
    from pnpgen.cli_common import build_options
    options = build_options(command_parser().parse_args(["serve", "space-empires-4x"]))
    assert "rebuilds" not in options.extra, options.extra


# A kit with its own narrow font: the first build and every save, as a command-line build ----------------

def narrow_font_kit(folder: Path) -> Path:
    """The mini kit with a condensed font of its own for the cards' text (narrower than the DejaVu Sans a
    family cairo did not know yet falls back to: text measured in one and drawn in the other overprints)."""
    import shutil
    from tests.font_helpers import font_bytes, renamed_subset
    kit = folder / "narrow"
    shutil.copytree(MINI, kit)
    (kit / "fonts").mkdir()
    for style, source in (("Regular", "DejaVuSansCondensed.ttf"), ("Bold", "DejaVuSansCondensed-Bold.ttf")):
        (kit / "fonts" / f"KitNarrow-{style}.ttf").write_bytes(font_bytes(renamed_subset(source, "Kit Narrow", style)))
    write_cell(kit / "templates" / "card-front.svg.j2", "min_size=7)", 'min_size=7, family="Kit Narrow")')
    write_cell(kit / "components" / "cards.yaml", "one of your tiles.",
               "one of your tiles, then look at another tile of the stack and place it next to one of your tiles, "
               "then again and again and again.")
    return kit


def test_the_studio_reports_what_a_build_does_and_builds_a_save_made_as_the_pictures_show(tmp_path, browser):
    """`pnpgen serve`, `pnpgen build`, `pnpgen serve` again, as a designer goes: each studio's first build
    reports what the command-line build does (no problem). The studio drew its pictures before the kit's
    fonts were shown to cairo, which then kept DejaVu Sans for the kit's family in that process, while text
    was laid out with widths kept on disk by another process: the second start found overprinting text on a
    valid row and nothing built. A save made as the page first shows its pictures (during the first build)
    reaches the page."""
    import subprocess
    import sys
    kit = narrow_font_kit(tmp_path)
    with ServeProcess(kit, tmp_path / "out") as served:
        assert served.wait_for_view(lambda view: view["status"] in ("built", "failed"))["problems"] == []
    built = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--data", str(kit), "--out", str(tmp_path / "cli")],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0 and "warning" not in built.stdout + built.stderr, built.stderr
    with ServeProcess(kit, tmp_path / "out") as served:
        browser.open(served.url)
        browser.wait_for(f"{pieces_shown('cards.Explore')} > 0", seconds=60)
        write_cell(kit / "components" / "cards.yaml", "title: Build", "title: Construct")
        shown = "document.querySelectorAll('figure.piece[data-label=\"Construct\"] img.front').length"
        assert browser.wait_for(f"document.getElementById('status').dataset.status === 'built' && {shown}"
                                f" && {ALL_LOADED}", seconds=60)
        assert browser.evaluate("document.getElementById('problems').textContent") == ""
        assert served.view()["problems"] == []


@pytest.mark.parametrize("data_too", [False, True])
def test_a_chapter_problem_found_after_the_pieces_showed_fails_the_attempt_where_validate_says(tmp_path, run_cli,
                                                                                               data_too):
    """The studio checks the documents' texts after a save's pieces show (load_kit(texts=False), then
    check_kit_texts): a broken chapter still fails the attempt, its problem in the view at the line validate
    gives; a broken template beside a broken row, both at once, as validate says them."""
    from pnpgen.build_options import BuildOptions
    from pnpgen.kit import load_kit
    from pnpgen.problems import KitError
    from pnpgen.studio.session import Studio
    from pnpgen.studio.state import StudioState
    kit = tmp_path / "kit"
    assert main(["new", "--blank", str(kit)]) == 0
    chapter = kit / "rules" / "01-rules.md"
    if data_too:   # a broken row keeps the chapters unread; the templates are parsed all the same
        write_cell(kit / "components" / "tokens.csv", "\n5,1", "\n9,1")
        write_cell(kit / "templates" / "tile-back.svg.j2", "{{ p.ground(", "{% if %}{{ p.ground(")
    else:
        chapter.write_text(chapter.read_text() + "\n{{ no_such_name.field }}\n")
    said = run_cli("validate", "--data", kit)
    files = ("tokens.csv:", "tile-back.svg.j2") if data_too else ("01-rules.md:",)
    assert said.code == 1 and all(file in said.err for file in files), said.err
    state = StudioState()
    studio = Studio(state, lambda texts=True: load_kit(kit, texts=texts), BuildOptions(out=tmp_path / "out"))
    with pytest.raises(KitError):
        studio.attempt()
    view = state.snapshot()
    assert view["status"] == "failed" and view["pieces"] == []   # nothing had built: no pieces to keep
    assert sorted(p["where"] for p in view["problems"]) == sorted(
        line.split(": ")[0] for line in said.err.splitlines() if any(file in line for file in files)), said.err


def test_the_build_waits_for_the_page_to_fetch_a_saves_pictures_a_moment_at_most():
    """wait_sent: at once when no page follows the view; when one does, until it fetched every new picture
    (one fetched for an earlier view counts: the page keeps it), or the timeout."""
    import threading
    import time
    from pnpgen.studio.state import StudioState
    state = StudioState()
    assert state.wait_sent({"a.png"}, 5.0)   # no page: no wait
    state.follow(1)
    start = time.monotonic()
    assert not state.wait_sent({"a.png"}, 0.1) and time.monotonic() - start >= 0.1
    threading.Timer(0.05, state.picture_sent, ["a.png"]).start()
    assert state.wait_sent({"a.png"}, 5.0)
    state.update(status="built")   # an edit undone: the page has the picture already, nothing to wait for
    assert state.wait_sent({"a.png"}, 0.0)
    assert not state.wait_sent({"a.png", "b.png"}, 0.05)


def test_a_yaml_error_is_one_problem_in_the_view(tmp_path):
    """A table that is no YAML showed its error twice in the page (issue 35): the attempt's view now holds
    it once, at its file and line."""
    from pnpgen.build_options import BuildOptions
    from pnpgen.kit import load_kit
    from pnpgen.problems import KitError
    from pnpgen.studio.session import Studio
    from pnpgen.studio.state import StudioState
    kit = tmp_path / "kit"
    assert main(["new", "--blank", str(kit)]) == 0
    write_cell(kit / "components" / "cards.yaml", "size: poker", "size: poker : [broken")
    state = StudioState()
    studio = Studio(state, lambda texts=True: load_kit(kit, texts=texts), BuildOptions(out=tmp_path / "out"))
    with pytest.raises(KitError):
        studio.attempt()
    problems = state.snapshot()["problems"]
    assert [(p["where"].rsplit("/", 1)[1], "not valid YAML" in p["message"]) for p in problems] == [
        ("cards.yaml:4", True)], problems


def test_a_change_of_status_alone_is_shown_without_fetching_the_view(browser):
    """Each save first says "building…": the page fetched the whole view for it (170 KB for Space Empires 4X)
    while the studio loaded the kit on the same cores. The event now carries the status line; the page
    fetches the view only when more than the status changed."""
    from pnpgen.studio.server import StudioServer, start
    from pnpgen.studio.state import StudioState
    state = StudioState("Kit")
    server = StudioServer(state, lambda *_: {}, 0)
    start(server)
    try:
        state.update(status="built", seconds=0.5, built_at=1.0)
        browser.open(server.url)
        settled = "events.readyState === EventSource.OPEN && !fetching && shownContent >= 0"
        browser.wait_for(settled)   # the page's first fetch and the stream's first event done with
        time.sleep(0.2)
        browser.wait_for(settled)
        fetches = "performance.getEntriesByType('resource').filter(e => e.name.endsWith('/view.json')).length"
        fetched = browser.evaluate(fetches)
        state.update(status="building")
        browser.wait_for("document.getElementById('status').dataset.status === 'building'")
        assert browser.evaluate(fetches) == fetched
        assert browser.evaluate("document.getElementById('status').textContent") == "building…"
        state.update(status="failed", problems=[{"where": "kit.yaml:3", "field": "", "message": "broken",
                                                 "severity": "error"}])
        browser.wait_for("document.getElementById('problems').textContent.includes('broken')")
        assert browser.evaluate(fetches) == fetched + 1
    finally:
        state.stop()
        server.shutdown()
        server.server_close()
