"""The chapters the kit's load rendered for its check (validate_texts.check_chapters), handed on to the build
of the same kit (the one load_kit returns: documents.context.same_context) in the same process, or a worker
forked after the load, so a build after an edit does not render them a second time (SE4X's booklet: 15
chapters, 0.03-0.04 s).

Rendering leaves more than text: the tables the chapters placed (their registry, whose made tables the
layout sets) and the figures they retold under names of their own (`figure(..., name=, captions=)`), which
the build retells in its own figures (extras.retell). Only a check whose context was the build's is taken:
the same chapter files, pieces, counter size and duplex flip."""
from __future__ import annotations

from dataclasses import dataclass

from pnpgen.kit_memos import kit_memo

_KEPT = kit_memo()   # id(kit) -> (kit, {document name: Rendered})


@dataclass
class Rendered:
    """One document's chapters as the check rendered them, and what their context was made of."""
    files: list
    texts: list
    registry: object     # documents.context.TableRegistry: the tables the chapters placed
    retold: list         # figure.retold: (name, shows, captions) of each figure retold, in order
    pieces: tuple
    counter_size: str
    duplex: str


def keep(kit, name: str, rendered: Rendered) -> None:
    """Hand the document's rendered chapters on to a build of `kit` (only the last kit's are kept)."""
    entry = _KEPT.get(id(kit))
    if entry is None or entry[0] is not kit:
        _KEPT.clear()
        entry = _KEPT[id(kit)] = (kit, {})
    entry[1][name] = rendered


def same_kit(kit, edited) -> None:
    """What was kept for `kit` kept for `edited` (the kit load_kit returns, with only its edition set)."""
    entry = _KEPT.get(id(kit))
    if entry is not None and entry[0] is kit:
        _KEPT[id(edited)] = (edited, entry[1])


def take(kit, name: str, files: list, pieces, counter_size: str, duplex: str) -> Rendered | None:
    """The document's chapters as the check rendered them, when it rendered the same files of the same kit in
    the context this build makes (its pieces, counter size and flip); else None. Taken once: another build
    of the kit renders its own."""
    entry = _KEPT.get(id(kit))
    if entry is None or entry[0] is not kit or name not in entry[1]:
        return None
    found = entry[1].pop(name)
    same = (found.files == list(files) and found.counter_size == counter_size and found.duplex == duplex
            and len(found.pieces) == len(pieces) and all(a is b for a, b in zip(found.pieces, pieces)))
    return found if same else None
