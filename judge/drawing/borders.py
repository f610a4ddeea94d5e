"""Drawn neighbours against the map's: two provinces should share a drawn border exactly when the map
makes them adjacent (an army's move, land to land; a fleet's, sea to sea or coast to sea), so that a
player reading the picture sees the board the judge plays. `judge map check` reports each place
where a drawing breaks this.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from judge.drawing.cells import Point, Polygon, cells
from judge.drawing.edge_marks import EdgeMark, OnFrame, edge_marks, on_frame
from judge.drawing.geometry import Geometry
from judge.drawing.regions import region_borders
from judge.maps.model import Map, Terrain
from judge.types import UnitType

# A border shorter than this (in the drawing data's units) is a corner, not a shared border; an
# edge lies on two sites' bisector within this much (the cells are rounded to a tenth of a unit).
LEAST_BORDER = 1.0
ON_BISECTOR = 0.5

Segment = tuple[Point, Point]


class BreakKind(Enum):
    """How a drawing breaks the map, told from where the two regions lie against the frame."""

    MISSING = "missing"  # adjacent on the map, no drawn border between them
    FALSE = "false"  # a drawn border the map has no move across
    ACROSS_EDGE = "across-edge"  # adjacent, both on the frame with no edge of it in common: they meet
    # off one edge and back on another (the board wraps round, or joins them round a corner)
    BEYOND_FRAME = "beyond-frame"  # adjacent, both on one edge of the frame: they meet beyond it

    @property
    def says(self) -> str:
        return {BreakKind.MISSING: "are adjacent but drawn apart",
                BreakKind.FALSE: "share a drawn border but are not adjacent",
                BreakKind.ACROSS_EDGE: "are adjacent across the board's edge, unmarked",
                BreakKind.BEYOND_FRAME: "are adjacent but meet only beyond the frame"}[self]


@dataclass(frozen=True, order=True)
class Break:
    """Two provinces whose drawing disagrees with the map, and how (`BreakKind`)."""

    first: str
    second: str
    kind: BreakKind

    def __str__(self) -> str:
        return f"{self.first} and {self.second} {self.kind.says} ({self.kind.value})"


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
    return set(shared_edges(sites, width, height))


def shared_edges(sites: tuple[tuple[str, float, float], ...], width: float, height: float
                 ) -> dict[frozenset[str], list[Segment]]:
    """The edges two cells share (see `drawn_borders`), each once."""
    where = {name: (x, y) for name, x, y in sites}
    found: dict[frozenset[str], list[Segment]] = {}
    for name, polygon in cells(sites, width, height).items():
        for other, edge in _bordering(name, polygon, where):
            if name < other:
                found.setdefault(frozenset((name, other)), []).append(edge)
            else:
                found.setdefault(frozenset((name, other)), [])
    return found


def _bordering(name: str, polygon: Polygon, where: dict[str, Point]) -> list[tuple[str, Segment]]:
    mine = where[name]
    found = []
    for start, end in zip(polygon, polygon[1:] + polygon[:1]):
        if math.dist(start, end) < LEAST_BORDER:
            continue
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        own = math.dist(middle, mine)
        nearest = min((n for n in where if n != name), key=lambda n: math.dist(middle, where[n]), default=None)
        if nearest is not None and abs(math.dist(middle, where[nearest]) - own) <= ON_BISECTOR:
            found.append((nearest, (start, end)))
    return found


def _sites(m: Map, geometry: Geometry) -> tuple[tuple[str, float, float], ...]:
    given = geometry.point_map()
    return tuple((a, given[a][0], given[a][1]) for a in sorted(m.locations) if "/" not in a and a in given)


def straits(m: Map, geometry: Geometry) -> dict[frozenset[str], list[Segment]]:
    """The drawn borders that the map has water across: two land provinces drawn touching that no
    unit moves between and that share a sea (Edinburgh and Norway on the standard board, both on
    the North Sea), drawn as water so that no land mass is drawn joined where the map has none.
    Regions drawn from real coastlines have none: their water lies between the lands already."""
    if geometry.regions:
        return {}
    edges = shared_edges(_sites(m, geometry), geometry.width, geometry.height)
    parted = _parted_by_water(m, set(edges))
    return {pair: found for pair, found in sorted(edges.items(), key=lambda kv: sorted(kv[0])) if pair in parted}


def _parted_by_water(m: Map, pairs: set[frozenset[str]]) -> set[frozenset[str]]:
    adjacent = adjacent_provinces(m)
    water = {a for a, loc in m.locations.items() if loc.terrain is Terrain.WATER}
    land = {a for a, loc in m.locations.items() if loc.terrain not in (Terrain.WATER, Terrain.SHUT)}
    seas: dict[str, set[str]] = {}
    for pair in adjacent:
        if len(pair & water) == 1 and pair & land:
            (sea,), (coast,) = pair & water, pair & land
            seas.setdefault(coast, set()).add(sea)
    return {pair for pair in pairs - adjacent if pair <= land
            and set.intersection(*(seas.get(a, set()) for a in pair))}


def adjacency_breaks(m: Map, geometry: Geometry) -> list[Break]:
    """Where the drawing of `m` with `geometry` disagrees with its adjacencies (`all_breaks`), but
    the pairs adjacent across the board's edge, which `across_edge_marks` shows."""
    return [b for b in all_breaks(m, geometry) if b.kind is not BreakKind.ACROSS_EDGE]


def across_edge_marks(m: Map, geometry: Geometry) -> list[EdgeMark]:
    """The arrows at the frame that show the pairs adjacent across the board's edge (`all_breaks`'s
    `ACROSS_EDGE`): only the borders of regions on the frame are looked at, as every picture of a
    map works this out once."""
    if not geometry.regions:
        return []
    frame = on_frame(geometry.regions, geometry.width, geometry.height)
    shut = _shut(m)
    pairs = {pair for pair in adjacent_provinces(m)
             if not pair & shut and _apart(pair, frame) is BreakKind.ACROSS_EDGE}
    if not pairs:
        return []
    names = set().union(*pairs)
    drawn = region_borders(tuple(ring for ring in geometry.regions if ring[0] in names), LEAST_BORDER)
    return edge_marks(pairs - drawn, frame)


def all_breaks(m: Map, geometry: Geometry) -> list[Break]:
    """Neighbours drawn apart, and borders drawn between provinces the map has no move across
    (but `straits`, drawn as water). Impassable places (SHUT) are left out: nothing moves across
    them, whatever they touch. Neighbours apart on regions drawn from coastlines are told by the
    frame: both reaching it, on one edge or on none in common."""
    shut = _shut(m)
    adjacent = {pair for pair in adjacent_provinces(m) if not pair & shut}
    if geometry.regions:
        borders = region_borders(geometry.regions, LEAST_BORDER)
        frame = on_frame(geometry.regions, geometry.width, geometry.height)
    else:
        borders = drawn_borders(_sites(m, geometry), geometry.width, geometry.height)
        borders -= _parted_by_water(m, borders)
        frame = {}  # cells fill the frame: every one reaches it
    drawn = {pair for pair in borders if not pair & shut}
    breaks = [_break(pair, _apart(pair, frame)) for pair in adjacent - drawn]
    breaks += [_break(pair, BreakKind.FALSE) for pair in drawn - adjacent]
    return sorted(breaks)


def _shut(m: Map) -> set[str]:
    return {a for a, loc in m.locations.items() if loc.terrain is Terrain.SHUT}


def _apart(pair: frozenset[str], frame: OnFrame) -> BreakKind:
    first, second = (frame.get(name, {}) for name in sorted(pair))
    if not first or not second:
        return BreakKind.MISSING
    return BreakKind.BEYOND_FRAME if set(first) & set(second) else BreakKind.ACROSS_EDGE


def _break(pair: frozenset[str], kind: BreakKind) -> Break:
    first, second = sorted(pair)
    return Break(first, second, kind)
