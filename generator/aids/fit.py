"""Measure flowables against a frame (pure numbers) and draw them where the measure put them.

Text that does not fit is an error naming the aid file and card face, never a silent clip.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.platypus import Flowable

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


def draw_fitted(canvas, fitted: Fitted, frame: Frame) -> None:
    for flowable, tall, offset in zip(fitted.flowables, fitted.heights, fitted.offsets):
        flowable.drawOn(canvas, frame.x, frame.top - offset - tall)
