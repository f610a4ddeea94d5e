"""Properties every movement resolution has, on random positions of the standard map; and the
adjudicator's fast paths give the answers of the rules they stand in for, on several maps."""
from __future__ import annotations

import functools
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from judge.adjudicator import moves
from judge.adjudicator.board import MOVE, SUPPORT, Board, Piece
from judge.adjudicator.model import Position
from judge.adjudicator.movement import Adjudication, linked_board, resolve_movement
from judge.maps.loader import load_map
from judge.maps.model import Terrain
from judge.orders.model import Convoy, Hold, Move, Order, Support
from judge.orders.validate import OrderChecker
from judge.types import Phase, Unit, UnitType, province_of

PHASE = Phase("SPRING", 1901, "MOVEMENT")


def random_position(m, rng: random.Random) -> dict[str, list[Unit]]:
    units: dict[str, list[Unit]] = {p: [] for p in sorted(m.powers)}
    for province in rng.sample(m.provinces, rng.randint(2, min(40, len(m.provinces)))):
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


def helping_orders(m, rng: random.Random, units: dict[str, list[Unit]]) -> dict[str, list[Order]]:
    """Orders that meet each other, as players' do: fleets at sea convoying an army on their shores
    to another shore, moves to neighbours (now and then a unit given a second order), supports of
    a neighbour's hold or of a move into a province the supporter could move to."""
    everyone = [(p, u) for p, us in units.items() for u in us]
    orders: dict[str, list[Order]] = {p: [] for p in units}
    goes: dict[Unit, str] = {}

    def shores(unit: Unit) -> set[str]:
        return {province_of(d) for d in m.moves(unit.type, unit.location)}

    for power, fleet in everyone:
        armies = [(q, a) for q, a in everyone if a.type is UnitType.ARMY and a not in goes
                  and a.province in shores(fleet)]
        if fleet.type is UnitType.FLEET and m.locations[fleet.location].terrain is Terrain.WATER and armies:
            owner, army = rng.choice(armies)
            goes[army] = rng.choice(sorted(shores(fleet) - {army.province}) or [army.province])
            goes[fleet] = fleet.location
            orders[power].append(Convoy(power, fleet, army.province, goes[army]))
            orders[owner].append(Move(owner, army, goes[army]))
    for power, unit in everyone:
        near = m.moves(unit.type, unit.location)
        if unit not in goes and near and rng.random() < 0.5:
            goes[unit] = rng.choice(near)
            orders[power].append(Move(power, unit, goes[unit]))
    for power, unit in everyone:
        if unit in goes and rng.random() > 0.05:
            continue
        helped = [v for _, v in everyone if v != unit and province_of(goes.get(v, v.location)) in shores(unit)]
        if helped and rng.random() < 0.8:
            other = rng.choice(helped)
            dest = goes.get(other)
            orders[power].append(Support(power, unit, other, province_of(dest) if dest else None))
        else:
            orders[power].append(Hold(power, unit))
    return orders


def helping_case(m, seed: int) -> tuple[dict[str, list[Unit]], dict[str, list[Order]]]:
    rng = random.Random(seed)
    units = random_position(m, rng)
    return units, helping_orders(m, rng, units)


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
    # The order units are listed in follows the input (the status file's); what stands does not.
    assert {p: sorted(us) for p, us in first.units.items()} == \
        {p: sorted(us) for p, us in second.units.items()}
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


# The fast paths, on random phases of maps with every feature (straits, capes, restricted crossings,
# ports, coasts): each gives the answers of the rule function it stands in for.
MAPS = ("standard", "testing", "modern", "ancmed", "chaos", "1900")
game_map = functools.cache(load_map)  # (a map loaded once for all the examples)


@pytest.mark.parametrize("map_name", MAPS)
@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_the_decisions_run_settles_at_once_are_those_the_resolver_would_take(map_name, seed):
    """`Adjudication.run` settles a move alone into an empty province and a support nobody attacks
    without asking the resolver (`moves.succeeds`, `supports.given`): asking it gives the same
    answers, for every decision run settled."""
    m = game_map(map_name)
    for units, orders in (random_case(m, seed), helping_case(m, seed)):
        board = linked_board(m, Position(PHASE, {p: tuple(us) for p, us in units.items()}, {}),
                             orders, m.rules)
        quick, asked = Adjudication(board), Adjudication(board)
        quick.run()
        for piece in board.ordered[MOVE] + [p for p in board.ordered[SUPPORT] if p.void is None]:
            assert quick.resolver.resolved(piece.decision)
            assert asked.resolver.resolve(piece.decision) == quick.resolver.value[piece.decision], piece


def _units(m):
    found = [Unit(UnitType.ARMY, p) for p in m.locations if m.locations[p].army_ok]
    return found + [Unit(UnitType.FLEET, loc) for loc in m.locations
                    if m.can_stand(Unit(UnitType.FLEET, loc))]


@pytest.mark.parametrize("map_name", MAPS)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_move_the_checker_found_plain_is_placed_as_the_general_rule_places_it(map_name, data):
    """`moves.place` takes the crossing the order checker found for the common move (straight to
    the place written); without it, it works the crossing out: the move goes to the same place,
    with the same strength."""
    m = game_map(map_name)
    unit = data.draw(st.sampled_from(_units(m)))
    assume(m.moves(unit.type, unit.location))
    dest = data.draw(st.sampled_from(m.moves(unit.type, unit.location)))
    power = data.draw(st.sampled_from(sorted(m.powers)))
    order = Move(power, unit, dest)
    position = Position(PHASE, {power: (unit,)}, {})
    crossing = OrderChecker(m, position, m.rules).plain_crossing(order)
    assume(crossing is not None)
    board = Board(m, position, m.rules)
    plain, general = Piece(0, power, unit), Piece(0, power, unit)
    assert moves.place(board, plain, order, crossing) is None
    assert moves.place(board, general, order, None) is None
    assert _placed(plain) == _placed(general), order


def _placed(piece: Piece) -> tuple:
    return piece.dest, piece.dest_province, piece.base, piece.by_convoy, piece.path
