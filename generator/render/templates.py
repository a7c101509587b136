"""Jinja SVG templates: kit folder first, then the built-in templates/; strict and autoescaped.

A template error (missing template, undefined variable, syntax) becomes a BuildError naming the template
file and line, and the piece that needed it. Kit folders are input from anyone, so the templates run in
Jinja's sandbox (no Python internals: `{{ piece.__class__ }}` is a located error).
"""
from __future__ import annotations

import traceback
from functools import lru_cache
from pathlib import Path

import jinja2

from pnpgen import budgets, kit_files
from pnpgen.kit_files import KitFileError
from pnpgen.kit_loader import KitLoader
from pnpgen.problems import BuildError, display_path
from pnpgen.sandbox import KitSandbox, SealedBytecodeCache, code_folder, kit_code_failure
from pnpgen.template_files import BUILTIN_TEMPLATES, SUFFIX, template_dirs, template_path

def template_env(kit_root: Path) -> jinja2.Environment:
    """The environment for a kit. Jinja reloads a template whose file changed, but it would keep serving a
    cached built-in after the designer adds an override of the same name: so the set of the kit's own
    template files is part of the cache key (a new override means a new environment)."""
    own = Path(kit_root) / "templates"
    overrides = tuple(sorted(p.name for p in own.glob(f"*{SUFFIX}"))) if own.is_dir() else ()
    return _template_env(Path(kit_root), overrides)


@lru_cache(maxsize=8)
def _template_env(kit_root: Path, overrides: tuple) -> jinja2.Environment:
    env = KitSandbox(
        loader=KitLoader([(d, root) for d, root in zip(template_dirs(kit_root), (kit_root, BUILTIN_TEMPLATES))]),
        undefined=jinja2.StrictUndefined,
        autoescape=True,  # every template here writes SVG/XML: a name like "R&D <1>" must not break it
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters["num"] = format_number
    from pnpgen.contrast import ink_on
    from pnpgen.render.textbox import PT_IN_MM, textbox  # what piece templates draw text with
    env.globals.update(textbox=textbox, pt=lambda n: round(n * PT_IN_MM, 4), ink_on=ink_on)
    env.bytecode_cache = SealedBytecodeCache.of(env, folder) if (folder := code_folder()) else None
    return env


def format_number(value) -> str:
    """1.0 -> '1', 1.5 -> '1.5': numbers print as a player writes them."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def template_source(kit_root: Path, name: str) -> str:
    """The text of template `name`, read as the loader reads it (the kit's own first, through the kit reader)."""
    path = template_path(kit_root, name)
    if path is None:
        raise BuildError(f"template {name}{SUFFIX} not found in {display_path(Path(kit_root) / 'templates')} "
                         f"or the built-in templates")
    own = path.parent == Path(kit_root) / "templates"
    return kit_files.read_text(path, kit_root if own else BUILTIN_TEMPLATES)


def render_template(kit_root: Path, name: str, context: dict, needed_by: str = "") -> str:
    """Render `name` (without .svg.j2) with `context`; raise a located BuildError on any template problem."""
    env = template_env(Path(kit_root))
    who = f" (needed by {needed_by})" if needed_by else ""
    try:
        template = env.get_template(f"{name}{SUFFIX}")
        with budgets.template_clock(""):
            return template.render(**context)
    except jinja2.TemplateNotFound as exc:
        looked = ", ".join(display_path(d) for d in template_dirs(kit_root))
        missing = exc.name or f"{name}{SUFFIX}"
        if missing != f"{name}{SUFFIX}":  # an include or import: at its line in the template that names it
            raise BuildError(f"{template_location(exc, name)}: template {missing} not found{who}; "
                             f"looked in {looked}") from None
        raise BuildError(f"template {missing} not found{who}; looked in {looked}") from None
    except jinja2.TemplateSyntaxError as exc:
        where = display_path(exc.filename) if exc.filename else f"{name}{SUFFIX}"
        raise BuildError(f"{where}:{exc.lineno}: template syntax error: {exc.message}{who}") from None
    except KitFileError as exc:  # a template or an include that is a link out of the kit, a FIFO...
        raise BuildError(f"{template_location(exc, name)}: {exc}{who}") from None
    except jinja2.exceptions.SecurityError as exc:
        raise BuildError(f"{template_location(exc, name)}: not allowed in a template: {exc}{who}") from None
    except UnicodeDecodeError as exc:
        raise BuildError(f"template {name}{SUFFIX} is not UTF-8 text ({exc.reason}){who}") from None
    except (jinja2.UndefinedError, TypeError, ValueError, KeyError, AttributeError, ArithmeticError, IndexError) as exc:
        raise BuildError(f"{template_location(exc, name)}: {exc}{who}") from None
    except Exception as exc:  # noqa: BLE001 - a kit's template must never end in a traceback
        raise template_failure(exc, f"{template_location(exc, name)}{who}") from None


def template_failure(exc: BaseException, where: str) -> BuildError:
    """Any other failure of a kit's template, said with its place and what to do (never a traceback): a
    budget reached, a macro calling itself without end, a library's own error."""
    return BuildError(f"{where}: {kit_code_failure(exc)}")


def template_location(exc: Exception, name: str) -> str:
    """file:line of the innermost template frame in the traceback (Jinja maps frames to template lines)."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith(SUFFIX):
            return f"{display_path(frame.filename)}:{frame.lineno}"
    return f"{name}{SUFFIX}"


template_env.cache_clear = _template_env.cache_clear  # tests that swap template folders start afresh
