"""Which units a power in civil disorder loses first (DATC 6.J, the 2023 rules, issue 4.D.8 c).

A removal the power does not order goes first to a unit not standing on a supply centre, then to the
unit furthest from a supply centre the power owns, counting provinces crossed whatever the unit type
(fleets over land, armies over water: any adjacency of the map joins two provinces); fleets before
armies at equal distance; then by the English name of the province, then its abbreviation. Units the
power said to KEEP go last.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from judge.maps.model import Map, Terrain
from judge.types import Unit, UnitType, province_of

FAR = 10 ** 6  # the distance of a unit that cannot reach any owned centre


def removal_order(m: Map, units: Iterable[Unit], owned: Iterable[str],
                  keep: Iterable[Unit] = ()) -> list[Unit]:
    """The power's units, the first to remove first."""
    distance = distances(m, owned)
    kept = set(keep)

    def key(unit: Unit) -> tuple:
        place = m.locations.get(unit.province)
        return (unit in kept, unit.province in m.supply_centers, -distance.get(unit.province, FAR),
                unit.type is not UnitType.FLEET, place.name if place else unit.province, unit.location)

    return sorted(units, key=key)


def province_graph(m: Map) -> dict[str, set[str]]:
    """Province -> the provinces any adjacency of the map joins it to (SHUT spaces left out)."""
    graph: dict[str, set[str]] = {}
    for loc in m.locations.values():
        if loc.terrain is Terrain.SHUT:
            continue
        here = graph.setdefault(loc.province, set())
        for abut in loc.abuts:
            there = m.locations.get(province_of(abut.dest))
            if there is not None and there.terrain is not Terrain.SHUT and there.province != loc.province:
                here.add(there.province)
                graph.setdefault(there.province, set()).add(loc.province)
    return graph


def distances(m: Map, sources: Iterable[str]) -> dict[str, int]:
    """Each province's distance in moves from the nearest of `sources` (provinces)."""
    graph = province_graph(m)
    distance = {s: 0 for s in sources if s in graph}
    queue = deque(distance)
    while queue:
        here = queue.popleft()
        for there in graph[here]:
            if there not in distance:
                distance[there] = distance[here] + 1
                queue.append(there)
    return distance
