"""A dislodged unit's retreats come in the order of its place's ABUTS line, as DPjudge lists them, on
the shipped maps (whose lines keep DPjudge's order) and on a map loaded by path alike."""
from __future__ import annotations

from dataclasses import replace

from judge.mailout.views import dislodgements
from judge.maps.loader import load_map
from judge.types import Unit, UnitType
from tests.support.adjudications import play

A, F = UnitType.ARMY, UnitType.FLEET


def test_retreats_on_the_standard_map_as_dpjudge_lists_them(standard):
    """DPjudge, the same position: `A RUM --> BUD BUL SER` and `F BOT --> FIN STP/SC SWE`."""
    _, resolution = play(standard, "SPRING 1901 MOVEMENT",
                         {"AUSTRIA": ["A RUM", "A GAL", "F BOT"],
                          "RUSSIA": ["A SEV", "F BLA", "A UKR", "F BAL", "F LVN"]},
                         {"RUSSIA": ["A SEV - RUM", "F BLA S A SEV - RUM", "F BAL - BOT",
                                     "F LVN S F BAL - BOT"]})
    assert resolution.dislodged["AUSTRIA"] == {Unit(A, "RUM"): ("BUD", "BUL", "SER"),
                                               Unit(F, "BOT"): ("FIN", "STP/SC", "SWE")}


def test_retreats_follow_the_abuts_line_of_a_map_loaded_by_path(tmp_path):
    path = tmp_path / "ring.map"
    path.write_text("Alpha = alp\nBeta = bet\nGamma = gam\nDelta = del\nZulu = zul\n"
                    "LAND ALP ABUTS ZUL DEL BET GAM\nLAND BET ABUTS ALP ZUL\nLAND GAM ABUTS ALP ZUL\n"
                    "LAND DEL ABUTS ALP\nLAND ZUL ABUTS ALP BET GAM\n"
                    "NORTH (NORTHERN:N) ALP DEL\nA ALP\nSOUTH (SOUTHERN:S) BET GAM\nA BET\nA GAM\n")
    m = load_map(str(path))
    _, resolution = play(m, "SPRING 1901 MOVEMENT", {"NORTH": ["A ALP"], "SOUTH": ["A BET", "A GAM"]},
                         {"SOUTH": ["A BET - ALP", "A GAM S A BET - ALP"]})
    assert resolution.dislodged["NORTH"] == {Unit(A, "ALP"): ("ZUL", "DEL")}


def test_results_name_an_armys_retreats_where_its_line_first_names_the_province(standard):
    """RUM's line names BUL/EC; an army's retreat to BUL comes there, as DPjudge words it
    ("Budapest or Bulgaria or Serbia"), whatever order the retreats were kept in."""
    _, resolution = play(standard, "SPRING 1901 MOVEMENT",
                         {"AUSTRIA": ["A RUM", "A GAL"], "RUSSIA": ["A SEV", "F BLA", "A UKR"]},
                         {"RUSSIA": ["A SEV - RUM", "F BLA S A SEV - RUM"]})
    kept = replace(resolution, dislodged={"AUSTRIA": {Unit(A, "RUM"): ("SER", "BUL", "BUD")}})
    [rumania] = dislodgements(standard, kept)
    assert [p.name for p in rumania.retreats] == ["Budapest", "Bulgaria", "Serbia"]
