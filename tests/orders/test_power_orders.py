"""parse_orders: a power's lines read together (errors all at once, a second order for a unit
refused in DPjudge's words, CLEAR/NMR) and NO_CHECK (only what cannot be understood is refused at
entry)."""
from __future__ import annotations

from judge.orders import Build, Hold, Move, Waive, parse_orders
from tests.support.orders import RETREAT, SPRING, WINTER, position, unit, units

FRANCE = units(FRANCE="A PAR, A MAR, F BRE")
NO_CHECK = frozenset({"NO_CHECK"})


def sheet(m, lines, rules=frozenset(), phase=SPRING, on_board=FRANCE, centers=None, power="FRANCE"):
    return parse_orders(m, power, lines, phase, on_board, position(phase, on_board, centers), rules)


def test_good_orders_in_the_order_given(standard):
    orders, errors = sheet(standard, ["A PAR - BUR", "A MAR H", "F BRE - MAO"])
    assert [str(o) for o in orders] == ["A PAR - BUR", "A MAR H", "F BRE - MAO"] and errors == []


def test_every_bad_line_is_reported_with_its_reason(standard):
    orders, errors = sheet(standard, ["A PAR - XYZ", "A MAR H", "A MUN H", "F BRE - PAR"])
    assert errors == [("A PAR - XYZ", "no such place 'XYZ'"), ("A MUN H", "no unit in Munich"),
                      ("F BRE - PAR", "a fleet cannot go inland (Paris)")]
    assert orders == [Hold("FRANCE", unit("A MAR"))]


def test_a_second_order_for_a_unit_is_refused_as_dpjudge_refuses_it(standard):
    orders, errors = sheet(standard, ["A PAR - BUR", "A MAR H", "PAR - PIC"])
    assert errors == [("PAR - PIC", "UNIT REORDERED")]
    assert orders == [Move("FRANCE", unit("A PAR"), "BUR"), Hold("FRANCE", unit("A MAR"))]


def test_the_same_order_twice_is_refused_too(standard):
    _, errors = sheet(standard, ["A PAR H", "A PAR H"])
    assert errors == [("A PAR H", "UNIT REORDERED")]


def test_no_check_keeps_both_orders_for_a_unit(standard):
    """DPjudge holds the unit and writes both orders `(*reorder*)` (the adjudicator's business)."""
    orders, errors = sheet(standard, ["A PAR H", "A PAR - BUR"], NO_CHECK)
    assert errors == [] and orders == [Hold("FRANCE", unit("A PAR")), Move("FRANCE", unit("A PAR"), "BUR")]


def test_a_second_retreat_for_a_unit_is_refused(standard):
    where = position(RETREAT, {}, dislodged={"FRANCE": {"A PAR": "PIC GAS"}})
    _, errors = parse_orders(standard, "FRANCE", ["A PAR - PIC", "A PAR - GAS"], RETREAT,
                             units(FRANCE="A PAR"), where, frozenset())
    assert errors == [("A PAR - GAS", "TWO ORDERS FOR RETREATING UNIT")]


def test_blank_lines_are_skipped(standard):
    orders, errors = sheet(standard, ["", "   ", "A PAR H", "\t"])
    assert len(orders) == 1 and errors == []


def test_clear_drops_what_came_before(standard):
    orders, errors = sheet(standard, ["A PAR - XYZ", "A MAR H", "CLEAR", "F BRE H"])
    assert orders == [Hold("FRANCE", unit("F BRE"))] and errors == []


def test_nmr_in_brackets_clears_too(standard):
    orders, _ = sheet(standard, ["A MAR H", "(NMR)"])
    assert orders == []


def test_illegal_order_is_refused(standard):
    _, errors = sheet(standard, ["F BRE - PAR"])
    assert errors == [("F BRE - PAR", "a fleet cannot go inland (Paris)")]


def test_no_check_keeps_an_illegal_order(standard):
    orders, errors = sheet(standard, ["F BRE - PAR"], NO_CHECK)
    assert orders == [Move("FRANCE", unit("F BRE"), "PAR")] and errors == []


def test_no_check_still_refuses_a_misspelt_place(standard):
    """The "Urk check" of rules.md."""
    _, errors = sheet(standard, ["A PAR - URK"], NO_CHECK)
    assert errors == [("A PAR - URK", "no such place 'URK'")]


def test_no_check_still_refuses_an_ambiguous_place(tiny):
    on_board = units(XLAND="A ALP")
    _, errors = sheet(tiny, ["A ALP - TY"], NO_CHECK, on_board=on_board, power="XLAND")
    assert errors == [("A ALP - TY", "'TY' is ambiguous: Tyrolia or Tyrrhenian Sea")]


def test_support_naming_the_coast_of_a_fleet_move_is_refused(standard):
    on_board = units(FRANCE="F MAR, F GAS")
    _, errors = sheet(standard, ["F MAR S F GAS - SPA/NC"], on_board=on_board)
    assert errors == [("F MAR S F GAS - SPA/NC", "a support names no coast: write SPA, not SPA/NC")]


def test_support_naming_a_coast_is_refused_under_no_check_too(standard):
    on_board = units(FRANCE="F MAR, F GAS")
    _, errors = sheet(standard, ["F MAR S F GAS - SPA/NC"], NO_CHECK, on_board=on_board)
    assert len(errors) == 1


def test_no_check_does_not_cover_adjustments(standard):
    _, errors = sheet(standard, ["BUILD A BUR"], NO_CHECK, phase=WINTER, on_board={}, centers={"FRANCE": "PAR"})
    assert errors == [("BUILD A BUR", "Burgundy is not a supply center")]


def test_every_waive_stands(standard):
    orders, _ = sheet(standard, ["WAIVE", "WAIVE"], phase=WINTER, on_board={}, centers={"FRANCE": "PAR"})
    assert orders == [Waive("FRANCE"), Waive("FRANCE")]


def test_a_second_build_in_a_province_is_refused_as_dpjudge_refuses_it(standard):
    orders, errors = sheet(standard, ["BUILD F BRE", "BUILD A BRE"], phase=WINTER, on_board={},
                           centers={"FRANCE": "BRE PAR"})
    assert errors == [("BUILD A BRE", "MULTIPLE BUILDS IN SITE")]
    assert orders == [Build("FRANCE", unit("F BRE"))]


def test_a_removal_and_a_keep_of_the_same_unit_are_refused(standard):
    _, errors = sheet(standard, ["KEEP A PAR", "REMOVE A PAR"], phase=WINTER)
    assert errors == [("REMOVE A PAR", "MULTIPLE ORDERS FOR UNIT")]


def test_foreign_unit_under_order_any(standard):
    on_board = units(FRANCE="A PAR", GERMANY="A MUN")
    orders, errors = sheet(standard, ["A MUN - BUR"], frozenset({"ORDER_ANY"}), on_board=on_board)
    assert orders == [Move("FRANCE", unit("A MUN"), "BUR")] and errors == []


def test_no_check_keeps_an_order_for_a_unit_that_is_not_there(standard):
    orders, errors = sheet(standard, ["A BUR - PAR"], NO_CHECK)
    assert orders == [Move("FRANCE", unit("A BUR"), "PAR")] and errors == []


def test_no_check_keeps_an_order_for_another_power_s_unit(standard):
    """The adjudicator rules it void (DATC 6.A.6)."""
    on_board = units(FRANCE="A PAR", GERMANY="A MUN")
    orders, errors = sheet(standard, ["A MUN - BUR"], NO_CHECK, on_board=on_board)
    assert orders == [Move("FRANCE", unit("A MUN"), "BUR")] and errors == []


def test_no_check_keeps_an_order_naming_the_wrong_unit_type(standard):
    orders, _ = sheet(standard, ["F PAR - PIC"], NO_CHECK)
    assert orders == [Move("FRANCE", unit("F PAR"), "PIC")]


def test_no_check_cannot_guess_the_type_of_a_missing_unit(standard):
    _, errors = sheet(standard, ["LON - NTH"], NO_CHECK)
    assert errors == [("LON - NTH", "no unit in London to order")]


SIGNAL = frozenset({"SIGNAL_SUPPORT"})
SIGNALLERS = units(FRANCE="A PAR, A MAR", AUSTRIA="A VIE", ITALY="A VEN", ENGLAND="F NTH")


def test_signal_support_takes_a_support_that_cannot_be_given(standard):
    lines = ["A MAR S A VIE - ROM", "A PAR S A VEN - SWI", "A PAR S F NTH"]
    for rules, taken in ((frozenset(), 0), (SIGNAL, 1)):
        for line in lines:
            orders, errors = sheet(standard, [line], rules, on_board=SIGNALLERS)
            assert (len(orders), len(errors)) == (taken, 1 - taken), (rules, line)


def test_signal_support_still_refuses_a_support_of_no_unit_or_of_itself(standard):
    _, errors = sheet(standard, ["A MAR S A BUR", "A MAR S A MAR", "A MAR - SWI"], SIGNAL,
                      on_board=SIGNALLERS)
    assert [reason for _, reason in errors] == ["no unit in Burgundy to support",
                                                 "a unit cannot support itself",
                                                 "Switzerland is impassable"]
