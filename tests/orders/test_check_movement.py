"""check_order in movement phases: the reason each illegal order gets, and the legal ones it lets by.

DATC ids name the cases the DATC decides the same way (an illegal order is invalid, 4.E.1)."""
from __future__ import annotations

from judge.orders import Convoy, Hold, Move, Support, check_order
from tests.support.orders import RETREAT, SPRING, position, unit, units


def check(m, order, rules=frozenset(), centers=None, **on_board):
    return check_order(m, order, position(SPRING, units(**on_board), centers), frozenset(rules))


def move(power, mover, dest, **kw):
    return Move(power, unit(mover), dest, **kw)


def support(power, supporter, target, dest=None):
    return Support(power, unit(supporter), unit(target), dest)


# --- moves ---------------------------------------------------------------------------------------------

def test_simple_move_is_legal(standard):
    assert check(standard, move("FRANCE", "A PAR", "BUR"), FRANCE="A PAR") is None


def test_6A1_fleet_to_a_province_it_does_not_border(standard):
    assert check(standard, move("ENGLAND", "F NTH", "PIC"), ENGLAND="F NTH") == "F NTH cannot reach Picardy"


def test_6A2_army_to_sea(standard):
    reason = check(standard, move("ENGLAND", "A LVP", "IRI"), ENGLAND="A LVP")
    assert reason == "an army cannot go to sea (Irish Sea)"


def test_6A3_fleet_inland(standard):
    reason = check(standard, move("GERMANY", "F KIE", "MUN"), GERMANY="F KIE")
    assert reason == "a fleet cannot go inland (Munich)"


def test_6A4_move_to_its_own_province(standard):
    reason = check(standard, move("GERMANY", "F KIE", "KIE"), GERMANY="F KIE")
    assert reason == "a unit cannot move to the province it is in"


def test_6A7_fleet_cannot_be_convoyed(standard):
    order = move("ENGLAND", "F LON", "BEL", path=("NTH",))
    assert check(standard, order, ENGLAND="F LON, F NTH") == "a fleet cannot be convoyed"


def test_6A9_fleets_follow_the_coast(standard):
    assert check(standard, move("ITALY", "F ROM", "VEN"), ITALY="F ROM") == "F ROM cannot reach Venice"


def test_6B3_coast_the_fleet_cannot_reach(standard):
    reason = check(standard, move("FRANCE", "F GAS", "SPA/SC"), FRANCE="F GAS")
    assert reason == "F GAS cannot reach Spain (south coast)"


def test_fleet_move_to_a_province_with_coasts_must_name_one(standard):
    reason = check(standard, move("FRANCE", "F MAO", "SPA"), FRANCE="F MAO")
    assert reason == "a fleet moving to Spain must name a coast: SPA/NC or SPA/SC"


def test_6B12_army_move_naming_a_coast_is_legal(standard):
    assert check(standard, move("FRANCE", "A GAS", "SPA/NC"), FRANCE="A GAS") is None


def test_6B10_coast_of_the_ordered_fleet_is_ignored(standard):
    assert check(standard, move("FRANCE", "F SPA/NC", "LYO"), FRANCE="F SPA/SC") is None


def test_move_to_a_place_not_on_the_map(standard):
    assert check(standard, move("FRANCE", "A PAR", "XYZ"), FRANCE="A PAR") == "no such place 'XYZ'"


def test_order_of_a_power_not_on_the_map(standard):
    assert check(standard, move("NARNIA", "A PAR", "BUR"), FRANCE="A PAR") == "no such power 'NARNIA'"


def test_move_into_an_impassable_space(standard):
    reason = check(standard, move("GERMANY", "A MUN", "SWI"), GERMANY="A MUN")
    assert reason == "Switzerland is impassable"


def test_move_of_a_missing_unit(standard):
    assert check(standard, move("FRANCE", "A PAR", "BUR"), FRANCE="A MAR") == "no unit in Paris"


def test_move_of_a_unit_of_the_wrong_type(standard):
    reason = check(standard, move("FRANCE", "F PAR", "BUR"), FRANCE="A PAR")
    assert reason == "the unit in Paris is an army, not a fleet"


def test_6A6_owner_is_not_checked_here(standard):
    """An order for another power's unit is void: the adjudicator says so, not check_order."""
    assert check(standard, move("GERMANY", "F LON", "NTH"), ENGLAND="F LON") is None


def test_army_not_adjacent_without_any_convoy_route(standard):
    assert check(standard, move("FRANCE", "A PAR", "MUN"), FRANCE="A PAR") == "A PAR cannot reach Munich"


def test_army_to_a_coast_fleets_could_carry_it_to_without_the_path(standard):
    assert check(standard, move("ENGLAND", "A EDI", "NWY"), ENGLAND="A EDI", RUSSIA="F NTH") is None


def test_army_to_a_distant_coast_no_fleets_could_carry_it_to_is_refused_in_dpjudges_words(standard):
    """DPjudge: UNIT CANNOT MOVE INTO DESTINATION (A VEN - EDI, A POR - TUN, A MAR - BUL/SC)."""
    for mover, dest in (("A VEN", "EDI"), ("A POR", "TUN"), ("A MAR", "BUL/SC")):
        reason = check(standard, move("ITALY", mover, dest), ITALY=mover, ENGLAND="F NTH, F ENG")
        assert reason == "UNIT CANNOT MOVE INTO DESTINATION", (mover, dest)


def test_fleets_that_do_not_link_the_coasts_carry_no_army(standard):
    """A fleet in the Norwegian Sea borders Norway but not London; one in the North Sea borders
    both."""
    assert check(standard, move("ENGLAND", "A LON", "NWY"), ENGLAND="A LON, F NWG") == \
        "UNIT CANNOT MOVE INTO DESTINATION"
    assert check(standard, move("ENGLAND", "A LON", "NWY"), ENGLAND="A LON, F NTH") is None


def test_any_fleet_may_carry_an_army_under_fictional_ok(standard):
    """FICTIONAL_OK (and BLIND, which brings it): the board does not tell what order entry takes."""
    assert check(standard, move("ITALY", "A VEN", "EDI"), {"FICTIONAL_OK"}, ITALY="A VEN") is None


def test_via_convoy_needs_a_possible_route(standard):
    reason = check(standard, move("FRANCE", "A PAR", "BUR", via_convoy=True), FRANCE="A PAR")
    assert reason == "no convoy route could take A PAR to Burgundy"


def test_via_convoy_between_neighbours_by_sea(standard):
    order = move("ENGLAND", "A LON", "BEL", via_convoy=True)
    assert check(standard, order, ENGLAND="A LON", FRANCE="F ENG") is None


def test_via_convoy_with_no_fleets_to_carry_the_army(standard):
    order = move("ENGLAND", "A LON", "BEL", via_convoy=True)
    assert check(standard, order, ENGLAND="A LON") == "no convoy route could take A LON to Belgium"


def test_convoy_path_over_water(standard):
    order = move("TURKEY", "A BUL", "TUN", path=("AEG", "ION"))
    assert check(standard, order, TURKEY="A BUL") is None


def test_convoy_path_over_land(standard):
    order = move("FRANCE", "A BRE", "BEL", path=("PIC",))
    assert check(standard, order, FRANCE="A BRE").endswith("Picardy cannot carry a convoy")


def test_convoy_path_with_a_gap(standard):
    order = move("TURKEY", "A BUL", "TUN", path=("AEG", "TYS"))
    assert check(standard, order, TURKEY="A BUL").endswith("Aegean Sea does not border Tyrrhenian Sea")


def test_convoy_path_may_not_pass_a_space_twice(standard):
    order = move("TURKEY", "A GRE", "NAP", path=("ION", "ADR", "ION"))
    reason = check(standard, order, TURKEY="A GRE")
    assert reason.endswith("a convoy path may not pass the same space twice")


def test_convoy_path_may_pass_a_space_twice_under_convoy_back(standard):
    order = move("TURKEY", "A GRE", "NAP", path=("ION", "ADR", "ION"))
    assert check(standard, order, {"CONVOY_BACK"}, TURKEY="A GRE") is None


def test_move_is_not_taken_in_a_retreat_phase(standard):
    given = units(FRANCE="A PAR")
    assert check_order(standard, move("FRANCE", "A PAR", "BUR"), position(RETREAT, given), frozenset()) == \
        "not a movement phase"


def test_unit_that_cannot_stand_where_it_is_may_only_hold(standard):
    assert check(standard, move("GERMANY", "A SWI", "MUN"), GERMANY="A SWI") == \
        "the unit in Switzerland may only hold"


def test_unit_that_cannot_stand_where_it_is_may_hold(standard):
    assert check(standard, Hold("GERMANY", unit("A SWI")), GERMANY="A SWI") is None


# --- restricted adjacencies (the tiny map) -------------------------------------------------------------

def test_power_restricted_crossing_refused_to_other_powers(tiny):
    reason = check(tiny, move("YLAND", "F GAM", "DEL"), YLAND="F GAM")
    assert reason == "only Xland may cross from Gamma to Delta"


def test_power_restricted_crossing_allowed_to_the_power(tiny):
    assert check(tiny, move("XLAND", "F GAM", "DEL"), XLAND="F GAM") is None


def test_power_restricted_crossing_for_an_army_with_no_convoy_route(tiny):
    reason = check(tiny, move("YLAND", "A TYL", "HOM"), YLAND="A TYL")
    assert reason == "only Xland may cross from Tyrolia to Home"


def test_army_barred_from_a_crossing_may_still_go_by_convoy(tiny):
    """Gamma and Delta both border North Water, where a fleet stands: the adjudicator looks for
    the convoy."""
    assert check(tiny, move("YLAND", "A GAM", "DEL"), YLAND="A GAM, F NWA") is None


def test_centre_restricted_crossing_without_the_centre(tiny):
    reason = check(tiny, move("YLAND", "F GAM", "NWA"), {"YLAND": "BET GAM"}, YLAND="F GAM")
    assert reason == "to cross from Gamma to North Water you must own Home"


def test_centre_restricted_crossing_with_the_centre(tiny):
    order = move("YLAND", "F GAM", "NWA")
    assert check(tiny, order, centers={"YLAND": "BET GAM HOM"}, YLAND="F GAM") is None


def test_support_over_a_restricted_crossing(tiny):
    order = support("YLAND", "F GAM", "F NWA", "DEL")
    assert check(tiny, order, YLAND="F GAM, F NWA") == "only Xland may cross from Gamma to Delta"


def test_support_across_a_strait(tiny):
    reason = check(tiny, support("YLAND", "F STS", "F BET", "GAM"), YLAND="F STS, F BET")
    assert reason == "support may not cross from Strait Sea to Gamma"


def test_move_across_a_strait(tiny):
    assert check(tiny, move("YLAND", "F STS", "GAM"), YLAND="F STS") is None


# --- supports ------------------------------------------------------------------------------------------

def test_support_to_hold_is_legal(standard):
    assert check(standard, support("FRANCE", "A PAR", "A BUR"), FRANCE="A PAR, A BUR") is None


def test_6A8_unit_cannot_support_itself(standard):
    reason = check(standard, support("AUSTRIA", "F TRI", "F TRI"), AUSTRIA="F TRI")
    assert reason == "a unit cannot support itself"


def test_6A10_support_into_a_province_the_supporter_cannot_reach(standard):
    order = support("ITALY", "F ROM", "A APU", "VEN")
    reason = check(standard, order, ITALY="F ROM, A APU", AUSTRIA="A VEN")
    assert reason == "F ROM cannot reach Venice, so cannot support there"


def test_6A5_support_of_a_move_to_its_own_province(standard):
    order = support("ENGLAND", "A LVP", "A YOR", "YOR")
    assert check(standard, order, ENGLAND="A LVP, A YOR") == "a unit cannot move to the province it is in"


def test_6B4_support_to_a_coast_the_supporter_cannot_reach(standard):
    order = support("FRANCE", "F MAR", "F GAS", "SPA/NC")
    assert check(standard, order, FRANCE="F MAR, F GAS") is None


def test_6B5_support_from_a_coast_that_cannot_reach(standard):
    order = support("FRANCE", "F SPA/NC", "F MAR", "LYO")
    reason = check(standard, order, FRANCE="F MAR, F SPA/NC")
    assert reason == "F SPA/NC cannot reach Gulf of Lyon, so cannot support there"


def test_support_of_a_unit_that_is_not_there(standard):
    reason = check(standard, support("FRANCE", "A PAR", "A BUR"), FRANCE="A PAR")
    assert reason == "no unit in Burgundy to support"


def test_support_of_a_unit_that_is_not_there_under_fictional_ok(standard):
    order = support("FRANCE", "A PAR", "A BUR")
    assert check(standard, order, {"FICTIONAL_OK"}, FRANCE="A PAR") is None


def test_support_naming_the_wrong_unit_type(standard):
    reason = check(standard, support("FRANCE", "A PIC", "A BRE"), FRANCE="A PIC, F BRE")
    assert reason == "the unit in Brest is a fleet, not an army"


def test_support_of_a_move_the_supported_unit_cannot_make(standard):
    reason = check(standard, support("FRANCE", "A BUR", "A MUN", "PIC"), FRANCE="A BUR", GERMANY="A MUN")
    assert reason == "A MUN cannot reach Picardy"


def test_support_of_a_move_the_army_could_make_by_convoy(standard):
    order = support("ENGLAND", "F NTH", "A EDI", "NWY")
    assert check(standard, order, ENGLAND="F NTH, A EDI") is None


# --- convoys -------------------------------------------------------------------------------------------

def convoy(power, fleet, army, dest):
    return Convoy(power, unit(fleet), army, dest)


def test_convoy_at_sea_is_legal(standard):
    assert check(standard, convoy("ENGLAND", "F NTH", "LON", "BEL"), ENGLAND="F NTH, A LON") is None


def test_6A7_convoy_of_a_fleet(standard):
    reason = check(standard, convoy("ENGLAND", "F NTH", "LON", "BEL"), ENGLAND="F NTH, F LON")
    assert reason == "a fleet cannot be convoyed"


def test_6A5_convoy_to_the_army_s_own_province(standard):
    reason = check(standard, convoy("ENGLAND", "F NTH", "YOR", "YOR"), ENGLAND="F NTH, A YOR")
    assert reason == "a unit cannot move to the province it is in"


def test_convoy_by_a_fleet_on_the_coast(standard):
    reason = check(standard, convoy("TURKEY", "F CON", "SMY", "GRE"), TURKEY="F CON, A SMY")
    assert reason == "F CON cannot convoy: it is not at sea"


def test_convoy_by_a_fleet_on_the_coast_under_coastal_convoy(standard):
    order = convoy("TURKEY", "F CON", "SMY", "GRE")
    assert check(standard, order, {"COASTAL_CONVOY"}, TURKEY="F CON, A SMY") is None


def test_convoy_by_an_army(standard):
    assert check(standard, convoy("FRANCE", "A PAR", "BRE", "LON"), FRANCE="A PAR, A BRE") == \
        "only fleets convoy"


def test_convoy_of_a_missing_army(standard):
    reason = check(standard, convoy("ENGLAND", "F NTH", "LON", "BEL"), ENGLAND="F NTH")
    assert reason == "no unit in London to convoy"


def test_convoy_by_a_fleet_on_no_route(standard):
    reason = check(standard, convoy("GERMANY", "F BAL", "LON", "BEL"), GERMANY="F BAL", ENGLAND="A LON")
    assert reason == "no convoy route from London to Belgium passes Baltic Sea"


def test_convoy_whose_route_would_pass_a_space_twice(standard):
    """rules.md, CONVOY_BACK: F ADR C A GRE-NAP must use the Ionian Sea twice."""
    reason = check(standard, convoy("ITALY", "F ADR", "GRE", "NAP"), ITALY="F ADR, F ION", TURKEY="A GRE")
    assert reason == "no convoy route from Greece to Naples passes Adriatic Sea"


def test_convoy_whose_route_passes_a_space_twice_under_convoy_back(standard):
    order = convoy("ITALY", "F ADR", "GRE", "NAP")
    assert check(standard, order, {"CONVOY_BACK"}, ITALY="F ADR, F ION", TURKEY="A GRE") is None
