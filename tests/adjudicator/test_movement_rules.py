"""Rules that change movement adjudication (spec/rules.md), and the order forms the DATC leaves to the
judge: written-out convoy routes, VIA CONVOY, repeated orders, illegal orders, retreat options."""
from __future__ import annotations

import pytest

from judge.adjudicator.request import adjudicate_request
from judge.maps.loader import load_map
from tests.support.maps import map_from_text

# Redland and the dummy Greyland share a plain: Alpha, Bravo, Charlie in a row, Delta beside Bravo.
DUMMIES = """
Alpha = alp
Bravo = bra
Charlie = cha
Delta = del
LAND ALP ABUTS BRA DEL
LAND BRA ABUTS ALP CHA DEL
LAND CHA ABUTS BRA DEL
LAND DEL ABUTS ALP BRA CHA
REDLAND (RED:R) ALP
GREYLAND (GREY:G) CHA
DUMMY
UNOWNED BRA DEL
"""


def adjudicate(units: dict, orders: dict, rules=(), m=None) -> dict:
    request = {"map": "standard" if m is None else "main", "phase": "SPRING 1901 MOVEMENT",
               "rules": list(rules), "units": units, "orders": orders}
    return adjudicate_request(request, load_map if m is None else (lambda name: m))


def result(answer: dict, power: str, unit: str) -> list[str]:
    return next(e["result"] for e in answer["results"][power] if e["unit"] == unit)


# --- FRIENDLY_FIRE and DUMMY_FIRE ----------------------------------------------------------------

SELF_ATTACK = ({"GERMANY": ["A BER", "A MUN", "A SIL"]},
               {"GERMANY": ["A MUN - BER", "A SIL S A MUN - BER", "A BER H"]})


def test_a_power_cannot_dislodge_its_own_unit():
    answer = adjudicate(*SELF_ATTACK)
    assert result(answer, "GERMANY", "A MUN") == ["bounce"]
    assert answer["dislodged"] == {}


def test_friendly_fire_lets_a_power_dislodge_its_own_unit():
    answer = adjudicate(*SELF_ATTACK, rules=["FRIENDLY_FIRE"])
    assert answer["units"]["GERMANY"] == ["A BER", "A SIL"]
    assert answer["dislodged"] == {"GERMANY": {"A BER": ["KIE", "PRU"]}}


@pytest.mark.parametrize("rules, cut", [((), []), (("FRIENDLY_FIRE",), ["cut"])])
def test_friendly_fire_lets_an_own_attack_cut_support(rules, cut):
    answer = adjudicate({"GERMANY": ["A BER", "A MUN", "A SIL"], "RUSSIA": ["A PRU"]},
                        {"GERMANY": ["A BER S A MUN", "A SIL - BER"], "RUSSIA": ["A PRU H"]},
                        rules=rules)
    assert result(answer, "GERMANY", "A BER") == cut


@pytest.mark.parametrize("rules, dislodged", [((), False), (("DUMMY_FIRE",), True),
                                              (("FRIENDLY_FIRE",), True)])
def test_dummy_fire_lets_a_dummy_dislodge_its_own_unit(rules, dislodged):
    answer = adjudicate({"GREYLAND": ["A ALP", "A BRA", "A DEL"]},
                        {"GREYLAND": ["A ALP - BRA", "A DEL S A ALP - BRA"]},
                        rules=rules, m=map_from_text(DUMMIES))
    assert bool(answer["dislodged"]) is dislodged


def test_dummy_fire_leaves_other_powers_as_they_are():
    answer = adjudicate({"REDLAND": ["A ALP", "A BRA", "A DEL"]},
                        {"REDLAND": ["A ALP - BRA", "A DEL S A ALP - BRA"]},
                        rules=["DUMMY_FIRE"], m=map_from_text(DUMMIES))
    assert answer["dislodged"] == {}


# --- IMMOBILE_DUMMIES ----------------------------------------------------------------------------

def test_immobile_dummies_may_not_move():
    answer = adjudicate({"GREYLAND": ["A CHA"], "REDLAND": ["A ALP"]},
                        {"GREYLAND": ["A CHA - BRA"], "REDLAND": ["A ALP - BRA"]},
                        rules=["IMMOBILE_DUMMIES"], m=map_from_text(DUMMIES))
    assert result(answer, "GREYLAND", "A CHA") == ["void"]
    assert answer["units"] == {"GREYLAND": ["A CHA"], "REDLAND": ["A BRA"]}


def test_immobile_dummies_may_support():
    answer = adjudicate({"GREYLAND": ["A CHA"], "REDLAND": ["A ALP"]},
                        {"GREYLAND": ["A CHA S A ALP - BRA"], "REDLAND": ["A ALP - BRA"]},
                        rules=["IMMOBILE_DUMMIES"], m=map_from_text(DUMMIES))
    assert result(answer, "GREYLAND", "A CHA") == []


# --- WEAK_BOUNCES (Key's rule) -----------------------------------------------------------------

def test_weak_bounces_a_unit_that_fails_to_move_has_no_strength():
    units = {"AUSTRIA": ["A VIE"], "RUSSIA": ["A WAR"], "ITALY": ["A TYR"]}
    orders = {"AUSTRIA": ["A VIE - GAL"], "RUSSIA": ["A WAR - GAL"], "ITALY": ["A TYR - VIE"]}
    assert result(adjudicate(units, orders), "ITALY", "A TYR") == ["bounce"]
    answer = adjudicate(units, orders, rules=["WEAK_BOUNCES"])
    assert result(answer, "ITALY", "A TYR") == []
    assert answer["dislodged"] == {"AUSTRIA": {"A VIE": ["BOH", "BUD", "TRI"]}}


def test_weak_bounces_keeps_a_beleaguered_garrison():
    answer = adjudicate({"AUSTRIA": ["A VIE"], "RUSSIA": ["A WAR"], "ITALY": ["A TYR"],
                         "TURKEY": ["A BUD"]},
                        {"AUSTRIA": ["A VIE - GAL"], "RUSSIA": ["A WAR - GAL"],
                         "ITALY": ["A TYR - VIE"], "TURKEY": ["A BUD - VIE"]},
                        rules=["WEAK_BOUNCES"])
    assert answer["units"]["AUSTRIA"] == ["A VIE"]
    assert answer["dislodged"] == {}


def test_weak_bounces_an_own_attack_does_not_dislodge():
    answer = adjudicate({"AUSTRIA": ["A VIE", "A BUD"], "RUSSIA": ["A WAR"]},
                        {"AUSTRIA": ["A VIE - GAL", "A BUD - VIE"], "RUSSIA": ["A WAR - GAL"]},
                        rules=["WEAK_BOUNCES"])
    assert answer["dislodged"] == {}


# --- COASTAL_CRAWL -------------------------------------------------------------------------------

@pytest.mark.parametrize("rules, swapped", [((), False), (("COASTAL_CRAWL",), True)])
def test_coastal_crawl_lets_fleets_pass_on_different_coasts(rules, swapped):
    answer = adjudicate({"FRANCE": ["F SPA/SC"], "ITALY": ["F POR"]},
                        {"FRANCE": ["F SPA/SC - POR"], "ITALY": ["F POR - SPA/NC"]}, rules=rules)
    after = {"FRANCE": ["F POR"], "ITALY": ["F SPA/NC"]} if swapped else {
        "FRANCE": ["F SPA/SC"], "ITALY": ["F POR"]}
    assert answer["units"] == after


# --- NO_CHECK, SIGNAL_SUPPORT, NO_RETREAT -------------------------------------------------------

@pytest.mark.parametrize("rules, word", [((), "void"), (("NO_CHECK",), "invalid")])
def test_an_illegal_order_is_void_or_invalid_under_no_check(rules, word):
    answer = adjudicate({"ENGLAND": ["F NTH"]}, {"ENGLAND": ["F NTH - PIC"]}, rules=rules)
    entry = answer["results"]["ENGLAND"][0]
    assert entry["result"] == [word] and entry["error"]
    assert answer["units"]["ENGLAND"] == ["F NTH"]


@pytest.mark.parametrize("rules, word", [((), "void"), (("NO_CHECK",), "invalid")])
def test_an_order_for_another_powers_unit_is_void_or_invalid_under_no_check(rules, word):
    answer = adjudicate({"ENGLAND": ["F LON"]}, {"GERMANY": ["F LON - NTH"]}, rules=rules)
    assert answer["results"]["GERMANY"][0]["result"] == [word]
    assert answer["units"]["ENGLAND"] == ["F LON"]


def test_signal_support_to_a_far_unit_is_void_and_the_supporter_holds():
    answer = adjudicate({"ENGLAND": ["A LON"], "FRANCE": ["A PAR"], "GERMANY": ["A PIC"]},
                        {"ENGLAND": ["A LON S A PAR - BUR"], "GERMANY": ["A PIC - LON"]},
                        rules=["SIGNAL_SUPPORT"])
    assert result(answer, "ENGLAND", "A LON") == ["void"]


@pytest.mark.parametrize("rule", ["NO_RETREAT", "NO_QUARTER"])
def test_no_retreat_leaves_a_dislodged_unit_nowhere_to_go(rule):
    answer = adjudicate({"GERMANY": ["A MUN", "A RUH"], "FRANCE": ["A BUR"]},
                        {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}, rules=[rule])
    assert answer["dislodged"] == {"FRANCE": {"A BUR": []}}


# --- convoy order forms ------------------------------------------------------------------------

def test_a_written_route_is_followed():
    answer = adjudicate({"ENGLAND": ["A LON", "F NTH", "F ENG"]},
                        {"ENGLAND": ["A LON - NTH - BEL", "F NTH C A LON - BEL", "F ENG H"]})
    assert answer["units"]["ENGLAND"] == ["A BEL", "F ENG", "F NTH"]


def test_a_written_route_through_a_fleet_that_does_not_convoy_fails():
    answer = adjudicate({"ENGLAND": ["A LON", "F NTH", "F ENG"]},
                        {"ENGLAND": ["A LON - ENG - BEL", "F NTH C A LON - BEL", "F ENG H"]})
    assert result(answer, "ENGLAND", "A LON") == ["no convoy"]
    assert answer["units"]["ENGLAND"] == ["A LON", "F ENG", "F NTH"]


def test_a_written_route_where_no_fleet_stands_is_void():
    answer = adjudicate({"ENGLAND": ["A LON", "F NTH"]},
                        {"ENGLAND": ["A LON - ENG - BEL", "F NTH C A LON - BEL"]})
    assert result(answer, "ENGLAND", "A LON") == ["void"]


def test_via_convoy_to_a_neighbour_goes_only_by_convoy():
    answer = adjudicate({"ENGLAND": ["A YOR", "F NTH"], "GERMANY": ["F HEL"], "FRANCE": ["F BEL"]},
                        {"ENGLAND": ["A YOR - LON VIA CONVOY", "F NTH C A YOR - LON"],
                         "GERMANY": ["F HEL - NTH"], "FRANCE": ["F BEL S F HEL - NTH"]})
    assert result(answer, "ENGLAND", "A YOR") == ["disrupted"]
    assert answer["units"]["ENGLAND"] == ["A YOR"]


def test_a_foreign_convoy_does_not_carry_an_army_that_can_walk():
    answer = adjudicate({"ENGLAND": ["A YOR"], "GERMANY": ["F NTH"]},
                        {"ENGLAND": ["A YOR - LON"], "GERMANY": ["F NTH C A YOR - LON"]})
    assert result(answer, "GERMANY", "F NTH") == ["void"]
    assert answer["units"]["ENGLAND"] == ["A LON"]


# --- orders that command nothing, or come twice ------------------------------------------------

def test_a_unit_given_two_orders_holds():
    # DATC 4.D.3: the orders are illegal and the unit holds (and may be supported to hold).
    answer = adjudicate({"FRANCE": ["A PAR", "A GAS"], "GERMANY": ["A BUR", "A PIC"]},
                        {"FRANCE": ["A PAR - BUR", "A PAR - PIC", "A GAS S A PAR"],
                         "GERMANY": ["A BUR - PAR", "A PIC S A BUR - PAR"]})
    first, second, support = answer["results"]["FRANCE"]
    assert first["result"] == second["result"] == ["void"] and "more than one" in first["error"]
    assert support["result"] == []
    assert answer["units"]["FRANCE"] == ["A GAS", "A PAR"]


def test_an_order_for_a_unit_that_is_not_there_is_void():
    answer = adjudicate({"FRANCE": ["A PAR"]}, {"FRANCE": ["A MAR - BUR"]})
    assert answer["results"]["FRANCE"][0]["result"] == ["void"]


def test_an_unordered_unit_holds_and_is_reported():
    answer = adjudicate({"FRANCE": ["A PAR"], "GERMANY": ["A MUN", "A RUH"]},
                        {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    assert answer["results"]["FRANCE"] == [{"unit": "A PAR", "order": "A PAR H", "result": []}]


# --- retreat options ------------------------------------------------------------------------------

def test_no_retreat_to_the_attackers_province_a_standoff_or_an_occupied_one():
    answer = adjudicate({"GERMANY": ["A MUN", "A RUH", "A KIE"], "FRANCE": ["A BUR", "A PAR"],
                         "ITALY": ["A PIE"], "AUSTRIA": ["A TYR"]},
                        {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "A KIE H"],
                         "ITALY": ["A PIE - MAR"], "AUSTRIA": ["A TYR - MUN"],
                         "FRANCE": ["A BUR H", "A PAR - GAS"]})
    # Not MUN (the attacker's, and Austria moved in), RUH (held), GAS or MAR (moved into);
    # Paris was left for Gascony, so it is free.
    assert answer["dislodged"] == {"FRANCE": {"A BUR": ["BEL", "PAR", "PIC"]}}


def test_a_standoff_province_is_no_retreat():
    answer = adjudicate({"GERMANY": ["A MUN", "A RUH"], "FRANCE": ["A BUR", "A PAR"],
                         "ENGLAND": ["A BEL"]},
                        {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"],
                         "FRANCE": ["A PAR - PIC"], "ENGLAND": ["A BEL - PIC"]})
    assert answer["dislodged"] == {"FRANCE": {"A BUR": ["GAS", "MAR"]}}


def test_a_unit_dislodged_by_a_convoyed_army_may_retreat_where_the_army_came_from():
    answer = adjudicate({"ENGLAND": ["A LON", "F NTH", "F ENG"], "FRANCE": ["A BEL"]},
                        {"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG S A LON - BEL"]})
    assert answer["dislodged"] == {"FRANCE": {"A BEL": ["BUR", "HOL", "PIC", "RUH"]}}


# --- a power nobody plays (DUMMY in the status file) is a dummy too -------------------------------

def _resolve_germany(orders: list, rules: list, dummies: tuple):
    """A, BER, MUN and SIL of Germany on the standard map, Germany a dummy if `dummies` says so."""
    from judge.adjudicator import resolve
    from judge.adjudicator.model import Position
    from judge.maps.loader import load_map
    from judge.orders import parse_order
    from judge.types import Phase, Unit, UnitType

    m = load_map("standard")
    phase = Phase("SPRING", 1901, "MOVEMENT")
    units = {"GERMANY": tuple(Unit(UnitType.ARMY, p) for p in ("BER", "MUN", "SIL"))}
    typed = [parse_order(m, "GERMANY", line, phase, units) for line in orders]
    position = Position(phase, units, {}, dummies=frozenset(dummies))
    return resolve(m, position, {"GERMANY": typed}, frozenset(rules))


@pytest.mark.parametrize("dummies, moved", [((), True), (("GERMANY",), False)])
def test_immobile_dummies_holds_a_power_the_status_file_makes_a_dummy(dummies, moved):
    resolution = _resolve_germany(["A SIL - PRU"], ["IMMOBILE_DUMMIES"], dummies)
    assert ("A PRU" in {str(u) for u in resolution.units["GERMANY"]}) is moved


@pytest.mark.parametrize("dummies, dislodged", [((), False), (("GERMANY",), True)])
def test_dummy_fire_takes_in_a_power_the_status_file_makes_a_dummy(dummies, dislodged):
    resolution = _resolve_germany(["A MUN - BER", "A SIL S A MUN - BER", "A BER H"], ["DUMMY_FIRE"], dummies)
    assert bool(resolution.dislodged) is dislodged
