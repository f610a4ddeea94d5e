"""Place lines and terrain lines: aliases, renames, case rules, restrictions, AMEND, DROP."""
from __future__ import annotations

import pytest

from judge.maps import Terrain
from judge.types import Unit, UnitType
from tests.support.maps import GEOGRAPHY, POWERS, map_from_text, problems

A, F = UnitType.ARMY, UnitType.FLEET


def geo(extra: str = "", powers: str = POWERS):
    return map_from_text(GEOGRAPHY + extra + powers)


def test_place_names_and_aliases():
    m = geo()
    assert m.locations["CHS"].name == "Charlie Sea"
    assert m.lookup("charlie sea") == ("CHS",)
    assert m.lookup("Charlie+Sea") == ("CHS",)
    assert m.lookup("alfa") == ("ALP",)
    assert m.lookup("ALP") == ("ALP",)


def test_ambiguous_alias_means_both_places():
    assert set(geo().lookup("cs")) == {"CHS", "ECH"}


def test_question_mark_leaves_an_abbreviation_to_its_place():
    """As DPjudge reads it: `alp?` on Charlie Sea does not take ALP from Alpha."""
    m = geo("Charlie Sea = chs charlie+sea cs? alp?\n")
    assert m.lookup("ALP") == ("ALP",)
    assert "ALP" in m.ambiguous and "CS" in m.ambiguous and "BRA" not in m.ambiguous


def test_a_name_given_without_question_mark_wins_over_one_marked():
    m = geo("Alpha = alp ridge\nCharlie Sea = chs charlie+sea cs? ridge?\n")
    assert m.lookup("ridge") == ("ALP",)


def test_ambiguous_alias_may_not_have_plus():
    assert any("may not contain '+'" in p for p in problems(GEOGRAPHY.replace("cs?", "c+s?") + POWERS))


def test_conflicting_alias_without_question_mark_is_a_warning():
    m = geo("Alpha = alp bravo+land\nBravo = bra bravo+land\n")
    assert m.lookup("bravo land") == ("ALP", "BRA")
    assert any("names both ALP and BRA" in str(w) for w in m.warnings)


def test_alias_equal_to_another_abbreviation_keeps_meaning_that_place():
    m = geo("Alpha = alp bra\n")
    assert m.lookup("BRA") == ("BRA",)
    assert m.warnings


def test_terrain_types_and_fleet_inaccessible_space():
    m = geo()
    assert m.locations["ALP"].terrain is Terrain.LAND
    assert m.locations["CHS"].terrain is Terrain.WATER
    assert not m.locations["DEL"].fleet_ok and m.locations["DEL/NC"].fleet_ok
    assert not m.can_stand(Unit(F, "DEL")) and m.can_stand(Unit(F, "DEL/NC"))
    assert m.can_stand(Unit(A, "DEL")) and not m.can_stand(Unit(A, "DEL/NC"))


def test_lower_case_adjacency_blocks_fleets_only():
    m = geo()
    assert m.abut(A, "BRA", "DEL") is not None  # `del`: armies may cross
    assert "DEL/NC" not in m.moves(F, "BRA")  # and no fleet may
    assert m.moves(F, "BRA") == ("CHS", "ECH")


def test_army_moves_use_provinces_fleet_moves_use_coasts():
    m = geo()
    assert m.moves(A, "ALP") == ("BRA", "DEL")
    assert m.moves(F, "CHS") == ("BRA", "DEL/NC", "ECH", "FOX")
    assert m.moves(F, "DEL/SC") == ("FOX",)
    assert m.moves(A, "DEL") == ("ALP", "BRA")


def test_capitalised_adjacency_blocks_direct_army_moves():
    m = geo("PORT CHS ABUTS Bra DEL/NC ECH FOX\nAMEND BRA ABUTS -CHS Chs\n")
    assert m.abut(A, "BRA", "CHS") is None
    assert m.abut(F, "BRA", "CHS") is not None
    assert m.locations["CHS"].terrain is Terrain.PORT


def test_army_may_enter_a_port():
    m = geo("PORT CHS ABUTS BRA DEL/NC ECH FOX\n")
    assert "CHS" in m.moves(A, "BRA")
    assert m.can_stand(Unit(A, "CHS"))


def test_power_restricted_adjacency():
    m = geo("AMEND ECH ABUTS N:ALP\nAMEND ALP ABUTS ECH\n")
    abut = m.abut(A, "ECH", "ALP")
    assert abut.powers == frozenset("N")
    assert abut.allows("N", frozenset()) and not abut.allows("Z", frozenset())


def test_one_way_adjacency_declared_with_colon():
    m = geo("AMEND ALP ABUTS ECH\nAMEND ECH ABUTS :ALP\n")
    assert m.abut(A, "ALP", "ECH") is not None
    assert m.abut(A, "ECH", "ALP") is None
    assert "ALP" not in m.moves(A, "ECH")


def test_undeclared_one_way_adjacency_is_an_error():
    found = problems(GEOGRAPHY + "AMEND ALP ABUTS ECH\n" + POWERS)
    assert any("one-way adjacency ALP -> ECH" in p and "main.map:" in p for p in found)


def test_centre_ownership_restriction():
    m = geo("AMEND ALP ABUTS ECH(DEL,BRA)\nAMEND ECH ABUTS ALP\n")
    abut = m.abut(A, "ALP", "ECH")
    assert abut.centers == {"DEL", "BRA"}
    assert abut.allows("N", {"DEL", "BRA", "ALP"}) and not abut.allows("N", {"DEL"})


@pytest.mark.parametrize("word, special", [("~ECH", {"~"}), ("ECH*", {"*"}), ("N:~ECH", {"~"})])
def test_special_crossings(word, special):
    m = geo(f"AMEND ALP ABUTS {word}\nAMEND ECH ABUTS ALP\n")
    assert m.abut(A, "ALP", "ECH").special == special


def test_unknown_special_restriction_is_an_error():
    assert any("unknown special restriction '!'" in p
               for p in problems(GEOGRAPHY + "AMEND ALP ABUTS !ECH\n" + POWERS))


def test_amend_adds_and_removes_adjacencies():
    m = geo("AMEND ALP ABUTS -del ECH\nAMEND del ABUTS -ALP\nAMEND ECH ABUTS ALP\n")
    assert m.moves(A, "ALP") == ("BRA", "ECH")
    assert m.locations["ALP"].terrain is Terrain.LAND


def test_amend_of_unknown_adjacency_is_an_error():
    assert any("cannot remove FOX" in p for p in problems(GEOGRAPHY + "AMEND ALP ABUTS -FOX\n" + POWERS))


def test_removal_outside_amend_is_an_error():
    assert any("only allowed on an AMEND" in p for p in problems(GEOGRAPHY + "LAND ALP ABUTS -BRA\n" + POWERS))


def test_terrain_line_supplants_earlier_one():
    m = geo("WATER FOX ABUTS CHS ECH\nCOAST DEL/SC ABUTS\nAMEND del ABUTS -FOX\n")
    assert m.moves(F, "FOX") == ("CHS", "ECH")


def test_terrain_line_without_abuts_changes_only_the_terrain():
    m = geo("PORT CHS\n")
    assert m.locations["CHS"].terrain is Terrain.PORT
    assert m.moves(F, "CHS") == ("BRA", "DEL/NC", "ECH", "FOX")


def test_amend_with_lower_case_makes_space_fleet_inaccessible():
    m = geo("AMEND ech\n", powers=POWERS.replace("F ECH", "A ECH"))
    assert not m.locations["ECH"].fleet_ok
    assert m.moves(A, "ECH") == ("BRA",)


def test_shut_space_cannot_be_entered():
    m = geo("SHUT ALP ABUTS BRA del\n", powers=POWERS.replace("A ALP\n", ""))
    assert "ALP" not in m.moves(A, "BRA")
    assert not m.can_stand(Unit(A, "ALP"))


def test_rename_place_moves_every_reference():
    m = map_from_text(GEOGRAPHY + POWERS + "ALP -> Alpine Fort = apf alpine\n")
    assert "ALP" not in m.locations
    assert m.locations["APF"].name == "Alpine Fort"
    assert "APF" in m.moves(A, "BRA")
    assert m.powers["NORTH"].homes == ("APF", "BRA")
    assert Unit(A, "APF") in m.powers["NORTH"].units
    assert m.lookup("alfa") == () and m.lookup("alpine") == ("APF",)


def test_rename_of_unknown_place_is_an_error():
    assert any("cannot rename XYZ" in p for p in problems("XYZ -> Nowhere = now\n" + GEOGRAPHY + POWERS))


def test_drop_removes_province_with_its_coasts_and_references():
    m = map_from_text(GEOGRAPHY + POWERS + "DROP DEL\n")
    assert not any(a.startswith("DEL") for a in m.locations)
    assert m.moves(A, "ALP") == ("BRA",)
    assert m.moves(F, "FOX") == ("CHS", "ECH")
    assert "DEL" not in m.supply_centers


def test_drop_of_one_coast_keeps_the_province():
    m = geo("DROP DEL/SC\nAMEND del ABUTS -FOX\n")
    assert "DEL" in m.locations and "DEL/SC" not in m.locations
    assert m.moves(F, "FOX") == ("CHS", "ECH")


@pytest.mark.parametrize("line, message", [
    ("Toolong = abcd", "bad abbreviation 'abcd'"),
    ("Under = _ab", "bad abbreviation '_ab'"),
    ("COAST ZZZ ABUTS ALP", "unknown abbreviation ZZZ"),
    ("Zulu = zul", "place ZUL (Zulu) has no terrain line"),
    ("AMEND ALP ABUTS QQQ", "ALP ABUTS QQQ: no such place"),
    ("LAND ALP ABUTZ BRA", "expected ABUTS"),
    ("AMEND QQQ ABUTS ALP", "AMEND QQQ: it has no terrain line yet"),
])
def test_geography_errors_name_file_and_line(line, message):
    text = GEOGRAPHY + line + "\n" + POWERS
    number = text.splitlines().index(line) + 1 if "Zulu" not in line and "ZZZ" not in line else None
    found = problems(text)
    assert any(message in p for p in found), found
    if number:
        assert any(p.startswith(f"main.map:{number}:") for p in found if message in p)


def test_all_problems_reported_at_once():
    found = problems(GEOGRAPHY + "AMEND ALP ABUTS QQQ\nAMEND BRA ABUTS RRR\n" + POWERS)
    assert len([p for p in found if "no such place" in p]) == 2


def test_comments_and_blank_lines_are_ignored():
    m = geo("# a comment\n   # indented comment\n\n")
    assert len(m.locations) == 8


@pytest.mark.parametrize("line, abbrev", [
    ("Coast of Gold = cog", "COG"),  # starts with a terrain keyword
    ("Use Valley = usv", "USV"),  # starts with a directive keyword
    ("S:t Golf = stg", "STG"),  # holds a colon
])
def test_place_names_that_look_like_directives(line, abbrev):
    m = geo(f"{line}\nLAND {abbrev} ABUTS ALP\nAMEND ALP ABUTS {abbrev}\n")
    assert m.locations[abbrev].name == line.split(" = ")[0]
