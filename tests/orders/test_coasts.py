"""Coasts: named in many ways, filled in where only one can be reached, kept out of supports."""
from __future__ import annotations

import pytest

from judge.errors import OrderError
from judge.orders import Build, Move, Retreat, Support, parse_order
from tests.support.orders import RETREAT, SPRING, WINTER, unit, units

MAO = units(FRANCE="F MAO")


@pytest.mark.parametrize("written", ["SPA/NC", "spa/nc", "SPA(NC)", "SPA (NC)", "spa nc", "SPA NORTH COAST",
                                     "Spain (north coast)", "SPAIN/N", "spa (north)", "spa+(north+coast)"],
                         ids=["slash", "lower", "brackets", "brackets-spaced", "bare-code", "words",
                              "full-name", "slash-letter", "brackets-word", "plus-alias"])
def test_coast_written_many_ways(standard, written):
    order = parse_order(standard, "FRANCE", f"F MAO - {written}", SPRING, MAO)
    assert order == Move("FRANCE", unit("F MAO"), "SPA/NC")


def test_coast_after_a_full_place_name(standard):
    order = parse_order(standard, "TURKEY", "F CON - Bulgaria(east)", SPRING, units(TURKEY="F CON"))
    assert order.dest == "BUL/EC"


def test_only_reachable_coast_is_filled_in(standard):
    order = parse_order(standard, "FRANCE", "F GAS - SPA", SPRING, units(FRANCE="F GAS"))
    assert order == Move("FRANCE", unit("F GAS"), "SPA/NC")


def test_two_reachable_coasts_must_be_named(standard):
    with pytest.raises(OrderError, match=r"a fleet moving to Spain must name a coast: SPA/NC or SPA/SC"):
        parse_order(standard, "FRANCE", "F MAO - SPA", SPRING, MAO)


def test_constantinople_to_bulgaria_must_name_the_coast(standard):
    with pytest.raises(OrderError, match="must name a coast"):
        parse_order(standard, "TURKEY", "F CON - BUL", SPRING, units(TURKEY="F CON"))


def test_ordered_fleet_is_found_without_its_coast(standard, start):
    assert parse_order(standard, "RUSSIA", "F STP - BOT", SPRING, start).unit == unit("F STP/SC")


def test_wrong_coast_of_the_ordered_fleet_is_ignored(standard):
    """DATC 6.B.10: the unit on the board is the one ordered."""
    order = parse_order(standard, "FRANCE", "F SPA/NC - LYO", SPRING, units(FRANCE="F SPA/SC"))
    assert order == Move("FRANCE", unit("F SPA/SC"), "LYO")


def test_army_move_to_a_coast_goes_to_the_province(standard):
    """DATC 6.B.12."""
    order = parse_order(standard, "FRANCE", "A GAS - SPA/NC", SPRING, units(FRANCE="A GAS"))
    assert order == Move("FRANCE", unit("A GAS"), "SPA")


def test_support_of_a_fleet_to_a_coast_keeps_the_province(standard):
    order = parse_order(standard, "FRANCE", "F POR S F MAO - SPA", SPRING, units(FRANCE="F POR, F MAO"))
    assert order == Support("FRANCE", unit("F POR"), unit("F MAO"), "SPA")


def test_support_naming_a_coast_is_read_as_written(standard):
    """parse_orders refuses it (spec); the adjudicator may still be handed one (DATC 6.B.4)."""
    order = parse_order(standard, "FRANCE", "F MAR S F GAS - SPA/NC", SPRING, units(FRANCE="F MAR, F GAS"))
    assert order.dest == "SPA/NC"


def test_supported_fleet_keeps_the_place_as_written(standard):
    order = parse_order(standard, "FRANCE", "F MAO S F SPA", SPRING, units(FRANCE="F MAO", ITALY="F SPA/SC"))
    assert order.target == unit("F SPA")


def test_no_such_coast(standard):
    with pytest.raises(OrderError, match="Spain has no east coast"):
        parse_order(standard, "FRANCE", "F MAO - SPA/EC", SPRING, MAO)


def test_retreat_to_the_only_reachable_coast(standard):
    order = parse_order(standard, "FRANCE", "F GAS - SPA", RETREAT, units(FRANCE="F GAS"))
    assert order == Retreat("FRANCE", unit("F GAS"), "SPA/NC")


def test_fleet_build_on_a_coast(standard):
    order = parse_order(standard, "RUSSIA", "BUILD F STP/NC", WINTER, units(RUSSIA="A MOS"))
    assert order == Build("RUSSIA", unit("F STP/NC"))


def test_army_build_drops_a_coast(standard):
    order = parse_order(standard, "RUSSIA", "BUILD A STP/NC", WINTER, units(RUSSIA="A MOS"))
    assert order == Build("RUSSIA", unit("A STP"))
