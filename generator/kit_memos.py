"""The memos a build keeps in its process about the kit it loaded, forgotten between the builds of a process
that builds again and again.

A chart built once for every aid card that shows it, the context a kit's charts see, the load key of a kit:
each is kept by the ids of the kit's objects, its entry holding them alive so that an id is never mistaken
for a later object's. For one build that is what it should be. `build --watch` and `pnpgen serve` load the
kit anew on every save, and those entries kept every earlier kit alive until each memo's cap (Space Empires
4X: 5 MB more a save, the watcher past 140 MB after a dozen). Such a process forgets them once a build has
ended (forget_all): the next build's entries are its own kit's.
"""
from __future__ import annotations

_MEMOS: list[dict] = []


def kit_memo() -> dict:
    """A new memo (a dict) that forget_all empties."""
    memo: dict = {}
    _MEMOS.append(memo)
    return memo


def forget_all() -> None:
    """Empty every kit memo: only between builds (a build under way looks its own entries up again)."""
    for memo in _MEMOS:
        memo.clear()
