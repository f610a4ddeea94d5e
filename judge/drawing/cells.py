"""Regions drawn from points: each province's cell is the part of the canvas nearer its point than any
other province's (a Voronoi cell), cut to a disc around the point so that the board's outline follows
its places instead of filling the whole canvas.
"""
from __future__ import annotations

import math
from functools import lru_cache
from statistics import median

Point = tuple[float, float]
Polygon = tuple[Point, ...]

DISC_SIDES = 20  # the disc a cell is cut to is a polygon of this many sides
REACH = 2.3  # the disc's radius, in median distances between a place and its nearest neighbour


@lru_cache(maxsize=32)
def cells(sites: tuple[tuple[str, float, float], ...], width: float, height: float) -> dict[str, Polygon]:
    """Each named site's cell (kept for the sites a map has: they are the same for every picture)."""
    points = [(x, y) for _, x, y in sites]
    radius = REACH * _typical_spacing(points)
    found: dict[str, Polygon] = {}
    for name, x, y in sites:
        cell = _clip_box(_disc(x, y, radius), width, height)
        others = sorted((((ox - x) ** 2 + (oy - y) ** 2), ox, oy) for _, ox, oy in sites if (ox, oy) != (x, y))
        for d2, ox, oy in others:
            if d2 > 4 * radius * radius:
                break  # a site further than the disc's diameter cannot cut the cell
            cell = _clip_half_plane(cell, (x, y), (ox, oy))
            if not cell:
                break
        found[name] = tuple((round(px, 1), round(py, 1)) for px, py in cell)
    return found


def _typical_spacing(points: list[Point]) -> float:
    if len(points) < 2:
        return 50.0
    nearest = []
    for i, (x, y) in enumerate(points):
        nearest.append(min(math.hypot(x - ox, y - oy) for j, (ox, oy) in enumerate(points)
                           if j != i and (ox, oy) != (x, y)) if len(set(points)) > 1 else 50.0)
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
