"""The checker's shortcut for the common move (`OrderChecker.plain_crossing`) never lets by an order
the full check refuses: over every unit place, destination, power and convoy flag of real maps."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.adjudicator.model import Position
from judge.maps.loader import load_map
from judge.orders.model import Move
from judge.orders.validate import CHECKS, OrderChecker
from judge.types import MOVEMENT, Phase, Unit, UnitType

SPRING = Phase("SPRING", 1901, MOVEMENT)
MAPS = ("standard", "testing", "modern", "ancmed", "chaos")


@pytest.fixture(scope="module", params=MAPS)
def game_map(request):
    return load_map(request.param)


def _units(m):
    found = [Unit(UnitType.ARMY, p) for p in m.locations if m.locations[p].army_ok]
    return found + [Unit(UnitType.FLEET, loc) for loc in m.locations if m.can_stand(Unit(UnitType.FLEET, loc))]


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_shortcut_agrees_with_the_full_check(game_map, data):
    m = game_map
    unit = data.draw(st.sampled_from(_units(m)))
    neighbours = list(m.moves(unit.type, unit.location))
    places = sorted(m.locations)
    dest = data.draw(st.sampled_from(neighbours) if neighbours and data.draw(st.booleans())
                     else st.sampled_from(places))
    power = data.draw(st.sampled_from(sorted(m.powers)))
    owned = data.draw(st.frozensets(st.sampled_from(sorted(m.supply_centers))))
    order = Move(power, unit, dest, via_convoy=data.draw(st.booleans()))
    checker = OrderChecker(m, Position(SPRING, {power: (unit,)}, {power: owned}), m.rules)
    abut = checker.plain_crossing(order)
    if abut is not None:
        assert CHECKS[Move](checker, order) is None, order
        assert abut == m.abut(unit.type, unit.location, dest) and not abut.restricted


def test_the_shortcut_takes_the_common_moves():
    m = load_map("standard")
    checker = OrderChecker(m, Position(SPRING, {"FRANCE": (Unit(UnitType.ARMY, "PAR"),
                                                          Unit(UnitType.FLEET, "BRE"))}, {}), m.rules)
    assert checker.plain_crossing(Move("FRANCE", Unit(UnitType.ARMY, "PAR"), "BUR")) is not None
    assert checker.plain_crossing(Move("FRANCE", Unit(UnitType.FLEET, "BRE"), "MAO")) is not None
    assert checker.plain_crossing(Move("FRANCE", Unit(UnitType.ARMY, "PAR"), "BUR", via_convoy=True)) is None
