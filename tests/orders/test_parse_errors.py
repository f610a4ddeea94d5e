"""Every reason parse_order gives for text it cannot take."""
from __future__ import annotations

import pytest

from judge.errors import OrderError
from judge.orders import parse_order
from judge.types import Phase
from tests.support.orders import RETREAT, SPRING, WINTER, units

REJECTIONS = [
    (SPRING, "FRANCE", "A XYZ - BUR", "FRANCE=A PAR", "no such place 'XYZ'"),
    (SPRING, "FRANCE", "A PAR - URK", "FRANCE=A PAR", "no such place 'URK'"),
    (SPRING, "FRANCE", "A PAR H", "FRANCE=F BRE", "no unit in Paris"),
    (SPRING, "FRANCE", "A PAR H", "GERMANY=A PAR", "the unit in Paris is not yours"),
    (SPRING, "FRANCE", "F PAR H", "FRANCE=A PAR", "the unit in Paris is an army, not a fleet"),
    (SPRING, "FRANCE", "A PAR", "FRANCE=A PAR", "no order for A PAR"),
    (SPRING, "FRANCE", "H", "FRANCE=A PAR", "an order starts with the unit"),
    (SPRING, "FRANCE", "", "FRANCE=A PAR", "an empty order"),
    (SPRING, "FRANCE", "A PAR -", "FRANCE=A PAR", "a move needs a destination"),
    (SPRING, "FRANCE", "A PAR H BUR", "FRANCE=A PAR", "nothing may follow a hold order"),
    (SPRING, "FRANCE", "A PAR R BUR", "FRANCE=A PAR", "not a retreat phase"),
    (SPRING, "FRANCE", "BUILD A PAR", "FRANCE=A MAR", "an order starts with the unit"),
    (SPRING, "FRANCE", "A PAR DISBAND", "FRANCE=A PAR", "not an adjustment phase"),
    (SPRING, "FRANCE", "A PAR - BUR S", "FRANCE=A PAR", "'S' cannot be part of a move"),
    (SPRING, "FRANCE", "A PAR S", "FRANCE=A PAR", "a support names the unit it supports"),
    (SPRING, "FRANCE", "A PAR VIA BUR", "FRANCE=A PAR", "'VIA' cannot follow A PAR"),
    (SPRING, "ENGLAND", "F NTH C", "ENGLAND=F NTH", "a convoy names the army it convoys"),
    (SPRING, "FRANCE", "A PAR S A MAR - BUR - PIC", "FRANCE=A PAR, A MAR", "a support names one destination"),
    (SPRING, "FRANCE", "A PAR S SPA", "FRANCE=A PAR", "no unit in Spain to support"),
    (SPRING, "ENGLAND", "F NTH C F LON - BEL", "ENGLAND=F NTH, F LON", "only armies can be convoyed"),
    (SPRING, "ENGLAND", "F NTH C A LON", "ENGLAND=F NTH, A LON", "a convoy names the army's destination"),
    (SPRING, "FRANCE", "F MAO - SPA", "FRANCE=F MAO", "a fleet moving to Spain must name a coast"),
    (SPRING, "FRANCE", "F MAO - SPA/EC", "FRANCE=F MAO", "Spain has no east coast"),
    (RETREAT, "FRANCE", "A PAR - BUR", "FRANCE=A MAR", "no dislodged unit in Paris"),
    (RETREAT, "FRANCE", "A PAR S A MAR", "FRANCE=A PAR", "not a movement phase"),
    (RETREAT, "FRANCE", "A PAR H", "FRANCE=A PAR", "not a movement phase"),
    (RETREAT, "FRANCE", "A PAR", "FRANCE=A PAR", "no order for A PAR"),
    (RETREAT, "FRANCE", "A PAR - BUR - PIC", "FRANCE=A PAR", "a retreat goes to one place"),
    (RETREAT, "FRANCE", "A PAR - BUR DISBAND", "FRANCE=A PAR", "a disbanded unit goes nowhere"),
    (RETREAT, "FRANCE", "BUILD A PAR", "FRANCE=A PAR", "not an adjustment phase"),
    (RETREAT, "FRANCE", "DISBAND", "FRANCE=A PAR", "name the dislodged unit"),
    (WINTER, "FRANCE", "A PAR - BUR", "FRANCE=A PAR", "not a movement phase"),
    (WINTER, "FRANCE", "BUILD LON", "", "say which unit to build in London"),
    (WINTER, "FRANCE", "BUILD A PAR A MAR", "", "must come right before the unit's place"),
    (WINTER, "FRANCE", "BUILD A PAR MAR", "", "an adjustment order names one unit"),
    (WINTER, "FRANCE", "BUILD REMOVE A PAR", "FRANCE=A PAR", "one of BUILD, REMOVE, WAIVE or KEEP"),
    (WINTER, "FRANCE", "A PAR", "FRANCE=A PAR", "one of BUILD, REMOVE, WAIVE or KEEP"),
    (WINTER, "FRANCE", "WAIVE A PAR", "", "WAIVE stands alone"),
    (WINTER, "FRANCE", "REMOVE A MUN", "GERMANY=A MUN", "the unit in Munich is not yours"),
    (Phase("SUMMER", 1901, "PLAYOFF"), "FRANCE", "A PAR H", "FRANCE=A PAR", "no orders are taken in a PLAYOFF"),
]


@pytest.mark.parametrize("phase, power, text, given, reason", [
    pytest.param(*row, id=f"{row[0].type.lower()}: {row[2] or 'empty'} -> {row[-1]}") for row in REJECTIONS])
def test_rejection(standard, phase, power, text, given, reason):
    on_board = units(**dict([given.split("=")])) if given else {}
    with pytest.raises(OrderError) as caught:
        parse_order(standard, power, text, phase, on_board)
    assert reason in str(caught.value)


def test_no_such_power(standard):
    with pytest.raises(OrderError, match="no such power 'NARNIA'"):
        parse_order(standard, "NARNIA", "A PAR H", SPRING, units(FRANCE="A PAR"))


def test_power_name_in_any_case(standard):
    assert str(parse_order(standard, "france", "A PAR H", SPRING, units(FRANCE="A PAR"))) == "A PAR H"


@pytest.mark.parametrize("rule", ["ORDER_ANY", "PROXY_OK"])
def test_foreign_unit_may_be_ordered_under(standard, rule):
    order = parse_order(standard, "FRANCE", "A MUN H", SPRING, units(GERMANY="A MUN"), rules=frozenset({rule}))
    assert str(order) == "A MUN H" and order.power == "FRANCE"
