"""The map features that change builds and counts, where a case table cannot say it: the counts of
builds (factories, partisans, alternative homes, SC! and SC? tokens, RESERVES, MILITIA), the homes
after a phase (claims, NEWHOMES), the note on a hidden build. The builds themselves are cases of
tables/builds.txt (run by test_tables.py), on the same small maps (tables/maps/)."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.adjudicator.adjustments import resolve_adjustments
from judge.adjudicator.builds import (
    adjustment_counts,
    is_first_adjustment,
    needs_adjustments,
)
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
GEOGRAPHY = (Path(__file__).parent / "tables" / "maps" / "north.geography").read_text(encoding="utf-8")


def tiny(north: str, extra: str = ""):
    """The tiny map with NORTH declared by `north` (a power line and what follows it)."""
    return map_from_text(f"USE north.geography\n{north}\n{extra}", north__geography=GEOGRAPHY)


def adjust(m, owned, units=(), orders=(), rules=(), phase=W1901A, homes=None):
    centers = {"NORTH": frozenset(owned), "SOUTH": frozenset({"EEE"})}
    position = Position(phase, {"NORTH": tuple(units)}, centers, homes=homes)
    given = {"NORTH": [Build("NORTH", Unit(A, site)) for site in orders]}
    return resolve_adjustments(m, position, given, frozenset(rules))


def words(resolution):
    return [r.results for r in resolution.results if r.order.power == "NORTH"]


def count(m, owned, units=(), rules=(), phase=W1901A, homes=None):
    centers = {"NORTH": frozenset(owned)}
    return adjustment_counts(m, {"NORTH": tuple(units)}, centers, frozenset(rules), homes=homes,
                             phase=phase)["NORTH"]


# --- factories, partisans, alternative homes: sites, not builds ---------------------------------------

def test_a_factory_adds_a_site_not_a_build():
    m = tiny("NORTH AAA BBB +FRT")
    assert "FRT" not in m.supply_centers
    assert count(m, {"AAA", "BBB"}) == 2


def test_partisans_count_while_some_but_not_all_homes_are_owned():
    assert count(tiny("NORTH AAA BBB *HIL"), {"AAA", "CCC"}) == 3  # DPjudge counts each partisan site


@pytest.mark.parametrize("owned", [{"AAA", "BBB"}, {"CCC"}])
def test_no_partisans_counted_with_all_homes_or_none(owned):
    assert count(tiny("NORTH AAA BBB *HIL"), owned) == len(owned)


def test_no_partisans_rule_counts_none():
    assert count(tiny("NORTH AAA BBB *HIL"), {"AAA", "CCC"}, rules={"NO_PARTISANS"}) == 2


def test_russian_partisans_in_siberia_on_the_1900_map():
    m = load_map("1900")
    assert m.powers["RUSSIA"].partisans == ("SIB",)
    counts = adjustment_counts(m, {"RUSSIA": ()}, {"RUSSIA": frozenset({"MOS", "SEV", "WAR"})})
    assert counts["RUSSIA"] == 4


def test_alternative_homes_give_sites_not_builds():
    assert count(tiny("NORTH AAA BBB @CCC(AAA)"), {"AAA", "BBB", "CCC"}, units=[Unit(A, "EEE")] * 2) == 1


# --- claims `&SC` and NEWHOMES: the homes after the phase ----------------------------------------------

def test_a_claimed_centre_becomes_a_home():
    res = adjust(tiny("NORTH AAA BBB &SC"), {"AAA", "BBB", "CCC", "DDD"}, orders=["CCC", "DDD"])
    assert res.homes["NORTH"] == frozenset({"AAA", "BBB", "CCC"})
    assert res.homes["SOUTH"] == frozenset({"EEE"})


def test_a_used_claim_is_gone():
    m = tiny("NORTH AAA BBB &SC")
    homes = {"NORTH": frozenset({"AAA", "BBB", "CCC"}), "SOUTH": frozenset({"EEE"})}
    res = adjust(m, {"AAA", "BBB", "CCC", "DDD"}, orders=["DDD", "CCC"], homes=homes)
    assert words(res) == [VOID, ()]


def test_no_homes_change_without_a_claim():
    res = adjust(tiny("NORTH AAA BBB"), {"AAA", "BBB"}, orders=["AAA"])
    assert res.homes is None


def test_newhomes_makes_owned_centres_homes():
    res = adjust(tiny("NORTH AAA BBB", "NEWHOMES 1901\n"), {"AAA", "CCC"}, orders=["CCC"])
    assert res.homes["NORTH"] == frozenset({"AAA", "CCC"})
    assert res.homes["SOUTH"] == frozenset({"EEE"})


# --- SC! and SC? tokens (the game's first adjustment phase) --------------------------------------------

FIRST = "BEGIN WINTER 1901 ADJUSTMENTS\n"


def test_sc_bang_counts_a_vacant_home():
    assert count(tiny("NORTH AAA BBB\nOWNS AAA SC!", FIRST), {"AAA"}) == 2


def test_tokens_count_only_in_the_first_adjustment_phase():
    m = tiny("NORTH AAA BBB\nOWNS AAA SC!", FIRST)
    assert is_first_adjustment(m, W1901A) and not is_first_adjustment(m, W1902A)
    assert count(m, {"AAA"}, phase=W1902A) == 1


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
    units = {"NORTH": (Unit(A, "AAA"), Unit(A, "FRT"), Unit(A, "HIL"))}
    assert not needs_adjustments(m, units, {"NORTH": frozenset({"AAA", "BBB"})})


# --- maps/testing.map ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def testing():
    return load_map("testing")


W1902 = Phase("WINTER", 1902, "ADJUSTMENTS")  # the first adjustment phase: BEGIN SPRING 1902 MOVEMENT


def test_testing_map_southland_counts_and_its_hidden_build(testing):
    position = Position(W1902, {"SOUTHLAND": (Unit(F, "SHV"),)}, {"SOUTHLAND": frozenset({"SHV"})})
    counts = adjustment_counts(testing, position.units, position.centers, testing.rules, phase=W1902)
    assert counts["SOUTHLAND"] == 3  # SHV, SC!, a partisan, a militia; less F SHV
    orders = {"SOUTHLAND": [Build("SOUTHLAND", Unit(A, "WLD")), Build("SOUTHLAND", Unit(A, "RUI")),
                            Build("SOUTHLAND", Unit(A, "SHV"))]}
    res = resolve_adjustments(testing, position, orders, testing.rules)
    assert [(r.results, r.note) for r in res.results] == [((), "hidden"), ((), ""), (VOID, "SHV is occupied")]


def test_testing_map_northland_counts_and_its_claim(testing):
    centers = {"NORTHLAND": frozenset({"KEE", "NHV", "TWN"})}
    position = Position(W1902, {"NORTHLAND": ()}, centers)
    assert adjustment_counts(testing, position.units, centers, testing.rules)["NORTHLAND"] == 4
    orders = {"NORTHLAND": [Build("NORTHLAND", Unit(A, "FRG")), Build("NORTHLAND", Unit(F, "TWN/NC")),
                            Build("NORTHLAND", Unit(A, "KEE")), Build("NORTHLAND", Unit(F, "NHV"))]}
    res = resolve_adjustments(testing, position, orders, testing.rules)
    assert res.homes["NORTHLAND"] == frozenset({"KEE", "NHV", "TWN"})
