"""Where a unit can get to on a map: direct crossings into a province, and convoy routes by sea.

Convoy routes are searched on the map (which spaces could carry a convoy), and for order entry on the
fleets standing there (`ConvoyRoutes.carried`); whether they really convoy is the adjudicator's
question.
"""
from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from judge.maps.model import Abut, Map, Terrain, per_map
from judge.orders.names import place_name
from judge.rule_names import Rule, Rules
from judge.types import Unit, UnitType, province_of

ARMY, FLEET = UnitType.ARMY, UnitType.FLEET  # module names: faster than Enum members
CONVOY_TERRAIN = (Terrain.WATER, Terrain.PORT)


def crossings(m: Map, unit: Unit, province: str) -> tuple[Abut, ...]:
    """The adjacencies a unit could cross straight into a province (a fleet: into any of its coasts),
    power and centre restrictions not applied."""
    return map_reach(m).crossings(unit, province)


def can_convoy(m: Map, location: str, rules: Rules) -> bool:
    """Whether a fleet on the location may convoy: at sea or in a PORT; on a coast under COASTAL_CONVOY."""
    loc = m.locations.get(location)
    if loc is None or not loc.fleet_can_stand:
        return False
    return loc.terrain in CONVOY_TERRAIN or (loc.terrain is Terrain.COAST and Rule.COASTAL_CONVOY in rules)


def touches(m: Map, location: str, province: str) -> bool:
    """Whether a fleet on the location borders the province (any of its coasts)."""
    return any(province_of(dest) == province for dest in m.moves(FLEET, location))


def borders(m: Map, province: str, other: str) -> bool:
    """Whether the provinces border each other by any crossing, of an army or a fleet (as DPjudge's
    adjacency lists: the steps of a portage, PORTAGE_CONVOY)."""
    return any(province_of(dest) == other for location in (province, *m.coasts_of(province))
               for kind in (ARMY, FLEET) for dest in m.moves(kind, location))


def portage_route(m: Map, start: str, end: str, carriers: AbstractSet[str],
                  through: str | None = None) -> bool:
    """PORTAGE_CONVOY: whether armies standing in the provinces `carriers` (through the one given,
    if any) link province `start` to province `end`, each bordering the next."""
    usable = frozenset(carriers) - {start, end}
    if through is None:
        return _portage_reaches(m, start, usable, lambda here: borders(m, here, end))
    return through in usable and _portage_reaches(m, start, usable, lambda here: here == through) \
        and _portage_reaches(m, through, usable, lambda here: borders(m, here, end))


def _portage_reaches(m: Map, start: str, usable: AbstractSet[str], arrived) -> bool:
    """Whether a chain of `usable` provinces from `start` (itself, when usable) comes to one that
    `arrived` accepts."""
    frontier = [start]
    seen = {start}
    while frontier:
        here = frontier.pop()
        if here in usable and arrived(here):
            return True
        for there in usable - seen:
            if borders(m, here, there):
                seen.add(there)
                frontier.append(there)
    return False


def convoy_route(m: Map, start: str, end: str, rules: Rules, through: str | None = None) -> bool:
    """Whether an army could be convoyed from province `start` to province `end` (through the given
    convoying location, if any) over spaces that may carry a convoy."""
    return convoy_routes(m, rules).route(start, end, through)


NONE: frozenset[str] = frozenset()
CONVOY_RULES = frozenset({Rule.COASTAL_CONVOY, Rule.CONVOY_BACK})  # the rules that change convoy routes

def convoy_routes(m: Map, rules: Rules) -> ConvoyRoutes:
    """The map's ConvoyRoutes under the rules."""
    return map_reach(m).routes(m, rules)


class MapReach:
    """Crossings into each province from each location, and convoy routes by the rules in force."""

    def __init__(self, m: Map) -> None:
        self.into: dict[tuple[UnitType, str], dict[str, tuple[Abut, ...]]] = {}
        for unit_type in (ARMY, FLEET):
            for src in m.locations:
                found: dict[str, tuple[Abut, ...]] = {}
                for dest in m.moves(unit_type, src):  # sorted: a fleet's crossings in coast order
                    abut = m.abut(unit_type, src, dest)
                    found[province_of(dest)] = found.get(province_of(dest), ()) + (abut,)  # type: ignore
                if found:
                    self.into[unit_type, src] = found
        self._routes: dict[Rules, ConvoyRoutes] = {}

    def crossings(self, unit: Unit, province: str) -> tuple[Abut, ...]:
        """`crossings` on this map."""
        return self.into.get((unit.type, unit.location), {}).get(province, ())

    def routes(self, m: Map, rules: Rules) -> ConvoyRoutes:
        """The ConvoyRoutes of this map (`m`) under the rules."""
        key = rules & CONVOY_RULES
        routes = self._routes.get(key)
        if routes is None:
            routes = self._routes[key] = ConvoyRoutes(m, key)
        return routes


# What reach questions read on each map, kept with the map (a MapReach holds no reference to it).
map_reach = per_map(MapReach)


class ConvoyRoutes:
    """Convoy routes on one map under one set of rules: the spaces that may carry a convoy, where a
    fleet on each may go, and which provinces each borders."""

    def __init__(self, m: Map, rules: Rules) -> None:
        self.back = Rule.CONVOY_BACK in rules
        self.spaces = frozenset(a for a in m.locations if can_convoy(m, a, rules))
        self.lands = frozenset(a for a, loc in m.locations.items() if loc.army_ok)
        self.steps = {s: m.moves(FLEET, s) for s in self.spaces}  # where a fleet on s may go
        self.borders = {s: frozenset(province_of(d) for d in steps) for s, steps in self.steps.items()}
        shore: dict[str, set[str]] = {}
        inside: dict[str, set[str]] = {}
        for space, provinces in self.borders.items():
            inside.setdefault(province_of(space), set()).add(space)
            for province in provinces:
                shore.setdefault(province, set()).add(space)
        self.shore = {p: frozenset(s) for p, s in shore.items()}  # province -> the spaces bordering it
        self.inside = {p: frozenset(s) for p, s in inside.items()}  # province -> its spaces (a PORT...)
        offshore: dict[str, set[str]] = {}  # province -> the spaces a fleet in it could sail to
        for location in m.locations:
            sails = [s for s in m.moves(FLEET, location) if s in self.spaces]
            if sails:
                offshore.setdefault(province_of(location), set()).update(sails)
        self.offshore = {p: frozenset(s) for p, s in offshore.items()}
        # Answers already given: they depend on the map and the rules alone, and the same few
        # questions come back phase after phase (the searches below walk the whole sea).
        self._routes: dict[tuple[str, str, str | None], bool] = {}
        self._needed: dict[tuple[str, str], frozenset[str]] = {}

    def route(self, start: str, end: str, through: str | None = None) -> bool:
        """`convoy_route` on this map under these rules."""
        key = (start, end, through)
        found = self._routes.get(key)
        if found is None:
            found = self._routes[key] = self._route(start, end, through)
        return found

    def needed(self, start: str, end: str) -> frozenset[str]:
        """The spaces a convoy route from province `start` to province `end` may pass, the army
        embarking at the last space it could sail to from `start` and landing from the first it
        could sail to from `end`. The parts before and after a space are searched apart, so a
        route that would pass a space twice is not ruled out."""
        found = self._needed.get((start, end))
        if found is None:
            starts, ends = self.offshore.get(start, NONE), self.offshore.get(end, NONE)
            stops = starts | ends  # a route goes on only through spaces touching neither end
            before = starts | _spread(self.steps, starts - ends, self.spaces, stops)
            after = ends | _spread(self.steps, ends - starts, self.spaces, stops)
            found = self._needed[start, end] = frozenset(before & after)
        return found

    def carried(self, start: str, end: str, fleets: AbstractSet[str]) -> bool:
        """Whether fleets standing on the locations `fleets` could carry an army from province
        `start` to province `end`, were they all to convoy it."""
        spaces = (self.spaces & fleets) - self.inside.get(start, NONE) - self.inside.get(end, NONE)
        first = self.shore.get(start, NONE) & spaces
        return bool(first) and bool(_spread(self.steps, first, spaces) & self.shore.get(end, NONE))

    def _route(self, start: str, end: str, through: str | None) -> bool:
        if start == end or start not in self.lands or end not in self.lands:
            return False
        spaces = self.spaces - self.inside.get(start, NONE) - self.inside.get(end, NONE)
        first = self.shore.get(start, NONE) & spaces
        last = self.shore.get(end, NONE) & spaces
        if through is None:
            return bool(_spread(self.steps, first, spaces) & last)
        if through not in spaces:
            return False
        if through in first and through in last:  # the fleet alone links both shores
            return True
        if self.back:
            return (through in _spread(self.steps, first, spaces)
                    and bool(_spread(self.steps, {through}, spaces) & last))
        return _two_ways(self.steps, spaces, through, first, last)


def path_problem(m: Map, start: str, path: tuple[str, ...], end: str, rules: Rules) -> str | None:
    """Why the written convoy path `start - path... - end` is impossible on the map, if it is."""
    for space in path:
        if not can_convoy(m, space, rules):
            return f"{place_name(m, space)} cannot carry a convoy"
    if not touches(m, path[0], start):
        return f"{place_name(m, path[0])} does not border {place_name(m, start)}"
    for here, there in zip(path, path[1:] + (end,), strict=True):
        if not touches(m, here, there):
            return f"{place_name(m, here)} does not border {place_name(m, there)}"
    if Rule.CONVOY_BACK not in rules and len(set(path)) < len(path):
        return "a convoy path may not pass the same space twice"
    return None


def _spread(steps: Mapping[str, tuple[str, ...]], starts: AbstractSet[str],
            spaces: AbstractSet[str], stops: AbstractSet[str] = NONE) -> set[str]:
    """Every one of `spaces` reachable from `starts` by fleet steps within `spaces`, going on from
    none of `stops` but the starts (a stop is reached, not passed)."""
    seen = set(starts & spaces)
    todo = list(seen)
    while todo:
        for dest in steps[todo.pop()]:
            if dest in spaces and dest not in seen:
                seen.add(dest)
                if dest not in stops:
                    todo.append(dest)
    return seen


def _two_ways(steps: Mapping[str, tuple[str, ...]], spaces: AbstractSet[str], via: str,
              first: AbstractSet[str], last: AbstractSet[str]) -> bool:
    """Whether two paths leave `via`, one to `first` and one to `last`, sharing no space: a route from
    start to end through `via` that passes no space twice (rules.md, CONVOY_BACK). A max flow of 2 on
    the spaces split in two (capacity 1, `via` 2), found by augmenting paths."""
    capacity: dict[tuple, dict[tuple, int]] = {}

    def edge(a: tuple, b: tuple, cap: int) -> None:
        capacity.setdefault(a, {})[b] = cap
        capacity.setdefault(b, {}).setdefault(a, 0)

    for space in spaces:
        edge((space, "in"), (space, "out"), 2 if space == via else 1)
        for dest in steps[space]:
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
