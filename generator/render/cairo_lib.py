"""cairocffi, imported in about a tenth of its usual time.

Importing cairocffi parses cairo's C declarations with pycparser (about 0.2 s) and asks ctypes three times
where libcairo is (each a subprocess, about 0.05 s together) before drawing anything: a fifth of a small
build. cffi can instead load those declarations precompiled (its "out-of-line ABI" mode): the first
build on a machine writes that module, with the library lookups' answers, into this user's code folder
(pnpgen.sandbox.code_folder, keyed by the versions and declarations it comes from); later builds load
it and hand it to cairocffi as its `cairocffi.ffi`. cairocffi itself is unchanged. When anything is
unusual (no private folder, xcb bindings installed, a failure), cairocffi is imported the usual way.

The lowest render module: cairo() (cairocffi with pnpgen's fonts) and the one context text is measured in
(scratch_context) are here, for the drawing (pnpgen.render.pdf, svg_ops, face_store) and for text fitted into
a face (pnpgen.render.textbox) alike.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from functools import cache
from pathlib import Path

from pnpgen.fonts import use_shipped_fonts_for_cairo

LIBRARY_NAMES = ("cairo-2", "cairo", "libcairo-2")   # what cairocffi asks ctypes.util.find_library for


def import_cairocffi():
    """The cairocffi module (fonts are the caller's business: see pnpgen.fonts)."""
    if "cairocffi" not in sys.modules:
        try:
            _preload()
        except Exception:  # a cache that cannot be made or read: the usual import still works
            sys.modules.pop("cairocffi.ffi", None)
    import cairocffi
    return cairocffi


@cache
def cairo():
    """cairocffi with the shipped fonts, imported on first use (a pure validate run never pays for it)."""
    use_shipped_fonts_for_cairo()
    return import_cairocffi()


_SCRATCH: list = []


def scratch_context():
    """One context per process for measuring text (a new one looks every font up again)."""
    if not _SCRATCH:
        cairocffi = cairo()
        context = cairocffi.Context(cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, None))
        options = cairocffi.FontOptions()
        options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)
        options.set_hint_style(cairocffi.HINT_STYLE_NONE)
        context.set_font_options(options)
        _SCRATCH.append(context)
    return _SCRATCH[0]


def forget_scratch_context() -> None:
    """Drop the measuring context: a context FreeType failed in stays failed (pnpgen.render.font_reset)."""
    _SCRATCH.clear()


def _preload() -> None:
    """Put the precompiled declarations in place of cairocffi.ffi, then import cairocffi with the library
    lookups answered from the cache."""
    if importlib.util.find_spec("xcffib") is not None:
        return  # cairocffi then joins xcb's declarations to its own: leave that to it
    paths = _cache_paths()
    if paths is None:
        return
    module_path, answers_path = paths
    if not module_path.exists() or not answers_path.exists():
        _write_cache(module_path, answers_path)
    answers = json.loads(answers_path.read_text())
    spec = importlib.util.spec_from_file_location("_pnpgen_cairo_ffi", module_path)
    compiled = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compiled)
    stand_in = type(sys)("cairocffi.ffi")
    stand_in.ffi = compiled.ffi
    stand_in.__getattr__ = _no_pixbuf
    sys.modules["cairocffi.ffi"] = stand_in
    import ctypes.util
    original = ctypes.util.find_library
    ctypes.util.find_library = lambda name: answers[name] if name in answers else original(name)
    try:
        import cairocffi  # noqa: F401
    finally:
        ctypes.util.find_library = original


def installed_version(name: str) -> str:
    """The installed version of the distribution that provides module `name`, read off its .dist-info
    folder's name beside it: what importlib.metadata finds, without importing it (10-40 ms, with email)."""
    spec = importlib.util.find_spec(name)
    if spec is not None and spec.origin:
        folder, prefix = Path(spec.origin).parent.parent, name.lower() + "-"
        for entry in sorted(os.listdir(folder)):
            if entry.lower().startswith(prefix) and entry.endswith(".dist-info"):
                return entry[len(prefix):-len(".dist-info")]
    from importlib import metadata
    return metadata.version(name)


def _no_pixbuf(name: str):
    raise AttributeError(f"cairocffi.ffi.{name}: not loaded by pnpgen (cairocffi.pixbuf is not used)")


def _source_dir() -> Path:
    return Path(importlib.util.find_spec("cairocffi").submodule_search_locations[0])


def _cache_paths() -> tuple[Path, Path] | None:
    from pnpgen.sandbox import code_folder
    folder = code_folder()
    if folder is None:
        return None
    source = _source_dir()
    digest = hashlib.sha1()
    for part in (installed_version("cairocffi"), installed_version("cffi"), sys.version, sys.platform):
        digest.update(part.encode() + b"\0")
    for name in ("constants.py", "ffi.py"):
        digest.update((source / name).read_bytes())
    tag = digest.hexdigest()[:16]
    return folder / f"cairo_ffi_{tag}.py", folder / f"cairo_ffi_{tag}.json"


def _write_cache(module_path: Path, answers_path: Path) -> None:
    """Parse cairocffi's declarations once (from its own file, without importing it) and write them out."""
    import contextlib
    import ctypes.util
    import io

    from cffi import FFI
    spec = importlib.util.spec_from_file_location("_pnpgen_cairo_constants", _source_dir() / "constants.py")
    constants = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(constants)
    builder = FFI()
    builder.cdef(constants._CAIRO_HEADERS)
    builder.set_source("_pnpgen_cairo_ffi", None)
    for path, write in ((module_path, lambda p: builder.emit_python_code(str(p))),
                        (answers_path, lambda p: p.write_text(json.dumps(
                            {name: ctypes.util.find_library(name) for name in LIBRARY_NAMES})))):
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        with contextlib.redirect_stdout(io.StringIO()):  # cffi says "generating ..." on stdout
            write(temporary)
        os.replace(temporary, path)
