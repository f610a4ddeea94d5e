"""Convoy orders: which armies go by convoy, their routes, the decision whether a route holds, and
the words of a convoy.

An army goes by convoy when its order writes out a route (DPjudge's `A BUL-AEG-ION-TUN`), says
`VIA CONVOY`, or cannot reach its destination over land. An army that could also go over land goes
by convoy only when it shows the intent: a fleet of its own power is legally ordered to convoy it
(the 2000 and 2023 rulebooks, DATC 4.A.3), and then it goes only by convoy: there is no falling back
on the land route. A convoyed move is illegal when no fleets at all stand on the way (DATC 6.D.32).

A convoy order is void unless the army it names goes by convoy where it says, when the army's order
writes out a route without the fleet or a route that does not hold together, when no route on the
map needs the fleet (DATC 6.F.12, 6.G.19: a route's army embarks at the last space touching its
province and lands from the first touching its destination), and when the fleet is on no chain of
the fleets convoying the army (6.G.6: DPjudge voids a fleet off the route its orders write out).

A convoyed army has a route when its convoying fleets link its province to its destination (the
route written out, when there is one): without one its move is `no convoy`. The path decision holds
while some such route has no dislodged fleet (DATC 4.A.1); when every route is broken the move is
`no convoy` too, and so are the supports of it.
SAFE_CONVOYS also breaks a route at a beleaguered fleet, WEAK_CONVOYS at a fleet a
foreign attack matches (`_broken`).

PORTAGE_CONVOY turns it round: armies carry a fleet over land (`A BUR C F MAR - BEL`), along the
path the fleet's order writes (`F MAR - BUR - BEL`), and the portage fails as a convoy does when an
army of the path is dislodged. Only fleets at sea, in a PORT, or (COASTAL_CONVOY) on a coast can convoy.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from judge.adjudicator.board import (
    ARMY,
    CONVOY,
    FLEET,
    FULL,
    MOVE,
    Board,
    Piece,
    crossing_strength,
    hold_back,
)
from judge.adjudicator.model import Result
from judge.adjudicator.moves import dislodged, hold_strength, prevent_strength
from judge.adjudicator.resolver import Resolver
from judge.orders.model import Convoy
from judge.rule_names import Rule
from judge.types import province_of


def link(board: Board) -> None:
    """Decide which armies go by convoy, find their fleets, and void convoys that help nobody."""
    convoying = board.ordered[CONVOY]
    if not convoying and not board.by_convoy:
        return
    offers: dict[tuple[str, str], list[Piece]] = {}  # (army's province, destination) -> fleets
    for fleet in convoying:
        order = fleet.order
        assert isinstance(order, Convoy)
        if order.carried is FLEET and fleet.unit.type is ARMY or \
                board.carries_convoy(fleet.unit.location) and fleet.unit.type is FLEET:
            offers.setdefault((province_of(order.army), province_of(order.dest)), []).append(fleet)
        else:
            fleet.void = f"{fleet.unit} cannot convoy from {fleet.unit.location}"
    for army in tuple(board.ordered[MOVE]):  # (a copy: `_route_army` may hold an army back)
        if army.unit.type is ARMY or army.by_convoy:  # (a fleet by convoy: PORTAGE_CONVOY)
            offered = offers.get((army.province, army.dest_province))
            if offered or army.by_convoy:
                _route_army(board, army, offered or [])
    if offers:
        for fleet in convoying:
            if fleet.void is None:
                fleet.void = _unmatched(board, fleet)


def _route_army(board: Board, army: Piece, offered: list[Piece]) -> None:
    spaces = board.routes.needed(army.province, army.dest_province) if not army.path else None
    needed = [f for f in offered if spaces is None or f.unit.location in spaces]
    for fleet in offered:
        if fleet not in needed:
            fleet.void = (f"no convoy route from {army.province} to {army.dest_province} "
                          f"needs {fleet.unit.location}")
    if not army.by_convoy and any(f.power == army.power for f in needed):
        army.by_convoy = True  # DATC 4.A.3: its own fleet convoys it, so it goes by convoy
    if not army.by_convoy:
        return
    problem = _no_fleet_on_the_way(board, army)
    if problem is not None:
        hold_back(board, army, problem)
        return
    if army.path:
        army.fleets = _written_route(board, army, needed) or []
    else:
        army.fleets = _chained(board, army, needed)
    _void_off_route(army, needed)
    army.has_route = bool(army.fleets) and (army.unit.type is FLEET  # (a portage: its path checked)
                                            or _reaches(board, army.province, army.dest_province,
                                                        army.fleets, _any))
    army.base = _landing_strength(board, army)


def _chained(board: Board, army: Piece, offered: list[Piece]) -> list[Piece]:
    """The fleets of `offered` on some chain of them from the army's province to its destination,
    in the order given."""
    start, end = army.province, army.dest_province
    return [f for f in offered if _reaches(board, start, f.province, offered, _any, through=f) and (
        end in board.touching(f.unit.location) or _reaches(board, f.province, end, offered, _any))]


def _void_off_route(army: Piece, offered: list[Piece]) -> None:
    """A fleet convoying an army is void when it is on no chain of the fleets convoying it (DPjudge
    writes the route out, and voids a fleet off it: DATC 6.G.6), or when the army's order writes
    out a route the fleet is not on, or one that does not hold together."""
    for fleet in offered:
        if fleet not in army.fleets:
            fleet.void = f"{army.unit} goes by another route, or by none" if army.fleets else \
                f"the route written for {army.unit} does not hold together"


def _any(fleet: Piece) -> bool:
    return True


def _no_fleet_on_the_way(board: Board, army: Piece) -> str | None:
    """DATC 6.D.32: a convoyed move is illegal when no fleets stand where a convoy would go."""
    if army.unit.type is FLEET:  # PORTAGE_CONVOY: armies stand where the path says
        standing = {p.province for p in board.pieces if p.unit.type is ARMY}
        if all(province_of(place) in standing for place in army.path):
            return None
        return f"no army stands on the way to carry {army.unit} to {army.dest_province}"
    fleets = [p for p in board.pieces
              if p.unit.type is FLEET and board.carries_convoy(p.unit.location)]
    if army.path:
        standing = {f.province for f in fleets}
        if all(province_of(place) in standing for place in army.path):
            return None
    elif _reaches(board, army.province, army.dest_province, fleets, _any):
        return None
    return f"no fleet stands on the way to convoy {army.unit} to {army.dest_province}"


def _unmatched(board: Board, fleet: Piece) -> str | None:
    order = fleet.order
    assert isinstance(order, Convoy)
    army = board.at.get(province_of(order.army))
    if army is None or army.unit.type is not order.carried:
        kind = "army" if order.carried is ARMY else "fleet"
        return f"there is no {kind} in {province_of(order.army)} to convoy"
    if army.kind != MOVE or army.dest_province != province_of(order.dest):
        return f"{army.unit} does not move to {province_of(order.dest)}"
    if not army.by_convoy:
        return f"{army.unit} moves over land"
    fleet.army = army
    return None


def _written_route(board: Board, army: Piece, offered: list[Piece]) -> list[Piece] | None:
    """The fleets of the route the order writes out, if each is ordered to convoy the army."""
    fleets = {f.province: f for f in offered}
    route = [fleets.get(province_of(place)) for place in army.path]
    if any(f is None for f in route):
        return None
    stops = [army.province] + [f.province for f in route] + [army.dest_province]  # type: ignore[union-attr]
    if army.unit.type is FLEET:  # PORTAGE_CONVOY: the order's check made sure of the steps
        return route  # type: ignore[return-value]
    for fleet, before, after in zip(route, stops, stops[2:]):
        near = board.touching(fleet.unit.location)  # type: ignore[union-attr]
        if before not in near or after not in near:
            return None
    return route  # type: ignore[return-value]


def _reaches(board: Board, start: str, end: str, fleets: Sequence[Piece],
             usable: Callable[[Piece], bool], through: Piece | None = None) -> bool:
    """Whether usable fleets link province `start` to province `end` (`through`: arriving at the
    fleet given, which stands in `end`)."""
    frontier, seen = [start], set()
    while frontier:
        place = frontier.pop()
        for fleet in fleets:
            near = board.touching(fleet.unit.location)
            if fleet.index in seen or place not in near:
                continue
            seen.add(fleet.index)
            if not usable(fleet):
                continue
            if fleet is through or (through is None and end in near):
                return True
            frontier.append(fleet.province)
    return False


def _landing_strength(board: Board, army: Piece) -> int:
    """A convoyed move's strength: that of its last crossing, fleet to shore (best of the fleets)."""
    if army.path:
        lasts = army.fleets[-1:]
    else:
        lasts = [f for f in army.fleets if army.dest_province in board.touching(f.unit.location)]
    strengths = [crossing_strength(abut) for f in lasts
                 if (abut := board.reach(f, army.dest_province)) is not None]
    return max(strengths, default=FULL)


def has_path(board: Board, r: Resolver, army: Piece) -> bool:
    """The path decision: some route of the army's fleets has no broken fleet (`_broken`)."""
    if not army.has_route:
        return False
    if army.path:
        return not any(_broken(board, r, fleet) for fleet in army.fleets)
    return _reaches(board, army.province, army.dest_province, army.fleets,
                    lambda fleet: not _broken(board, r, fleet))


def _broken(board: Board, r: Resolver, fleet: Piece) -> bool:
    """Whether a convoying fleet fails its army: it is dislodged; under SAFE_CONVOYS, it is a
    beleaguered garrison (two or more attacks, one of them foreign, tie at a strength above its
    own); under WEAK_CONVOYS, a foreign attack is at least as strong as it is."""
    if dislodged(board, r, fleet):
        return True
    weak, safe = Rule.WEAK_CONVOYS in board.rules, Rule.SAFE_CONVOYS in board.rules
    attackers = board.attackers.get(fleet.province) if weak or safe else None
    if not attackers:
        return False
    hold = hold_strength(board, r, fleet.province)
    forces = [(prevent_strength(r, a), a.power != fleet.power) for a in attackers]
    if weak and any(foreign and strength >= hold for strength, foreign in forces):
        return True
    top = max(strength for strength, _ in forces)
    strongest = [foreign for strength, foreign in forces if strength == top]
    return safe and top > hold and len(strongest) > 1 and any(strongest)


def words(r: Resolver, fleet: Piece) -> tuple[Result, ...]:
    """A convoy that matched its army has nothing to say, whatever became of the army's route: the
    army's order says `no convoy`, and a fleet dislodged on the route says `dislodged` (DPjudge)."""
    return ()
