"""Pickles read back from the user's cache (the YAML trees, paragraph lines, font faces): sealed when written,
and unpickled with only the classes their memo names, so an entry that is not what its memo keeps (damaged,
or written by someone else) fails to load instead of building any other object."""
from __future__ import annotations

import io
import pickle


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, allowed: frozenset, holds: str):
        super().__init__(io.BytesIO(data))
        self.allowed, self.holds = allowed, holds

    def find_class(self, module: str, name: str):
        if (module, name) in self.allowed:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is no part of {self.holds}")


def loads(data: bytes, allowed: frozenset, holds: str):
    """The object pickled in `data`, built from `allowed` classes ((module, name) pairs) and plain values
    only; pickle.UnpicklingError naming the class otherwise (`holds`: what the memo keeps, for the message)."""
    return _Unpickler(data, allowed, holds).load()
