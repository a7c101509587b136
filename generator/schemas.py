"""The schema of kit.yaml, the file every kit has: each field with its type, whether it is required, and
why it exists. A game module (games/) keeps the schemas of its own files."""
from __future__ import annotations

from pnpgen.declared_checks import CHECK
from pnpgen.maps.declared import MAP_RULES
from pnpgen.lengths import LENGTH_PATTERN
from pnpgen.schema import (
    Bool, Choice, Field, Int, Length, ListOf, MapOf, Nullable, Number, Record, Str, optional,
)

from pnpgen.budgets import CEILINGS, DOCS as BUDGET_DOCS, Budgets as DEFAULT_BUDGETS

# Bounds that no real kit comes near, so an absurd number (a billion counters, a 50 in counter) stops at
# validation with its line instead of filling the memory or the disk later.
MAX_COUNT = 1000          # copies of one piece, markers in a mix, a rule's total
MAX_STAT = 1000           # attack, hull, cost, CP and other printed numbers
MM = 72 / 25.4

HEX_COLOUR = Str(r"#[0-9a-fA-F]{6}", "a colour written #rrggbb")
TEMPLATE = Str(r"[A-Za-z0-9_-]+", "a template name (letters, digits, _ or -), without .svg.j2")
LENGTH = Str(LENGTH_PATTERN, "a length such as 5/8in, 16mm or 45pt")

COLOUR = Record({
    "name": Field(Str(), doc="printed colour name"),
    "print": Field(HEX_COLOUR, doc="fill colour"),
    "ink": Field(HEX_COLOUR, doc="text colour that reads on the fill"),
    "emblem": Field(Choice(("triangle", "circle", "square", "diamond", "hexagon", "star")),
                    doc="shape cue, so colour is never the only cue"),
    "pattern": Field(Choice(("diagonal", "dots", "vertical", "cross", "horizontal", "none")),
                     doc="fill-pattern cue"),
}, "a colour")

NEUTRAL = Record({
    "name": Field(Str()),
    "print": Field(HEX_COLOUR),
    "ink": Field(HEX_COLOUR),
}, "the neutral colour")

SHEET = Record({
    "paper": optional(Str(), None, "letter, a4, a3 or WIDTHxHEIGHT with a unit (default: the kit's paper)"),
    "gutter": optional(Length(0, 72, positive=False), None, "gap between pieces (default: 0 for square/rect, 2mm for circle/hex)"),
    "row_gutter": optional(Length(0, 72, positive=False), None,
                           "gap between rows, where it differs from the gap between columns (default: the gutter): "
                           "pieces whose sides abut in a colour they share need no gap there to bleed"),
    "marks": optional(Choice(("lines", "crop", "outline")), None, "how cuts are shown"),
    "bleed": optional(Length(0, 10 * MM, positive=False), "0mm", "art printed past each piece's trim"),
    "nest": optional(Bool(), False, "hex tiles share edges"),
    "layout": optional(Choice(("packed", "counter-sheet")), "packed",
                       "packed (fewest sheets, 30 pt title band) or counter-sheet (portrait, one grid, each table "
                       "on a new row, the print instructions on the first page, cut lines on the backs too)"),
    "title": optional(Str(), None, "the words naming the group's file on its pages (default: its tables' names); "
                                   "a one-colour file adds the colour's name"),
    "remainders": optional(Str(r"[a-z0-9][a-z0-9_-]*", "a print group's name such as cards"), None,
                           "a print file that takes the pieces of this group's (and its per-colour files') "
                           "partly filled last sheet, packed after its own, where that saves a sheet (same "
                           "sides, paper and packed layout; docs/kit-format.md). Default: each file keeps its own"),
}, "a sheet setting: {paper, gutter, row_gutter, marks, bleed, nest, layout, title, remainders}")

DOCUMENT = Record({
    "chapters": Field(Str(), doc="a folder of Markdown chapters, or one .md file, inside the kit"),
    "title": optional(Str(), None, "the document's title (default: the kit's title)"),
    "page": optional(Choice(("half", "full")), "half", "half-letter/A5 pages, or full Letter/A4 pages"),
    "impose": optional(Bool(), None, "also write a 2-up saddle-stitch copy (default: for half pages)"),
    "cover": optional(Bool(), None, "a cover and contents first (default: for half pages)"),
    "back_cover": optional(Str(), None, "a chapter file of one page, printed last, on the folded booklet's back "
                                        "cover (default: none; the imposed copy's blank pages go at the end)"),
}, "a document: {chapters, title, page, impose, cover, back_cover}")

COVER_PIECE = Record({
    "piece": Field(Str(r"[^.:\s][^:]*\.[^:]+", "a piece's ref TABLE.ROW, as a figure names it: sectors.001"),
                   doc="the piece: its component table and row"),
    "colour": optional(Str(r"[a-z0-9][a-z0-9_-]*", "a colour id"), None,
                       "which colour's copy, for a piece printed in every colour (default: its first)"),
    "side": optional(Choice(("front", "back")), "front", "the face shown"),
    "scale": optional(Number(0.1, 4), 1.0, "its size on the cover, times its printed size (its smallest text must "
                                           "still print at 6 pt)"),
    "new_row": optional(Bool(), False, "start a new row of the picture with this piece (default: a row ends where "
                                       "the next piece would not fit)"),
}, "a piece on the cover: {piece, colour, side, scale, new_row}")

RULING_ID = Str(r"[A-Za-z0-9_-]+", "a ruling's id in data/rules.yaml rulings")
COVER_RULINGS = Record({
    "players": optional(RULING_ID, None, "the ruling that decides the player count"),
    "ages": optional(RULING_ID, None, "the ruling that decides the ages"),
    "time": optional(RULING_ID, None, "the ruling that decides the playing time"),
}, "the cover's facts the kit decides: {players, ages, time}, each a ruling's id")

COVER = Record({
    "art": optional(Choice(("hexes", "stars")), "hexes", "the front cover's picture, drawn from the kit's colours: "
                                                       "a drift of hexes over a starfield, or stars and a planet"),
    "colours": optional(ListOf(Str(r"[a-z0-9][a-z0-9_-]*", "a colour id of kit.yaml colours:, or neutral"), 1), None,
                        "the colours the hexes take, or the planet the first (default: every player colour)"),
    "sky": optional(HEX_COLOUR, "#101a33", "the picture's background"),
    "ages": optional(Str(), None, "who the game is for, as the box says it: 14+"),
    "time": optional(Str(), None, "how long a game takes, as the box says it: 60-120 minutes"),
    "version": optional(Str(), None, "the kit's edition or version, printed on the front cover"),
    "credits": optional(ListOf(Str()), [], "lines printed on the back cover: the game's designers, the kit's makers"),
    "rulings": optional(COVER_RULINGS, {}, "the facts the rules sources do not state, each marked on the cover with "
                                           "the number of the kit ruling (data/rules.yaml) that decides it"),
    "pieces": optional(ListOf(COVER_PIECE), [], "the kit's own pieces laid on the front picture in rows, drawn as "
                                                 "its sheets print them (default: none, the picture alone)"),
}, "a cover: {art, colours, sky, ages, time, version, credits, rulings, pieces}")

KIT_COUNT = Record({
    "rule": Field(Str(), doc="the rule's name"),
    "tables": optional(ListOf(Str(), 1), None, "tables whose pieces count"),
    "group": optional(Str(), None, "or a print group whose pieces count"),
    "total": Field(Int(0, 100 * MAX_COUNT), doc="how many pieces the rule asks for"),
}, "{rule, tables or group, total}")

KIT = Record({
    "kit": Field(Str(r"[a-z0-9][a-z0-9-]{0,63}", "a lower-case id of letters, digits and dashes (at most 64) "
                     "such as space-empires-4x"), doc="folder-safe id: the build lands in OUT/<kit>"),
    "title": Field(Str()),
    "subtitle": optional(Str(), ""),
    "players": Field(Record({"min": Field(Int(1, 100)), "max": Field(Int(1, 100))}, "{min, max}")),
    "colours": optional(MapOf(COLOUR), {}, "player colours"),
    "neutral": optional(NEUTRAL, {"name": "Neutral", "print": "#ffffff", "ink": "#1a1a1a"}),
    "counter_size": optional(Length(5 * MM, 3 * 72, positive=False), "5/8in", "default counter size"),
    "paper": optional(Choice(("letter", "a4")), "letter", "default paper"),
    "module": optional(Nullable(Str(r"[a-z][a-z0-9_]*", "a game module's name such as space_empires_4x")), None,
                       "the game module that reads `files` (its own parts print them)"),
    "files": optional(Nullable(MapOf(Nullable(Str()))), None, "the game module's data files, by the names it reads"),
    "components": optional(Str(), "components", "folder of component tables"),
    "boards": optional(Str(), "boards", "folder of boards"),
    "maps": optional(Str(), "maps", "folder of hex maps, one file per map (a game module's kit: where it says)"),
    "data": optional(Str(), "data", "folder of free data files that templates and texts quote"),
    "sheets": optional(MapOf(SHEET), {}, "settings per print group"),
    "documents": optional(MapOf(DOCUMENT), None, "documents to typeset (default: a booklet from rules/)"),
    "cover": optional(Nullable(COVER), None, "the designed front and back cover of every document with a cover "
                                             "(default: none, a plain title page)"),
    "counts": optional(ListOf(KIT_COUNT), [], "rule counts across tables"),
    "icons": optional(MapOf(Str(r"[^:]+", "a path inside the kit folder, such as art/credit.svg"),
                            key=Str(r"[a-z0-9][a-z0-9_-]*", "an icon name of lower-case letters, digits, _ or -")),
                      {}, "icons by name, placed in any textbox text as :name:"),
    "fonts": optional(Record({
        "body": optional(Str(), None, "chapters' text and lists, aid card and record sheet text"),
        "headings": optional(Str(), None, "headings, the booklet's cover and contents, card and sheet titles"),
        "tables": optional(Str(), None, "chart and table cells (default: DejaVu Sans Condensed)"),
        "boards": optional(Str(), None, "boards and hex maps: labels, tracks, texts, titles and legends"),
    }, "{body, headings, tables, boards}: font families of fonts/ (or DejaVu Sans)"), {},
        "the kit's own fonts its documents, boards and maps print in (default: DejaVu Sans)"),
    "checks": optional(ListOf(CHECK), [], "rules between the kit's files (pnpgen.declared_checks)"),
    "map_rules": optional(MAP_RULES, None, "what the hex maps' legend words, fields and tracks mean, and the "
                                           "rules their regions obey (pnpgen.maps.declared)"),
    "preflight": optional(Record({
        "min_text": optional(LENGTH, "6pt", "the smallest text a counter, token or tile may print (and a card's "
                                           "fine print, a board or map, the booklet's tables and captions)"),
        "card_text": optional(LENGTH, "7pt", "the smallest text a card, an aid card or a record sheet may print"),
        "cut_margin": optional(LENGTH, "1mm", "how far text must keep from a piece's cut line"),
        "contrast": optional(Number(1, 21), 4.5, "the least contrast ratio of text and its ground (WCAG)"),
    }, "{min_text, card_text, cut_margin, contrast}"),
        {"min_text": "6pt", "card_text": "7pt", "cut_margin": "1mm", "contrast": 4.5},
        "what every build checks on every piece, board, aid and booklet page"),
    "languages": optional(ListOf(Str(r"[a-z]{2,3}(_[A-Z]{2})?", "a language code such as en, fr, es or pt_BR")),
                          [], "the editions the kit prints in, its source language first (docs/translations.md)"),
    "translate": optional(MapOf(ListOf(Str()), key=Str(r"[A-Za-z0-9_][A-Za-z0-9_./-]*",
                                                      "a kit file's path such as data/markers.yaml")),
                          {}, "more printed words: a data file's keys whose values a translated edition prints "
                              "in its language"),
    "budgets": optional(Record({
        name: optional(Int(1, getattr(CEILINGS, name)), getattr(DEFAULT_BUDGETS, name), doc)
        for name, doc in BUDGET_DOCS.items()
    }, "{memory_mb, cpu_seconds, template_seconds, face_kb, chapter_kb, text_chars, int_digits, text_file_kb, "
       "font_file_kb, check_values}"), {},
        "what a build may spend on the machine (pnpgen.budgets); lowered here: only the person who builds "
        "raises them (--budget, their budgets.yaml)"),
}, "the kit description")
