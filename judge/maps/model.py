"""The immutable map: places, adjacencies, powers and the calendar of a variant.

A `Map` is what the parser returns and what every rule decision reads. Its adjacency queries are the
adjudicator's hot path, so the move tables are computed once, when the map is made; what other
modules work out from a map once they keep while the map lives (`per_map`).
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Mapping, TypeVar

from judge.errors import Problem
from judge.types import Phase, Unit, UnitType, province_of


class Terrain(str, Enum):
    LAND = "LAND"
    COAST = "COAST"
    WATER = "WATER"
    PORT = "PORT"
    SHUT = "SHUT"


_ARMY = UnitType.ARMY  # a module name is read faster than an Enum member (the queries below are hot)

STRAIT = "~"  # weak crossing: no strength, no support across, no cut
CAPE = "*"  # half-strength crossing, no support across, no cut, retreat destroyed on conflict


@dataclass(frozen=True, slots=True)
class Abut:
    """One entry to the right of ABUTS: where a unit may go from a location, and on what terms."""

    dest: str
    army: bool = True  # False for `Xxx`: no direct army move
    fleet: bool = True  # False for `xxx`: no fleet move
    powers: frozenset[str] | None = None  # power abbreviations allowed; None: all; empty: nobody
    centers: frozenset[str] = frozenset()  # centres the unit's owner must own
    special: frozenset[str] = frozenset()  # STRAIT and/or CAPE
    # Whether some powers may not cross (worked out once: asked of every move checked).
    restricted: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "restricted", self.powers is not None or bool(self.centers))

    def allows(self, power_abbrev: str | None, owned: frozenset[str] | set[str]) -> bool:
        """Whether a unit of this power, owning these centres, may use the adjacency."""
        if self.powers is not None and (power_abbrev is None or power_abbrev not in self.powers):
            return False
        return self.centers <= owned


@dataclass(frozen=True, slots=True)
class Location:
    abbrev: str  # `PAR`, `SPA/NC`
    name: str  # `Spain (north coast)`
    terrain: Terrain
    fleet_ok: bool  # False where the map writes the space in lower case (e.g. `spa`)
    abuts: tuple[Abut, ...]
    # Read off the above once (the adjudicator asks them of every order):
    province: str = field(init=False, compare=False, repr=False)  # `SPA` for `SPA/NC`
    coast: str | None = field(init=False, compare=False, repr=False)  # `NC` for `SPA/NC`
    army_ok: bool = field(init=False, compare=False, repr=False)  # an army may stand here
    fleet_can_stand: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        province, _, coast = self.abbrev.partition("/")
        setter = object.__setattr__
        setter(self, "province", province)
        setter(self, "coast", coast or None)
        setter(self, "army_ok", not coast and self.terrain in (Terrain.LAND, Terrain.COAST, Terrain.PORT))
        setter(self, "fleet_can_stand",
               self.fleet_ok and self.terrain in (Terrain.COAST, Terrain.WATER, Terrain.PORT))


@dataclass(frozen=True, slots=True)
class AltHome:
    """`@CAL(NYO)`: CAL may be built in instead of the listed homes (any home when none listed)."""

    center: str
    instead_of: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class League:
    name: str
    kind: str = ""  # "", "STRICT" or "BENIGN"
    benign: tuple[str, ...] = ()  # the leagues a BENIGN power will not attack (its own first)


@dataclass(frozen=True, slots=True)
class PowerInfo:
    name: str  # as the map writes it, upper case: `FRANCE`, `C+S+A`, `_NEUTRAL`
    display: str  # `France`, `CSA`
    adjective: str  # `French`
    abbrev: str  # `F`
    homes: tuple[str, ...] = ()
    centers: tuple[str, ...] = ()  # owned at the start
    units: tuple[Unit, ...] = ()
    claims: int = 0  # one per `&SC`: owned non-home centres that may become homes by a build
    factories: tuple[str, ...] = ()  # `+SITE`
    partisans: tuple[str, ...] = ()  # `*SITE`
    alt_homes: tuple[AltHome, ...] = ()  # `@SC(HOME,...)`
    hidden: tuple[str, ...] = ()  # `~SC`
    build_and_own: int = 0  # one per OWNS `SC!`: a build on a vacant home not owned, taking it
    build_unowned: int = 0  # one per OWNS `SC?`: a build on a vacant home, not taking it
    reserves: int = 0
    militia: int = 0
    league: League | None = None
    dummy: bool = False
    control: tuple[str, ...] = ()
    flag: str | None = None


@dataclass(frozen=True, slots=True)
class FlowStep:
    """One word of FLOW: a season and its phase types, or NEWYEAR:n, or IFYEARDIV:n=m."""

    season: str
    phases: tuple[str, ...] = ()
    newyear: int = 0
    yeardiv: tuple[int, int] | None = None

    @property
    def is_season(self) -> bool:
        return not self.newyear and self.yeardiv is None


DEFAULT_FLOW = (
    FlowStep("SPRING", ("MOVEMENT", "RETREATS")),
    FlowStep("FALL", ("MOVEMENT", "RETREATS")),
    FlowStep("WINTER", ("ADJUSTMENTS",)),
)


@dataclass(frozen=True, slots=True)
class Stanza:
    """A `[variant] DIRECTIVES` ... `END DIRECTIVES` block: status-file lines for games on the map."""

    variant: str | None
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SourceLine:
    file: str
    line: int
    text: str


@dataclass(frozen=True, slots=True)
class DynamicBlock:
    """Map directives applied IN matching phases, or FROM a movement phase on."""

    kind: str  # "IN" or "FROM"
    when: tuple[str, ...]  # phase abbreviations, or the words of a written phase prefix
    lines: tuple[SourceLine, ...]


@dataclass(frozen=True, eq=False)
class Map:
    name: str
    locations: Mapping[str, Location]
    aliases: Mapping[str, tuple[str, ...]]  # ALIAS -> abbreviations; more than one: ambiguous
    ambiguous: frozenset[str]  # aliases marked `?`: ambiguous even where they name one place
    powers: Mapping[str, PowerInfo]
    unowned: tuple[str, ...]  # supply centres nobody owns at the start
    victory: tuple[int, ...]
    flow: tuple[FlowStep, ...]
    begin: Phase
    rules: frozenset[str]
    rules_off: frozenset[str]  # `RULE !X`: turned off after every other rule is applied
    stanzas: tuple[Stanza, ...] = ()
    graphic: str | None = None
    textonly: bool = False
    flags: tuple[str, ...] | None = None
    newhomes: tuple[int, ...] = ()
    rotate: tuple[str, ...] | None = None
    base: tuple[SourceLine, ...] = ()  # the always-applied lines, for map_for_phase
    dynamic: tuple[DynamicBlock, ...] = ()
    phase: Phase | None = None  # the phase whose IN/FROM blocks are applied, if any
    notify: tuple[str, ...] = ()  # NOTIFY: addresses told of each new game on the map
    warnings: tuple[Problem, ...] = ()  # accepted, but worth a map author's look
    _army: Mapping[str, Mapping[str, Abut]] = field(init=False, repr=False)
    _fleet: Mapping[str, Mapping[str, Abut]] = field(init=False, repr=False)
    _centers: frozenset[str] = field(init=False, repr=False)
    _army_moves: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    _fleet_moves: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    _coasts: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    _coasted: frozenset[str] = field(init=False, repr=False)
    _provinces: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        army: dict[str, dict[str, Abut]] = {}
        fleet: dict[str, dict[str, Abut]] = {}
        for loc in self.locations.values():
            if loc.army_ok:
                army[loc.abbrev] = self._army_table(loc)
            if loc.fleet_can_stand:
                fleet[loc.abbrev] = self._fleet_table(loc)
        object.__setattr__(self, "_army", MappingProxyType(army))
        object.__setattr__(self, "_fleet", MappingProxyType(fleet))
        centers = set(self.unowned)
        for power in self.powers.values():
            centers.update(power.homes, power.centers)
        object.__setattr__(self, "_centers", frozenset(centers))
        # Answers to the queries below, which the adjudicator asks over and over.
        object.__setattr__(self, "_army_moves", _sorted_keys(army))
        object.__setattr__(self, "_fleet_moves", _sorted_keys(fleet))
        object.__setattr__(self, "_coasts", _coasts(self.locations))
        object.__setattr__(self, "_coasted", frozenset(self._coasts))
        object.__setattr__(self, "_provinces", tuple(sorted(
            a for a, loc in self.locations.items() if loc.coast is None and loc.terrain is not Terrain.SHUT)))

    def _army_table(self, loc: Location) -> dict[str, Abut]:
        table: dict[str, Abut] = {}
        for abut in loc.abuts:
            dest = self.locations.get(province_of(abut.dest))
            if abut.army and dest is not None and dest.army_ok and abut.powers != frozenset():
                table.setdefault(dest.abbrev, abut)
        return table

    def _fleet_table(self, loc: Location) -> dict[str, Abut]:
        table: dict[str, Abut] = {}
        for abut in loc.abuts:
            dest = self.locations.get(abut.dest)
            if abut.fleet and dest is not None and dest.fleet_can_stand and abut.powers != frozenset():
                table.setdefault(dest.abbrev, abut)
        return table

    # --- places -----------------------------------------------------------------------------------

    @property
    def supply_centers(self) -> frozenset[str]:
        return self._centers

    @property
    def provinces(self) -> tuple[str, ...]:
        """Spaces a unit can be in, coasts folded into their province (SHUT spaces excluded)."""
        return self._provinces

    def coasts_of(self, province: str) -> tuple[str, ...]:
        """The locations `province/...` (`SPA/NC`, `SPA/SC`), in the map's order; none for most."""
        return self._coasts.get(province, ())

    def lookup(self, word: str) -> tuple[str, ...]:
        """Abbreviations a place name or alias (any case, `+` or spaces) may mean."""
        return self.aliases.get(word.upper().replace("+", " "), ())

    # --- movement ---------------------------------------------------------------------------------

    def abut(self, unit_type: UnitType, src: str, dest: str) -> Abut | None:
        """The adjacency a unit of this type crosses moving directly from src to dest, if any.

        Power and centre restrictions are not applied here: `Abut.allows` does that."""
        table = (self._army if unit_type is _ARMY else self._fleet).get(src)
        return table.get(dest) if table is not None else None

    def move_table(self, unit_type: UnitType) -> Mapping[str, Mapping[str, Abut]]:
        """`abut`'s table: each place a unit of this type may stand -> each place it could move to
        directly -> the adjacency crossed."""
        return self._army if unit_type is _ARMY else self._fleet

    @property
    def coasted(self) -> frozenset[str]:
        """The provinces that have coasts (`coasts_of` is not empty)."""
        return self._coasted

    def moves(self, unit_type: UnitType, src: str) -> tuple[str, ...]:
        """Every direct move a unit of this type could make from src, restrictions not applied."""
        return (self._army_moves if unit_type is _ARMY else self._fleet_moves).get(src, ())

    def can_stand(self, unit: Unit) -> bool:
        """Whether a unit of this type may be on the location (the move tables list just those)."""
        return unit.location in (self._army if unit.type is _ARMY else self._fleet)

    # --- powers and the calendar ------------------------------------------------------------------

    def power_by_abbrev(self, abbrev: str) -> PowerInfo | None:
        for power in self.powers.values():
            if power.abbrev == abbrev:
                return power
        return None

    def victory_in(self, year: int) -> int:
        """Centres needed to win in a game-year: VICTORY's nth number for the nth year."""
        index = max(0, year - self.begin.year)
        return self.victory[min(index, len(self.victory) - 1)]

    @property
    def seasons(self) -> tuple[FlowStep, ...]:
        return tuple(step for step in self.flow if step.is_season)


def _sorted_keys(tables: Mapping[str, Mapping[str, Abut]]) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({src: tuple(sorted(table)) for src, table in tables.items()})


def _coasts(locations: Mapping[str, Location]) -> Mapping[str, tuple[str, ...]]:
    """`coasts_of` for every argument with an answer: each part of an abbreviation before a `/`."""
    found: dict[str, tuple[str, ...]] = {}
    for abbrev in locations:
        for at, char in enumerate(abbrev):
            if char == "/":
                found[abbrev[:at]] = found.get(abbrev[:at], ()) + (abbrev,)
    return MappingProxyType(found)


T = TypeVar("T")


def per_map(make: Callable[[Map], T]) -> Callable[[Map], T]:
    """`make(m)`, made on the first call for each map and kept while the map lives. A Map is
    immutable and hashed by identity, so what is made of it once stays right; what `make` returns
    must hold no strong reference to its map, or the map would never go."""
    kept: weakref.WeakKeyDictionary[Map, T] = weakref.WeakKeyDictionary()

    def for_map(m: Map) -> T:
        found = kept.get(m)
        if found is None:
            found = kept[m] = make(m)
        return found

    for_map.__doc__ = f"`{getattr(make, '__name__', 'make')}` of the map, made once a map (`per_map`)."
    return for_map
