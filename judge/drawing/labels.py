"""Where each province's name is written so that nothing drawn covers it.

A label first takes, once a map and canvas, the first of a few spots around its place (below, above,
beside...) that no unit or centre of any place can cover and no label placed before it holds. Then,
for each picture, a label that an order's line or ring, or a dislodged unit, would cover moves to
another such spot that none covers, if it has one. The boxes are the texts' extents at the size the
template writes them (11 units, DejaVu Sans).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Point = tuple[float, float]

CHAR_WIDTH = 6.9  # a letter's advance in DejaVu Sans at the labels' size, the widest of the usual ones
ASCENT, DESCENT = 9.0, 3.0  # above and below the baseline
HALO = 1.5  # the white outline the labels are drawn with


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def meets(self, other: Box) -> bool:
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)

    def crossed_by(self, start: Point, end: Point) -> bool:
        """Whether the segment from `start` to `end` passes through the box (Liang-Barsky)."""
        (x1, y1), (x2, y2) = start, end
        dx, dy = x2 - x1, y2 - y1
        low, high = 0.0, 1.0
        for p, q in ((-dx, x1 - self.left), (dx, self.right - x1), (-dy, y1 - self.top), (dy, self.bottom - y1)):
            if p == 0:
                if q < 0:
                    return False
                continue
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low > high:
                return False
        return True


def around(point: Point, radius: float) -> Box:
    return Box(point[0] - radius, point[1] - radius, point[0] + radius, point[1] + radius)


def text_box(spot: Point, text: str) -> Box:
    """The extent of `text` written with its middle on its baseline at `spot`."""
    x, baseline = spot
    half = CHAR_WIDTH * len(text) / 2 + HALO
    return Box(x - half, baseline - ASCENT - HALO, x + half, baseline + DESCENT + HALO)


def spots(point: Point, text: str, unit: float) -> list[Point]:
    """Where a label may stand, most wanted first: below its place (the usual spot), above it, beside
    it, at its corners, then further below. A spot is the text's middle on its baseline."""
    x, y = point
    side = unit * 1.4 + CHAR_WIDTH * len(text) / 2 + 2
    below, above = y + 2 * unit + 2, y - unit - 4
    near = [(x, below), (x, above), (x + side, y + 4), (x - side, y + 4), (x + side, below),
            (x - side, below), (x + side, above), (x - side, above)]
    return near + [(sx + dx * step, sy + dy * step) for step in (12, 24)
                   for (sx, sy), (dx, dy) in zip(near, _OUTWARD)]


# the way each of the near spots moves out from its place, for the farther rings of spots
_OUTWARD = ((0, 1), (0, -1), (1, 0), (-1, 0), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7))


class _Grid:
    """Boxes filed by the square cells of the canvas they touch, so that finding those a box meets
    looks at its neighbourhood only (a map's labels placed in about linear time)."""

    CELL = 48.0

    def __init__(self, boxes: Iterable[tuple[str, Box]] = ()) -> None:
        self._cells: dict[tuple[int, int], list[tuple[str, Box]]] = {}
        for name, box in boxes:
            self.add(name, box)

    def _keys(self, box: Box) -> Iterable[tuple[int, int]]:
        for i in range(int(box.left // self.CELL), int(box.right // self.CELL) + 1):
            for j in range(int(box.top // self.CELL), int(box.bottom // self.CELL) + 1):
                yield i, j

    def add(self, name: str, box: Box) -> None:
        for key in self._keys(box):
            self._cells.setdefault(key, []).append((name, box))

    def near(self, box: Box) -> dict[str, Box]:
        """The boxes filed in the cells `box` touches, by name (a name filed twice: its last box)."""
        return {name: b for key in self._keys(box) for name, b in self._cells.get(key, ())}

    def met(self, box: Box) -> int:
        """How many boxes `box` meets."""
        return len({id(b) for key in self._keys(box) for _, b in self._cells.get(key, ()) if box.meets(b)})


@dataclass(frozen=True)
class Labels:
    """For each labelled place its spots free of every unit and centre, the chosen one first."""

    spots: Mapping[str, tuple[Point, ...]]
    texts: Mapping[str, str]

    def boxes(self) -> _Grid:
        return _Grid((name, text_box(free[0], self.texts[name])) for name, free in self.spots.items())

    def placed(self, covered: Sequence[Box], lines: Sequence[tuple[Point, Point]]) -> dict[str, Point]:
        """Each label's spot on a picture where `covered` boxes and `lines` are drawn over the board:
        a label they hide takes its next free spot that they leave clear and no other label holds."""
        chosen = {name: free[0] for name, free in self.spots.items()}
        grid = self.boxes()
        hidden = {name for b in covered for name, box in grid.near(b).items() if box.meets(b)}
        for a, b in lines:
            reach = Box(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
            hidden |= {name for name, box in grid.near(reach).items() if box.crossed_by(a, b)}
        for name in sorted(hidden):
            for spot in self.spots[name][1:]:
                box = text_box(spot, self.texts[name])
                if not _hidden(box, covered, lines) and not any(
                        box.meets(b) for other, b in grid.near(box).items() if other != name):
                    chosen[name] = spot
                    grid.add(name, box)
                    break
        return chosen


def label_spots(texts: Mapping[str, str], points: Mapping[str, Point], taken: Iterable[Box],
                unit: float) -> Labels:
    """The spots each label may take on a map's canvas: none under a unit or centre (`taken`), none on
    a label placed before it (places in name order, so the same map always gets the same labels)."""
    fixed = _Grid(("", box) for box in taken)
    free: dict[str, tuple[Point, ...]] = {}
    for name in sorted(texts):
        if name not in points:
            continue
        every = spots(points[name], texts[name], unit)
        usable = [s for s in every if not fixed.met(text_box(s, texts[name]))]
        if not usable:  # a crowded place: the spot least covered
            usable = [min(every, key=lambda s: fixed.met(text_box(s, texts[name])))]
        free[name] = tuple(usable)
        fixed.add(name, text_box(usable[0], texts[name]))
    return Labels(free, {name: texts[name] for name in free})


def _hidden(box: Box, covered: Sequence[Box], lines: Sequence[tuple[Point, Point]]) -> bool:
    return any(box.meets(b) for b in covered) or any(box.crossed_by(a, b) for a, b in lines)
