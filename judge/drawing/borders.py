"""Drawn neighbours against the map's: two provinces should share a drawn border exactly when the map
makes them adjacent (an army's move, land to land; a fleet's, sea to sea or coast to sea), so that a
player reading the picture sees the board the judge plays. `judge map check` reports each place
where a drawing breaks this.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from judge.drawing.cells import Polygon, cells
from judge.drawing.geometry import Geometry
from judge.maps.model import Map, Terrain
from judge.types import UnitType

# A border shorter than this (in the drawing data's units) is a corner, not a shared border; an
# edge lies on two sites' bisector within this much (the cells are rounded to a tenth of a unit).
LEAST_BORDER = 1.0
ON_BISECTOR = 0.5


@dataclass(frozen=True, order=True)
class Break:
    """Two provinces whose drawing disagrees with the map: `kind` is `apart` (adjacent on the map,
    no drawn border between them), `joined` (a drawn border the map has no move across) or
    `land joined` (two land provinces drawn touching that no army can go between)."""

    first: str
    second: str
    kind: str

    def __str__(self) -> str:
        if self.kind == "apart":
            return f"{self.first} and {self.second} are adjacent but drawn apart"
        if self.kind == "land joined":
            return f"{self.first} and {self.second} are drawn as one land mass but no army can cross"
        return f"{self.first} and {self.second} share a drawn border but are not adjacent"


def adjacent_provinces(m: Map) -> set[frozenset[str]]:
    """Pairs of provinces a unit of some type moves between directly (coasts count as their province)."""
    pairs = set()
    for kind in (UnitType.ARMY, UnitType.FLEET):
        for source, reach in m.move_table(kind).items():
            for dest in reach:
                a, b = source.split("/")[0], dest.split("/")[0]
                if a != b:
                    pairs.add(frozenset((a, b)))
    return pairs


def drawn_borders(sites: tuple[tuple[str, float, float], ...], width: float, height: float
                  ) -> set[frozenset[str]]:
    """Pairs of sites whose cells (`cells.cells`) share an edge at least `LEAST_BORDER` long: an edge
    of one cell lying on the bisector of its site and another's."""
    where = {name: (x, y) for name, x, y in sites}
    found = set()
    for name, polygon in cells(sites, width, height).items():
        for other in _bordering(name, polygon, where):
            found.add(frozenset((name, other)))
    return found


def _bordering(name: str, polygon: Polygon, where: dict[str, tuple[float, float]]) -> set[str]:
    mine = where[name]
    found = set()
    for start, end in zip(polygon, polygon[1:] + polygon[:1]):
        if math.dist(start, end) < LEAST_BORDER:
            continue
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        own = math.dist(middle, mine)
        nearest = min((n for n in where if n != name), key=lambda n: math.dist(middle, where[n]), default=None)
        if nearest is not None and abs(math.dist(middle, where[nearest]) - own) <= ON_BISECTOR:
            found.add(nearest)
    return found


def adjacency_breaks(m: Map, geometry: Geometry) -> list[Break]:
    """Where the drawing of `m` with `geometry` disagrees with its adjacencies; impassable places
    (SHUT) are left out: nothing moves across them, whatever they touch."""
    given = geometry.point_map()
    shut = {a for a, loc in m.locations.items() if loc.terrain is Terrain.SHUT}
    sites = tuple((a, given[a][0], given[a][1]) for a in sorted(m.locations)
                  if "/" not in a and a in given)
    drawn = {pair for pair in drawn_borders(sites, geometry.width, geometry.height) if not pair & shut}
    adjacent = {pair for pair in adjacent_provinces(m) if not pair & shut}
    army = {frozenset((s, d)) for s, reach in m.move_table(UnitType.ARMY).items() for d in reach}
    water = {a for a, loc in m.locations.items() if loc.terrain is Terrain.WATER}
    breaks = [_break(pair, "apart") for pair in adjacent - drawn]
    for pair in drawn - adjacent:
        land = not pair & water and pair not in army
        breaks.append(_break(pair, "land joined" if land else "joined"))
    return sorted(breaks)


def _break(pair: frozenset[str], kind: str) -> Break:
    first, second = sorted(pair)
    return Break(first, second, kind)
