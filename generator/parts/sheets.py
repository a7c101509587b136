"""The `sheets` part: a kit's record sheets (aids/sheets.yaml), one PDF per sheet, a copy per player colour.

The part is keyed by what it prints, not by the kit's files: the sheets file as rendered with the kit's
numbers and the cells of the charts it shows (pnpgen.documents.charts), plus kit.yaml (colours, title)
and the kit's own type (its fonts' files and its icons' bytes), and its translations (locale/: an edition's
colour names and words).
An edit to a number no sheet shows (a unit's attack) leaves the sheets' cache standing.
"""
from __future__ import annotations

import json

from pnpgen.parts import Part
from pnpgen.problems import BuildError


def build(ctx) -> dict:
    from pnpgen.aids.aid_memo import kept
    from pnpgen.kit_checked import key_of
    from pnpgen.aids.sheets import page_frames, plan_sheets, render_sheet  # reportlab loads only when built
    from pnpgen.documents.paragraphs import styles_lacked
    (width, height), _, _ = page_frames(ctx.paper)
    files, pages = [], {}
    from pnpgen.page_contrast import drawn_contrasts, drawn_sizes
    from pnpgen.page_overprint import drawn_overprints
    from pnpgen.preflight import preflight_rules
    rules, found = preflight_rules(ctx.kit), []
    with kept(ctx.kit, "sheets", key_of(ctx.kit)):  # its text, charts and lines as a build of this load made them
        drawn = [(sheet, render_sheet(ctx.kit, sheet, ctx.paper, ctx.stage.path(sheet.file)))
                 for sheet in plan_sheets(ctx.kit, ctx.paper)]
    for sheet, (pages[sheet.id], glyphs) in drawn:
        found += [f"aids/sheets.yaml: sheets.{sheet.id}: {sheet.file} page {page}: {finding}"
                  for page, finding in drawn_overprints(glyphs) + drawn_contrasts(glyphs, rules.contrast)
                  + drawn_sizes(glyphs, rules.card_text, rules.min_text)]
        files.append({"path": sheet.file, "pages": len(sheet.pages), "paper": ctx.paper,
                      "page_size": [round(width, 3), round(height, 3)]})
        ctx.log(f"sheets: {sheet.file}: {len(sheet.pages)} pages")
    if found:
        raise BuildError("preflight: these record sheets would print badly:\n" + "\n".join(found))
    return {"files": files, "pages": pages} | styles_lacked()


def printed(ctx) -> dict:
    """The sheets file as rendered, and each chart it shows as built: everything the pages print that does
    not come from kit.yaml."""
    from pnpgen.aids.sources import SHEETS_FILE  # no reportlab: a build that draws no sheet must not load it for a key
    text, charts, kind = aid_printed(ctx.kit, SHEETS_FILE, lambda doc: (
        block for sheet in doc["sheets"].values() for page in sheet["pages"] for block in page))
    return {"sheets_text": text, "sheets_charts": charts, "type": kind}


def aid_printed(kit, rel, blocks_of) -> list[str]:
    """[an aid file as rendered, each chart its blocks show as built, the kit's own type], each as a digest:
    what an aid part prints from the kit's texts and data (`blocks_of(doc)`: the file's blocks). Remembered
    per load of the same inputs (pnpgen.kit_checked.AidKeys): a build into a new output folder builds no
    chart for a key."""
    from pnpgen.kit_checked import AidKeys
    return AidKeys(kit.root).printed(kit, rel, lambda: _aid_printed(kit, rel, blocks_of))


def _aid_printed(kit, rel, blocks_of) -> list[str]:
    import hashlib

    from pnpgen.aids.schema import check_aid_file
    from pnpgen.documents.charts import build_chart
    from pnpgen.documents.context import chart_context
    from pnpgen.problems import Problems
    doc = check_aid_file(kit, rel, Problems())  # checked at load: a build gets this far only if valid
    text = json.dumps(doc, sort_keys=True, default=str)
    blocks = blocks_of(doc) if doc is not None else ()  # None: a problem the part's build says, located
    shown = sorted({block["chart"] for block in blocks if isinstance(block, dict) and "chart" in block})
    context = chart_context(kit) if shown else {}
    charts = {name: repr(build_chart(kit.charts[name], context)) for name in shown}
    from pnpgen.kit_fonts import type_key  # the kit's fonts, its `fonts:` choice and its icons
    return [hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).hexdigest()
            for value in (text, sorted(charts.items()), type_key(kit))]


def _has_sheets(kit) -> bool:
    from pnpgen.aids.sources import has_sheets
    return has_sheets(kit)


PART = Part(name="sheets", build=build, order=40, aliases=("records",),
            doc="record sheets from aids/sheets.yaml (Letter / A4, one copy per player colour)",
            applies=_has_sheets, reads=("kit.yaml", "locale"), key_extra=printed, needs=("reportlab",), weight=0.75)
