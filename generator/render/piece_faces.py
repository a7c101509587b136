"""Piece and board faces: a kit template's SVG content wrapped in a root sized in mm and clipped to the
piece's shape, rendered once per distinct face.

Kit templates are input, not code: they run in Jinja's sandbox (no reaching Python internals), strict
(an undefined name is an error) and autoescaped (a name like `R&D <1>` cannot break the SVG).
"""
from __future__ import annotations

from pathlib import Path

import jinja2

from pnpgen import budgets
from pnpgen.kit_files import KitFileError
from pnpgen.pieces import colour_params
from pnpgen.problems import BuildError, display_path
from pnpgen.render.templates import template_env, template_failure
from pnpgen.render.templates import template_location as _template_line
from pnpgen.render.textbox import TextFitError, icons_in_text
from pnpgen.shapes import Shape
from pnpgen.svg_depth import TooDeep, check_depth
from pnpgen.template_files import SUFFIX, template_dirs

SVG_ROOT = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="{w}mm" height="{h}mm" viewBox="{x} {y} {w} {h}">')


def kit_env(kit_root: Path) -> jinja2.Environment:
    """The kit's template environment (pnpgen.render.templates): sandboxed, strict, autoescaped."""
    return template_env(kit_root)


def render_content(kit_root: Path, template: str, context: dict, where: str, env=None) -> str:
    """The template's SVG content; every template problem becomes a BuildError naming `where`. Pass the
    kit's `env` when rendering many faces (looking it up checks the kit's template folder each time)."""
    env = env or kit_env(kit_root)
    try:
        with budgets.template_clock(""), icons_in_text(context.get("icons") or {}):
            content = env.get_template(f"{template}{SUFFIX}").render(**context)
        check_depth(budgets.check_size(content, "face_kb", ""), fragment=not content.lstrip().startswith("<svg"))
        return content
    except TooDeep as exc:  # before anything walks it: the face's template made it
        raise BuildError(f"{where}: {template}{SUFFIX}: the SVG it made: {exc}") from None
    except jinja2.TemplateNotFound as exc:
        looked = ", ".join(display_path(d) for d in template_dirs(kit_root))
        if exc.name == f"{template}{SUFFIX}":  # the face's own template: where the face comes from says where
            raise BuildError(f"{where}: template {exc.name} not found (looked in {looked})") from None
        raise BuildError(f"{_template_line(exc, template)}: template {exc.name} not found (for {where}; "
                         f"looked in {looked})") from None  # an include: the including line
    except jinja2.TemplateSyntaxError as exc:
        raise BuildError(f"{display_path(exc.filename or template)}:{exc.lineno}: template syntax error: "
                         f"{exc.message} (for {where})") from None
    except TextFitError as exc:
        raise BuildError(f"{where}: {_template_line(exc, template)}: {exc}") from None
    except KitFileError as exc:  # an include or import that is a link out of the kit, a FIFO...
        raise BuildError(f"{_template_line(exc, template)}: include {exc} (for {where})") from None
    except jinja2.exceptions.SecurityError as exc:
        raise BuildError(f"{where}: {_template_line(exc, template)}: not allowed in a kit template: {exc}") from None
    except (jinja2.UndefinedError, TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError) as exc:
        raise BuildError(f"{where}: {_template_line(exc, template)}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a kit's template must never end in a traceback
        raise template_failure(exc, f"{where}: {_template_line(exc, template)}") from None


def face_context(params: dict, kit, shape: Shape | None = None) -> dict:
    """What a piece template sees: the row's columns by name, and row, piece, colour, kit, data, colours."""
    row = params.get("row", {})
    return {**row, "row": row, "piece": params["piece"] | {"side": params.get("side", "front")},
            "colour": params.get("colour"), "side": params.get("side", "front"),
            "kit": {"id": kit.id, "title": kit.title}, "data": kit.data,
            "colours": [colour_params(c) for c in kit.colours], "icons": dict(getattr(kit, "icons", {}))}


def piece_svg(content: str, shape: Shape, bleed_mm: float) -> str:
    """The SVG document of one face: sized to the piece plus bleed, clipped to the shape."""
    from pnpgen.lengths import mm
    w, h, b = mm(shape.w), mm(shape.h), bleed_mm
    root = SVG_ROOT.format(w=_f(w + 2 * b), h=_f(h + 2 * b), x=_f(-b), y=_f(-b))
    return (f'{root}<defs><clipPath id="pnpgen-shape">{shape.svg_clip(b)}</clipPath></defs>'
            f'<g clip-path="url(#pnpgen-shape)">{content}</g></svg>')


def board_svg(content: str, w_mm: float, h_mm: float) -> str:
    return SVG_ROOT.format(w=_f(w_mm), h=_f(h_mm), x=0, y=0) + content + "</svg>"


def _f(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def sized_params(face, shape: Shape, bleed_mm: float = 0.0) -> dict:
    """A face's parameters with its piece's size, shape and bleed (mm) as its template sees them: the size it
    is drawn at (a proof's, an export's), whatever its table said."""
    from pnpgen.lengths import mm
    piece = face.params["piece"] | {"w": round(mm(shape.w), 4), "h": round(mm(shape.h), 4), "shape": shape.kind,
                                    "radius": round(mm(shape.radius), 4), "orientation": shape.orientation,
                                    "bleed": bleed_mm}
    return face.params | {"piece": piece}


def face_document(kit, face, shape: Shape, bleed_mm: float, where: str, env=None) -> str:
    """The SVG document of any piece's face: its template rendered with its row, wrapped and clipped to the
    shape. A template that writes its own sized <svg> root (a counter template of an older kit, which draws
    at `size`, the piece's side in mm) is taken as it is."""
    params = sized_params(face, shape, bleed_mm)
    context = face_context(params, kit)
    context.setdefault("size", params["piece"]["w"])
    content = render_content(kit.root, face.template, context, where, env)
    return content if content.lstrip().startswith("<svg") else piece_svg(content, shape, bleed_mm)
