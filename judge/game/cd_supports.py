"""CD_SUPPORTS: the orders the judge gives the units of a power in civil disorder in a movement phase
(DPjudge's StandardGame.defaultOrders), instead of holding them all.

A power is in civil disorder here when it gave no movement order at all and either CIVIL_DISORDER is
on (and it is not a vacancy: RESIGNED) or it is a DUMMY under CD_DUMMIES. Its units are taken in
order of how many foreign units could support into their province (fewest first, then by name);
each may support in place one of the power's units it could support, that is threatened by two or
more foreign units and not yet supported enough (one support fewer than its threats). Among the
candidates the first by these, in order: a supply centre still short of support; the supports it
still needs; its threats. A tie goes to a generator seeded with the phase and the power (DPjudge
draws at random): the same position always gets the same orders. The other units hold.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from judge.adjudicator.model import Position
from judge.maps.model import Map
from judge.orders.model import Hold, Order, Support
from judge.orders.reach import map_reach
from judge.rule_names import Rule, Rules
from judge.status.model import GameStatus
from judge.types import Unit


def in_civil_disorder(status: GameStatus, power: str, orders: Sequence[Order] | None,
                      rules: Rules) -> bool:
    """Whether CD_SUPPORTS orders the power's units: see the module's doc."""
    block = status.power(power)
    if orders or block is None or block.player is None:
        return False
    if block.player.dummy:
        return Rule.CD_DUMMIES in rules or Rule.CIVIL_DISORDER in rules
    return Rule.CIVIL_DISORDER in rules and not block.player.resigned


def cd_supports(m: Map, position: Position, power: str) -> tuple[Order, ...]:
    """The power's orders: a support in place or a hold for each of its units."""
    reach = map_reach(m)
    mine = position.units.get(power, ())
    foreign = [u for p, us in position.units.items() if p != power for u in us]
    threats = {u: sum(1 for f in foreign if reach.crossings(f, u.province)) for u in mine}
    supported: dict[Unit, Unit] = {}  # supporter -> the unit it supports
    rng = random.Random(f"{position.phase.abbrev} {power}")
    for unit in sorted(mine, key=lambda u: (threats[u], str(u))):
        choice = _choose(m, reach, unit, mine, threats, supported, rng)
        if choice is not None:
            supported[unit] = choice
    return tuple(Support(power, u, supported[u], None) if u in supported else Hold(power, u)
                 for u in mine)


def _choose(m: Map, reach, unit: Unit, mine: Sequence[Unit], threats: Mapping[Unit, int],
            supported: Mapping[Unit, Unit], rng: random.Random) -> Unit | None:
    candidates = []
    for other in mine:
        needs = threats[other] - 1
        if other is unit or needs <= 0 or not reach.crossings(unit, other.province):
            continue
        has = sum(1 for target in supported.values() if target == other)
        short = int(other.province in m.supply_centers) - int(has >= needs)
        candidates.append(((short, needs - has, needs), other))
    if not candidates:
        return None
    best = max(key for key, _ in candidates)
    return rng.choice(sorted((o for key, o in candidates if key == best), key=str))
