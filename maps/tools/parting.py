"""Parting a board's land and water between its provinces so that drawn neighbours are the map's
neighbours (used by `coastlines.py`; shapely and numpy, like it, for the script only).

The ground is laid on a grid of small squares; a square on the coast holds a bit of land and a bit
of water, each owned apart (a land province owns its land, a sea its water). Every province grows
from its point over its own kind of ground, the square nearest its point first (so that borders
fall half-way between points where nothing else decides them), and takes a square only where all
it would touch there (the squares beside it of its kind, the other kind of ground in the same
square) is its own or a province the map makes adjacent to it: a coast touches only the seas it
moves to, a land only the lands it moves to, a sea only its seas and coasts. Growing from its
point, each province is one piece. Ground no province may take without touching a stranger goes,
square by square from what is owned, to the neighbour it makes the fewest strangers for; land no
province reaches (an island of no province) is land of no province.
"""
from __future__ import annotations

import heapq
import math
from collections import deque

import numpy as np
import shapely
from shapely.geometry import box
from shapely.ops import polygonize, unary_union

NO_PROVINCE = "-"
SAMPLES = (1 / 6, 1 / 2, 5 / 6)  # where a square is looked at to tell whether it holds land or water
LAND, WATER = 0, 1


class Grid:
    """The frame cut into squares `size` wide, and which kinds of ground each holds."""

    def __init__(self, land, width: float, height: float, size: float) -> None:
        self.size, self.columns, self.rows = size, math.ceil(width / size), math.ceil(height / size)
        xs, ys = np.meshgrid(np.arange(self.columns), np.arange(self.rows))
        inside = [shapely.contains_xy(land, (xs + dx) * size, (ys + dy) * size)
                  for dx in SAMPLES for dy in SAMPLES]
        any_land, all_land = np.any(inside, axis=0).ravel(), np.all(inside, axis=0).ravel()
        self.holds = (any_land.tolist(), (~all_land).tolist())  # by kind: LAND, WATER
        self.made: tuple[set[int], set[int]] = (set(), set())  # squares made all land, all water

    def square(self, x: float, y: float, kind: int) -> int:
        """The square of `kind` nearest (x, y)."""
        holds = np.array(self.holds[kind]).reshape(self.rows, self.columns)
        js, is_ = np.nonzero(holds)
        d = (is_ + 0.5 - x / self.size) ** 2 + (js + 0.5 - y / self.size) ** 2
        k = int(np.argmin(d))
        return int(js[k]) * self.columns + int(is_[k])

    def make(self, p: int, kind: int) -> None:
        """Square `p` made all of `kind` (a strait the warp closed, two lands the map joins)."""
        self.holds[kind][p], self.holds[1 - kind][p] = True, False
        self.made[kind].add(p)
        self.made[1 - kind].discard(p)

    def ground(self, land) -> tuple[object, object]:
        """The land and the water, with the squares made land or water."""
        def boxes(kind: int) -> object:
            return unary_union([self.box(p) for p in sorted(self.made[kind])])
        land = unary_union([land, boxes(LAND)]).difference(boxes(WATER))
        return land, box(0, 0, self.columns * self.size, self.rows * self.size).difference(land)

    def box(self, p: int):
        i, j, size = p % self.columns, p // self.columns, self.size
        return box(i * size, j * size, (i + 1) * size, (j + 1) * size)

    def around(self, p: int) -> list[int]:
        """The squares about square `p` (sides and corners)."""
        i, j = p % self.columns, p // self.columns
        return [(j + dj) * self.columns + i + di for dj in (-1, 0, 1) for di in (-1, 0, 1)
                if (di or dj) and 0 <= i + di < self.columns and 0 <= j + dj < self.rows]

    def beside(self, p: int) -> list[int]:
        """The squares sharing a side with square `p`."""
        i, j = p % self.columns, p // self.columns
        found = []
        if i > 0:
            found.append(p - 1)
        if i + 1 < self.columns:
            found.append(p + 1)
        if j > 0:
            found.append(p - self.columns)
        if j + 1 < self.rows:
            found.append(p + self.columns)
        return found

    def centre(self, p: int) -> tuple[float, float]:
        return ((p % self.columns) + 0.5) * self.size, ((p // self.columns) + 0.5) * self.size


Sites = dict[str, list[tuple[float, float]]]  # where each province starts to grow: its point, and more


def part(grid: Grid, sites: Sites, kinds: dict[str, int], friends: dict[str, set[str]],
         neighbours: set[frozenset[str]], rounds: int, width: float, strait: float,
         reach: float | None = None) -> list[list[str | None]]:
    """`grow`, then again with a lane `width` wide laid between each two neighbours on the map that
    grew apart (where they came nearest, each taking its half of the ground of its kind there; a
    lane no longer than `strait` makes the ground they need: land between two lands, water between
    two seas; a straight lane only between two no more than `reach` apart, if given), as many
    `rounds` as it takes for every pair to meet (or `rounds` runs out)."""
    lanes: dict[tuple[int, int], str] = {}
    last: list[tuple[str, str]] = []
    for _ in range(rounds):
        owner = grow(grid, sites, kinds, friends, lanes)
        apart = _apart(grid, owner, neighbours)
        if not apart or apart == last:
            break
        last = apart
        for first, second in apart:
            _lay_lane(grid, owner, lanes, kinds, (first, second), width, strait, reach)
    return owner


def grow(grid: Grid, sites: Sites, kinds: dict[str, int],
         friends: dict[str, set[str]], lanes: dict[tuple[int, int], str]) -> list[list[str | None]]:
    """The owner of each square's land and water (`None`: no one): the lanes' squares (kind,
    square) first, then each site grows from its points (the nearest first) over its kind of ground, taking a square
    only beside friends (`friends[a]`: the provinces `a` may touch), then what is left goes to the
    neighbour it makes the fewest strangers for."""
    owner: list[list[str | None]] = [[None] * len(grid.holds[LAND]), [None] * len(grid.holds[WATER])]
    heap: list[tuple[float, str, int]] = []
    for name in sorted(sites):
        for x, y in sites[name]:
            p = grid.square(x, y, kinds[name])
            owner[kinds[name]][p] = name  # a lane never cuts a province off its point
            heap.extend((0.0, name, q) for q in grid.beside(p))
    for (kind, p), name in lanes.items():
        if owner[kind][p] is None:
            owner[kind][p] = name
            heap.extend((0.0, name, q) for q in grid.beside(p))
    heapq.heapify(heap)
    while heap:
        _, name, p = heapq.heappop(heap)
        kind = kinds[name]
        if not grid.holds[kind][p] or owner[kind][p] is not None \
                or _strangers(grid, owner, p, kind, name, friends):
            continue
        owner[kind][p] = name
        for q in grid.beside(p):
            if grid.holds[kind][q] and owner[kind][q] is None:
                cx, cy = grid.centre(q)
                heapq.heappush(heap, (min(math.hypot(cx - x, cy - y) for x, y in sites[name]), name, q))
    _fill(grid, owner, friends)
    for p, held in enumerate(grid.holds[LAND]):
        if held and owner[LAND][p] is None:
            owner[LAND][p] = NO_PROVINCE
    return owner


def _strangers(grid: Grid, owner, p: int, kind: int, name: str, friends: dict[str, set[str]]) -> int:
    """How many owners `name` would touch at square `p` (its kind of ground in the squares around,
    the other kind there and in `p`) that the map does not make its neighbours."""
    mine = friends[name]
    count = 0
    for q in grid.around(p):
        for other in (owner[kind][q], owner[1 - kind][q]):
            if other is not None and other != name and other not in mine:
                count += 1
    other = owner[1 - kind][p]
    if other is not None and other not in mine:
        count += 1
    return count


def _fill(grid: Grid, owner, friends: dict[str, set[str]]) -> None:
    """Give each square left, wave by wave from what is owned, to the owner beside it that can take
    it without touching a stranger (the one with most sides there); ground none can take stays
    no one's: water between seas, land of no province."""
    for kind in (LAND, WATER):
        left = [p for p, held in enumerate(grid.holds[kind]) if held and owner[kind][p] is None]
        while left:
            given = {}
            for p in left:
                near = [a for a in sorted({owner[kind][q] for q in grid.beside(p)} - {None})
                        if not _strangers(grid, owner, p, kind, a, friends)]
                if near:
                    given[p] = max(near, key=lambda a: (sum(owner[kind][q] == a for q in grid.beside(p)), a))
            if not given:
                break
            for p, name in given.items():
                owner[kind][p] = name
            left = [p for p in left if p not in given]


def _apart(grid: Grid, owner, neighbours: set[frozenset[str]]) -> list[tuple[str, str]]:
    """The neighbours on the map (both grown) whose ground meets along fewer than two sides."""
    sides: dict[frozenset[str], int] = {}
    for kind in (LAND, WATER):
        for p, here in enumerate(owner[kind]):
            if here is None:
                continue
            for other in [owner[kind][q] for q in grid.beside(p)] + [owner[1 - kind][p]]:
                if other is not None and other != here:
                    pair = frozenset((here, other))
                    sides[pair] = sides.get(pair, 0) + 1
    grown = set(owner[LAND]) | set(owner[WATER])
    return sorted(tuple(sorted(pair)) for pair in neighbours if pair <= grown and sides.get(pair, 0) < 4)


def _lay_lane(grid: Grid, owner, lanes: dict[tuple[int, int], str], kinds: dict[str, int],
              pair: tuple[str, str], width: float, strait: float, reach: float | None) -> None:
    """A lane between the two of `pair`: for two of a kind, along the shortest way over their kind
    of ground (if not longer than `strait` times four), the first half of it to the first; else
    straight where they come nearest (see `_lay_straight`)."""
    first, second = pair
    kind = kinds[first]
    way = _way(grid, owner, kind, first, second, 4 * strait) if kind == kinds[second] else None
    if way is None:
        _lay_straight(grid, owner, lanes, kinds, pair, width, strait, reach)
        return
    reach = max(0, round(width / 2 / grid.size - 0.5))
    for step, p in enumerate(way):
        name = first if 2 * step < len(way) else second
        column, row = p % grid.columns, p // grid.columns
        for j in range(max(0, row - reach), min(grid.rows, row + reach + 1)):
            for i in range(max(0, column - reach), min(grid.columns, column + reach + 1)):
                if grid.holds[kind][j * grid.columns + i]:
                    lanes.setdefault((kind, j * grid.columns + i), name)


def _way(grid: Grid, owner, kind: int, first: str, second: str, longest: float) -> list[int] | None:
    """The shortest way over ground of `kind` from `first`'s to `second`'s (the squares between),
    or None if there is none within `longest`."""
    came: dict[int, int] = {p: -1 for p, here in enumerate(owner[kind]) if here == first}
    todo = deque(came)
    steps = {p: 0 for p in came}
    while todo:
        p = todo.popleft()
        if steps[p] * grid.size > longest:
            return None
        for q in grid.beside(p):
            if q in came or not grid.holds[kind][q]:
                continue
            came[q], steps[q] = p, steps[p] + 1
            if owner[kind][q] == second:
                way = []
                while came[p] != -1:
                    way.append(p)
                    p = came[p]
                return way[::-1]
            todo.append(q)
    return None


def _lay_straight(grid: Grid, owner, lanes: dict[tuple[int, int], str], kinds: dict[str, int],
                  pair: tuple[str, str], width: float, strait: float, reach: float | None) -> None:
    """A lane from the first of `pair`'s ground to the second's where they come nearest: the
    squares within `width` / 2 of the line between, each kind of ground to the one of the two of
    that kind (the nearer end's, when both are), unless they are more than `reach` apart; a lane
    no longer than `strait` makes the kind of ground two of a kind need to meet (land between two
    lands on two land masses)."""
    first, second = pair
    ends = [_edge(grid, owner, kinds[n], n) for n in (first, second)]
    if not all(len(e) for e in ends):
        return
    gaps = ((ends[0][:, None, :] - ends[1][None, :, :]) ** 2).sum(axis=2)
    i, j = np.unravel_index(int(np.argmin(gaps)), gaps.shape)
    (ax, ay), (bx, by) = ends[0][i], ends[1][j]
    length2 = max((bx - ax) ** 2 + (by - ay) ** 2, 1e-9)
    if reach is not None and length2 > (reach / grid.size) ** 2:
        return  # a lane so long would cross the provinces between
    reach = width / 2 / grid.size
    for row in range(int(min(ay, by) - reach - 1), int(max(ay, by) + reach + 2)):
        for column in range(int(min(ax, bx) - reach - 1), int(max(ax, bx) + reach + 2)):
            if not (0 <= row < grid.rows and 0 <= column < grid.columns):
                continue
            t = min(1.0, max(0.0, ((column - ax) * (bx - ax) + (row - ay) * (by - ay)) / length2))
            if math.hypot(column - ax - t * (bx - ax), row - ay - t * (by - ay)) > reach:
                continue
            p = row * grid.columns + column
            near, far = (first, second) if t < 0.5 else (second, first)
            if kinds[first] == kinds[second]:
                if length2 <= (strait / grid.size) ** 2:
                    grid.make(p, kinds[first])
                if grid.holds[kinds[first]][p]:
                    lanes.setdefault((kinds[first], p), near)
            else:
                for name in (near, far):
                    if grid.holds[kinds[name]][p]:
                        lanes.setdefault((kinds[name], p), name)


def _edge(grid: Grid, owner, kind: int, name: str):
    """The squares (column, row) of `name`'s ground beside another owner's or nobody's."""
    found = [(p % grid.columns, p // grid.columns) for p, here in enumerate(owner[kind])
             if here == name and any(owner[kind][q] != name for q in grid.beside(p))]
    return np.array(found, dtype=float).reshape(-1, 2)


def shapes(grid: Grid, owner, ground: tuple[object, object]) -> dict[str, object]:
    """Each owner's squares as one shape, cut to its kind of ground (`ground`: the land, the water),
    so that coasts are the coastline's own."""
    found: dict[str, list] = {}
    size = grid.size
    for kind in (LAND, WATER):
        for j in range(grid.rows):
            row = owner[kind][j * grid.columns:(j + 1) * grid.columns]
            start = 0
            for i in range(1, grid.columns + 1):
                if i == grid.columns or row[i] != row[start]:
                    if row[start] is not None:
                        found.setdefault(row[start], []).append(box(start * size, j * size, i * size, (j + 1) * size))
                    start = i
    kinds = {name: kind for kind in (LAND, WATER) for name in set(owner[kind]) - {None}}
    return {name: unary_union(boxes).intersection(ground[kinds[name]]) for name, boxes in sorted(found.items())}


def smoothed(owners: dict[str, object], tolerance: float, inland: float, digits: int,
             water: set[str]) -> dict[str, object]:
    """The regions rebuilt from the faces of all their borders noded together, so that two regions
    that meet share the very same points along their border (the judge finds borders by them),
    then simplified together within `tolerance` (the grid's steps smoothed away), each border
    once for both its sides; then the borders between two lands and between two seas (`water`:
    the seas' names) again within `inland`, the coasts kept: those borders were drawn over the
    grid only, so its steps show where they run at a slant, while a coast follows the real one."""
    lines = unary_union([shapely.set_precision(g, 10 ** -digits).boundary for g in owners.values()
                         if not g.is_empty])
    faces: dict[str, list] = {}
    for face in polygonize(lines):
        inside = face.representative_point()
        owner = next((n for n, g in owners.items() if g.contains(inside)), None)
        if owner is not None:
            faces.setdefault(owner, []).append(face)
    names = sorted(faces)
    merged = [unary_union(faces[n]) for n in names]
    found = dict(zip(names, shapely.coverage_simplify(merged, tolerance, simplify_boundary=False)))
    for kind in (sorted(set(found) - water), sorted(set(found) & water)):
        # each kind's coverage alone: its outer edges, the coasts, stay as they are
        found.update(zip(kind, shapely.coverage_simplify([found[n] for n in kind], inland,
                                                         simplify_boundary=False)))
    return found
