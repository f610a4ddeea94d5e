"""What each reader of a BLIND game sees: pure functions of the board before and after a phase.

A power sees a place when the place is one of its spotters' places or next to one (any adjacency of
the place, whatever the unit type, as DPjudge's BLIND games do). Its spotters are its units and
those of the powers it controls (CONTROL), and its supply centres: its home centres and the places
its units started the game on, or with OWN_SCS_SEE the centres it owns. The modifiers change this:

- NO_UNITS_SEE: units spot nothing; NO_SCS_SEE: centres spot nothing;
- UNITS_SEE_SAME / UNITS_SEE_OTHER: a unit is spotted by units of its own / the other type only;
- SEE_NO_UNITS: no foreign unit is ever seen; SEE_NO_SCS: no foreign centre's owner is ever seen;
- SEE_ALL_SCS: the ownership of every centre is public.

MYOPIC, VENETIAN, GREEK and TROJAN are sets of these (the rule table brings them in).

`sight` gives, for one unit or centre, a bit set per reader (DPjudge's, kept so that its `SHOW`
lines can be made from it): 1 the reader saw where it began, before the phase; 2 it sees where it
began, after the phase; 4 it saw where it ended, before; 8 it sees where it ended, after. The
Master, omniscient readers, the unit's owner and its controller see everything (15).
`unit_sightings` turns that into who reads each order line of a phase's results and who is told
that a unit was FOUND, ARRIVES, DEPARTS or was LOST (`blinded_by_destruction`: LOST when the
eyes that saw it were destroyed dislodged); `centre_sightings` says which centres each
power sees after a phase (the status file's SEES lines, which grow until the year's end).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from judge.adjudicator.model import Position, Resolution
from judge.events import UnitSighting
from judge.game.positions import owned_centers
from judge.maps.model import Map, Terrain
from judge.orders.model import Build, Move, Retreat
from judge.rule_names import Rule, Rules
from judge.status.model import GameStatus
from judge.types import ADJUSTMENTS, MASTER, MOVEMENT, Unit, UnitType, province_of

BEFORE_START, AFTER_START, BEFORE_END, AFTER_END = 1, 2, 4, 8
EVERYTHING = 15

# Any of these keeps the centre ownership out of a BLIND game's movement results.
NO_OWNERSHIP_IN_MOVEMENT = (Rule.NO_UNITS_SEE, Rule.SEE_NO_SCS, Rule.SEE_ALL_SCS)


@dataclass(frozen=True)
class Seers:
    """The readers of a game and what their spotters stand on.

    `readers`: every block of the game (powers, observers) in file order; `everything`: MASTER and
    the omniscient blocks; `controller`: power -> the power controlling it; `before` and `after`:
    power -> the locations of its units before the phase and after it; `centers` and `homes`: the
    centres owned and the home centres; `start`: power -> where its units began the game."""

    readers: tuple[str, ...]
    everything: frozenset[str] = frozenset({MASTER})
    controller: Mapping[str, str] = field(default_factory=dict)
    before: Mapping[str, tuple[Unit, ...]] = field(default_factory=dict)
    after: Mapping[str, tuple[Unit, ...]] = field(default_factory=dict)
    centers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    homes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    start: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def vassals(self, power: str) -> list[str]:
        return [power] + [p for p, c in self.controller.items() if c == power]

    def full_sight(self, owner: str | None) -> set[str]:
        """Who sees everything of a power's unit or centres: the Master, the omniscient, the owner
        and its controller."""
        readers = set(self.everything)
        if owner is not None:
            readers.add(owner)
            if owner in self.controller:
                readers.add(self.controller[owner])
        return readers


def neighbours(m: Map, province: str, other: str) -> bool:
    """Whether `other` is `province` or listed among its adjacencies (any unit type)."""
    if province == other:
        return True
    loc = m.locations.get(province)
    if loc is None:
        return False
    target = m.locations.get(other)
    if target is not None and target.terrain is Terrain.SHUT:
        return False
    return any(province_of(a.dest) == other for a in loc.abuts)


def spotted(places: Iterable[str]) -> set[str]:
    return {province_of(p) for p in places}


def _scs(seers: Seers, seer: str, rules: Rules, m: Map) -> tuple[set[str], set[str]]:
    """The centres a seer spots from, before and after the phase."""
    vassals = seers.vassals(seer)
    if Rule.NO_SCS_SEE in rules:
        return set(), set()
    if Rule.OWN_SCS_SEE in rules or (m.newhomes and not any(seers.homes.values())):
        owned = {c for v in vassals for c in seers.centers.get(v, ())}
        return (owned if Rule.OWN_SCS_SEE in rules else set()), owned
    homes = {c for v in vassals for c in seers.homes.get(v, ())}
    if Rule.BLANK_BOARD not in rules and Rule.MOBILIZE not in rules:
        homes |= {p for v in vassals for p in seers.start.get(v, ())}
    return homes, homes


def _spotters(units: Iterable[Unit], target: Unit | None, rules: Rules) -> list[str]:
    kinds = {UnitType.ARMY, UnitType.FLEET}
    if target is not None and Rule.UNITS_SEE_SAME in rules:
        kinds = {target.type}
    elif target is not None and Rule.UNITS_SEE_OTHER in rules:
        kinds -= {target.type}
    return [u.location for u in units if u.type in kinds]


def sight(m: Map, rules: Rules, seers: Seers, owner: str | None, start: str, end: str,
          target: Unit | None = None, dislodging: bool = False, hidden: bool = False
          ) -> dict[str, int]:
    """Each reader's bits for a unit (`target`) of `owner` going from `start` to `end`, or for a
    centre (`target` None, start == end). MASTER is always a reader. A `hidden` unit (built
    hidden) is looked for only where it ends: whoever sees it is told it ARRIVES or was FOUND."""
    full = seers.full_sight(owner)
    shows = {MASTER: EVERYTHING}
    blinded = Rule.SEE_NO_UNITS if target is not None else Rule.SEE_NO_SCS
    old, new = province_of(start), province_of(end)
    places = [(new, 4)] if hidden else [(old, 5)] if old == new else [(old, 1), (new, 4)]
    for seer in seers.readers:
        if seer in full:
            shows[seer] = EVERYTHING
            continue
        shows[seer] = 0
        if blinded in rules:
            continue
        vassals = seers.vassals(seer)
        if Rule.NO_UNITS_SEE in rules:
            before: set[str] = set()
            after: set[str] = set()
        else:
            before = spotted(_spotters((u for v in vassals for u in seers.before.get(v, ())), target, rules))
            after = spotted(_spotters((u for v in vassals for u in seers.after.get(v, ())), target, rules))
        sc_before, sc_after = _scs(seers, seer, rules, m)
        before |= sc_before
        after |= sc_after
        both = before & after
        before, after = before - both, after - both
        for place, weight in places:
            later = 2 + (1 if weight & 4 and dislodging else 0)
            for bit, spots in ((1, before), (later, after), (3, both)):
                if any(neighbours(m, place, spot) for spot in spots):
                    shows[seer] |= bit * weight
    return shows


def sighting(power: str, unit: Unit, there: Unit, shows: Mapping[str, int], kind: str,
             letter: str = "M") -> UnitSighting:
    """Who reads a unit's line and who is told of it, from its bits. `kind`: the phase's type;
    `letter`: what the unit did, as DPjudge tells them apart: M moved (or held, in a movement
    phase), B built, R removed (or disbanded, or destroyed retreating), H stood by in a retreat or
    adjustment phase (no line of its own: only FOUND, LOST...)."""
    readers, found, came, gone, lost = set(), set(), set(), set(), set()
    for who, how in shows.items():
        if how & AFTER_END:
            if how & BEFORE_START:
                readers.add(who)
            elif how & BEFORE_END:
                came.add(who)
            elif kind == ADJUSTMENTS:
                if letter in "BR":
                    readers.add(who)
                if letter != "B":
                    found.add(who)
            elif letter not in "RD":
                found.add(who)
        elif how & BEFORE_START:
            if how & AFTER_START:
                gone.add(who)
            else:
                if letter not in "RD":
                    lost.add(who)
                if letter in "BRD":
                    readers.add(who)
    if letter == "H":
        readers = set()
    return UnitSighting(power, unit, there, frozenset(readers), frozenset(found), frozenset(came),
                        frozenset(gone), frozenset(lost))


def movement_sightings(m: Map, rules: Rules, seers: Seers,
                       moves: Mapping[str, Mapping[Unit, Unit]], dislodged: Iterable[str],
                       hidden: Mapping[str, Iterable[Unit]] | None = None
                       ) -> dict[tuple[str, Unit], UnitSighting]:
    """(power, unit) -> its sighting, for every unit of a movement phase. `moves`: power -> each
    unit -> where it stands after the phase; `dislodged`: the provinces where a unit was
    dislodged (a unit moving there is seen arriving by whoever sees the place after); `hidden`:
    power -> its units built hidden, revealed by this phase."""
    knocked = set(dislodged)
    unseen = {(p, u) for p, us in (hidden or {}).items() for u in us}
    found = {}
    for power, units in moves.items():
        for unit, there in units.items():
            dislodging = there != unit and there.province in knocked
            shows = sight(m, rules, seers, power, unit.location, there.location, unit, dislodging,
                          (power, unit) in unseen)
            found[(power, unit)] = sighting(power, unit, there, shows, MOVEMENT)
    return found


def blinded_by_destruction(m: Map, rules: Rules, seers: Seers,
                           standing: Mapping[str, Iterable[Unit]],
                           destroyed: Mapping[str, Iterable[Unit]]) -> tuple[UnitSighting, ...]:
    """The units of a movement phase that readers stop seeing when the dislodged units with no
    retreat are destroyed, as DPjudge tells them LOST after the dislodged units. `seers.after`:
    every unit where it stands after the moves, the dislodged ones too; `standing`: power -> its
    units after the moves, the dislodged left out."""
    gone = {(p, u) for p, us in destroyed.items() for u in us}
    if not gone:
        return ()
    view = replace(seers, before=seers.after,
                   after={p: tuple(u for u in us if (p, u) not in gone) for p, us in seers.after.items()})
    found = []
    for power, units in standing.items():
        for unit in units:
            shows = sight(m, rules, view, power, unit.location, unit.location, unit)
            lost = frozenset(who for who, how in shows.items()
                             if how & BEFORE_START and not how & AFTER_START)
            if lost:
                found.append(UnitSighting(power, unit, unit, frozenset(), lost=lost))
    return tuple(found)


def other_sightings(m: Map, rules: Rules, seers: Seers, kind: str, resolution: Resolution,
                    standing: Mapping[str, Iterable[Unit]]) -> dict[tuple[str, Unit], UnitSighting]:
    """(power, unit) -> its sighting, for a retreat or adjustment phase: each retreat, disband,
    build and removal, then each unit that did nothing (`standing`: every unit on the board before
    the phase), which may be FOUND or LOST by a reader whose eyes changed."""
    found = {}
    for result in resolution.results:
        order = result.order
        unit = getattr(order, "unit", None)
        if unit is None:
            continue
        end, letter = unit, "R"
        if isinstance(order, Retreat) and not result.results:
            end, letter = Unit(unit.type, order.dest), "M"
        elif isinstance(order, Build):
            letter = "B"
        shows = sight(m, rules, seers, order.power, unit.location, end.location, unit)
        found[(order.power, unit)] = sighting(order.power, unit, end, shows, kind, letter)
    for power, units in standing.items():
        for unit in units:
            if (power, unit) not in found:
                shows = sight(m, rules, seers, power, unit.location, unit.location, unit)
                found[(power, unit)] = sighting(power, unit, unit, shows, kind, "H")
    return found


def centre_readers(m: Map, rules: Rules, seers: Seers, center: str) -> set[str]:
    """The readers who see a centre after the phase (bit 2)."""
    return {who for who, how in sight(m, rules, seers, None, center, center).items()
            if how & AFTER_START}


def centre_sightings(m: Map, rules: Rules, seers: Seers, sees: Mapping[str, Iterable[str]]
                     ) -> dict[str, tuple[str, ...]]:
    """Each reader's SEES after a phase: the centres it saw before (`sees`), then those of the
    other powers (owner by owner) and the unowned ones it sees now. Its own and its vassals'
    centres are not listed, nor anything under SEE_NO_SCS or SEE_ALL_SCS (all is public)."""
    owned = [seers.centers.get(p, frozenset()) for p in seers.readers]
    taken = {c for cs in owned for c in cs}
    groups: list[tuple[str | None, list[str]]] = [(p, sorted(cs)) for p, cs in zip(seers.readers, owned)]
    groups.append((None, sorted(m.supply_centers - taken)))
    readers_of: dict[str, set[str]] = {}
    result = {}
    for power in seers.readers:
        seen = list(sees.get(power, ()))
        if power not in seers.everything and not {Rule.SEE_NO_SCS, Rule.SEE_ALL_SCS} & rules:
            for owner, centers in groups:
                if owner is not None and power in seers.full_sight(owner):
                    continue
                for center in centers:
                    if center not in seen:
                        if center not in readers_of:
                            readers_of[center] = centre_readers(m, rules, seers, center)
                        if power in readers_of[center]:
                            seen.append(center)
        if seen:
            result[power] = tuple(seen)
    return result


def shows_ownership(rules: Rules, year_end: bool, next_type: str | None) -> bool:
    """Whether a BLIND game's results end with the centres' ownership: at the year's end, and
    before each movement phase unless a modifier makes it pointless."""
    if year_end:
        return True
    return (Rule.BLIND in rules and next_type == MOVEMENT
            and not any(r in rules for r in NO_OWNERSHIP_IN_MOVEMENT))


def seers_of(status: GameStatus, m: Map, before: Mapping[str, Iterable[Unit]] | None = None) -> Seers:
    """The readers of a game as its status file says, their units now (`after`) and `before` the
    phase (the same when not given)."""
    blocks = [b for b in status.powers if b.name]
    after = {b.name: tuple(b.units) + tuple(d.unit for d in b.dislodged) for b in blocks}
    homes = {}
    for b in blocks:
        info = m.powers.get(b.name)
        homes[b.name] = frozenset(b.home if b.home is not None else info.homes if info else ())
    return Seers(
        readers=tuple(b.name for b in blocks),
        everything=frozenset({MASTER} | {b.name for b in blocks if b.omniscient is not None}),
        controller={b.name: b.control[0] for b in blocks if b.control},
        before={p: tuple(us) for p, us in before.items()} if before is not None else after,
        after=after,
        centers={b.name: owned_centers(b) for b in blocks},
        homes=homes,
        start={name: tuple(u.location for u in info.units) for name, info in m.powers.items()})


def with_sees(status: GameStatus, m: Map, rules: Rules, fresh: bool = False) -> GameStatus:
    """The status with each reader's SEES brought up to date (`fresh`: started anew, as at the
    year's end and the game's start)."""
    earlier = {} if fresh else {b.name: b.sees for b in status.powers}
    sees = centre_sightings(m, rules, seers_of(status, m), earlier)
    for block in status.powers:
        if block.name and block.sees != sees.get(block.name, ()):
            status = status.with_power(replace(block, sees=sees.get(block.name, ())))
    return status


def moves_of(position: Position, resolution: Resolution) -> dict[str, dict[Unit, Unit]]:
    """Power -> each unit of a movement phase -> where it stands after it (a dislodged or
    bounced unit where it was)."""
    moved = {}
    for result in resolution.results:
        order = result.order
        if isinstance(order, Move) and not result.results:
            moved[(order.power, order.unit)] = Unit(order.unit.type, order.dest)
    return {power: {u: moved.get((power, u), u) for u in units}
            for power, units in position.units.items()}


def dislodged_places(resolution: Resolution) -> set[str]:
    return {u.province for units in resolution.dislodged.values() for u in units}


def units_seen(m: Map, rules: Rules, seers: Seers, reader: str
               ) -> dict[str, tuple[Unit, ...]]:
    """Power -> the units (and dislodged units) `reader` sees on the board now, for LIST."""
    return {power: tuple(u for u in units
                         if sight(m, rules, seers, power, u.location, u.location, u)
                         .get(reader, 0) & AFTER_END)
            for power, units in seers.after.items()}

