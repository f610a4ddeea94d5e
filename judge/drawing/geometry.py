"""Where each place of a map is drawn: the `NAME.draw` format (docs/drawing.md), its checks against
the map, and a schematic layout worked out from the adjacencies for a map that has none.

A `Geometry` is one point per location (provinces and coasts) on a canvas of `width` x `height`
units, x to the right and y downwards. Everything else in a picture (the regions, the labels, where a
unit stands) is worked out from these points.
"""
from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property

from judge.drawing.regions import NO_PROVINCE, Rings, check_regions
from judge.errors import Problem
from judge.maps.model import Map, Terrain, per_map


@dataclass(frozen=True)
class Geometry:
    width: float
    height: float
    points: tuple[tuple[str, float, float], ...]  # (abbreviation, x, y), as the file orders them
    schematic: bool = False  # worked out from adjacencies, not drawn from a real board
    regions: Rings = ()  # the provinces' shapes from real coastlines (none: cells around the points)

    def point_map(self) -> dict[str, tuple[float, float]]:
        return {abbrev: (x, y) for abbrev, x, y in self.points}

    @cached_property
    def _hash(self) -> int:
        return hash((self.width, self.height, self.points, self.schematic, self.regions))

    def __hash__(self) -> int:
        """Worked out once: a picture finds its map's placed shapes by the geometry, and hashing
        the regions of real coastlines (tens of thousands of points) took most of an SVG's time."""
        return self._hash


def parse_geometry(text: str, file: str) -> tuple[Geometry | None, list[Problem]]:
    """Read a `.draw` file: `SIZE width height` once, then `ABBREV x y` lines; `#` starts a comment."""
    problems: list[Problem] = []
    size: tuple[float, float] | None = None
    points: dict[str, tuple[float, float]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        numbers = _numbers(words[1:])
        if numbers is None or len(numbers) != 2:
            problems.append(Problem(file, number, f"expected a word and two numbers, not {raw.strip()!r}"))
        elif words[0].upper() == "SIZE":
            if size is not None or min(numbers) <= 0:
                problems.append(Problem(file, number, "SIZE must be given once, with two positive numbers"))
            size = (numbers[0], numbers[1])
        elif words[0].upper() in points:
            problems.append(Problem(file, number, f"{words[0].upper()} is placed twice"))
        else:
            points[words[0].upper()] = (numbers[0], numbers[1])
    if size is None:
        problems.append(Problem(file, 0, "no SIZE line"))
    if problems or size is None:
        return None, problems
    outside = [a for a, (x, y) in points.items() if not (0 <= x <= size[0] and 0 <= y <= size[1])]
    if outside:
        return None, [Problem(file, 0, f"outside SIZE: {' '.join(outside)}")]
    return Geometry(size[0], size[1], tuple((a, x, y) for a, (x, y) in points.items())), []


def _numbers(words: list[str]) -> list[float] | None:
    try:
        values = [float(w) for w in words]
    except ValueError:
        return None
    return values if all(math.isfinite(v) for v in values) else None


def check_geometry(m: Map, geometry: Geometry, file: str) -> list[Problem]:
    """What a `.draw` file lacks for this map (a province or coast with no point) and what it places
    that the map does not have."""
    placed = geometry.point_map()
    missing = [a for a in sorted(m.locations) if a not in placed and province_point(placed, a) is None]
    unknown = [a for a in placed if a not in m.locations]
    problems = []
    if missing:
        problems.append(Problem(file, 0, f"no point for {' '.join(missing)} (drawn schematically)"))
    if unknown:
        problems.append(Problem(file, 0, f"places not on the map: {' '.join(unknown)}"))
    if geometry.regions:
        problems += check_regions(geometry.regions, _provinces(m), file.removesuffix(".draw") + ".regions")
    return problems


def _provinces(m: Map) -> set[str]:
    return {a for a in m.locations if "/" not in a}


def province_point(placed: dict[str, tuple[float, float]], abbrev: str) -> tuple[float, float] | None:
    """A location's point; a coast without its own falls back on its province's."""
    return placed.get(abbrev) or placed.get(abbrev.split("/", 1)[0])


def fitted(m: Map, geometry: Geometry | None) -> Geometry:
    """The geometry a picture of this map uses: the given one when it places every province, else a
    schematic layout (a map without drawing data, or with data for another map)."""
    if geometry is not None:
        placed = geometry.point_map()
        if all(province_point(placed, a) is not None for a in m.locations):
            named = {name for name, _ in geometry.regions} - {NO_PROVINCE}
            complete = not geometry.regions or named >= _provinces(m)
            return geometry if complete else replace(geometry, regions=())
    return schematic(m)


# --- the schematic layout ----------------------------------------------------------------------------

SCHEMATIC_SPACING = 60.0  # canvas units between neighbouring provinces


def schematic(m: Map) -> Geometry:
    """`schematic_layout` of the map, worked out once a map (`per_map`)."""
    return _schematic(m)


def schematic_layout(m: Map) -> Geometry:
    """A layout from the adjacencies alone: provinces spread by a force-directed layout (neighbours
    pull, everything pushes), started from a breadth-first ring order so that it is deterministic.
    Coasts sit a little off their province, towards the water."""
    provinces = sorted({loc.province for loc in m.locations.values()})
    links = _links(m, provinces)
    positions = _relax(provinces, links)
    xs = [p[0] for p in positions.values()] or [0.0]
    ys = [p[1] for p in positions.values()] or [0.0]
    margin = SCHEMATIC_SPACING
    placed = {a: (x - min(xs) + margin, y - min(ys) + margin) for a, (x, y) in positions.items()}
    points = [(a, round(x, 1), round(y, 1)) for a, (x, y) in placed.items()]
    for abbrev, loc in sorted(m.locations.items()):
        if loc.coast is not None:
            points.append((abbrev, *_coast_point(m, abbrev, placed)))
    return Geometry(round(max(xs) - min(xs) + 2 * margin, 1), round(max(ys) - min(ys) + 2 * margin, 1),
                    tuple(points), schematic=True)


_schematic = per_map(schematic_layout)


def _links(m: Map, provinces: list[str]) -> dict[str, set[str]]:
    links: dict[str, set[str]] = {p: set() for p in provinces}
    for loc in m.locations.values():
        for abut in loc.abuts:
            other = abut.dest.split("/", 1)[0].upper()
            if other in links and other != loc.province:
                links[loc.province].add(other)
                links[other].add(loc.province)
    return links


def _ring_order(provinces: list[str], links: dict[str, set[str]]) -> list[str]:
    order: list[str] = []
    seen: set[str] = set()
    for start in provinces:
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here in seen:
                continue
            seen.add(here)
            order.append(here)
            queue.extend(sorted(links[here] - seen))
    return order


EXACT_UP_TO = 300  # provinces: every pair pushes; on a larger map only those within PUSH_REACH
PUSH_REACH = 4.0  # in SCHEMATIC_SPACING: how far a province pushes the others on a large map


def _relax(provinces: list[str], links: dict[str, set[str]]) -> dict[str, tuple[float, float]]:
    order = _ring_order(provinces, links)
    count = max(len(order), 1)
    radius = SCHEMATIC_SPACING * math.sqrt(count) / 1.6
    pos = {a: [radius * math.cos(2 * math.pi * i / count) * (0.6 + 0.4 * (i % 2)),
               radius * math.sin(2 * math.pi * i / count) * (0.6 + 0.4 * (i % 2))]
           for i, a in enumerate(order)}
    k = SCHEMATIC_SPACING
    rounds = max(30, min(200, 900_000 // (count * count)))
    step = radius / 4
    names = order
    pairs = _every_pair if count <= EXACT_UP_TO else _near_pairs
    neighbours = {a: sorted(links[a]) for a in names}  # summed in one order: the same picture
    for _ in range(rounds):
        push = {a: [0.0, 0.0] for a in names}
        for a, b in pairs(names, pos):
            ax, ay = pos[a]
            dx, dy = ax - pos[b][0], ay - pos[b][1]
            d2 = dx * dx + dy * dy or 0.01
            f = k * k / d2
            push[a][0] += dx * f
            push[a][1] += dy * f
            push[b][0] -= dx * f
            push[b][1] -= dy * f
        for a in names:
            for b in neighbours[a]:
                dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                d = math.hypot(dx, dy) or 0.1
                push[a][0] -= dx * d / k
                push[a][1] -= dy * d / k
        for a in names:
            fx, fy = push[a]
            length = math.hypot(fx, fy) or 1.0
            moved = min(length, step)
            pos[a][0] += fx / length * moved
            pos[a][1] += fy / length * moved
        step = max(step * 0.95, 1.0)
    return {a: (p[0], p[1]) for a, p in pos.items()}


def _every_pair(names: list[str], pos: dict[str, list[float]]) -> Iterator[tuple[str, str]]:
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            yield a, b


def _near_pairs(names: list[str], pos: dict[str, list[float]]) -> Iterator[tuple[str, str]]:
    """The pairs within PUSH_REACH of each other (each once), found in a grid of buckets that
    wide: a round costs about n, not n squared (a push from further away is small anyway)."""
    size = PUSH_REACH * SCHEMATIC_SPACING
    rank = {a: i for i, a in enumerate(names)}
    buckets: dict[tuple[int, int], list[str]] = {}
    for a in names:
        buckets.setdefault((math.floor(pos[a][0] / size), math.floor(pos[a][1] / size)),
                           []).append(a)
    reach2 = size * size
    for a in names:
        ax, ay = pos[a]
        cx, cy = math.floor(ax / size), math.floor(ay / size)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for b in buckets.get((cx + dx, cy + dy), ()):
                    if rank[b] > rank[a] and \
                            (ax - pos[b][0]) ** 2 + (ay - pos[b][1]) ** 2 < reach2:
                        yield a, b


def _coast_point(m: Map, coast: str, placed: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """A coast drawn a third of the way from its province towards the seas it touches."""
    px, py = placed[coast.split("/", 1)[0]]
    seas = [placed[a.dest.split("/", 1)[0].upper()] for a in m.locations[coast].abuts
            if a.dest.split("/", 1)[0].upper() in placed
            and m.locations.get(a.dest.split("/", 1)[0].upper()) is not None
            and m.locations[a.dest.split("/", 1)[0].upper()].terrain is Terrain.WATER]
    if not seas:
        return round(px, 1), round(py - SCHEMATIC_SPACING / 4, 1)
    sx = sum(s[0] for s in seas) / len(seas)
    sy = sum(s[1] for s in seas) / len(seas)
    return round(px + (sx - px) / 3, 1), round(py + (sy - py) / 3, 1)
