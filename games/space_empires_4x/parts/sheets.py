"""The `sheets` part: production sheets and ship technology sheets, one set per player colour."""
from __future__ import annotations

import json

from generator.parts import Part

SHEET_FILES = {"production": "production-sheet.pdf", "ship_tech": "ship-tech-sheet.pdf"}
DATA_FILES = ("units.yaml", "technologies.yaml")  # keyed by the values printed from them (printed_values)


def build(ctx) -> dict:
    from games.space_empires_4x.records import page_frames, plan_sheet, render_pages  # reportlab loads only when built
    files, pages = [], {}
    (width, height), _, _ = page_frames(ctx.paper)
    for kind, rel in SHEET_FILES.items():
        planned = plan_sheet(ctx.kit, ctx.paper, kind)
        pages[kind] = render_pages(ctx.kit, planned, ctx.paper, ctx.stage.path(rel))
        files.append({"path": rel, "pages": len(planned), "paper": ctx.paper,
                      "page_size": [round(width, 3), round(height, 3)]})
        ctx.log(f"sheets: {rel}: {len(planned)} pages")
    return {"files": files, "pages": pages}


def printed_values(ctx) -> dict:
    """What the sheets print from units.yaml and technologies.yaml, keyed instead of the two files: a unit's
    attack or cost, which no sheet shows, is edited without drawing the sheets again. Everything records.py
    reads of a unit or a technology is here; the texts are keyed as rendered (they may quote any number)."""
    from games.space_empires_4x.records import group_rows, sheet_texts
    kit = ctx.kit
    texts, _ = sheet_texts(kit)
    return {"sheet_units": [[u.code, u.hull, n, [list(r) for r in u.requires]] for u, n in group_rows(kit)],
            "sheet_technologies": [[t.id, t.name, t.rules, [[lv.level, lv.cost] for lv in t.levels]]
                                   for t in kit.technologies.values()],
            "sheet_texts": json.dumps(texts, sort_keys=True, default=str)}


PART = Part(name="sheets", build=build, order=40, aliases=("records",),
            doc="production sheets and ship technology sheets (Letter / A4, one set per colour)",
            ignores=("rules", "maps", "aids/cards.yaml", *DATA_FILES), key_extra=printed_values,
            needs=("reportlab",), weight=0.75)
