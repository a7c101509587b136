"""The one Jinja sandbox every kit file runs in (templates, rules chapters, aid texts).

A kit folder is input, not code: a text or template can compute and format, but cannot reach Python
internals (Jinja's sandbox), the file system, modules or streams (`{{ kit.root.read_text() }}`), or fill
the memory (`{{ 'x' * 10**9 }}`, `lipsum(10**6)`). Kit data is looked up as data first, so a key named
`get` or `items` reads the key, not the dict method.
"""
from __future__ import annotations

import difflib
import hashlib
import marshal
import os
from functools import cache
from io import IOBase
from pathlib import Path, PurePath
from types import ModuleType

import jinja2

from pnpgen import resources
from jinja2.sandbox import SandboxedEnvironment


class KitUndefined(jinja2.StrictUndefined):
    """A missing field of the kit's data says what is there and the nearest name, in the kit's words, instead
    of Python's ('...Namespace object' has no attribute 'shps')."""

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        keys = sorted(k for k in obj if isinstance(k, str)) if isinstance(obj, dict) else []
        if not keys or not isinstance(name, str):
            return super()._undefined_message
        label = obj.__dict__.get("_label") if hasattr(obj, "__dict__") else None
        near = difflib.get_close_matches(name, keys, n=1)
        shown = ", ".join(keys[:15]) + (", ..." if len(keys) > 15 else "")
        where = f" in {label}" if label else ""
        return f"no {name!r}{where} (there: {shown})" + (f"; did you mean {near[0]!r}?" if near else "")


class KitSandbox(SandboxedEnvironment):
    intercepted_binops = frozenset(("*", "**"))
    LIMIT = 100_000

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.globals.pop("lipsum", None)  # lipsum(10**6) is a memory bomb, and no kit needs filler text

    def cached_from_string(self, source: str):
        """from_string, with the compiled code kept on disk between builds (keyed by the source, this
        environment's settings and Jinja's version): a rebuild does not compile every chapter again."""
        settings = (self.autoescape, self.trim_blocks, self.lstrip_blocks, self.keep_trailing_newline,
                    self.block_start_string, self.variable_start_string, self.comment_start_string,
                    getattr(self.finalize, "__qualname__", ""), sorted(self.filters), sorted(self.tests))
        key = hashlib.sha1("\0".join((source, jinja2.__version__, type(self).__name__,
                                      repr(settings))).encode()).hexdigest()
        folder = code_folder()
        if folder is None:
            return self.from_string(source)
        path = folder / f"{key}.code"
        try:
            code = marshal.loads(path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            code = self.compile(source)
            try:
                temporary = path.with_name(f".{path.name}.{os.getpid()}")
                temporary.write_bytes(marshal.dumps(code))
                os.replace(temporary, path)
            except OSError:
                pass
        return self.template_class.from_code(self, code, self.make_globals(None), None)

    def getattr(self, obj, attribute):
        if isinstance(obj, dict) and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)

    def is_safe_attribute(self, obj, attr, value):
        """No file system, module or stream from a kit text: `{{ kit.root.read_text() }}` or
        `kit.root.joinpath('..').unlink()` would read or change files outside the kit."""
        if isinstance(obj, (PurePath, ModuleType, IOBase)):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context, operator, left, right):
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > 64:
            raise jinja2.exceptions.SecurityError(f"{left!r} ** {right!r} is too large")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and len(seq) * times > self.LIMIT:
                    raise jinja2.exceptions.SecurityError(f"repeating a text or list {times} times is too large")
        return super().call_binop(context, operator, left, right)


@cache
def code_folder() -> Path | None:
    """This user's folder of compiled templates (and other derived code and measures), in the user's cache
    folder (pnpgen.resources.cache_folder), or None when it cannot be trusted: compiled code is run, so
    the folder must be ours and writable by nobody else (as Jinja's own bytecode cache insists)."""
    if not hasattr(os, "getuid"):
        return None
    folder = resources.cache_folder("code")
    try:
        info = folder.lstat() if folder is not None else None
    except OSError:
        return None
    if info is None or folder.is_symlink() or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return folder
