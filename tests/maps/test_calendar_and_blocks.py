"""VICTORY, FLOW, BEGIN, RULE, DIRECTIVES stanzas, USE/MAP includes and IN/FROM blocks."""
from __future__ import annotations

import pytest

from judge.errors import MapError
from judge.maps import map_for_phase, Terrain
from judge.maps.model import FlowStep, Stanza
from judge.phases import next_phase, parse_phase
from judge.types import Phase, UnitType
from tests.support.maps import GEOGRAPHY, POWERS, map_from_text, problems

A, F = UnitType.ARMY, UnitType.FLEET


def cal(text: str, **includes):
    return map_from_text(GEOGRAPHY + POWERS + text, **includes)


def test_default_victory_is_more_than_half_the_centres():
    m = cal("")
    assert len(m.supply_centers) == 4 and m.victory == (3,)


def test_victory_per_year_last_repeats():
    m = cal("VICTORY 4 3\n")
    assert m.victory == (4, 3)
    assert (m.victory_in(1901), m.victory_in(1902), m.victory_in(1950)) == (4, 3, 3)


def test_default_flow_and_begin():
    m = cal("")
    assert [s.season for s in m.flow] == ["SPRING", "FALL", "WINTER"]
    assert m.begin == Phase("SPRING", 1901, "MOVEMENT")


def test_custom_flow_with_newyear_and_custom_phase():
    m = cal("FLOW SPRING:MOVEMENT,RETREATS SUMMER:TRADE\nFLOW WINTER:ADJUSTMENTS NEWYEAR:2\n"
            "BEGIN SUMMER 1900 TRADE\n")
    assert m.flow[1] == FlowStep("SUMMER", ("TRADE",))
    assert m.flow[3] == FlowStep("NEWYEAR", newyear=2)
    assert next_phase(m, Phase("SUMMER", 1900, "TRADE")) == Phase("WINTER", 1900, "ADJUSTMENTS")
    assert next_phase(m, Phase("WINTER", 1900, "ADJUSTMENTS")) == Phase("SPRING", 1902, "MOVEMENT")
    assert parse_phase(m, "S1900T") == Phase("SUMMER", 1900, "TRADE")


def test_empty_flow_resets():
    m = cal("FLOW SPRING:MOVEMENT\nFLOW\nFLOW FALL:MOVEMENT\nBEGIN FALL 1901 MOVEMENT\n")
    assert m.flow == (FlowStep("FALL", ("MOVEMENT",)),)


def test_empty_flow_with_nothing_after_reverts_to_default():
    assert [s.season for s in cal("FLOW SPRING:MOVEMENT\nFLOW\n").flow] == ["SPRING", "FALL", "WINTER"]


@pytest.mark.parametrize("divisor_word, year, expected", [
    ("IFYEARDIV:2", 1902, Phase("WINTER", 1902, "ADJUSTMENTS")),
    ("IFYEARDIV:2", 1901, Phase("SPRING", 1902, "MOVEMENT")),
    ("IFYEARDIV:2=1", 1901, Phase("WINTER", 1901, "ADJUSTMENTS")),
    ("IFYEARDIV:2=1", 1902, Phase("SPRING", 1903, "MOVEMENT")),
])
def test_ifyeardiv(divisor_word, year, expected):
    m = cal(f"FLOW SPRING:MOVEMENT,RETREATS FALL:MOVEMENT,RETREATS {divisor_word} WINTER:ADJUSTMENTS\n")
    assert next_phase(m, Phase("FALL", year, "RETREATS")) == expected


@pytest.mark.parametrize("word", ["SPRING", "NEWYEAR:x", "IFYEARDIV:0", "SPRING:MOVE-MENT"])
def test_bad_flow_words(word):
    assert any("FLOW" in p or "NEWYEAR" in p or "IFYEARDIV" in p
               for p in problems(GEOGRAPHY + POWERS + f"FLOW {word}\n"))


def test_phase_types_need_unique_initial_letters():
    found = problems(GEOGRAPHY + POWERS + "FLOW SPRING:MOVEMENT,MARCH\n")
    assert any("initial letter M" in p for p in found)


def test_begin_must_be_in_the_flow():
    assert any("not a phase of the FLOW" in p for p in problems(GEOGRAPHY + POWERS + "BEGIN SUMMER 1901 TRADE\n"))


def test_last_begin_wins():
    assert cal("BEGIN FALL 1901 MOVEMENT\nBEGIN SPRING 1910 MOVEMENT\n").begin.year == 1910


def test_rules_and_negation_after_all_others():
    m = cal("RULE !HOME_BUILDS BUILD_ANY\nRULES HOME_BUILDS NO_CHECK\n")
    assert m.rules == {"BUILD_ANY", "NO_CHECK"}
    assert m.rules_off == {"HOME_BUILDS"}


def test_directive_stanzas_are_kept_as_status_lines():
    m = cal("DIRECTIVES\nRULE NO_PRESS\nEND DIRECTIVES\nPAYOLA DIRECTIVE\nRULE BLIND\nEND DIRECTIVE\n"
            "STANDARD DIRECTIVES\nTIMING MOVE 2D\n")
    assert m.stanzas == (Stanza(None, ("RULE NO_PRESS",)), Stanza("PAYOLA", ("RULE BLIND",)),
                         Stanza("STANDARD", ("TIMING MOVE 2D",)))
    assert "NO_PRESS" not in m.rules


def test_textonly_and_map_directive():
    base = GEOGRAPHY + POWERS
    m = map_from_text("MAP base\nTEXTONLY\n", base__map=base)
    assert m.textonly and m.graphic == "base"
    assert len(m.locations) == 8


def test_use_any_file_name_in_place():
    m = map_from_text("USE geo.geography pol.politics\nAMEND ALP ABUTS ECH\nAMEND ECH ABUTS ALP\n",
                      geo__geography=GEOGRAPHY, pol__politics=POWERS)
    assert "ECH" in m.moves(A, "ALP")


def test_use_loop_is_reported():
    with pytest.raises(MapError) as caught:
        map_from_text("USE other.map\n", other__map="USE main.map\n")
    assert "USE loop: main.map -> other.map -> main.map" in str(caught.value)


def test_missing_include_is_reported_where_used():
    with pytest.raises(MapError) as caught:
        map_from_text(GEOGRAPHY + POWERS + "USE nowhere.geography\n")
    assert any(p.file == "main.map" and "cannot read map file 'nowhere.geography'" in p.message
               for p in caught.value.problems)


# --- IN and FROM ---------------------------------------------------------------------------------

def test_in_one_line_applies_only_in_matching_phases():
    m = cal("IN SPRING: SHUT FOX\n")
    spring = map_for_phase(m, Phase("SPRING", 1902, "MOVEMENT"))
    fall = map_for_phase(m, Phase("FALL", 1902, "MOVEMENT"))
    assert spring.locations["FOX"].terrain is Terrain.SHUT
    assert fall.locations["FOX"].terrain is Terrain.WATER
    assert m.locations["FOX"].terrain is Terrain.WATER


def test_in_block_with_phase_abbreviation_and_from_start():
    m = cal("IN F1902M\nSHUT FOX\nAMEND ALP ABUTS ECH\nAMEND ECH ABUTS ALP\nFROM START\nRULE NO_CHECK\n")
    assert "NO_CHECK" in m.rules
    inside = map_for_phase(m, Phase("FALL", 1902, "MOVEMENT"))
    assert "ECH" in inside.moves(A, "ALP") and inside.locations["FOX"].terrain is Terrain.SHUT
    assert "ECH" not in map_for_phase(m, Phase("FALL", 1903, "MOVEMENT")).moves(A, "ALP")


def test_in_written_phase_prefix_with_year():
    m = cal("IN SPRING 1903: SHUT FOX\n")
    assert map_for_phase(m, Phase("SPRING", 1903, "RETREATS")).locations["FOX"].terrain is Terrain.SHUT
    assert map_for_phase(m, Phase("SPRING", 1904, "MOVEMENT")).locations["FOX"].terrain is Terrain.WATER


def test_from_blocks_apply_once_reached_in_phase_order_then_in():
    m = cal("FROM S1903M\nLAND FOX\nFROM F1902M\nWATER FOX\nSHUT FOX\nFROM START\nIN FALL: PORT FOX\n")
    assert map_for_phase(m, Phase("SPRING", 1902, "MOVEMENT")).locations["FOX"].terrain is Terrain.WATER
    assert map_for_phase(m, Phase("WINTER", 1902, "ADJUSTMENTS")).locations["FOX"].terrain is Terrain.SHUT
    assert map_for_phase(m, Phase("SPRING", 1904, "MOVEMENT")).locations["FOX"].terrain is Terrain.LAND
    assert map_for_phase(m, Phase("FALL", 1904, "MOVEMENT")).locations["FOX"].terrain is Terrain.PORT


def test_from_needs_a_movement_phase_abbreviation():
    assert any("FROM takes movement phase abbreviations" in p
               for p in problems(GEOGRAPHY + POWERS + "FROM SPRING\nSHUT FOX\n"))


def test_errors_inside_a_dynamic_block_are_reported_at_load():
    found = problems(GEOGRAPHY + POWERS + "IN SPRING: AMEND ALP ABUTS QQQ\n")
    assert any("ALP ABUTS QQQ: no such place" in p for p in found)


def test_map_without_dynamic_blocks_is_its_own_map_in_every_phase():
    m = cal("")
    assert map_for_phase(m, Phase("FALL", 1950, "MOVEMENT")) is m


def test_morph_lines_end_the_map():
    from judge.maps import parse_map
    from tests.support.maps import text_loader
    m = parse_map("main.map", text_loader({"main.map": GEOGRAPHY + POWERS}),
                  extra=["AMEND ALP ABUTS ECH", "AMEND ECH ABUTS ALP", "IN FALL: SHUT FOX"])
    assert "ECH" in m.moves(A, "ALP")
    assert map_for_phase(m, Phase("FALL", 1901, "MOVEMENT")).locations["FOX"].terrain is Terrain.SHUT


def test_bad_morph_line_is_reported_as_morph():
    from judge.maps import parse_map
    from tests.support.maps import text_loader
    with pytest.raises(MapError) as caught:
        parse_map("main.map", text_loader({"main.map": GEOGRAPHY + POWERS}), extra=["AMEND ALP ABUTS QQQ"])
    assert str(caught.value.problems[0]).startswith("MORPH:1: ALP ABUTS QQQ")


def test_in_with_nothing_after_the_colon_is_an_error():
    assert any("nothing after the colon of IN" in p for p in problems(GEOGRAPHY + POWERS + "IN 0:\n"))
