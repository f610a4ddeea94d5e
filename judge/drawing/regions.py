"""A map's regions drawn from real coastlines: the `NAME.regions` file (docs/drawing.md) made once
by `maps/tools/coastlines.py`, and the borders its regions share.

Each line is one ring of a region: the province's abbreviation (`-` for land of no province) and
its points as `x,y`, in the units of the `.draw` file. A province may have several rings (pieces,
and holes: drawn even-odd). Two regions that meet were written with the very same points along
their border, so a border is found as the segments both have.
"""
from __future__ import annotations

import math

from judge.drawing.cells import Point, Polygon
from judge.errors import Problem

NO_PROVINCE = "-"
Rings = tuple[tuple[str, Polygon], ...]


def parse_regions(text: str, file: str, width: float, height: float) -> tuple[Rings, list[Problem]]:
    """Read a `.regions` file for a drawing `width` x `height`: `SIZE` as the `.draw` file's, then
    one ring a line."""
    rings: list[tuple[str, Polygon]] = []
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if words[0].upper() == "SIZE":
            if words[1:] != [f"{width:g}", f"{height:g}"]:
                problems.append(Problem(file, number, f"SIZE differs from the drawing's {width:g} {height:g}"))
            continue
        ring = _ring(words[1:], width, height)
        if ring is None:
            problems.append(Problem(file, number, f"expected a name and at least three x,y points inside SIZE, "
                                                  f"not {raw.strip()[:60]!r}"))
        else:
            rings.append((words[0].upper(), ring))
    return (() if problems else tuple(rings)), problems


def _ring(words: list[str], width: float, height: float) -> Polygon | None:
    points = []
    for word in words:
        x, comma, y = word.partition(",")
        try:
            point = (float(x), float(y))
        except ValueError:
            return None
        if not comma or not all(math.isfinite(v) for v in point) \
                or not (0 <= point[0] <= width and 0 <= point[1] <= height):
            return None
        points.append(point)
    return tuple(points) if len(points) >= 3 else None


def region_borders(rings: Rings, least: float) -> set[frozenset[str]]:
    """Pairs of provinces whose rings share segments at least `least` long in all (land of no
    province left out)."""
    owners: dict[tuple[Point, Point], set[str]] = {}
    for name, ring in rings:
        if name == NO_PROVINCE:
            continue
        for start, end in zip(ring, ring[1:] + ring[:1]):
            owners.setdefault((min(start, end), max(start, end)), set()).add(name)
    lengths: dict[frozenset[str], float] = {}
    for (start, end), names in owners.items():
        if len(names) == 2:
            pair = frozenset(names)
            lengths[pair] = lengths.get(pair, 0.0) + math.dist(start, end)
    return {pair for pair, length in lengths.items() if length >= least}


def check_regions(rings: Rings, provinces: set[str], file: str) -> list[Problem]:
    """Provinces of the map with no region, and regions of places the map does not have."""
    named = {name for name, _ in rings} - {NO_PROVINCE}
    problems = []
    if provinces - named:
        problems.append(Problem(file, 0, f"no region for {' '.join(sorted(provinces - named))}"))
    if named - provinces:
        problems.append(Problem(file, 0, f"regions of places not on the map: {' '.join(sorted(named - provinces))}"))
    return problems
