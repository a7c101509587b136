"""The components part's manifest entry, from its files' entries in print order: the same whether the part
was drawn whole (pnpgen.components.files) or by shards (pnpgen.components.shards), and light to import, so
the build's main process joins the shards' files without loading the drawing code."""
from __future__ import annotations

SUFFIX = ".pdf"


def shared_words(moved: dict) -> dict[str, dict]:
    """What the manifest says of each file the sharing touched: where a file's last pieces went
    ("last_pieces_in") and which files' last pieces a file holds ("holds")."""
    said: dict[str, dict] = {}
    for source, (target, count) in moved.items():
        said.setdefault(f"{source}{SUFFIX}", {})["last_pieces_in"] = {"file": f"{target}{SUFFIX}", "pieces": count}
        said.setdefault(f"{target}{SUFFIX}", {}).setdefault("holds", []).append(
            {"file": f"{source}{SUFFIX}", "pieces": count})
    return said


def part_entry(ctx, files: list, moved: dict, warnings: list, distinct: int, rendered: int) -> dict:
    """The part's manifest entry from its files' (in print order)."""
    kit = ctx.kit
    said = shared_words(moved)
    files = [{**f, **said.get(f["path"], {})} for f in files]
    warnings = warnings + [finding for f in files for finding in f["bare"]]
    ctx.log(f"components: {len(files)} files, {sum(f['pages'] for f in files)} pages, "
            f"{distinct} distinct faces, {rendered} rendered, the rest replayed")
    return {"files": [{k: v for k, v in f.items() if k not in ("placements", "cuts", "bare")} for f in files],
            "placements": [p for f in files for p in f["placements"]], "warnings": warnings,
            "cuts": [cut for f in files for cut in f["cuts"]],
            "faces": {"distinct": distinct, "rendered": rendered},
            "tables": {t.id: {"name": t.name, "shape": t.shape.kind, "w": round(t.shape.w, 3),
                              "h": round(t.shape.h, 3), "radius": round(t.shape.radius, 3), "group": t.group,
                              "pieces": sum(1 for p in kit.component_pieces if p.ref.split('.', 1)[0] == t.id)}
                       for t in kit.tables.values()}}
