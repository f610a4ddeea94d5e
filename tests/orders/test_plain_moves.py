"""The checker's shortcuts for the common orders (`OrderChecker.plain_crossing`, `plain_support`, and
holds in `check`) never let by an order the full check refuses: over every unit place,
destination, power, convoy flag and supported unit of real maps."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.adjudicator.model import Position
from judge.maps.loader import load_map
from judge.orders.model import Hold, Move, Support
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


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_support_and_hold_shortcuts_agree_with_the_full_check(game_map, data):
    m = game_map
    units = _units(m)
    supporter, target = data.draw(st.sampled_from(units)), data.draw(st.sampled_from(units))
    power = data.draw(st.sampled_from(sorted(m.powers)))
    near = [d for d in m.moves(target.type, target.location)]
    dest = data.draw(st.none() | st.sampled_from(near or sorted(m.locations)) | st.sampled_from(sorted(m.locations)))
    owned = data.draw(st.frozensets(st.sampled_from(sorted(m.supply_centers))))
    on_board = {power: (supporter,), "_OTHER": (target,)}
    if data.draw(st.booleans()):  # the supported unit written on another coast, or missing
        on_board = {power: (supporter,)}
    checker = OrderChecker(m, Position(SPRING, on_board, {power: owned}), m.rules)
    support = Support(power, supporter, target, dest)
    if checker.plain_support(support):
        assert CHECKS[Support](checker, support) is None, support
    hold = Hold(power, supporter)
    assert checker.check(hold) == CHECKS[Hold](checker, hold)


def test_the_support_shortcut_takes_the_common_supports():
    m = load_map("standard")
    a, f = Unit(UnitType.ARMY, "BUR"), Unit(UnitType.FLEET, "ENG")
    checker = OrderChecker(m, Position(SPRING, {"FRANCE": (Unit(UnitType.ARMY, "PAR"), a, f)}, {}), m.rules)
    assert checker.plain_support(Support("FRANCE", Unit(UnitType.ARMY, "PAR"), a))
    assert checker.plain_support(Support("FRANCE", Unit(UnitType.ARMY, "PAR"), a, "PIC"))
    assert not checker.plain_support(Support("FRANCE", Unit(UnitType.ARMY, "PAR"), a, "MUN"))  # PAR: no


def test_no_shortcut_across_a_strait_or_a_restricted_crossing(tiny):
    f_sts, f_nwa = Unit(UnitType.FLEET, "STS"), Unit(UnitType.FLEET, "NWA")
    a_gam, f_bet = Unit(UnitType.ARMY, "GAM"), Unit(UnitType.FLEET, "BET")
    on_board = {"XLAND": (f_sts, f_nwa), "YLAND": (a_gam, f_bet)}
    checker = OrderChecker(tiny, Position(SPRING, on_board, {}), tiny.rules)
    across_strait = Support("XLAND", f_sts, a_gam)  # STS borders GAM only across `~`
    assert not checker.plain_support(across_strait) and checker.check(across_strait) is not None
    restricted = Support("XLAND", f_nwa, a_gam)  # NWA-GAM only for a power owning HOM
    assert not checker.plain_support(restricted) and checker.check(restricted) is not None
    assert checker.plain_crossing(Move("XLAND", f_nwa, "GAM")) is None
    assert checker.check(Move("XLAND", f_nwa, "GAM")) is not None
