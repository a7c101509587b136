"""The Tabletop Simulator part (`pnpgen build --for tts`): deck sheets and backs, tile and token images, board
images and a saved object that loads them (pnpgen.export.tts). `--for` is registered by the print-shop part."""
from __future__ import annotations

from pathlib import Path

from pnpgen.export.decks import wants
from pnpgen.parts import Part


def build(ctx) -> dict:
    from pnpgen.export.tts import build as build_tts
    return build_tts(ctx)


def _where(ctx) -> dict:
    """The saved object names its images by absolute file URLs: a build elsewhere must not reuse it."""
    return {"tts_folder": str((Path(ctx.options.out) / ctx.kit.id).resolve())}


PART = Part(name="tts", build=build, order=81, aliases=("tabletop-simulator",),
            doc="Tabletop Simulator: deck sheets, tile, token and board images, and a saved object",
            applies=lambda kit: bool(kit.tables or kit.maps), wanted=wants("tts"),
            key_extra=_where)
