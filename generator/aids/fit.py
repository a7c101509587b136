"""Measure flowables against a frame (pure numbers) and draw them where the measure put them.

Text that does not fit is an error naming the aid file and card face, never a silent clip. A card cannot grow
(`fit`); a record sheet's page can run on (`flow`): its blocks are set on as many frames as they need.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.platypus import Flowable, Spacer, Table

from pnpgen.problems import BuildError


@dataclass(frozen=True)
class Frame:
    """A rectangle on the page, in points, bottom-left origin (reportlab's)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def top(self) -> float:
        return self.y + self.height

    def as_list(self) -> list[float]:
        return [round(v, 3) for v in (self.x, self.y, self.width, self.height)]


@dataclass(frozen=True)
class Fitted:
    """Flowables with their measured sizes; `offsets` are distances from the frame top to each one's top."""

    flowables: tuple
    heights: tuple[float, ...]
    offsets: tuple[float, ...]
    height: float


def fit(flowables: list[Flowable], width: float, height: float, where: str,
        elsewhere: str = "to the other side") -> Fitted:
    """Wrap each flowable to `width`; raise BuildError at `where` when the stack is taller than `height`
    (`elsewhere`: where the message suggests a block could go)."""
    heights, offsets, used = [], [], 0.0
    for index, flowable in enumerate(flowables):
        wide, tall = flowable.wrap(width, height)
        if wide > width + 0.5:
            raise BuildError(f"{where}: block {index + 1} is {wide:.0f} pt wide; the frame is {width:.0f} pt")
        used += flowable.getSpaceBefore() if index else 0.0
        offsets.append(used)
        heights.append(tall)
        used += tall + (flowable.getSpaceAfter() if index < len(flowables) - 1 else 0.0)
    if used > height + 0.01:
        raise BuildError(f"{where}: the text and tables are {used:.0f} pt tall but the frame holds "
                         f"{height:.0f} pt; shorten the text or move a block {elsewhere}")
    return Fitted(tuple(flowables), tuple(heights), tuple(offsets), used)


def flow(flowables: list[Flowable], width: float, height: float, where: str, places=None,
         repeat=None) -> list[Fitted]:
    """The stack set on as many frames as it needs, as a typesetter would: a table that does not fit splits
    between rows (its header rows repeated on the next frame), any other block moves whole, a heading with
    it; a block taller than a whole frame (one giant row, a huge paragraph) is a BuildError at its place
    (`places`: one per flowable; else `where` and its number). `repeat()`, when given, makes the flowables
    set atop every frame after the first (a record sheet's owner line: a loose page still says whose it is)."""
    places = places or [f"{where}: block {number}" for number in range(1, len(flowables) + 1)]
    frames = _frames_of(flowables, width, height, places, repeat or list)
    return [fit(stack, width, height, where if number == 0 else f"{where}, continued ({number + 1})")
            for number, stack in enumerate(frames)]


def _frames_of(flowables: list[Flowable], width: float, height: float, places: list,
               repeat) -> list[list[Flowable]]:
    frames, stack, used, seeded = [], [], 0.0, 0  # seeded: the repeated flowables atop the current frame
    pending = list(enumerate(flowables, start=1))
    while pending:
        number, flowable = pending.pop(0)
        if len(stack) == seeded and frames and isinstance(flowable, Spacer):
            continue  # a gap above a block that ran onto a new frame: nothing to keep apart there
        before = flowable.getSpaceBefore() if stack else 0.0
        tall = flowable.wrap(width, height)[1]
        if used + before + tall <= height + 0.01:
            stack.append(flowable)
            used += before + tall + flowable.getSpaceAfter()
            continue
        parts = flowable.split(width, height - used - before) if isinstance(flowable, Table) else []
        if len(parts) >= 2:  # the rows that fit stay, the rest (under a repeated header) go on
            stack.append(parts[0])
            pending.insert(0, (number, parts[1]))
            frames.append(stack)
            carried = []
        elif len(stack) == seeded:
            below = f" ({height - used:.0f} pt below the lines repeated at its top)" if seeded else ""
            raise BuildError(f"{places[number - 1]}: this block is {tall:.0f} pt tall but a whole page holds "
                             f"{height:.0f} pt{below}; shorten it or split it into smaller blocks")
        else:
            pending.insert(0, (number, flowable))
            kept, carried = _keep_with_next(stack, seeded + 1)
            frames.append(kept)
        top = list(repeat())
        stack, seeded = top + carried, len(top)
        used = _stacked_height(stack, width, height)
    return frames + [stack] if len(stack) > seeded else frames


def _stacked_height(stack: list[Flowable], width: float, height: float) -> float:
    """The room a frame's first flowables take, with the space after the last (the next block's gap)."""
    return sum(f.wrap(width, height)[1] + f.getSpaceAfter() + (f.getSpaceBefore() if i else 0.0)
               for i, f in enumerate(stack))


def _keep_with_next(stack: list[Flowable], floor: int = 1) -> tuple[list[Flowable], list[Flowable]]:
    """(what stays, what moves on): a heading left at the foot of a frame goes on with the block it heads
    (`floor`: the flowables that stay whatever they are, the first block and any lines repeated above it)."""
    keep = len(stack)
    while keep > floor and stack[keep - 1].getKeepWithNext():
        keep -= 1
    return stack[:keep], stack[keep:]


def draw_fitted(canvas, fitted: Fitted, frame: Frame) -> None:
    for flowable, tall, offset in zip(fitted.flowables, fitted.heights, fitted.offsets):
        flowable.drawOn(canvas, frame.x, frame.top - offset - tall)
