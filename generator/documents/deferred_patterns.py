"""reportlab's URI pattern compiled when first used, not when reportlab.platypus is imported.

`reportlab.platypus.paragraph` compiles, at import, one case-insensitive pattern over U+00A1-U+FFFF
(`uri_pat`, for breaking long URIs in paragraphs that ask for it): 0.045 s of CPU, two thirds of all the
patterns reportlab compiles and a fifth of importing platypus, in every process that typesets (a
document's worker, the aid cards', the record sheets'). No pnpgen style asks for URI breaking, so the
pattern is never matched. `re.compile` returns what its cache holds for a pattern and flags; seeding that
cache, before reportlab is imported, with a stand-in that compiles the pattern the first time it is used
leaves reportlab's behaviour as it was (the stand-in answers as the compiled pattern would) and skips the
work. Where reportlab's pattern is another (another version) or `re` keeps its cache another way, the seed
is simply not taken and reportlab compiles the pattern itself, as before.
"""
from __future__ import annotations

import re

# reportlab 5.x's reportlab.platypus.paragraph.uri_pat, as written there
URI = ('(^(?:[a-z0-9\\.\\-\\+]*)://)(?:\\S+(?::\\S*)?@)?(?:(?:25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)(?:\\.(?:25[0-5]|'
       '2[0-4]\\d|[0-1]?\\d?\\d)){3}|\\[[0-9a-f:\\.]+\\]|([a-z\xa1-\uffff0-9](?:[a-z\xa1-\uffff0-9-]{0,61}'
       '[a-z\xa1-\uffff0-9])?(?:\\.(?!-)[a-z\xa1-\uffff0-9-]{1,63}(?<!-))*\\.(?!-)(?:[a-z\xa1-\uffff-]{2,63}|'
       'xn--[a-z0-9]{1,59})(?<!-)\\.?|localhost))(?::\\d{2,5})?(?:[/?#][^\\s]*)?\\Z')


class DeferredPattern:
    """A compiled pattern's stand-in: the pattern is compiled (past re's cache) the first time anything of
    it is asked for, and answers from then on."""

    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, source: str, flags: int):
        self._source, self._flags, self._compiled = source, flags, None

    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            key = (str, self._source, self._flags)
            if getattr(re, "_cache", {}).get(key) is self:
                del re._cache[key]   # so this compile makes the pattern instead of returning the stand-in
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def __getattr__(self, name: str):
        return getattr(self.compiled(), name)


def defer_reportlab_patterns() -> None:
    """Seed re's cache with the stand-in for reportlab's URI pattern, unless reportlab is already loaded."""
    import sys
    cache = getattr(re, "_cache", None)
    if "reportlab.platypus.paragraph" in sys.modules or not isinstance(cache, dict):
        return
    cache.setdefault((str, URI, re.IGNORECASE.value), DeferredPattern(URI, re.IGNORECASE.value))
