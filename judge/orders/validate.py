"""Whether an order is legal on the board: `check_order`, which the adjudicator calls and the order
sheet uses to refuse illegal orders (all but the unreadable ones are kept under NO_CHECK).

Legal means legal whatever the other orders are (DATC 4.E.1). Who owns the ordered unit is not checked
here: an order for another power's unit is void, and saying so is the adjudicator's business. The coast
written for an ordered unit is ignored: the unit on the board is the one that moves (DATC 4.B.5).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping

from judge.maps.model import Abut, Map, Terrain
from judge.orders.builds import site_problem
from judge.orders.model import Build, Convoy, Disband, Hold, Keep, Move, Order, Proxy, Retreat, Support, Waive
from judge.orders.names import either, place_name, unit_name
from judge.orders.reach import (
    ConvoyRoutes,
    borders,
    can_convoy,
    map_reach,
    path_problem,
    portage_route,
)
from judge.rule_names import Rule, Rules
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Unit, UnitType, province_of

if TYPE_CHECKING:
    from judge.adjudicator.model import Position

ARMY, FLEET, SHUT = UnitType.ARMY, UnitType.FLEET, Terrain.SHUT  # module names: faster than Enum members


def check_order(m: Map, order: Order, position: Position, rules: Rules) -> str | None:
    """None if the order is legal in the position under the rules, else why it is not."""
    return OrderChecker(m, position, rules).check(order)


class OrderChecker:
    """`check_order` for the orders of one phase: the position's units indexed once."""

    def __init__(self, m: Map, position: Position, rules: Rules) -> None:
        self.map = m
        self.position = position
        self.rules = rules
        # province -> the unit there (the first listed: a later one written over it is read first)
        self.units: dict[str, Unit] = {unit.province: unit for units in reversed(tuple(position.units.values()))
                                       for unit in reversed(units)}
        self.reach = map_reach(m)
        self.locations = m.locations
        self._phase_type = position.phase.type
        self._movement = self._phase_type == MOVEMENT
        self._powers = m.powers
        self._army_moves, self._fleet_moves = m.move_table(ARMY), m.move_table(FLEET)
        self._coasted = m.coasted
        self._owned: dict[str, frozenset[str]] = {}
        self._routes: ConvoyRoutes | None = None

    def check(self, order: Order) -> str | None:
        """None if the order is legal, else why it is not."""
        kind = type(order)
        if kind is Move:
            if self.plain_crossing(order) is not None:  # type: ignore[arg-type]
                return None
        elif kind is Support:
            if self.plain_support(order):  # type: ignore[arg-type]
                return None
        elif kind is Hold:
            unit = self.units.get(order.unit.province)  # type: ignore[union-attr]
            if (unit is not None and unit.type is order.unit.type  # type: ignore[union-attr]
                    and self._movement and order.power in self._powers):
                return None
        phases = PHASES[kind]
        if self._phase_type not in phases:
            return f"not {' or '.join(PHASE_WORDS[p] for p in phases)} phase"
        if order.power not in self.map.powers:
            return f"no such power {order.power!r}"
        try:
            return CHECKS[kind](self, order)
        except _Illegal as illegal:
            return str(illegal)

    def signal(self, order: Order) -> bool:
        """SIGNAL_SUPPORT: whether the order is a support taken as a signal although it cannot be
        given (the supporter or the supported unit cannot reach the place, across a strait, into
        a SHUT space...): what it names must stand on the board, and a unit may not support
        itself. The adjudicator rules such a support void, as every illegal order."""
        if type(order) is not Support or Rule.SIGNAL_SUPPORT not in self.rules or not self._movement:
            return False
        try:
            unit = self.mobile(order.unit)
            target = self.other(order.target, "support")
        except _Illegal:
            return False
        return target.province != unit.province and (order.dest is None or order.dest in self.locations)

    def plain_crossing(self, order: Move) -> Abut | None:
        """The adjacency the order crosses if it is the common legal move, known without the full
        check: in a movement phase, a unit on the board moving straight along an adjacency every
        power may cross, to a place written as the map's move table writes it (a fleet's coast, an
        army's province), not by convoy. None says nothing: the full check then decides."""
        if not self._movement or order.via_convoy or order.path or order.power not in self._powers:
            return None
        unit = self.units.get(order.unit.province)
        if unit is None or unit.type is not order.unit.type:
            return None
        table = (self._army_moves if unit.type is ARMY else self._fleet_moves).get(unit.location, NO_TABLE)
        abut = table.get(order.dest)
        if (abut is None or abut.restricted or self.locations[order.dest].province == unit.province
                or (unit.type is FLEET and order.dest in self._coasted)):
            return None
        return abut

    def plain_support(self, order: Support) -> bool:
        """Whether the order is the common legal support, known without the full check: in a
        movement phase, a unit on the board supporting another on the board to hold, or to move
        straight into a province it could move to; the supporter could move there straight itself,
        and its first way there is one every power may cross and no strait or cape. False says
        nothing: the full check then decides."""
        if not self._movement or order.power not in self._powers:
            return False
        unit, target = self.units.get(order.unit.province), self.units.get(order.target.province)
        if (unit is None or target is None or unit is target or unit.type is not order.unit.type
                or target.type is not order.target.type or not self.map.can_stand(unit)):
            return False
        if order.dest is None:
            province = target.province
        else:
            place = self.locations.get(order.dest)
            if place is None or place.province == target.province or place.province == unit.province:
                return False
            province = place.province
            if not self.reach.crossings(target, province):
                return False
        options = self.reach.crossings(unit, province)
        return bool(options) and not options[0].restricted and not options[0].special

    def name(self, abbrev: str) -> str:
        return place_name(self.map, abbrev)

    def unit_at(self, province: str) -> Unit | None:
        return self.units.get(province)

    def standing(self, unit: Unit, purpose: str = "") -> Unit:
        """The unit on the board that an order names: same province and type, any coast."""
        found = self.units.get(unit.province)
        if found is None or found.type is not unit.type:
            raise _Illegal(self._not_standing(unit, found, purpose))
        return found

    def _not_standing(self, unit: Unit, found: Unit | None, purpose: str) -> str:
        if found is None:
            return f"no unit in {self.name(unit.province)}{purpose}"
        return f"the unit in {self.name(unit.province)} is {unit_name(found.type)}, not {unit_name(unit.type)}"

    def mobile(self, unit: Unit) -> Unit:
        """The ordered unit of a move, support or convoy, which must be free to act."""
        found = self.standing(unit)
        if not self.map.can_stand(found):
            raise _Illegal(f"the unit in {self.name(found.province)} may only hold")
        return found

    def other(self, unit: Unit, verb: str) -> Unit:
        """A unit supported or convoyed: on the board, or as written under FICTIONAL_OK."""
        if Rule.FICTIONAL_OK in self.rules and self.unit_at(unit.province) is None:
            return unit
        return self.standing(unit, f" to {verb}")

    def dislodged(self, unit: Unit) -> tuple[Unit, tuple[str, ...]]:
        for retreats in self.position.dislodged.values():
            for found, where in retreats.items():
                if found.province == unit.province and found.type is unit.type:
                    return found, tuple(where)
        raise _Illegal(f"no dislodged unit in {self.name(unit.province)}")

    def owned(self, power: str) -> frozenset[str]:
        found = self._owned.get(power)
        if found is None:
            found = self._owned[power] = frozenset(self.position.centers.get(power, ()))
        return found

    def allowed(self, abut: Abut, power: str) -> bool:
        """Whether the power may cross (callers test `abut.restricted` first: most are not)."""
        return not abut.restricted or abut.allows(self.map.powers[power].abbrev, self.owned(power))

    def restriction(self, abut: Abut, src: str, dest: str, power: str) -> str:
        """Why this power may not cross the adjacency (it is power- or centre-restricted)."""
        crossing = f"from {self.name(src)} to {self.name(dest)}"
        if abut.powers is not None and self.map.powers[power].abbrev not in abut.powers:
            allowed = [p.display for a in sorted(abut.powers) if (p := self.map.power_by_abbrev(a))]
            return f"only {either(allowed)} may cross {crossing}" if allowed else f"nobody may cross {crossing}"
        missing = sorted(abut.centers - set(self.position.centers.get(power, ())))
        return f"to cross {crossing} you must own {' and '.join(self.name(c) for c in missing)}"

    def place(self, abbrev: str) -> str:
        """A destination that must be on the map; its province."""
        loc = self.locations.get(abbrev)
        if loc is None:
            raise _Illegal(f"no such place {abbrev!r}")
        province = loc.province
        if loc.coast is not None:
            loc = self.locations[province]
        if loc.terrain is SHUT:
            raise _Illegal(f"{self.name(province)} is impassable")
        return province

    def convoy_route(self, start: str, end: str, through: str | None = None) -> bool:
        if self._routes is None:
            self._routes = self.reach.routes(self.map, self.rules)
        return self._routes.route(start, end, through)

    def carried(self, start: str, end: str) -> bool:
        """Whether the fleets on the board could carry an army from `start` to `end` (any fleet
        might, under FICTIONAL_OK: the order names no fleet, and a BLIND game shows none)."""
        if Rule.FICTIONAL_OK in self.rules:
            return True
        if self._routes is None:
            self._routes = self.reach.routes(self.map, self.rules)
        fleets = {u.location for u in self.units.values() if u.type is FLEET}
        return self._routes.carried(start, end, fleets)

    def can_reach(self, unit: Unit, province: str) -> bool:
        """Whether the unit could get into the province at all: straight, or an army by convoy (a
        fleet carried by armies under PORTAGE_CONVOY)."""
        return bool(self.reach.crossings(unit, province)) or (
            unit.type is ARMY and self.convoy_route(unit.province, province)) or (
            unit.type is FLEET and Rule.PORTAGE_CONVOY in self.rules
            and self.portage_route(unit.province, province))

    def portage_route(self, start: str, end: str, through: str | None = None) -> bool:
        """PORTAGE_CONVOY: whether the armies on the board link the provinces."""
        armies = {p for p, u in self.units.items() if u.type is ARMY}
        return portage_route(self.map, start, end, armies, through)


NO_TABLE: Mapping[str, Abut] = {}


class _Illegal(Exception):
    """Raised by a lookup that finds the order impossible; `check` returns its message."""


NOT_WHERE_IT_IS = "a unit cannot move to the province it is in"
# DPjudge's words for an army sent to a place it borders not, where no fleets could carry it
NO_WAY_THERE = "UNIT CANNOT MOVE INTO DESTINATION"


def _hold(checker: OrderChecker, order: Hold) -> str | None:
    checker.standing(order.unit)
    return None


def _proxy(checker: OrderChecker, order: Proxy) -> str | None:
    checker.standing(order.unit)
    return None


def _move(checker: OrderChecker, order: Move) -> str | None:
    unit = checker.mobile(order.unit)
    if province_of(order.dest) == unit.province:
        return NOT_WHERE_IT_IS
    dest = checker.place(order.dest)
    if unit.type is ARMY:
        return _army_move(checker, unit, order, dest)
    return _fleet_move(checker, unit, order)


def _army_move(checker: OrderChecker, unit: Unit, order: Move, dest: str) -> str | None:
    abut = checker.map.abut(ARMY, unit.location, dest)
    if abut is None and not checker.map.locations[dest].army_ok:  # (an army's crossings lead to land)
        return f"an army cannot go to sea ({checker.name(dest)})"
    if order.path:
        problem = path_problem(checker.map, unit.province, order.path, dest, checker.rules)
        if problem is None:
            return None
        return f"no convoy from {checker.name(unit.province)} to {checker.name(dest)} that way: {problem}"
    if abut is not None and not order.via_convoy and (
            not abut.restricted or checker.allowed(abut, order.power)):
        return None
    if checker.convoy_route(unit.province, dest):
        if checker.carried(unit.province, dest):
            return None
        if abut is None and not order.via_convoy:
            return NO_WAY_THERE
    if order.via_convoy:
        return f"no convoy route could take {unit} to {checker.name(dest)}"
    if abut is not None:
        return checker.restriction(abut, unit.location, dest, order.power)
    return f"{unit} cannot reach {checker.name(dest)}"


def _fleet_move(checker: OrderChecker, unit: Unit, order: Move) -> str | None:
    if order.path and Rule.PORTAGE_CONVOY in checker.rules:
        return _portage(checker, unit, order)
    if order.path or order.via_convoy:
        return "a fleet cannot be convoyed"
    dest = order.dest
    coasts = checker.map.coasts_of(dest) if "/" not in dest else ()
    if coasts:
        return f"a fleet moving to {checker.name(dest)} must name a coast: {either(coasts)}"
    abut = checker.map.abut(FLEET, unit.location, dest)  # (a fleet's crossings lead where fleets may be)
    if abut is None:
        if not checker.map.locations[dest].fleet_can_stand:
            return f"a fleet cannot go inland ({checker.name(dest)})"
        return f"{unit} cannot reach {checker.name(dest)}"
    if not abut.restricted or checker.allowed(abut, order.power):
        return None
    return checker.restriction(abut, unit.location, dest, order.power)


def _portage(checker: OrderChecker, unit: Unit, order: Move) -> str | None:
    """PORTAGE_CONVOY: a fleet on a coast carried over land by the armies its path names, each
    province bordering the next, to a coast (DPjudge's checks of a portage)."""
    m = checker.map
    if m.locations[unit.location].terrain not in (Terrain.COAST, Terrain.PORT):
        return f"{unit} cannot be carried over land: it is not on a coast"
    dest = m.locations[order.dest]
    if dest.terrain not in (Terrain.COAST, Terrain.PORT) or not dest.fleet_can_stand:
        return f"a fleet carried over land must land on a coast, not in {checker.name(order.dest)}"
    stops = [unit.province, *(province_of(p) for p in order.path), dest.province]
    for place in stops[1:-1]:
        if m.locations[place].terrain is Terrain.WATER:
            return f"only armies carry a fleet: {checker.name(place)} is at sea"
        if Rule.FICTIONAL_OK not in checker.rules:
            checker.other(Unit(ARMY, place), "carry the fleet")
    if len(set(stops[1:-1])) < len(stops) - 2 and Rule.CONVOY_BACK not in checker.rules:
        return "a path may not pass the same army twice"
    for here, there in zip(stops, stops[1:]):
        if not borders(m, here, there):
            return f"{checker.name(here)} does not border {checker.name(there)}"
    return None


def _support(checker: OrderChecker, order: Support) -> str | None:
    unit = checker.mobile(order.unit)
    if order.target.province == unit.province:
        return "a unit cannot support itself"
    target = checker.other(order.target, "support")
    dest = checker.place(order.dest) if order.dest else target.province
    if order.dest and dest == target.province:
        return NOT_WHERE_IT_IS
    problem = _support_reach(checker, unit, dest, order.power)
    if problem is None and order.dest and not checker.can_reach(target, dest):
        return f"{target} cannot reach {checker.name(dest)}"
    return problem


def _support_reach(checker: OrderChecker, unit: Unit, province: str, power: str) -> str | None:
    """Why the unit cannot support into the province: it could not move there itself (coasts aside),
    may not cross, or would support across a strait or cape."""
    options = checker.reach.crossings(unit, province)
    if not options:
        return f"{unit} cannot reach {checker.name(province)}, so cannot support there"
    crossable = False
    for abut in options:
        if not abut.restricted or checker.allowed(abut, power):
            if not abut.special:
                return None
            crossable = True
    if not crossable:
        return checker.restriction(options[0], unit.location, province, power)
    return f"support may not cross from {checker.name(unit.location)} to {checker.name(province)}"


def _convoy(checker: OrderChecker, order: Convoy) -> str | None:
    if order.carried is FLEET:
        return _portage_convoy(checker, order)
    unit = checker.mobile(order.unit)
    if unit.type is not FLEET:
        return "only fleets convoy"
    if not can_convoy(checker.map, unit.location, checker.rules):
        return f"{unit} cannot convoy: it is not at sea"
    found = checker.unit_at(order.army)
    if found is not None and found.type is FLEET:
        return "a fleet cannot be convoyed"
    checker.other(Unit(ARMY, order.army), "convoy")
    if order.army == order.dest:
        return NOT_WHERE_IT_IS
    dest = checker.place(order.dest)
    if not checker.convoy_route(order.army, dest, through=unit.location):
        return (f"no convoy route from {checker.name(order.army)} to {checker.name(dest)} "
                f"passes {checker.name(unit.location)}")
    return None


def _portage_convoy(checker: OrderChecker, order: Convoy) -> str | None:
    """PORTAGE_CONVOY: an army carries a fleet on a coast to a coast over a chain of armies."""
    if Rule.PORTAGE_CONVOY not in checker.rules:
        return "only armies can be convoyed"
    unit = checker.mobile(order.unit)
    if unit.type is not ARMY:
        return "only armies carry fleets over land"
    fleet = checker.other(Unit(FLEET, order.army), "convoy")
    m = checker.map
    if m.locations[fleet.location].terrain not in (Terrain.COAST, Terrain.PORT):
        return f"{fleet} cannot be carried over land: it is not on a coast"
    dest = checker.place(order.dest)
    if not any(m.locations[c].terrain in (Terrain.COAST, Terrain.PORT) and m.locations[c].fleet_can_stand
               for c in (dest, *m.coasts_of(dest))):
        return f"a fleet carried over land must land on a coast, not in {checker.name(dest)}"
    if not checker.portage_route(fleet.province, dest, through=unit.province):
        return (f"no armies carry {fleet} from {checker.name(fleet.province)} to {checker.name(dest)} "
                f"through {checker.name(unit.province)}")
    return None


def _retreat(checker: OrderChecker, order: Retreat) -> str | None:
    unit, retreats = checker.dislodged(order.unit)
    if Rule.NO_RETREAT in checker.rules:
        return "dislodged units may not retreat in this game (NO_RETREAT)"
    dest = order.dest if unit.type is FLEET else province_of(order.dest)
    if dest in retreats:
        return None
    if not retreats:
        return f"{unit} has nowhere to retreat: it can only disband"
    places = either(checker.name(r) for r in retreats)
    return f"{unit} cannot retreat to {checker.name(dest)}: it may retreat to {places}"


def _disband(checker: OrderChecker, order: Disband) -> str | None:
    if checker.position.phase.type == RETREATS:
        checker.dislodged(order.unit)
    else:
        checker.standing(order.unit)
    return None


def _keep(checker: OrderChecker, order: Keep) -> str | None:
    checker.standing(order.unit)
    return None


def _waive(checker: OrderChecker, order: Waive) -> str | None:
    return None


def _build(checker: OrderChecker, order: Build) -> str | None:
    unit = order.unit
    loc = checker.map.locations.get(unit.location)
    if loc is None:
        return f"no such place {unit.location!r}"
    name = checker.name(unit.province)
    problem = _build_unit_problem(checker.map, unit, name)
    if problem is None:
        problem = site_problem(checker.map, checker.position, order.power, unit.province, checker.rules)
    if problem is None and checker.unit_at(unit.province) is not None:
        problem = f"{name} is occupied"
    return problem


def _build_unit_problem(m: Map, unit: Unit, name: str) -> str | None:
    """Why a unit of this type cannot be built on this location."""
    loc = m.locations[unit.location]
    if unit.type is ARMY:
        if loc.coast is not None:
            return f"an army is built in a province, not on a coast: BUILD A {unit.province}"
        return None if loc.army_ok else f"an army cannot be built at sea ({name})"
    coasts = m.coasts_of(unit.location) if loc.coast is None else ()
    if coasts:
        return f"a fleet built in {name} must name a coast: {either(coasts)}"
    return None if loc.fleet_can_stand else f"a fleet cannot be built inland ({name})"


PHASES: Mapping[type, tuple[str, ...]] = {
    Hold: (MOVEMENT,), Move: (MOVEMENT,), Support: (MOVEMENT,), Convoy: (MOVEMENT,),
    Retreat: (RETREATS,), Disband: (RETREATS, ADJUSTMENTS),
    Build: (ADJUSTMENTS,), Waive: (ADJUSTMENTS,), Keep: (ADJUSTMENTS,), Proxy: (MOVEMENT,),
}
PHASE_WORDS = {MOVEMENT: "a movement", RETREATS: "a retreat", ADJUSTMENTS: "an adjustment"}
CHECKS: Mapping[type, Callable] = {
    Hold: _hold, Move: _move, Support: _support, Convoy: _convoy, Retreat: _retreat,
    Disband: _disband, Build: _build, Waive: _waive, Keep: _keep, Proxy: _proxy,
}
