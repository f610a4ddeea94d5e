"""check_order in retreat phases: a retreat goes to one of the unit's listed retreats."""
from __future__ import annotations

from judge.orders import Disband, Retreat, check_order
from tests.support.orders import RETREAT, SPRING, position, unit

DISLODGED = {"AUSTRIA": {"F TRI": "ADR ALB"}, "ITALY": {"A VEN": ""}}


def check(m, order, rules=()):
    return check_order(m, order, position(RETREAT, {}, dislodged=DISLODGED), frozenset(rules))


def test_retreat_to_a_listed_place(standard):
    assert check(standard, Retreat("AUSTRIA", unit("F TRI"), "ALB")) is None


def test_retreat_to_a_place_not_listed(standard):
    reason = check(standard, Retreat("AUSTRIA", unit("F TRI"), "VEN"))
    assert reason == "F TRI cannot retreat to Venice: it may retreat to Adriatic Sea or Albania"


def test_retreat_of_a_unit_with_nowhere_to_go(standard):
    reason = check(standard, Retreat("ITALY", unit("A VEN"), "TUS"))
    assert reason == "A VEN has nowhere to retreat: it can only disband"


def test_retreat_of_a_unit_that_was_not_dislodged(standard):
    assert check(standard, Retreat("AUSTRIA", unit("A VIE"), "BOH")) == "no dislodged unit in Vienna"


def test_retreat_under_no_retreat(standard):
    reason = check(standard, Retreat("AUSTRIA", unit("F TRI"), "ALB"), {"NO_RETREAT"})
    assert reason == "dislodged units may not retreat in this game (NO_RETREAT)"


def test_disband_of_a_dislodged_unit(standard):
    assert check(standard, Disband("ITALY", unit("A VEN"))) is None


def test_disband_of_a_unit_that_was_not_dislodged(standard):
    assert check(standard, Disband("AUSTRIA", unit("A VIE"))) == "no dislodged unit in Vienna"


def test_retreat_is_not_taken_in_a_movement_phase(standard):
    order = Retreat("AUSTRIA", unit("F TRI"), "ALB")
    assert check_order(standard, order, position(SPRING, {}), frozenset()) == "not a retreat phase"


def test_disband_is_not_taken_in_a_movement_phase(standard):
    order = Disband("AUSTRIA", unit("F TRI"))
    assert check_order(standard, order, position(SPRING, {}), frozenset()) == \
        "not a retreat or an adjustment phase"
