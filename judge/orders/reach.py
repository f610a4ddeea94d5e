"""Where a unit can get to on a map: direct crossings into a province, and convoy routes by sea.

Convoy routes are searched on the map alone (which spaces could carry a convoy), never on the fleets
standing there: whether fleets are really there and really convoy is the adjudicator's question.
"""
from __future__ import annotations

from judge.maps.model import Abut, Map, Terrain
from judge.orders.names import place_name
from judge.types import Unit, UnitType, province_of

CONVOY_TERRAIN = (Terrain.WATER, Terrain.PORT)


def crossings(m: Map, unit: Unit, province: str) -> list[Abut]:
    """The adjacencies a unit could cross straight into a province (a fleet: into any of its coasts),
    power and centre restrictions not applied."""
    if unit.type is UnitType.ARMY:
        abut = m.abut(UnitType.ARMY, unit.location, province)
        return [abut] if abut is not None else []
    return [m.abut(UnitType.FLEET, unit.location, dest)  # type: ignore[misc]
            for dest in m.moves(UnitType.FLEET, unit.location) if province_of(dest) == province]


def can_convoy(m: Map, location: str, rules: frozenset[str]) -> bool:
    """Whether a fleet on the location may convoy: at sea or in a PORT; on a coast under COASTAL_CONVOY."""
    loc = m.locations.get(location)
    if loc is None or not loc.fleet_can_stand:
        return False
    return loc.terrain in CONVOY_TERRAIN or (loc.terrain is Terrain.COAST and "COASTAL_CONVOY" in rules)


def touches(m: Map, location: str, province: str) -> bool:
    """Whether a fleet on the location borders the province (any of its coasts)."""
    return any(province_of(dest) == province for dest in m.moves(UnitType.FLEET, location))


def convoy_route(m: Map, start: str, end: str, rules: frozenset[str], through: str | None = None) -> bool:
    """Whether an army could be convoyed from province `start` to province `end` (through the given
    convoying location, if any) over spaces that may carry a convoy."""
    return ConvoyRoutes(m, rules).route(start, end, through)


class ConvoyRoutes:
    """`convoy_route` on one map under one set of rules, for many questions (those of a phase): the
    spaces that may carry a convoy found once, each answer kept."""

    def __init__(self, m: Map, rules: frozenset[str]) -> None:
        self.map = m
        self.rules = rules
        self.spaces = frozenset(a for a in m.locations if can_convoy(m, a, rules))
        self._borders: dict[str, frozenset[str]] = {}
        self._answers: dict[tuple[str, str, str | None], bool] = {}

    def route(self, start: str, end: str, through: str | None = None) -> bool:
        key = (start, end, through)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = self._search(start, end, through)
        return answer

    def borders(self, location: str) -> frozenset[str]:
        """The provinces a fleet on the location borders (`touches`)."""
        found = self._borders.get(location)
        if found is None:
            found = self._borders[location] = frozenset(
                province_of(dest) for dest in self.map.moves(UnitType.FLEET, location))
        return found

    def _search(self, start: str, end: str, through: str | None) -> bool:
        m, rules = self.map, self.rules
        if start == end or not _lands(m, start) or not _lands(m, end):
            return False
        spaces = {a for a in self.spaces if province_of(a) not in (start, end)}
        first = {s for s in spaces if start in self.borders(s)}
        last = {s for s in spaces if end in self.borders(s)}
        if through is None:
            return bool(_spread(m, first, spaces) & last)
        if through not in spaces:
            return False
        if "CONVOY_BACK" in rules:
            return through in _spread(m, first, spaces) and bool(_spread(m, {through}, spaces) & last)
        return _two_ways(m, spaces, through, first, last)


def path_problem(m: Map, start: str, path: tuple[str, ...], end: str, rules: frozenset[str]) -> str | None:
    """Why the written convoy path `start - path... - end` is impossible on the map, if it is."""
    for space in path:
        if not can_convoy(m, space, rules):
            return f"{place_name(m, space)} cannot carry a convoy"
    if not touches(m, path[0], start):
        return f"{place_name(m, path[0])} does not border {place_name(m, start)}"
    for here, there in zip(path, path[1:] + (end,), strict=True):
        if not touches(m, here, there):
            return f"{place_name(m, here)} does not border {place_name(m, there)}"
    if "CONVOY_BACK" not in rules and len(set(path)) < len(path):
        return "a convoy path may not pass the same space twice"
    return None


def _lands(m: Map, province: str) -> bool:
    loc = m.locations.get(province)
    return loc is not None and loc.army_ok


def _spread(m: Map, starts: set[str], spaces: set[str]) -> set[str]:
    """Every one of `spaces` reachable from `starts` by fleet steps within `spaces`."""
    seen = starts & spaces
    todo = list(seen)
    while todo:
        for dest in m.moves(UnitType.FLEET, todo.pop()):
            if dest in spaces and dest not in seen:
                seen.add(dest)
                todo.append(dest)
    return seen


def _two_ways(m: Map, spaces: set[str], via: str, first: set[str], last: set[str]) -> bool:
    """Whether two paths leave `via`, one to `first` and one to `last`, sharing no space: a route from
    start to end through `via` that passes no space twice (rules.md, CONVOY_BACK). A max flow of 2 on
    the spaces split in two (capacity 1, `via` 2), found by augmenting paths."""
    capacity: dict[tuple, dict[tuple, int]] = {}

    def edge(a: tuple, b: tuple, cap: int) -> None:
        capacity.setdefault(a, {})[b] = cap
        capacity.setdefault(b, {}).setdefault(a, 0)

    for space in spaces:
        edge((space, "in"), (space, "out"), 2 if space == via else 1)
        for dest in m.moves(UnitType.FLEET, space):
            if dest in spaces:
                edge((space, "out"), (dest, "in"), 1)
        for ends, sink in ((first, ("START",)), (last, ("END",))):
            if space in ends:
                edge((space, "out"), sink, 1)
    edge(("START",), ("SINK",), 1)
    edge(("END",), ("SINK",), 1)
    flow = 0
    while flow < 2 and _augment(capacity, (via, "in"), ("SINK",)):
        flow += 1
    return flow == 2


def _augment(capacity: dict[tuple, dict[tuple, int]], source: tuple, sink: tuple) -> bool:
    """Push one unit along a shortest path with room left, if there is one."""
    came: dict[tuple, tuple | None] = {source: None}
    todo = [source]
    while todo and sink not in came:
        node = todo.pop(0)
        for nxt, cap in capacity.get(node, {}).items():
            if cap > 0 and nxt not in came:
                came[nxt] = node
                todo.append(nxt)
    if sink not in came:
        return False
    node = sink
    while (prev := came[node]) is not None:
        capacity[prev][node] -= 1
        capacity[node][prev] += 1
        node = prev
    return True
