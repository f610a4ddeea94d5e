"""Whether an order is legal on the board: `check_order`, which the adjudicator calls and the order
sheet uses to refuse illegal orders (all but the unreadable ones are kept under NO_CHECK).

Legal means legal whatever the other orders are (DATC 4.E.1). Who owns the ordered unit is not checked
here: an order for another power's unit is void, and saying so is the adjudicator's business. The coast
written for an ordered unit is ignored: the unit on the board is the one that moves (DATC 4.B.5).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping

from judge.maps.model import Abut, Map, Terrain
from judge.orders.builds import site_problem
from judge.orders.model import Build, Convoy, Disband, Hold, Keep, Move, Order, Retreat, Support, Waive
from judge.orders.names import either, place_name, unit_name
from judge.orders.reach import can_convoy, convoy_route, crossings, path_problem
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Unit, UnitType, province_of

if TYPE_CHECKING:
    from judge.adjudicator.model import Position


def check_order(m: Map, order: Order, position: Position, rules: frozenset[str]) -> str | None:
    """None if the order is legal in the position under the rules, else why it is not."""
    phases = PHASES[type(order)]
    if position.phase.type not in phases:
        return f"not {' or '.join(PHASE_WORDS[p] for p in phases)} phase"
    if order.power not in m.powers:
        return f"no such power {order.power!r}"
    try:
        return CHECKS[type(order)](_Board(m, position, rules, order.power), order)
    except _Illegal as illegal:
        return str(illegal)


class _Illegal(Exception):
    """Raised by a lookup that finds the order impossible; check_order returns its message."""


@dataclass(frozen=True)
class _Board:
    map: Map
    position: Position
    rules: frozenset[str]
    power: str

    def name(self, abbrev: str) -> str:
        return place_name(self.map, abbrev)

    def unit_at(self, province: str) -> Unit | None:
        return next((u for us in self.position.units.values() for u in us if u.province == province), None)

    def standing(self, unit: Unit, purpose: str = "") -> Unit:
        """The unit on the board that an order names: same province and type, any coast."""
        found = self.unit_at(unit.province)
        if found is None:
            raise _Illegal(f"no unit in {self.name(unit.province)}{purpose}")
        if found.type is not unit.type:
            raise _Illegal(f"the unit in {self.name(unit.province)} is {unit_name(found.type)}, "
                           f"not {unit_name(unit.type)}")
        return found

    def mobile(self, unit: Unit) -> Unit:
        """The ordered unit of a move, support or convoy, which must be free to act."""
        found = self.standing(unit)
        if not self.map.can_stand(found):
            raise _Illegal(f"the unit in {self.name(found.province)} may only hold")
        return found

    def other(self, unit: Unit, verb: str) -> Unit:
        """A unit supported or convoyed: on the board, or as written under FICTIONAL_OK."""
        if "FICTIONAL_OK" in self.rules and self.unit_at(unit.province) is None:
            return unit
        return self.standing(unit, f" to {verb}")

    def dislodged(self, unit: Unit) -> tuple[Unit, tuple[str, ...]]:
        for retreats in self.position.dislodged.values():
            for found, where in retreats.items():
                if found.province == unit.province and found.type is unit.type:
                    return found, tuple(where)
        raise _Illegal(f"no dislodged unit in {self.name(unit.province)}")

    def allowed(self, abut: Abut) -> bool:
        return abut.allows(self.map.powers[self.power].abbrev, frozenset(self.position.centers.get(self.power, ())))

    def restriction(self, abut: Abut, src: str, dest: str) -> str:
        """Why this power may not cross the adjacency (it is power- or centre-restricted)."""
        crossing = f"from {self.name(src)} to {self.name(dest)}"
        if abut.powers is not None and self.map.powers[self.power].abbrev not in abut.powers:
            allowed = [p.display for a in sorted(abut.powers) if (p := self.map.power_by_abbrev(a))]
            return f"only {either(allowed)} may cross {crossing}" if allowed else f"nobody may cross {crossing}"
        missing = sorted(abut.centers - set(self.position.centers.get(self.power, ())))
        return f"to cross {crossing} you must own {' and '.join(self.name(c) for c in missing)}"

    def place(self, abbrev: str) -> str:
        """A destination that must be on the map; its province."""
        if abbrev not in self.map.locations:
            raise _Illegal(f"no such place {abbrev!r}")
        province = province_of(abbrev)
        if self.map.locations[province].terrain is Terrain.SHUT:
            raise _Illegal(f"{self.name(province)} is impassable")
        return province

    def can_reach(self, unit: Unit, province: str) -> bool:
        """Whether the unit could get into the province at all: straight, or an army by convoy."""
        return bool(crossings(self.map, unit, province)) or (
            unit.type is UnitType.ARMY and convoy_route(self.map, unit.province, province, self.rules))


NOT_WHERE_IT_IS = "a unit cannot move to the province it is in"


def _hold(board: _Board, order: Hold) -> str | None:
    board.standing(order.unit)
    return None


def _move(board: _Board, order: Move) -> str | None:
    unit = board.mobile(order.unit)
    if province_of(order.dest) == unit.province:
        return NOT_WHERE_IT_IS
    board.place(order.dest)
    if unit.type is UnitType.ARMY:
        return _army_move(board, unit, order)
    return _fleet_move(board, unit, order)


def _army_move(board: _Board, unit: Unit, order: Move) -> str | None:
    dest = province_of(order.dest)
    name = board.name(dest)
    if not board.map.locations[dest].army_ok:
        return f"an army cannot go to sea ({name})"
    if order.path:
        problem = path_problem(board.map, unit.province, order.path, dest, board.rules)
        return f"no convoy from {board.name(unit.province)} to {name} that way: {problem}" if problem else None
    abut = board.map.abut(UnitType.ARMY, unit.location, dest)
    if abut is not None and not order.via_convoy and board.allowed(abut):
        return None
    if convoy_route(board.map, unit.province, dest, board.rules):
        return None
    if order.via_convoy:
        return f"no convoy route could take {unit} to {name}"
    if abut is not None:
        return board.restriction(abut, unit.location, dest)
    return f"{unit} cannot reach {name}"


def _fleet_move(board: _Board, unit: Unit, order: Move) -> str | None:
    if order.path or order.via_convoy:
        return "a fleet cannot be convoyed"
    dest = order.dest
    coasts = board.map.coasts_of(dest) if "/" not in dest else ()
    if coasts:
        return f"a fleet moving to {board.name(dest)} must name a coast: {either(coasts)}"
    if not board.map.locations[dest].fleet_can_stand:
        return f"a fleet cannot go inland ({board.name(dest)})"
    abut = board.map.abut(UnitType.FLEET, unit.location, dest)
    if abut is None:
        return f"{unit} cannot reach {board.name(dest)}"
    return None if board.allowed(abut) else board.restriction(abut, unit.location, dest)


def _support(board: _Board, order: Support) -> str | None:
    unit = board.mobile(order.unit)
    if order.target.province == unit.province:
        return "a unit cannot support itself"
    target = board.other(order.target, "support")
    dest = board.place(order.dest) if order.dest else target.province
    if order.dest and dest == target.province:
        return NOT_WHERE_IT_IS
    problem = _support_reach(board, unit, dest)
    if problem is None and order.dest and not board.can_reach(target, dest):
        return f"{target} cannot reach {board.name(dest)}"
    return problem


def _support_reach(board: _Board, unit: Unit, province: str) -> str | None:
    """Why the unit cannot support into the province: it could not move there itself (coasts aside),
    may not cross, or would support across a strait or cape."""
    options = crossings(board.map, unit, province)
    if not options:
        return f"{unit} cannot reach {board.name(province)}, so cannot support there"
    allowed = [a for a in options if board.allowed(a)]
    if not allowed:
        return board.restriction(options[0], unit.location, province)
    if all(a.special for a in allowed):
        return f"support may not cross from {board.name(unit.location)} to {board.name(province)}"
    return None


def _convoy(board: _Board, order: Convoy) -> str | None:
    unit = board.mobile(order.unit)
    if unit.type is not UnitType.FLEET:
        return "only fleets convoy"
    if not can_convoy(board.map, unit.location, board.rules):
        return f"{unit} cannot convoy: it is not at sea"
    found = board.unit_at(order.army)
    if found is not None and found.type is UnitType.FLEET:
        return "a fleet cannot be convoyed"
    board.other(Unit(UnitType.ARMY, order.army), "convoy")
    if order.army == order.dest:
        return NOT_WHERE_IT_IS
    dest = board.place(order.dest)
    if not convoy_route(board.map, order.army, dest, board.rules, through=unit.location):
        return (f"no convoy route from {board.name(order.army)} to {board.name(dest)} "
                f"passes {board.name(unit.location)}")
    return None


def _retreat(board: _Board, order: Retreat) -> str | None:
    unit, retreats = board.dislodged(order.unit)
    if "NO_RETREAT" in board.rules:
        return "dislodged units may not retreat in this game (NO_RETREAT)"
    dest = order.dest if unit.type is UnitType.FLEET else province_of(order.dest)
    if dest in retreats:
        return None
    if not retreats:
        return f"{unit} has nowhere to retreat: it can only disband"
    places = either(board.name(r) for r in retreats)
    return f"{unit} cannot retreat to {board.name(dest)}: it may retreat to {places}"


def _disband(board: _Board, order: Disband) -> str | None:
    if board.position.phase.type == RETREATS:
        board.dislodged(order.unit)
    else:
        board.standing(order.unit)
    return None


def _keep(board: _Board, order: Keep) -> str | None:
    board.standing(order.unit)
    return None


def _waive(board: _Board, order: Waive) -> str | None:
    return None


def _build(board: _Board, order: Build) -> str | None:
    unit = order.unit
    loc = board.map.locations.get(unit.location)
    if loc is None:
        return f"no such place {unit.location!r}"
    name = board.name(unit.province)
    problem = _build_unit_problem(board.map, unit, name)
    if problem is None:
        problem = site_problem(board.map, board.position, board.power, unit.province, board.rules)
    if problem is None and board.unit_at(unit.province) is not None:
        problem = f"{name} is occupied"
    return problem


def _build_unit_problem(m: Map, unit: Unit, name: str) -> str | None:
    """Why a unit of this type cannot be built on this location."""
    loc = m.locations[unit.location]
    if unit.type is UnitType.ARMY:
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
    Build: (ADJUSTMENTS,), Waive: (ADJUSTMENTS,), Keep: (ADJUSTMENTS,),
}
PHASE_WORDS = {MOVEMENT: "a movement", RETREATS: "a retreat", ADJUSTMENTS: "an adjustment"}
CHECKS: Mapping[type, Callable] = {
    Hold: _hold, Move: _move, Support: _support, Convoy: _convoy, Retreat: _retreat,
    Disband: _disband, Build: _build, Waive: _waive, Keep: _keep,
}
