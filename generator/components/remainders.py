"""Remainders that share a sheet: a print group whose sheet settings name another file (kit.yaml
`sheets.<group>.remainders: <file>`) sends the pieces of its last, partly filled sheet there, where they are
packed after that file's own pieces; and so for each of its per-colour files (cards-red, cards-blue...).
Four player decks that each end on a sheet of two cards then fill one sheet of the shared file instead of
four sheets of their own.

It is the kit's choice, not automatic: a player who prints one colour's deck alone now needs the shared file
as well, which only the designer can judge worth the paper. A move is made only where it saves a sheet (the
files' sheets together fewer than before), and only between files that print alike: the same sides (both
two-sided or both one-sided, so no one-sided file becomes two-sided), the same paper and the packed layout.
Each moved piece keeps its own back, placed behind its front by the same rule as every other piece, so the
shared sheets stay registered for duplex. The manifest and the build summary say which file holds them."""
from __future__ import annotations

from collections import OrderedDict

from pnpgen.problems import BuildError

SHARES = "remainders"   # the sheet setting's name


def share_remainders(ctx, files: "OrderedDict[str, list]", plan) -> tuple["OrderedDict[str, list]", dict]:
    """(files with the remainders moved, {source file: (target file, pieces moved)}). `files`: group -> runs
    [(table, pieces)] in print order; `plan(ctx, runs)` -> (sheets, the slot indices of its last front page)
    of a file laid out (sheet_facts of its pages; pnpgen.components.sheet_facts remembers them).
    The sources of one target are tried together, the first k of them in print order for every k: the k
    that saves the most sheets wins (on a tie, the fewest files moved), as four decks ending on two cards
    each may save three sheets where any one alone saves none."""
    files = OrderedDict((group, list(runs)) for group, runs in files.items())
    moved = {}
    for target, sources in _sources(ctx, files).items():
        splits = [(group, *_tail_of(ctx, files[group], plan)) for group in sources]
        splits = [(group, head, tail) for group, head, tail in splits if tail]
        best, best_sheets = 0, _sheets(ctx, files[target], plan) + sum(
            _sheets(ctx, files[group], plan) for group, _, _ in splits)
        for k in range(1, len(splits) + 1):
            into = files[target] + [run for _, _, tail in splits[:k] for run in tail]
            total = _sheets(ctx, into, plan) + sum(_sheets(ctx, head, plan) for _, head, _ in splits[:k]) + sum(
                _sheets(ctx, files[group], plan) for group, _, _ in splits[k:])
            if total < best_sheets:
                best, best_sheets = k, total
        for group, head, tail in splits[:best]:
            files[target] = files[target] + tail
            if head:
                files[group] = head
            else:
                del files[group]
            moved[group] = (target, sum(len(pieces) for _, pieces in tail))
    return files, moved


def _sources(ctx, files) -> dict[str, list[str]]:
    """{target file: the files that send it their remainders, in print order}, each pair checked alike."""
    out: dict[str, list[str]] = {}
    for group, runs in files.items():
        target = (ctx.kit.sheets.get(runs[0][0].group) or {}).get(SHARES)
        if not target or target == group:
            continue
        if target not in files:
            _refuse(ctx, runs[0][0].group, f"{target!r} is not a print file of this build "
                                           f"(files: {', '.join(sorted(files))})")
        _check_alike(ctx, runs, files[target])
        out.setdefault(target, []).append(group)
    return out


def _tail_of(ctx, runs: list, plan) -> tuple[list, list]:
    """(the runs kept, the runs of the last sheet's pieces); no tail where the last sheet is not the tail of
    the print order (never so today)."""
    total = sum(len(pieces) for _, pieces in runs)
    last = plan(ctx, runs)[1]
    if last != list(range(total - len(last), total)):
        return runs, []
    return split_tail(runs, len(last))


def _sheets(ctx, runs: list, plan) -> int:
    return plan(ctx, runs)[0] if runs else 0


def sheet_facts(pages: list) -> tuple[int, list[int]]:
    """What the sharing reads of a file's layout: its sheets, and the slot indices of its last front page."""
    fronts = [page for page in pages if page.side == "front"]
    return len(fronts), sorted(slot.index for slot in fronts[-1].slots)


def split_tail(runs: list, count: int) -> tuple[list, list]:
    """The runs without their last `count` pieces, and those pieces as runs of their own tables."""
    head, tail, left = [], [], count
    for table, pieces in reversed(runs):
        take = min(left, len(pieces))
        left -= take
        if take:
            tail.insert(0, (table, pieces[len(pieces) - take:]))
        if take < len(pieces):
            head.insert(0, (table, pieces[:len(pieces) - take]))
    return head, tail


def sheets(pages: list) -> int:
    return sum(1 for page in pages if page.side == "front")


def _check_alike(ctx, runs: list, target: list) -> None:
    """The two files print alike: the same sides, paper and (packed) layout; else a located error."""
    def how(file_runs):
        sheet = ctx.kit.sheets.get(file_runs[0][0].group) or {}
        two = any(p.back is not None for _, pieces in file_runs for p in pieces)
        return two, sheet.get("paper") or None, sheet.get("layout") or "packed"
    source, into = how(runs), how(target)
    if source != into:
        words = ("two-sided" if source[0] else "one-sided", "two-sided" if into[0] else "one-sided")
        _refuse(ctx, runs[0][0].group, f"its pieces print {words[0]}, paper {source[1] or 'the kit’s'}, "
                                       f"layout {source[2]}; {target[0][0].group}'s print {words[1]}, paper "
                                       f"{into[1] or 'the kit’s'}, layout {into[2]}: they cannot share a sheet")
    if source[2] != "packed":
        _refuse(ctx, runs[0][0].group, "a counter sheet keeps its own grid: remainders share packed sheets only")


def _refuse(ctx, group: str, why: str) -> None:
    file, line = ctx.kit.locate("kit", f"sheets.{group}.{SHARES}")
    raise BuildError(f"{file}:{line}: sheets.{group}.{SHARES}: {why}")
