"""Power lines and the political and military directives."""
from __future__ import annotations

import pytest

from judge.errors import MapError
from judge.maps.model import AltHome, League
from judge.types import Unit, UnitType
from tests.support.maps import GEOGRAPHY, map_from_text, problems

A, F = UnitType.ARMY, UnitType.FLEET


def pol(text: str):
    return map_from_text(GEOGRAPHY + text)


def test_power_line_with_own_word_and_abbreviation():
    m = pol("NORTH (NORTHERN:Q) ALP BRA\nA ALP\n")
    north = m.powers["NORTH"]
    assert (north.display, north.adjective, north.abbrev) == ("North", "Northern", "Q")
    assert north.homes == ("ALP", "BRA") and north.centers == ("ALP", "BRA")
    assert north.units == (Unit(A, "ALP"),)


@pytest.mark.parametrize("line, adjective, abbrev", [
    ("NORTH ALP", "North", "N"),
    ("NORTH () ALP", "North", "N"),
    ("NORTH (Nordic) ALP", "Nordic", "N"),
    ("NORTH (:X) ALP", "North", "X"),
    ("NORTH (NORTH+SEA) ALP", "North Sea", "N"),
])
def test_own_word_and_abbreviation_defaults(line, adjective, abbrev):
    north = pol(line + "\n").powers["NORTH"]
    assert (north.adjective, north.abbrev) == (adjective, abbrev)


@pytest.mark.parametrize("written, name, display", [
    ("_NORTH", "_NORTH", "North"), ("U+S+A", "USA", "USA"), ("New+York", "NEWYORK", "NewYork"),
    ("St+Petersburg", "STPETERSBURG", "StPetersburg"), ("B.C.", "BC", "B.c."),
    ("Gulf+of+Lyon", "GULF\\LYON", "GulfOfLyon"), ("Poland-Lithuania", "POLANDLITHUANIA", "Poland-lithuania"),
])
def test_power_names_as_dpjudge_keeps_them(written, name, display):
    """The name status files and commands use is DPjudge's reading of the word; results show the
    word as written."""
    m = pol(f"{written} ALP\n")
    assert list(m.powers) == [name] and m.powers[name].display == display


@pytest.mark.parametrize("line, letter", [
    ("TURKEY (OTTOMAN) ALP", "T"),  # the name's first letter, not the adjective's
    ("HOLLAND (Dutch) ALP", "H"),
    ("TUNIS (Tunisian:6) ALP", "6"),
    ("NORTH (:xy) ALP", "X"),  # one letter, upper case
    ("_NORTH ALP", "_"),
])
def test_power_letters_as_dpjudge_gives_them(line, letter):
    assert next(iter(pol(line + "\n").powers.values())).abbrev == letter


def test_directives_name_powers_as_their_lines_do():
    m = pol("St+Petersburg ALP\nNEW+YORK BRA\nCONTROL ST+PETERSBURG\nDUMMY St+Petersburg\n")
    assert m.powers["STPETERSBURG"].dummy and m.powers["NEWYORK"].control == ("STPETERSBURG",)


def test_several_lines_for_one_power_accumulate():
    m = pol("NORTH ALP\nSOUTH ECH\nNORTH BRA\n")
    assert m.powers["NORTH"].homes == ("ALP", "BRA")


def test_rename_power():
    m = pol("NORTH (NORTHERN) ALP\nA ALP\nNORTH -> BOREAL (BOREAN)\n")
    assert "NORTH" not in m.powers
    assert m.powers["BOREAL"].adjective == "Borean"
    assert m.powers["BOREAL"].units == (Unit(A, "ALP"),)


def test_centre_prefixes():
    m = pol("NORTH ALP ~BRA +ECH *FOX @DEL(ALP) &SC &SC\nUNOWNED CHS\n")
    north = m.powers["NORTH"]
    assert north.homes == ("ALP", "BRA")
    assert north.hidden == ("BRA",)
    assert north.factories == ("ECH",) and north.partisans == ("FOX",)
    assert north.alt_homes == (AltHome("DEL", ("ALP",)),)
    assert north.claims == 2
    assert "ECH" not in m.supply_centers and "DEL" in m.supply_centers


def test_alternative_homes_are_owned_at_the_start_without_owns():
    assert pol("NORTH ALP @BRA(ALP)\n").powers["NORTH"].centers == ("ALP", "BRA")
    assert pol("NORTH ALP @BRA(ALP)\nOWNS ALP\n").powers["NORTH"].centers == ("ALP",)


def test_hidden_alternative_home():
    north = pol("NORTH ALP ~@DEL\n").powers["NORTH"]
    assert north.hidden == ("DEL",) and north.alt_homes == (AltHome("DEL", ()),)


def test_removing_a_home_makes_it_unowned():
    m = pol("NORTH ALP BRA\nNORTH -BRA\n")
    assert m.powers["NORTH"].homes == ("ALP",)
    assert "BRA" in m.unowned


def test_removing_from_unowned_stops_being_a_centre():
    m = pol("NORTH ALP BRA\nNORTH -BRA\nUNOWNED -BRA\n")
    assert "BRA" not in m.supply_centers


@pytest.mark.parametrize("keyword", ["UNOWNED", "NEUTRAL", "CENTERS"])
def test_unowned_forms(keyword):
    m = pol(f"NORTH ALP\nUNOWNED\n{keyword} DEL ECH\n")
    assert m.unowned == ("DEL", "ECH")


def test_unowned_centre_listed_for_a_power_becomes_owned():
    m = pol("UNOWNED DEL ECH\nNORTH ALP DEL\n")
    assert m.unowned == ("ECH",)


def test_unowned_forgets_the_current_power():
    with pytest.raises(MapError) as caught:
        pol("NORTH ALP\nUNOWNED DEL\nA ALP\n")
    assert "must follow a power line" in str(caught.value)


def test_owns_and_its_build_marks():
    north = pol("NORTH ALP BRA\nOWNS ALP DEL SC! SC! SC?\n").powers["NORTH"]
    assert north.centers == ("ALP", "DEL")
    assert north.build_and_own == 2 and north.build_unowned == 1


def test_owns_mark_on_a_named_centre_is_an_error():
    assert any("written SC!" in p for p in problems(GEOGRAPHY + "NORTH ALP\nOWNS BRA!\n"))


def test_centers_after_a_power_resets_owns():
    north = pol("NORTH ALP BRA\nOWNS ALP\nCENTERS BRA\n").powers["NORTH"]
    assert north.centers == ("BRA",)


def test_centers_with_no_centre_means_none():
    assert pol("NORTH ALP BRA\nCENTERS\nA ALP\n").powers["NORTH"].centers == ()


def test_inhabits_overrides_power_line_homes_then_adds():
    north = pol("NORTH ALP +ECH\nINHABITS BRA\nINHABITS DEL\n").powers["NORTH"]
    assert north.homes == ("BRA", "DEL") and north.factories == ()


def test_homes_forgets_earlier_inhabits():
    north = pol("NORTH ALP\nINHABITS BRA\nHOMES DEL\nOWNS ALP\n").powers["NORTH"]
    assert north.homes == ("DEL",)


def test_homes_with_nothing_leaves_no_build_sites():
    north = pol("NORTH ALP\nHOMES\nOWNS ALP\n").powers["NORTH"]
    assert north.homes == () and north.centers == ("ALP",)


def test_units_directive_forgets_earlier_units():
    north = pol("NORTH ALP BRA\nA ALP\nUNITS\nF BRA\n").powers["NORTH"]
    assert north.units == (Unit(F, "BRA"),)


def test_a_unit_replaces_any_unit_in_the_same_space():
    m = pol("NORTH ALP\nA ALP\nSOUTH ECH\nA ALP\n")
    assert m.powers["NORTH"].units == () and m.powers["SOUTH"].units == (Unit(A, "ALP"),)


@pytest.mark.parametrize("directive, count", [("RESERVES", 1), ("RESERVES 3", 3)])
def test_reserves(directive, count):
    assert pol(f"NORTH ALP\n{directive}\n").powers["NORTH"].reserves == count


def test_militia_last_line_wins():
    assert pol("NORTH ALP\nMILITIA 2\nMILITIA\n").powers["NORTH"].militia == 1


@pytest.mark.parametrize("line, league", [
    ("LEAGUE ALPS", League("ALPS")),
    ("LEAGUE ALPS STRICT", League("ALPS", "STRICT")),
    ("LEAGUE ALPS BENIGN SEAS", League("ALPS", "BENIGN", ("ALPS", "SEAS"))),
])
def test_league(line, league):
    assert pol(f"NORTH ALP\n{line}\n").powers["NORTH"].league == league


@pytest.mark.parametrize("lines, dummies", [
    ("NORTH ALP\nDUMMY\nSOUTH ECH\n", {"NORTH"}),
    ("NORTH ALP\nSOUTH ECH\nDUMMY ALL\n", {"NORTH", "SOUTH"}),
    ("NORTH ALP\nSOUTH ECH\nDUMMIES ALL EXCEPT SOUTH\n", {"NORTH"}),
    ("NORTH ALP\nSOUTH ECH\nDUMMIES SOUTH\n", {"SOUTH"}),
])
def test_dummy_forms(lines, dummies):
    m = pol(lines)
    assert {n for n, p in m.powers.items() if p.dummy} == dummies


def test_control_of_a_dummy():
    m = pol("NORTH ALP\nSOUTH ECH\nDUMMY\nCONTROL NORTH\n")
    assert m.powers["SOUTH"].control == ("NORTH",)


def test_control_of_unknown_power_is_an_error():
    assert any("CONTROL names unknown power WEST" in p
               for p in problems(GEOGRAPHY + "NORTH ALP\nCONTROL WEST\n"))


@pytest.mark.parametrize("lines, left", [
    ("NORTH ALP\nSOUTH ECH\nUNPLAYED\n", {"NORTH"}),
    ("NORTH ALP\nSOUTH ECH\nUNPLAYED NORTH\n", {"SOUTH"}),
    ("NORTH ALP\nSOUTH ECH\nWEST DEL\nUNPLAYED ALL EXCEPT WEST\n", {"WEST"}),
    ("NORTH ALP\nSOUTH ECH\nUNPLAYED ALL\nWEST DEL\n", {"WEST"}),
    ("NORTH ALP\nSOUTH ECH\nWEST DEL\nUNPLAYED NORTH, SOUTH\n", {"WEST"}),  # the diplomacy package's
    ("NORTH ALP\nSOUTH ECH\nWEST DEL\nUNPLAYED NORTH,SOUTH\n", {"WEST"}),
    ("NORTH ALP\nSOUTH ECH\nWEST DEL\nUNPLAYED ALL EXCEPT NORTH , WEST\n", {"NORTH", "WEST"}),
])
def test_unplayed_forms(lines, left):
    m = pol(lines)
    assert set(m.powers) == left
    assert "ALP" in m.supply_centers  # the centres stay, unowned


def test_dummies_separated_by_commas():
    m = pol("NORTH ALP\nSOUTH ECH\nWEST DEL\nDUMMIES NORTH, WEST\n")
    assert {n for n, p in m.powers.items() if p.dummy} == {"NORTH", "WEST"}


def test_unknown_power_in_selection_is_an_error():
    assert any("no such power: WEST" in p for p in problems(GEOGRAPHY + "NORTH ALP\nDUMMIES WEST\n"))


def test_flag_and_flags():
    m = pol("FLAGS standard other\nNORTH ALP\nFLAG SOUTH\n")
    assert m.flags == ("standard", "other") and m.powers["NORTH"].flag == "SOUTH"


def test_empty_flags_means_no_flags():
    assert pol("FLAGS\nNORTH ALP\n").flags == ()


def test_newhomes_years():
    assert pol("NORTH ALP\nNEWHOMES 1905 1903\n").newhomes == (1903, 1905)


def test_notify_addresses():
    assert pol("NOTIFY gm@example.org\nNORTH ALP\n").notify == ("gm@example.org",)


@pytest.mark.parametrize("line, rotate", [
    ("ROTATE", ("CONTROL",)[:0]), ("ROTATE CONTROL", ("CONTROL",)),
    ("ROTATE AFTER", ("AFTER",)), ("ROTATE AFTER MOVEMENT", ("AFTER", "MOVEMENT")),
    ("ROTATE BEFORE ADJUSTMENTS", ("BEFORE", "ADJUSTMENTS")), ("ROTATE FOR MOVEMENT", ("FOR", "MOVEMENT")),
])
def test_rotate_forms(line, rotate):
    assert pol(f"NORTH ALP\n{line}\n").rotate == rotate


def test_bad_rotate_is_an_error():
    assert any("ROTATE takes" in p for p in problems(GEOGRAPHY + "NORTH ALP\nROTATE SIDEWAYS\n"))


@pytest.mark.parametrize("line, message", [
    ("A ZZZ", "unit A ZZZ: no such place"),
    ("F ALP", "a fleet cannot stand on Alpha"),
    ("A CHS", "an army cannot stand on Charlie Sea"),
    ("F DEL", "a fleet cannot stand on Delta"),
    ("A DEL/NC", "an army cannot stand on Delta (north coast)"),
])
def test_units_on_impossible_terrain(line, message):
    found = problems(GEOGRAPHY + f"NORTH ALP\n{line}\n")
    assert any(message in p for p in found), found


def test_unit_without_a_power_is_an_error():
    assert any("must follow a power line" in p for p in problems(GEOGRAPHY + "A ALP\n"))


def test_centre_that_is_not_a_place():
    assert any("NORTH: centre QQQ is not a place" in p for p in problems(GEOGRAPHY + "NORTH ALP QQQ\n"))


def test_misspelt_directive_is_reported():
    found = problems(GEOGRAPHY + "NORTH ALP\nVICTROY 18\n")
    assert any("misspelt directive" in p and "main.map:" in p for p in found), found


def test_claim_must_be_written_and_sc():
    assert any("claim is written &SC" in p for p in problems(GEOGRAPHY + "NORTH ALP &BRA\n"))
