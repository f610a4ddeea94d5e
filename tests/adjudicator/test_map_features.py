"""The map features that change builds and counts: factories, partisans, alternative homes, claims,
SC! and SC? tokens, hidden builds, RESERVES, MILITIA and NEWHOMES; on tiny maps made from text, on
maps/testing.map and on the 1900 map."""
from __future__ import annotations

import pytest

from judge.adjudicator.adjustments import resolve_adjustments
from judge.adjudicator.builds import adjustment_counts, is_first_adjustment, needs_adjustments
from judge.adjudicator.model import Position, Result
from judge.maps.loader import load_map
from judge.orders.model import Build
from judge.types import Phase, Unit, UnitType
from tests.support.maps import map_from_text

A, F = UnitType.ARMY, UnitType.FLEET
VOID = (Result.VOID,)
W1901A = Phase("WINTER", 1901, "ADJUSTMENTS")
W1902A = Phase("WINTER", 1902, "ADJUSTMENTS")

# Eight spaces: AAA BBB FRT HIL EEE inland, CCC DDD on the coast, SEA. Centres: AAA BBB CCC DDD EEE.
GEOGRAPHY = """\
Alpha = aaa
Beta = bbb
Gamma = ccc
Delta = ddd
Epsilon = eee
Fort = frt
Hill = hil
Sea = sea
LAND  AAA ABUTS BBB CCC FRT
LAND  BBB ABUTS AAA CCC DDD HIL
COAST CCC ABUTS AAA BBB DDD SEA
COAST DDD ABUTS BBB CCC EEE SEA
LAND  EEE ABUTS DDD FRT HIL
LAND  FRT ABUTS AAA EEE
LAND  HIL ABUTS BBB EEE
WATER SEA ABUTS CCC DDD
SOUTH EEE
UNOWNED CCC DDD
"""


def tiny(north: str, extra: str = ""):
    """The tiny map with NORTH declared by `north` (a power line and what follows it)."""
    return map_from_text(GEOGRAPHY + north + "\n" + extra)


def adjust(m, owned, units=(), orders=(), rules=(), phase=W1901A, homes=None, others=None):
    units_by_power = {"NORTH": tuple(units), **(others or {})}
    centers = {"NORTH": frozenset(owned), "SOUTH": frozenset({"EEE"})}
    position = Position(phase, units_by_power, centers, homes=homes)
    given = {"NORTH": [Build("NORTH", Unit(A, site)) for site in orders]}
    return resolve_adjustments(m, position, given, frozenset(rules))


def words(resolution):
    return [r.results for r in resolution.results if r.order.power == "NORTH"]


def count(m, owned, units=(), rules=(), phase=W1901A, homes=None):
    centers = {"NORTH": frozenset(owned)}
    return adjustment_counts(m, {"NORTH": tuple(units)}, centers, frozenset(rules), homes=homes,
                             phase=phase)["NORTH"]


# --- factories `+SITE` ---------------------------------------------------------------------------------

def test_a_factory_is_a_build_site_though_no_centre():
    m = tiny("NORTH AAA BBB +FRT")
    assert "FRT" not in m.supply_centers
    res = adjust(m, {"AAA", "BBB"}, orders=["FRT", "AAA"])
    assert words(res) == [(), ()]
    assert count(m, {"AAA", "BBB"}) == 2  # a factory adds a site, not a build


def test_no_factories_closes_them():
    res = adjust(tiny("NORTH AAA BBB +FRT"), {"AAA", "BBB"}, orders=["FRT"], rules={"NO_FACTORIES"})
    assert words(res) == [VOID]


def test_an_occupied_factory_is_closed():
    res = adjust(tiny("NORTH AAA BBB +FRT"), {"AAA", "BBB"}, orders=["FRT"],
                 others={"SOUTH": (Unit(A, "FRT"),)})
    assert words(res) == [VOID]


# --- partisans `*SITE` ---------------------------------------------------------------------------------

def test_partisans_rise_while_some_but_not_all_homes_are_owned():
    m = tiny("NORTH AAA BBB *HIL")
    assert count(m, {"AAA", "CCC"}) == 3  # DPjudge counts each partisan site as a centre then
    res = adjust(m, {"AAA", "CCC"}, orders=["HIL", "AAA"])
    assert words(res) == [(), ()]


@pytest.mark.parametrize("owned", [{"AAA", "BBB"}, {"CCC"}])
def test_no_partisans_with_all_homes_or_none(owned):
    m = tiny("NORTH AAA BBB *HIL")
    assert count(m, owned) == len(owned)
    assert words(adjust(m, owned, orders=["HIL"])) == [VOID]


def test_no_partisans_rule():
    m = tiny("NORTH AAA BBB *HIL")
    assert count(m, {"AAA", "CCC"}, rules={"NO_PARTISANS"}) == 2
    assert words(adjust(m, {"AAA", "CCC"}, orders=["HIL"], rules={"NO_PARTISANS"})) == [VOID]


def test_russian_partisans_in_siberia_on_the_1900_map():
    m = load_map("1900")
    assert m.powers["RUSSIA"].partisans == ("SIB",)
    position = Position(W1901A, {"RUSSIA": ()}, {"RUSSIA": frozenset({"MOS", "SEV", "WAR"})})
    res = resolve_adjustments(m, position, {"RUSSIA": [Build("RUSSIA", Unit(A, "SIB"))]})
    assert res.results[0].results == ()
    counts = adjustment_counts(m, {"RUSSIA": ()}, {"RUSSIA": frozenset({"MOS", "SEV", "WAR"})})
    assert counts["RUSSIA"] == 4


# --- alternative homes `@SC(HOME,...)` -----------------------------------------------------------------

ALT = "NORTH AAA BBB @CCC(AAA)"


def test_an_alternative_home_is_built_in_instead_of_its_home():
    res = adjust(tiny(ALT), {"AAA", "BBB", "CCC"}, orders=["CCC", "AAA", "BBB"])
    assert words(res) == [(), VOID, ()]
    assert "alternative home" in res.results[1].note


def test_an_alternative_home_is_closed_once_its_home_is_built_in():
    res = adjust(tiny(ALT), {"AAA", "BBB", "CCC"}, orders=["AAA", "CCC"])
    assert words(res) == [(), VOID]


def test_an_alternative_home_needs_its_home_open():
    res = adjust(tiny(ALT), {"AAA", "BBB", "CCC"}, units=[Unit(A, "AAA")], orders=["CCC"])
    assert words(res) == [VOID]


def test_an_alternative_home_must_be_owned():
    assert words(adjust(tiny(ALT), {"AAA", "BBB"}, orders=["CCC"])) == [VOID]


def test_an_unrestricted_alternative_home_stands_in_for_any_home():
    res = adjust(tiny("NORTH AAA BBB @CCC"), {"AAA", "BBB", "CCC"}, orders=["AAA", "CCC", "BBB"])
    assert words(res) == [(), (), VOID]


def test_alternative_homes_are_matched_to_homes_as_a_whole():
    # CCC may replace AAA or BBB, DDD only AAA: built in that order, CCC must give AAA up to DDD.
    m = tiny("NORTH AAA BBB @CCC(AAA,BBB) @DDD(AAA)")
    res = adjust(m, {"AAA", "BBB", "CCC", "DDD"}, orders=["CCC", "DDD", "BBB"])
    assert words(res) == [(), (), VOID]


def test_alternative_homes_give_sites_not_builds():
    m = tiny(ALT)
    assert count(m, {"AAA", "BBB", "CCC"}, units=[Unit(A, "EEE")] * 2) == 1
    res = adjust(m, {"AAA", "BBB", "CCC"}, units=[Unit(A, "FRT"), Unit(A, "HIL")], orders=["CCC", "BBB"])
    assert words(res) == [(), VOID]


# --- claims `&SC` --------------------------------------------------------------------------------------

def test_a_claim_opens_an_owned_centre_which_becomes_a_home():
    m = tiny("NORTH AAA BBB &SC")
    res = adjust(m, {"AAA", "BBB", "CCC", "DDD"}, orders=["CCC", "DDD"])
    assert words(res) == [(), VOID]
    assert res.homes["NORTH"] == frozenset({"AAA", "BBB", "CCC"})
    assert res.homes["SOUTH"] == frozenset({"EEE"})


def test_a_used_claim_is_gone():
    m = tiny("NORTH AAA BBB &SC")
    homes = {"NORTH": frozenset({"AAA", "BBB", "CCC"}), "SOUTH": frozenset({"EEE"})}
    res = adjust(m, {"AAA", "BBB", "CCC", "DDD"}, orders=["DDD", "CCC"], homes=homes)
    assert words(res) == [VOID, ()]


def test_a_claim_needs_an_owned_centre():
    assert words(adjust(tiny("NORTH AAA BBB &SC"), {"AAA", "BBB"}, orders=["DDD"])) == [VOID]


def test_no_homes_change_without_a_claim():
    res = adjust(tiny("NORTH AAA BBB"), {"AAA", "BBB"}, orders=["AAA"])
    assert res.homes is None


# --- SC! and SC? tokens (the game's first adjustment phase) --------------------------------------------

FIRST = "BEGIN WINTER 1901 ADJUSTMENTS\n"


def test_sc_bang_builds_on_a_vacant_home_and_takes_it():
    m = tiny("NORTH AAA BBB\nOWNS AAA SC!", FIRST)
    assert count(m, {"AAA"}) == 2
    res = adjust(m, {"AAA"}, orders=["BBB", "AAA"])
    assert words(res) == [(), ()]
    assert res.centers["NORTH"] == frozenset({"AAA", "BBB"})


def test_sc_question_builds_without_taking_the_home():
    m = tiny("NORTH AAA BBB\nOWNS AAA SC?", FIRST)
    res = adjust(m, {"AAA"}, orders=["BBB"])
    assert words(res) == [()]
    assert res.centers["NORTH"] == frozenset({"AAA"})


def test_sc_bang_cannot_take_a_home_another_power_owns_but_sc_question_builds_there():
    m = tiny("NORTH AAA BBB\nOWNS AAA SC!", FIRST)
    position = Position(W1901A, {}, {"NORTH": frozenset({"AAA"}), "SOUTH": frozenset({"BBB", "EEE"})})
    res = resolve_adjustments(m, position, {"NORTH": [Build("NORTH", Unit(A, "BBB"))]})
    assert words(res) == [VOID]
    m = tiny("NORTH AAA BBB\nOWNS AAA SC?", FIRST)
    res = resolve_adjustments(m, position, {"NORTH": [Build("NORTH", Unit(A, "BBB"))]})
    assert words(res) == [()]


def test_tokens_count_only_in_the_first_adjustment_phase():
    m = tiny("NORTH AAA BBB\nOWNS AAA SC!", FIRST)
    assert is_first_adjustment(m, W1901A) and not is_first_adjustment(m, W1902A)
    assert count(m, {"AAA"}, phase=W1902A) == 1
    assert words(adjust(m, {"AAA"}, orders=["BBB"], phase=W1902A)) == [VOID]


def test_first_adjustment_phase_after_a_spring_start():
    m = tiny("NORTH AAA BBB")
    assert is_first_adjustment(m, W1901A) and not is_first_adjustment(m, W1902A)
    assert not is_first_adjustment(m, Phase("SPRING", 1901, "MOVEMENT"))


# --- hidden builds `~SC` -------------------------------------------------------------------------------

def test_a_build_in_a_hidden_site_is_hidden():
    res = adjust(tiny("NORTH AAA ~BBB"), {"AAA", "BBB"}, orders=["BBB", "AAA"])
    assert [(r.results, r.note) for r in res.results if r.order.power == "NORTH"] == [((), "hidden"), ((), "")]
    assert Unit(A, "BBB") in res.units["NORTH"]


# --- RESERVES and MILITIA ------------------------------------------------------------------------------

def test_reserves_while_a_home_is_owned():
    m = tiny("NORTH AAA BBB\nRESERVES 2")
    assert count(m, {"AAA"}) == 3
    assert count(m, {"CCC"}) == 1  # no home owned: no reserves
    assert count(m, {"AAA"}, rules={"NO_RESERVES"}) == 1


def test_militia_for_units_on_homes_up_to_the_count():
    m = tiny("NORTH AAA BBB\nMILITIA 1")
    on_homes = [Unit(A, "AAA"), Unit(A, "BBB")]
    assert count(m, {"AAA", "BBB"}, units=on_homes) == 1
    assert count(m, {"AAA", "BBB"}, units=[Unit(A, "FRT"), Unit(A, "HIL")]) == 0
    assert count(m, {"AAA", "BBB"}, units=on_homes, rules={"NO_MILITIA"}) == 0
    assert count(m, {"CCC", "DDD"}, units=[Unit(A, "AAA"), Unit(A, "BBB")]) == 0  # owns no home


def test_reserves_spare_a_removal():
    m = tiny("NORTH AAA BBB\nRESERVES 1")
    units = [Unit(A, "AAA"), Unit(A, "FRT"), Unit(A, "HIL")]
    position = Position(W1901A, {"NORTH": tuple(units)}, {"NORTH": frozenset({"AAA", "BBB"})})
    assert not needs_adjustments(m, position.units, position.centers)
    res = resolve_adjustments(m, position, {})
    assert res.units["NORTH"] == tuple(sorted(units))


# --- NEWHOMES ------------------------------------------------------------------------------------------

def test_newhomes_makes_owned_centres_homes_before_building():
    m = tiny("NORTH AAA BBB", "NEWHOMES 1901\n")
    res = adjust(m, {"AAA", "CCC"}, orders=["CCC"])
    assert words(res) == [()]
    assert res.homes["NORTH"] == frozenset({"AAA", "CCC"})
    assert res.homes["SOUTH"] == frozenset({"EEE"})
    assert words(adjust(m, {"AAA", "CCC"}, orders=["CCC"], phase=W1902A)) == [VOID]


# --- maps/testing.map ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def testing():
    return load_map("testing")


W1902 = Phase("WINTER", 1902, "ADJUSTMENTS")  # the first adjustment phase: BEGIN SPRING 1902 MOVEMENT


def test_testing_map_southland_token_partisans_and_militia(testing):
    position = Position(W1902, {"SOUTHLAND": (Unit(F, "SHV"),)}, {"SOUTHLAND": frozenset({"SHV"})})
    counts = adjustment_counts(testing, position.units, position.centers, testing.rules, phase=W1902)
    assert counts["SOUTHLAND"] == 3  # SHV, SC!, a partisan, a militia; less F SHV
    orders = {"SOUTHLAND": [Build("SOUTHLAND", Unit(A, "WLD")), Build("SOUTHLAND", Unit(A, "RUI")),
                            Build("SOUTHLAND", Unit(A, "SHV"))]}
    res = resolve_adjustments(testing, position, orders, testing.rules)
    assert [(r.results, r.note) for r in res.results] == [((), "hidden"), ((), ""), (VOID, "SHV is occupied")]
    assert res.centers["SOUTHLAND"] == frozenset({"SHV", "WLD"})


def test_testing_map_eastland_alternative_home(testing):
    centers = {"EASTLAND": frozenset({"ECP", "EHV", "GLN"})}
    position = Position(W1902, {"EASTLAND": (Unit(F, "ECP"),)}, centers)
    orders = {"EASTLAND": [Build("EASTLAND", Unit(F, "GLN")), Build("EASTLAND", Unit(A, "EHV"))]}
    res = resolve_adjustments(testing, position, orders, testing.rules)
    assert [r.results for r in res.results if r.order.power == "EASTLAND"] == [(), VOID]


def test_testing_map_northland_factory_claim_and_reserves(testing):
    centers = {"NORTHLAND": frozenset({"KEE", "NHV", "TWN"})}
    position = Position(W1902, {"NORTHLAND": ()}, centers)
    assert adjustment_counts(testing, position.units, centers, testing.rules)["NORTHLAND"] == 4
    orders = {"NORTHLAND": [Build("NORTHLAND", Unit(A, "FRG")), Build("NORTHLAND", Unit(F, "TWN/NC")),
                            Build("NORTHLAND", Unit(A, "KEE")), Build("NORTHLAND", Unit(F, "NHV"))]}
    res = resolve_adjustments(testing, position, orders, testing.rules)
    assert [r.results for r in res.results if r.order.power == "NORTHLAND"] == [(), (), (), ()]
    assert res.homes["NORTHLAND"] == frozenset({"KEE", "NHV", "TWN"})
