"""DPjudge's `SC*` marks: at the year's end a power holding some of its homes but not all gets one
on its OWNS line for each partisan site of its map (Russia's Siberia on 1900), DPjudge's record of
the winter's partisan builds; the winter's adjustments take them off again."""
from __future__ import annotations

from judge.game.process import process_phase
from judge.maps.loader import load_map
from judge.status import parse_status
from judge.types import Phase
from tests.support.games import NOW, round_trip

FALL = """GAME part
PHASE FALL 1901 MOVEMENT
MAP 1900

AUSTRIA
OWNS BUD TRI VIE
A WAR
A BUD
F TRI

RUSSIA
OWNS MOS SEV STP WAR
A MOS
F SEV
F STP/SC
"""


def test_a_power_that_lost_a_home_is_marked_for_its_partisans_until_the_winter_is_played():
    m = load_map("1900")
    winter, _ = process_phase(parse_status(FALL), m, NOW)
    assert winter.phase == Phase("WINTER", 1901, "ADJUSTMENTS")
    assert winter.power("RUSSIA").owns == ("MOS", "SEV", "STP", "SC*")
    assert winter.power("AUSTRIA").owns == ("BUD", "TRI", "VIE", "WAR")
    assert "OWNS MOS SEV STP SC*\n" in round_trip(winter)
    spring, _ = process_phase(winter, m, NOW)
    assert spring.phase == Phase("SPRING", 1902, "MOVEMENT")
    assert spring.power("RUSSIA").owns == ("MOS", "SEV", "STP")


def test_no_mark_under_no_partisans():
    m = load_map("1900")
    winter, _ = process_phase(parse_status(FALL.replace("MAP 1900\n", "MAP 1900\nRULE NO_PARTISANS\n")), m, NOW)
    assert winter.power("RUSSIA").owns == ("MOS", "SEV", "STP")
