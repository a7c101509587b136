"""The `sheets` part: production sheets and ship technology sheets, one set per player colour."""
from __future__ import annotations

from generator.parts import Part

SHEET_FILES = {"production": "production-sheet.pdf", "ship_tech": "ship-tech-sheet.pdf"}


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


PART = Part(name="sheets", build=build, order=40, aliases=("records",),
            doc="production sheets and ship technology sheets (Letter / A4, one set per colour)",
            ignores=("rules", "maps", "aids/cards.yaml"), needs=("reportlab",), weight=0.75)
