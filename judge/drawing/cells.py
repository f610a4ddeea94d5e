"""Regions drawn from points: each province's cell is the part of the canvas nearer its point than any
other province's (a Voronoi cell), cut to a disc around the point so that the board's outline follows
its places instead of filling the whole canvas.
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import lru_cache
from statistics import median

Point = tuple[float, float]
Polygon = tuple[Point, ...]

DISC_SIDES = 20  # the disc a cell is cut to is a polygon of this many sides
REACH = 2.3  # the disc's radius, in median distances between a place and its nearest neighbour


@lru_cache(maxsize=32)
def cells(sites: tuple[tuple[str, float, float], ...], width: float, height: float) -> dict[str, Polygon]:
    """Each named site's cell (kept for the sites a map has: they are the same for every picture).
    Only the sites within the disc's diameter can cut a cell: they are found in a grid of buckets
    that wide, so a map's cells cost about n log n, not n squared."""
    points = [(x, y) for _, x, y in sites]
    radius = REACH * _typical_spacing(points)
    reach2 = 4 * radius * radius
    grid = Buckets(points, 2 * radius)
    found: dict[str, Polygon] = {}
    for name, x, y in sites:
        cell = _clip_box(_disc(x, y, radius), width, height)
        others = sorted(((ox - x) ** 2 + (oy - y) ** 2, ox, oy) for ox, oy in grid.around(x, y, 1)
                        if (ox, oy) != (x, y))
        for d2, ox, oy in others:
            if d2 > reach2:
                break  # a site further than the disc's diameter cannot cut the cell
            cell = _clip_half_plane(cell, (x, y), (ox, oy))
            if not cell:
                break
        found[name] = tuple((round(px, 1), round(py, 1)) for px, py in cell)
    return found


class Buckets:
    """Points in a grid of square buckets `size` wide, to find those near a point without looking
    at every point."""

    def __init__(self, points: Sequence[Point], size: float):
        self.size = size if size > 0 and math.isfinite(size) else 1.0
        self.buckets: dict[tuple[int, int], list[Point]] = {}
        for point in points:
            self.buckets.setdefault(self.key(*point), []).append(point)
        xs = [k[0] for k in self.buckets] or [0]
        ys = [k[1] for k in self.buckets] or [0]
        self.span = max(max(xs) - min(xs), max(ys) - min(ys))  # rings that reach every bucket

    def key(self, x: float, y: float) -> tuple[int, int]:
        return math.floor(x / self.size), math.floor(y / self.size)

    def around(self, x: float, y: float, ring: int) -> Iterator[Point]:
        """The points of every bucket at most `ring` buckets away from the one of (x, y)."""
        cx, cy = self.key(x, y)
        for dx in range(-ring, ring + 1):
            for dy in range(-ring, ring + 1):
                yield from self.buckets.get((cx + dx, cy + dy), ())

    def ring(self, x: float, y: float, ring: int) -> Iterator[Point]:
        """The points of the buckets exactly `ring` buckets away from the one of (x, y)."""
        cx, cy = self.key(x, y)
        for dx in range(-ring, ring + 1):
            for dy in range(-ring, ring + 1):
                if max(abs(dx), abs(dy)) == ring:
                    yield from self.buckets.get((cx + dx, cy + dy), ())


def nearest_gaps(points: Sequence[Point]) -> list[float]:
    """Each point's distance to the nearest point elsewhere (0.0 when there is none), found in
    growing rings of a grid of buckets: about n log n for n points, not n squared."""
    distinct = set(points)
    if len(distinct) < 2:
        return [0.0] * len(points)
    xs, ys = [p[0] for p in distinct], [p[1] for p in distinct]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    size = math.sqrt(width * height / len(distinct)) or max(width, height) / len(distinct)
    grid = Buckets(list(distinct), size)
    gaps: dict[Point, float] = {}
    for x, y in distinct:
        best, ring = math.inf, 0
        while ring <= grid.span + 1:
            for ox, oy in grid.ring(x, y, ring):
                if (ox, oy) != (x, y):
                    best = min(best, math.hypot(x - ox, y - oy))
            if best <= ring * grid.size:
                break  # a point in a further ring is at least that far
            ring += 1
        gaps[(x, y)] = best
    return [gaps[p] for p in points]


def _typical_spacing(points: list[Point]) -> float:
    if len(points) < 2:
        return 50.0
    nearest = nearest_gaps(points) if len(set(points)) > 1 else [50.0] * len(points)
    return max(median(nearest), 1.0)


def _disc(x: float, y: float, radius: float) -> list[Point]:
    return [(x + radius * math.cos(2 * math.pi * k / DISC_SIDES), y + radius * math.sin(2 * math.pi * k / DISC_SIDES))
            for k in range(DISC_SIDES)]


def _clip_box(poly: list[Point], width: float, height: float) -> list[Point]:
    return [(min(max(x, 0.0), width), min(max(y, 0.0), height)) for x, y in poly]


def _clip_half_plane(poly: list[Point], mine: Point, other: Point) -> list[Point]:
    """The part of `poly` nearer `mine` than `other` (Sutherland-Hodgman against their bisector)."""
    nx, ny = other[0] - mine[0], other[1] - mine[1]
    limit = (nx * (mine[0] + other[0]) + ny * (mine[1] + other[1])) / 2

    def inside(p: Point) -> float:
        return limit - (nx * p[0] + ny * p[1])

    out: list[Point] = []
    for i, current in enumerate(poly):
        previous = poly[i - 1]
        a, b = inside(previous), inside(current)
        if (a >= 0) != (b >= 0):
            t = a / (a - b)
            out.append((previous[0] + t * (current[0] - previous[0]), previous[1] + t * (current[1] - previous[1])))
        if b >= 0:
            out.append(current)
    return out


def centroid(poly: Polygon) -> Point:
    if not poly:
        return (0.0, 0.0)
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
