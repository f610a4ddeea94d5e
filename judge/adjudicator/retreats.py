"""Retreat phases (DATC 6.H): `resolve_retreats(map, position, orders, rules) -> Resolution`.

A dislodged unit ordered to one of its listed retreats goes there, unless another unit retreats to
the same province: then both are destroyed (`bounce, destroyed`). A unit retreating across a `*`
(Cape) crossing loses to any other retreat to the same place and is destroyed alone; the other
retreat goes on as if it had been the only one. A dislodged unit that disbands, has no order, or
has an order that is no retreat is destroyed. Under NO_RETREAT every dislodged unit is destroyed.

Civil disorder: a power that gave no order at all is in civil disorder; its units disband, or
under CD_RETREATS retreat "randomly, preferably into supply centers" (DPjudge): the choice is made by
a generator seeded with the phase and the power, so the same position always gets the same answer.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from judge.adjudicator.model import (
    CIVIL_DISORDER,
    OrderResult,
    Position,
    Resolution,
    Result,
)
from judge.maps.model import CAPE, Map
from judge.orders.model import Disband, Order, Retreat
from judge.rule_names import Rule, Rules
from judge.types import Unit, province_of

Retreats = Mapping[Unit, tuple[str, ...]]


def no_retreats(rules: Rules) -> bool:
    """NO_RETREAT (or NO_QUARTER): a dislodged unit has nowhere to go, it is destroyed."""
    return Rule.NO_RETREAT in rules or Rule.NO_QUARTER in rules


def resolve_retreats(m: Map, position: Position, orders: Mapping[str, Sequence[Order]],
                     rules: Rules = frozenset()) -> Resolution:
    """Adjudicate a retreat phase: orders by power; the position's `dislodged` lists the retreats."""
    no_retreat = no_retreats(rules)
    chosen: dict[tuple[str, Unit], str] = {}  # (power, dislodged unit) -> retreat location
    results: list[OrderResult] = []
    for power, retreats in sorted(position.dislodged.items()):
        given = list(orders.get(power, ()))
        if given or not any(retreats.values()):
            results += _check_orders(power, given, retreats, no_retreat, chosen)
        else:
            cd_orders = civil_disorder_orders(m, position, power, rules)
            results += [OrderResult(r.order, r.results, CIVIL_DISORDER)
                        for r in _check_orders(power, cd_orders, retreats, no_retreat, chosen)]
    for power, stray in sorted(orders.items()):
        if power not in position.dislodged:
            results += _check_orders(power, list(stray), {}, no_retreat, chosen)
    losers = retreat_losers(m, chosen)
    results = [_with_outcome(r, losers) for r in results]
    return Resolution(phase=position.phase, results=tuple(results),
                      units=_units_after(position, chosen, losers), dislodged={},
                      centers=dict(position.centers), homes=position.homes)


def _check_orders(power: str, given: list[Order], retreats: Retreats, no_retreat: bool,
                  chosen: dict[tuple[str, Unit], str]) -> list[OrderResult]:
    """Check one power's orders; record each valid retreat in `chosen`."""
    results = []
    ordered: set[Unit] = set()
    for order in given:
        unit = _dislodged_unit(order, retreats)
        if unit is None:
            results.append(OrderResult(order, (Result.VOID,), "this unit was not dislodged"))
        elif unit in ordered:
            results.append(OrderResult(order, (Result.VOID,), "this unit has already been ordered"))
        else:
            ordered.add(unit)
            results.append(_check_order(power, order, unit, retreats[unit], no_retreat, chosen))
    for unit in sorted(u for u in retreats if retreats[u] and u not in ordered):  # disbanded
        results.append(OrderResult(Disband(power, unit), (Result.DESTROYED,), "no order: disbanded"))
    return results


def _check_order(power: str, order: Order, unit: Unit, places: tuple[str, ...], no_retreat: bool,
                 chosen: dict[tuple[str, Unit], str]) -> OrderResult:
    if isinstance(order, Disband):
        return OrderResult(order)
    if not isinstance(order, Retreat):
        return _void(order, "only a retreat or a disband may be ordered in a retreat phase")
    if no_retreat:
        return OrderResult(order, (Result.VOID, Result.DESTROYED), "NO_RETREAT: dislodged units are destroyed")
    place = match_retreat(unit, order.dest, places)
    if place is None:
        return _void(order, f"{unit} may not retreat to {order.dest}")
    chosen[(power, unit)] = place
    return OrderResult(order)


def _void(order: Order, note: str) -> OrderResult:
    """An order a dislodged unit cannot carry out: it is destroyed as if it had no order."""
    return OrderResult(order, (Result.VOID, Result.DESTROYED), note)


def _dislodged_unit(order: Order, retreats: Retreats) -> Unit | None:
    """The dislodged unit an order is for: same type and province (the coast may be left out)."""
    unit = getattr(order, "unit", None)
    if unit is None:
        return None
    if unit in retreats:
        return unit
    for candidate in retreats:
        if candidate.type is unit.type and candidate.province == unit.province:
            return candidate
    return None


def match_retreat(unit: Unit, dest: str, places: Iterable[str]) -> str | None:
    """The listed retreat `dest` names: exact, a province whose one listed coast is meant, or (for an
    army) a coast written where the province is meant. None when it names none of them."""
    places = tuple(places)
    if dest in places:
        return dest
    province = province_of(dest)
    if province != dest and province in places:
        return province
    coasts = [p for p in places if province_of(p) == dest]
    return coasts[0] if len(coasts) == 1 else None


def retreat_losers(m: Map, chosen: Mapping[tuple[str, Unit], str]) -> set[tuple[str, Unit]]:
    """The retreats that fail: `*` crossings into a province anyone else retreats to, then every
    retreat still sharing its province with another."""
    by_province: dict[str, list[tuple[str, Unit]]] = {}
    for key, place in chosen.items():
        by_province.setdefault(province_of(place), []).append(key)
    losers: set[tuple[str, Unit]] = set()
    for keys in by_province.values():
        if len(keys) < 2:
            continue
        strong = [k for k in keys if not _crosses_cape(m, k[1], chosen[k])]
        losers.update(k for k in keys if k not in strong)
        if len(strong) > 1:
            losers.update(strong)
    return losers


def _crosses_cape(m: Map, unit: Unit, place: str) -> bool:
    abut = m.abut(unit.type, unit.location, place)
    return abut is not None and CAPE in abut.special


def _with_outcome(result: OrderResult, losers: set[tuple[str, Unit]]) -> OrderResult:
    order = result.order
    if isinstance(order, Retreat) and not result.results:
        unit = next((u for p, u in losers if p == order.power and u.province == order.unit.province
                     and u.type is order.unit.type), None)
        if unit is not None:
            return OrderResult(order, (Result.BOUNCE, Result.DESTROYED), result.note)
    return result


def _units_after(position: Position, chosen: Mapping[tuple[str, Unit], str],
                 losers: set[tuple[str, Unit]]) -> dict[str, tuple[Unit, ...]]:
    units = {power: list(us) for power, us in position.units.items()}
    for (power, unit), place in chosen.items():
        if (power, unit) not in losers:
            units.setdefault(power, []).append(Unit(unit.type, place))
    return {power: tuple(us) for power, us in sorted(units.items())}  # retreated units last


# --- civil disorder ---------------------------------------------------------------------------------

def civil_disorder_orders(m: Map, position: Position, power: str, rules: Rules) -> list[Order]:
    """The orders of a power in civil disorder: disband all, or under CD_RETREATS retreat each unit,
    preferring (in this order) a centre it does not own that is its home, one it does not own, an
    owned home, an owned centre, and then any place; never two of its units to one province."""
    retreats = {u: p for u, p in position.dislodged.get(power, {}).items() if p}
    if not {Rule.CD_RETREATS, Rule.SMART_CD} & rules or no_retreats(rules):
        return [Disband(power, unit) for unit in sorted(retreats)]
    rng = random.Random(f"{position.phase.abbrev} {power}")
    homes = _homes(m, position, power)
    owned = position.centers.get(power, frozenset())
    taken: set[str] = set()
    given: list[Order] = []
    for unit in sorted(retreats):
        places = [p for p in retreats[unit] if province_of(p) not in taken]
        options = _preferred(places, m.supply_centers, homes, owned)
        if not options:
            given.append(Disband(power, unit))
            continue
        place = rng.choice(options)
        taken.add(province_of(place))
        given.append(Retreat(power, unit, place))
    return given


def _preferred(places: list[str], centers: frozenset[str], homes: frozenset[str],
               owned: frozenset[str]) -> list[str]:
    for own, home in ((False, True), (False, False), (True, True), (True, False)):
        tier = [p for p in places if province_of(p) in centers
                and (province_of(p) in homes) == home and (province_of(p) in owned) == own]
        if tier:
            return tier
    return places


def _homes(m: Map, position: Position, power: str) -> frozenset[str]:
    if position.homes is not None and power in position.homes:
        return frozenset(position.homes[power])
    info = m.powers.get(power)
    return frozenset(info.homes) if info else frozenset()

