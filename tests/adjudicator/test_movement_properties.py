"""Properties every movement resolution has, on random positions of the standard map."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.adjudicator.model import Position
from judge.adjudicator.movement import resolve_movement
from judge.orders.model import Convoy, Hold, Move, Order, Support
from judge.types import Phase, Unit, UnitType, province_of

PHASE = Phase("SPRING", 1901, "MOVEMENT")


def random_position(m, rng: random.Random) -> dict[str, list[Unit]]:
    units: dict[str, list[Unit]] = {p: [] for p in sorted(m.powers)}
    for province in rng.sample(m.provinces, rng.randint(2, 40)):
        choices = [u for u in [Unit(UnitType.ARMY, province)] + [
            Unit(UnitType.FLEET, loc) for loc in (province, *m.coasts_of(province))]
            if m.can_stand(u)]
        if choices:
            units[rng.choice(sorted(units))].append(rng.choice(choices))
    return units


def random_orders(m, rng: random.Random, units: dict[str, list[Unit]]) -> dict[str, list[Order]]:
    """Mostly sensible orders, some of them illegal or matching nothing, a few units left out."""
    everyone = [(p, u) for p, us in units.items() for u in us]
    orders: dict[str, list[Order]] = {p: [] for p in units}
    for power, unit in everyone:
        roll, near = rng.random(), m.moves(unit.type, unit.location)
        other_power, other = rng.choice(everyone)
        if roll < 0.1:
            continue
        if roll < 0.5 and near:
            orders[power].append(Move(power, unit, rng.choice(near)))
        elif roll < 0.7:
            dest = rng.choice(m.moves(other.type, other.location) or [other.location])
            orders[power].append(Support(power, unit, other, province_of(dest)))
        elif roll < 0.8:
            orders[power].append(Support(power, unit, other))
        elif roll < 0.9 and unit.type is UnitType.FLEET and other.type is UnitType.ARMY:
            dest = rng.choice(m.provinces)
            orders[power].append(Convoy(power, unit, other.province, dest))
            orders[other_power].append(Move(other_power, other, dest))
        else:
            orders[power].append(Hold(power, unit))
    return orders


def random_case(m, seed: int) -> tuple[dict[str, list[Unit]], dict[str, list[Order]]]:
    rng = random.Random(seed)
    units = random_position(m, rng)
    return units, random_orders(m, rng, units)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_every_unit_ends_somewhere_once(standard, seed):
    units, orders = random_case(standard, seed)
    position = Position(PHASE, {p: tuple(us) for p, us in units.items()}, {})
    resolution = resolve_movement(standard, position, orders)

    after = [(p, u) for p, us in resolution.units.items() for u in us]
    dislodged = [(p, u) for p, us in resolution.dislodged.items() for u in us]
    assert len(after) + len(dislodged) == sum(len(us) for us in units.values())
    provinces = [u.province for _, u in after]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    for power, unit in dislodged:
        assert unit in units[power]
        for place in resolution.dislodged[power][unit]:
            assert province_of(place) not in provinces and province_of(place) != unit.province

    ordered = {u for os in orders.values() for o in os for u in [o.unit]}
    given_count = sum(len(os) for os in orders.values())
    unordered = sum(1 for us in units.values() for u in us if u not in ordered)
    assert len(resolution.results) == given_count + unordered


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_the_order_in_which_powers_are_given_does_not_matter(standard, seed):
    units, orders = random_case(standard, seed)
    first = resolve_movement(standard, Position(PHASE, {p: tuple(us) for p, us in units.items()}, {}),
                             orders)
    backwards = dict(reversed(list(orders.items())))
    shuffled_units = {p: tuple(reversed(us)) for p, us in reversed(list(units.items()))}
    second = resolve_movement(standard, Position(PHASE, shuffled_units, {}), backwards)
    assert first.units == second.units
    assert first.dislodged == second.dislodged


def test_a_phase_leaves_no_reference_cycles(standard):
    """Every object of a phase is freed as soon as the resolution is returned (the cycle collector
    is not needed: it cost a tenth of each phase when the resolver and the pieces referred to each
    other), whatever the orders: head to head, convoys, supports, illegal ones."""
    import gc
    cases = [random_case(standard, seed) for seed in range(60)]
    gc.collect()
    gc.disable()
    try:
        for units, orders in cases:
            resolve_movement(standard, Position(PHASE, {p: tuple(us) for p, us in units.items()}, {}), orders)
        assert gc.collect() == 0
    finally:
        gc.enable()


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_the_decisions_run_settles_at_once_are_those_the_resolver_would_take(standard, seed):
    """`Adjudication.run` settles a move alone into an empty province and a support nobody attacks
    without asking the resolver: asking it gives the same answers."""
    from judge.adjudicator import convoys, leagues, supports
    from judge.adjudicator.board import DECISIONS, MOVES, SUPPORTS, build_board, index_moves
    from judge.adjudicator.movement import Adjudication

    units, orders = random_case(standard, seed)
    board = build_board(standard, Position(PHASE, {p: tuple(us) for p, us in units.items()}, {}),
                        orders, frozenset())
    for link in (leagues.check, convoys.link, supports.link, index_moves):
        link(board)
    quick, asked = Adjudication(board), Adjudication(board)
    quick.run()
    for piece in board.pieces:
        for kind in (MOVES, SUPPORTS):
            node = DECISIONS * piece.index + kind
            if quick.resolver.resolved(node):
                assert asked.resolver.resolve(node) == quick.resolver.value[node], (piece, kind)
