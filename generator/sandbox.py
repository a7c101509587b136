"""The one Jinja sandbox every kit file runs in (templates, rules chapters, aid texts).

A kit folder is input, not code: a text or template can compute and format, but cannot reach Python
internals (Jinja's sandbox), the file system, modules or streams (`{{ kit.root.read_text() }}`), or fill
the memory (`{{ 'x' * 10**9 }}`, `lipsum(10**6)`). Kit data is looked up as data first, so a key named
`get` or `items` reads the key, not the dict method.
"""
from __future__ import annotations

from io import IOBase
from pathlib import PurePath
from types import ModuleType

import jinja2
from jinja2.sandbox import SandboxedEnvironment


class KitSandbox(SandboxedEnvironment):
    intercepted_binops = frozenset(("*", "**"))
    LIMIT = 100_000

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.globals.pop("lipsum", None)  # lipsum(10**6) is a memory bomb, and no kit needs filler text

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
