"""Where regions drawn from real coastlines reach the frame, and the marks that show two of them
adjacent across the board's edge: a board that wraps round (Youngstown's off-board spaces, the
far Pacific beside the Indian Ocean) or joins two seas round a corner beyond it (1900's Cape of
Good Hope) cannot draw them meeting, so each is given a small arrow at its side of the frame,
pointing off the board, with the names of the places it joins there.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from judge.drawing.cells import Point
from judge.drawing.labels import CHAR_WIDTH, Box, around, text_box
from judge.drawing.regions import NO_PROVINCE, Rings

ON_FRAME = 0.01  # a ring's point this near an edge lies on it (the rings are cut to the frame)


class Side(Enum):
    """An edge of the frame."""

    LEFT = "left"
    RIGHT = "right"
    TOP = "top"
    BOTTOM = "bottom"

    @property
    def opposite(self) -> Side:
        return {Side.LEFT: Side.RIGHT, Side.RIGHT: Side.LEFT, Side.TOP: Side.BOTTOM, Side.BOTTOM: Side.TOP}[self]


Segment = tuple[Point, Point]
OnFrame = dict[str, dict[Side, list[Segment]]]


@dataclass(frozen=True)
class EdgeMark:
    """One province's arrow at `side` of the frame, at `spot` on the edge (the drawing's units),
    naming the provinces it joins beyond that edge."""

    province: str
    side: Side
    spot: Point
    joins: tuple[str, ...]


def on_frame(rings: Rings, width: float, height: float) -> OnFrame:
    """Each province's ring segments lying along an edge of the `width` x `height` frame."""
    found: OnFrame = {}
    for name, ring in rings:
        if name == NO_PROVINCE:
            continue
        for start, end in zip(ring, ring[1:] + ring[:1]):
            side = _side(start, end, width, height)
            if side is not None and start != end:
                found.setdefault(name, {}).setdefault(side, []).append((start, end))
    return found


def _side(start: Point, end: Point, width: float, height: float) -> Side | None:
    (x0, y0), (x1, y1) = start, end
    if x0 <= ON_FRAME and x1 <= ON_FRAME:
        return Side.LEFT
    if x0 >= width - ON_FRAME and x1 >= width - ON_FRAME:
        return Side.RIGHT
    if y0 <= ON_FRAME and y1 <= ON_FRAME:
        return Side.TOP
    if y0 >= height - ON_FRAME and y1 >= height - ON_FRAME:
        return Side.BOTTOM
    return None


def facing(mine: dict[Side, list[Segment]], theirs: dict[Side, list[Segment]]) -> Side:
    """The side of the frame from which one province goes off the board to join the other: the
    edge opposite one of the other's, else its own longest stretch of edge."""
    opposite = [side for side in mine if side.opposite in theirs]
    return max(opposite or list(mine), key=lambda side: (_length(mine[side]), side.value))


def _length(segments: list[Segment]) -> float:
    return sum(math.dist(start, end) for start, end in segments)


def edge_marks(pairs: set[frozenset[str]], frame: OnFrame) -> list[EdgeMark]:
    """The arrows showing `pairs` (each of two provinces on the frame, sharing no edge of it)
    adjacent across the board's edge: one for each province and side, at the middle of its
    longest stretch of that edge, naming all it joins there."""
    joins: dict[tuple[str, Side], set[str]] = {}
    for pair in pairs:
        first, second = sorted(pair)
        joins.setdefault((first, facing(frame[first], frame[second])), set()).add(second)
        joins.setdefault((second, facing(frame[second], frame[first])), set()).add(first)
    marks = []
    for (province, side), names in sorted(joins.items(), key=lambda kv: (kv[0][0], kv[0][1].value)):
        low, high = max(_runs(frame[province][side], side), key=lambda run: (run[1] - run[0], run))
        middle = (low + high) / 2
        spot = (middle, frame[province][side][0][0][1]) if side in (Side.TOP, Side.BOTTOM) \
            else (frame[province][side][0][0][0], middle)
        marks.append(EdgeMark(province, side, spot, tuple(sorted(names))))
    return marks


def _runs(segments: list[Segment], side: Side) -> list[tuple[float, float]]:
    """The stretches of an edge the segments cover, as spans along it, touching ones joined (a
    coast cut to the frame meets it in many short segments)."""
    along = 0 if side in (Side.TOP, Side.BOTTOM) else 1
    spans = sorted((min(s[0][along], s[1][along]), max(s[0][along], s[1][along])) for s in segments)
    runs = [spans[0]]
    for low, high in spans[1:]:
        if low <= runs[-1][1] + ON_FRAME:
            runs[-1] = (runs[-1][0], max(runs[-1][1], high))
        else:
            runs.append((low, high))
    return runs


ARROW = 6.0  # canvas units from an arrow's tip, on the edge, to its base


def drawn_marks(marks: list[EdgeMark], to_canvas: Callable[[Point], Point]) -> list[dict]:
    """What the picture draws of each mark, in canvas units (`to_canvas` maps a point of the
    drawing there): the arrow as path data, tip on the edge, where its names are written, and the
    boxes both take (which the places' labels keep clear of)."""
    drawn = []
    for mark in marks:
        x, y = to_canvas(mark.spot)
        out_x, out_y = {Side.LEFT: (-1, 0), Side.RIGHT: (1, 0), Side.TOP: (0, -1), Side.BOTTOM: (0, 1)}[mark.side]
        base_x, base_y = x - out_x * ARROW, y - out_y * ARROW
        arrow = (f"M{x:.1f},{y:.1f}L{base_x + out_y * ARROW:.1f},{base_y + out_x * ARROW:.1f}"
                 f"L{base_x - out_y * ARROW:.1f},{base_y - out_x * ARROW:.1f}Z")
        text_x, text_y, anchor = {Side.LEFT: (base_x + 3, y + 4, "start"),
                                  Side.RIGHT: (base_x - 3, y + 4, "end"),
                                  Side.TOP: (x, base_y + 11, "middle"),
                                  Side.BOTTOM: (x, base_y - 3, "middle")}[mark.side]
        text = ", ".join(name.title() for name in mark.joins)
        drawn.append({"province": mark.province, "side": mark.side.value, "joins": " ".join(mark.joins),
                      "arrow": arrow, "x": round(text_x, 1), "y": round(text_y, 1), "anchor": anchor,
                      "text": text, "boxes": (around((x, y), ARROW), _text_box(text_x, text_y, anchor, text),
                                              _beyond(mark.side, (x, y)))})
    return drawn


def _text_box(x: float, y: float, anchor: str, text: str) -> Box:
    shift = {"start": 1, "end": -1, "middle": 0}[anchor] * CHAR_WIDTH * len(text) / 2
    return text_box((x + shift, y), text)


BEYOND = 40.0  # canvas units of the outside of the frame kept free of labels beside a mark


def _beyond(side: Side, tip: Point) -> Box:
    """The canvas just outside the frame beside a mark: a label pushed aside by the mark is kept
    within the frame, not cut off at its edge."""
    x, y = tip
    return {Side.LEFT: Box(x - BEYOND, y - BEYOND, x, y + BEYOND),
            Side.RIGHT: Box(x, y - BEYOND, x + BEYOND, y + BEYOND),
            Side.TOP: Box(x - BEYOND, y - BEYOND, x + BEYOND, y),
            Side.BOTTOM: Box(x - BEYOND, y, x + BEYOND, y + BEYOND)}[side]
