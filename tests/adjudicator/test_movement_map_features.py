"""Map features in movement: straits (`~`), capes (`*`), power- and centre-restricted crossings,
PORT spaces that convoy, and COASTAL_CONVOY. Each test adjudicates a tiny map made from text."""
from __future__ import annotations

import pytest

from judge.adjudicator.request import adjudicate_request
from tests.support.maps import map_from_text

# Alpha and Bravo face each other across a strait; Charlie borders both over land; the North Sea
# touches all three.
STRAIT = """
Alpha = alp
Bravo = bra
Charlie = cha
Delta = del
North Sea = nse
COAST ALP ABUTS ~BRA CHA NSE
COAST BRA ABUTS ~ALP CHA DEL NSE
COAST CHA ABUTS ALP BRA DEL NSE
COAST DEL ABUTS BRA CHA NSE
WATER NSE ABUTS ALP BRA CHA DEL
REDLAND (RED:R) ALP
BLUELAND (BLUE:B) BRA
UNOWNED CHA DEL
"""

# The Cape of Good Hope: the North and South Seas meet across a cape; the Coast touches both seas,
# the Isle only the South Sea.
CAPE = """
North Sea = nse
South Sea = sse
West Sea = wse
Coast = cst
Isle = isl
WATER NSE ABUTS *SSE CST WSE
WATER SSE ABUTS *NSE CST ISL WSE
WATER WSE ABUTS NSE SSE CST
COAST CST ABUTS NSE SSE WSE
COAST ISL ABUTS SSE
REDLAND (RED:R) CST
BLUELAND (BLUE:B) ISL
"""

# Only Redland may go from Delta to Charlie; crossing from Alpha to Echo needs Bravo.
RESTRICTED = """
Alpha = alp
Bravo = bra
Charlie = cha
Delta = del
Echo = ech
Foxtrot = fox
LAND ALP ABUTS BRA ECH(BRA)
LAND BRA ABUTS ALP CHA
LAND CHA ABUTS BRA DEL
LAND DEL ABUTS R:CHA ECH FOX
LAND ECH ABUTS ALP DEL FOX
LAND FOX ABUTS DEL ECH
REDLAND (RED:R) ALP
BLUELAND (BLUE:B) DEL
UNOWNED BRA
"""

# West and East shores: the Port between them convoys, the Cove (a coast) only under COASTAL_CONVOY.
PORTS = """
West Shore = wst
East Shore = est
The Port = prt
The Cove = cov
North Sea = nse
COAST WST ABUTS PRT COV NSE
COAST EST ABUTS PRT COV NSE
PORT  PRT ABUTS WST EST
COAST COV ABUTS WST EST NSE
WATER NSE ABUTS WST EST COV
REDLAND (RED:R) WST
BLUELAND (BLUE:B) EST
"""


def adjudicate(text: str, units: dict, orders: dict, rules=(), centers=None) -> dict:
    m = map_from_text(text)
    request = {"map": "main", "phase": "SPRING 1901 MOVEMENT", "rules": list(rules),
               "units": units, "orders": orders}
    if centers is not None:
        request["centers"] = centers
    return adjudicate_request(request, load_map=lambda name: m)


def result(answer: dict, power: str, unit: str) -> list[str]:
    return next(e["result"] for e in answer["results"][power] if e["unit"] == unit)


# --- straits ---------------------------------------------------------------------------------------

def test_a_move_across_a_strait_enters_an_empty_province():
    answer = adjudicate(STRAIT, {"REDLAND": ["A ALP"]}, {"REDLAND": ["A ALP - BRA"]})
    assert answer["units"]["REDLAND"] == ["A BRA"]


def test_a_move_across_a_strait_has_no_strength_against_a_holding_unit():
    answer = adjudicate(STRAIT, {"REDLAND": ["A ALP"], "BLUELAND": ["A BRA"]},
                        {"REDLAND": ["A ALP - BRA"]})
    assert result(answer, "REDLAND", "A ALP") == ["bounce"]


def test_one_support_is_not_enough_to_dislodge_across_a_strait():
    answer = adjudicate(STRAIT, {"REDLAND": ["A ALP", "A CHA"], "BLUELAND": ["A BRA"]},
                        {"REDLAND": ["A ALP - BRA", "A CHA S A ALP - BRA"]})
    assert result(answer, "REDLAND", "A ALP") == ["bounce"]
    assert answer["dislodged"] == {}


def test_two_supports_dislodge_across_a_strait():
    answer = adjudicate(STRAIT, {"REDLAND": ["A ALP", "A CHA", "F NSE"], "BLUELAND": ["A BRA"]},
                        {"REDLAND": ["A ALP - BRA", "A CHA S A ALP - BRA", "F NSE S A ALP - BRA"]})
    assert answer["units"]["REDLAND"] == ["A BRA", "A CHA", "F NSE"]
    assert answer["dislodged"] == {"BLUELAND": {"A BRA": ["DEL"]}}


def test_a_full_strength_move_beats_a_strait_crossing_into_an_empty_province():
    answer = adjudicate(STRAIT, {"REDLAND": ["A ALP"], "BLUELAND": ["A DEL"]},
                        {"REDLAND": ["A ALP - BRA"], "BLUELAND": ["A DEL - BRA"]})
    assert result(answer, "REDLAND", "A ALP") == ["bounce"]
    assert answer["units"]["BLUELAND"] == ["A BRA"]


def test_no_support_across_a_strait():
    answer = adjudicate(STRAIT, {"REDLAND": ["A ALP", "A CHA"], "BLUELAND": ["A BRA"]},
                        {"REDLAND": ["A CHA - BRA", "A ALP S A CHA - BRA"]})
    assert result(answer, "REDLAND", "A ALP") == ["void"]
    assert result(answer, "REDLAND", "A CHA") == ["bounce"]


def test_an_unsupported_move_across_a_strait_does_not_cut_support():
    answer = adjudicate(STRAIT, {"REDLAND": ["A ALP", "A CHA"], "BLUELAND": ["A BRA", "A DEL"]},
                        {"REDLAND": ["A ALP - BRA", "A CHA - DEL"], "BLUELAND": ["A BRA S A DEL"]})
    assert result(answer, "BLUELAND", "A BRA") == []
    assert result(answer, "REDLAND", "A CHA") == ["bounce"]


def test_a_supported_move_across_a_strait_cuts_support():
    answer = adjudicate(STRAIT, {"REDLAND": ["A ALP", "A CHA", "F NSE"],
                                 "BLUELAND": ["A BRA", "A DEL"]},
                        {"REDLAND": ["A ALP - BRA", "F NSE S A ALP - BRA", "A CHA - DEL"],
                         "BLUELAND": ["A BRA S A DEL"]})
    assert result(answer, "BLUELAND", "A BRA") == ["cut"]


# --- capes -------------------------------------------------------------------------------------------

def test_a_move_across_a_cape_enters_an_empty_sea():
    answer = adjudicate(CAPE, {"REDLAND": ["F NSE"]}, {"REDLAND": ["F NSE - SSE"]})
    assert answer["units"]["REDLAND"] == ["F SSE"]


def test_a_move_across_a_cape_is_at_half_strength():
    answer = adjudicate(CAPE, {"REDLAND": ["F NSE"], "BLUELAND": ["F WSE"]},
                        {"REDLAND": ["F NSE - SSE"], "BLUELAND": ["F WSE - SSE"]})
    assert result(answer, "REDLAND", "F NSE") == ["bounce"]
    assert answer["units"]["BLUELAND"] == ["F SSE"]


def test_half_strength_bounces_off_a_holding_unit():
    answer = adjudicate(CAPE, {"REDLAND": ["F NSE"], "BLUELAND": ["F SSE"]},
                        {"REDLAND": ["F NSE - SSE"]})
    assert result(answer, "REDLAND", "F NSE") == ["bounce"]


def test_half_strength_and_one_support_dislodge():
    answer = adjudicate(CAPE, {"REDLAND": ["F NSE", "F WSE"], "BLUELAND": ["F SSE"]},
                        {"REDLAND": ["F NSE - SSE", "F WSE S F NSE - SSE"]})
    assert answer["units"]["REDLAND"] == ["F SSE", "F WSE"]
    assert answer["dislodged"] == {"BLUELAND": {"F SSE": ["CST", "ISL"]}}


def test_a_move_across_a_cape_cuts_no_support():
    answer = adjudicate(CAPE, {"REDLAND": ["F NSE", "F CST"], "BLUELAND": ["F SSE", "F WSE"]},
                        {"REDLAND": ["F NSE - SSE", "F CST - WSE"],
                         "BLUELAND": ["F SSE S F WSE"]})
    assert result(answer, "BLUELAND", "F SSE") == []


def test_no_support_across_a_cape():
    answer = adjudicate(CAPE, {"REDLAND": ["F NSE", "F WSE"], "BLUELAND": ["F SSE"]},
                        {"REDLAND": ["F WSE - SSE", "F NSE S F WSE - SSE"]})
    assert result(answer, "REDLAND", "F NSE") == ["void"]
    assert result(answer, "REDLAND", "F WSE") == ["bounce"]


# --- restricted crossings ------------------------------------------------------------------------

def test_a_power_restricted_crossing_is_open_to_that_power():
    answer = adjudicate(RESTRICTED, {"REDLAND": ["A DEL"]}, {"REDLAND": ["A DEL - CHA"]})
    assert answer["units"]["REDLAND"] == ["A CHA"]


def test_a_power_restricted_crossing_is_closed_to_others():
    answer = adjudicate(RESTRICTED, {"BLUELAND": ["A DEL"]}, {"BLUELAND": ["A DEL - CHA"]})
    assert result(answer, "BLUELAND", "A DEL") == ["void"]
    assert answer["units"]["BLUELAND"] == ["A DEL"]


@pytest.mark.parametrize("owned, after", [(["ALP", "BRA"], "A ECH"), (["ALP"], "A ALP")])
def test_a_centre_restricted_crossing_needs_the_centre(owned, after):
    answer = adjudicate(RESTRICTED, {"REDLAND": ["A ALP"]}, {"REDLAND": ["A ALP - ECH"]},
                        centers={"REDLAND": owned})
    assert answer["units"]["REDLAND"] == [after]


@pytest.mark.parametrize("defender, retreats", [("BLUELAND", []), ("REDLAND", ["CHA"])])
def test_retreats_keep_to_crossings_the_power_may_use(defender, retreats):
    attacker = "REDLAND" if defender == "BLUELAND" else "BLUELAND"
    answer = adjudicate(RESTRICTED, {attacker: ["A ECH", "A FOX"], defender: ["A DEL"]},
                        {attacker: ["A ECH - DEL", "A FOX S A ECH - DEL"]})
    assert answer["dislodged"] == {defender: {"A DEL": retreats}}


# --- convoys from ports and coasts ---------------------------------------------------------------

def test_a_fleet_in_a_port_convoys():
    answer = adjudicate(PORTS, {"REDLAND": ["A WST", "F PRT"]},
                        {"REDLAND": ["A WST - EST", "F PRT C A WST - EST"]})
    assert answer["units"]["REDLAND"] == ["A EST", "F PRT"]


def test_a_fleet_on_a_coast_does_not_convoy():
    answer = adjudicate(PORTS, {"REDLAND": ["A WST", "F COV"]},
                        {"REDLAND": ["A WST - EST", "F COV C A WST - EST"]})
    assert result(answer, "REDLAND", "F COV") == ["void"]
    assert answer["units"]["REDLAND"] == ["A WST", "F COV"]


def test_coastal_convoy_lets_a_fleet_on_a_coast_convoy():
    answer = adjudicate(PORTS, {"REDLAND": ["A WST", "F COV"]},
                        {"REDLAND": ["A WST - EST", "F COV C A WST - EST"]}, rules=["COASTAL_CONVOY"])
    assert answer["units"]["REDLAND"] == ["A EST", "F COV"]


# --- leagues ---------------------------------------------------------------------------------------

# Redland (STRICT in North) and Greenland (North); Blueland (South, BENIGN to North); Whiteland alone.
LEAGUES = """
Alpha = alp
Bravo = bra
Charlie = cha
Delta = del
Echo = ech
LAND ALP ABUTS BRA CHA
LAND BRA ABUTS ALP CHA DEL ECH
LAND CHA ABUTS ALP BRA DEL
LAND DEL ABUTS BRA CHA ECH
LAND ECH ABUTS BRA DEL
REDLAND (RED:R) ALP
LEAGUE NORTH STRICT
GREENLAND (GREEN:G) CHA
LEAGUE NORTH
BLUELAND (BLUE:B) BRA
LEAGUE SOUTH BENIGN NORTH
WHITELAND (WHITE:W) DEL
UNOWNED ECH
"""
LEAGUE_UNITS = {"REDLAND": ["A ALP"], "GREENLAND": ["A CHA"], "BLUELAND": ["A BRA"],
                "WHITELAND": ["A DEL"]}


@pytest.mark.parametrize("order, words", [("A ALP S A CHA", []), ("A ALP S A BRA", ["void"])])
def test_a_strict_league_supports_only_its_members(order, words):
    answer = adjudicate(LEAGUES, LEAGUE_UNITS, {"REDLAND": [order]})
    assert result(answer, "REDLAND", "A ALP") == words


def test_a_benign_league_does_not_help_an_outsider_attack_a_friend():
    answer = adjudicate(LEAGUES, LEAGUE_UNITS, {"BLUELAND": ["A BRA S A DEL - CHA"],
                                                "WHITELAND": ["A DEL - CHA"]})
    assert result(answer, "BLUELAND", "A BRA") == ["void"]
    assert result(answer, "WHITELAND", "A DEL") == ["bounce"]


def test_a_benign_league_may_help_an_outsider_elsewhere():
    answer = adjudicate(LEAGUES, LEAGUE_UNITS, {"BLUELAND": ["A BRA S A DEL - ECH"],
                                                "WHITELAND": ["A DEL - ECH"]})
    assert result(answer, "BLUELAND", "A BRA") == []


def test_leagues_are_not_checked_under_fictional_ok():
    answer = adjudicate(LEAGUES, LEAGUE_UNITS, {"REDLAND": ["A ALP S A BRA"]}, rules=["FICTIONAL_OK"])
    assert result(answer, "REDLAND", "A ALP") == []
