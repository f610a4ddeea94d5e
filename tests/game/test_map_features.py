"""The phases of the testing map: its custom FLOW (an INCOME phase the Master processes, NEWYEAR),
its BEGIN, and the map in force changing by phase (IN SPRING, FROM S1903M)."""
from __future__ import annotations

import pytest

from judge.game import join, on_process, readiness
from judge.status.model import PhaseMode
from judge.types import Phase
from tests.support.games import DAY, NOW, everyone_orders, forming, player, round_trip


def started(testing, *lines):
    s = forming(*lines, map_name="testing")
    for n in range(3):
        s, _ = join(s, testing, NOW, player(n), "pw")
    return s


def test_a_fleet_sails_into_the_spring_thaw_and_hibernates_in_fall(testing):
    s = everyone_orders(started(testing), {"EASTLAND": ["F ECP - ICE"]})
    s, events = on_process(s, testing, NOW + 3 * DAY, force=True)
    assert events[-1].skipped == (Phase("SPRING", 1902, "RETREATS"),)
    assert s.phase == Phase("FALL", 1902, "MOVEMENT") and "F ICE" in [str(u) for u in s.power("EASTLAND").units]
    round_trip(s)


def test_without_hibernate_the_frozen_fleet_is_lost(testing):
    s = everyone_orders(started(testing, "RULE !HIBERNATE"), {"EASTLAND": ["F ECP - ICE"]})
    s, events = on_process(s, testing, NOW + 3 * DAY, force=True)
    assert {p: [str(u) for u in us] for p, us in events[-1].lost.items()} == {"EASTLAND": ["F ICE"]}
    assert [str(u) for u in s.power("EASTLAND").units] == ["A EHV"]


def test_the_income_phase_waits_for_the_master_then_a_new_year_begins(testing):
    s = started(testing)
    for day in (3, 4):
        s, _ = on_process(s, testing, NOW + day * DAY, force=True)
    assert s.phase == Phase("WINTER", 1902, "ADJUSTMENTS")
    s, _ = on_process(s, testing, NOW + 5 * DAY, force=True)
    assert (s.phase, s.phase_mode) == (Phase("WINTER", 1902, "INCOME"), PhaseMode.WAIT)
    assert round_trip(s).startswith("GAME demo\nWAIT WINTER 1902 INCOME\n")
    state = readiness(s, testing, NOW + 5 * DAY)
    assert not state.ready and "WAIT" in state.reason
    assert readiness(s, testing, NOW + 30 * DAY).ready  # the deadline passing processes it too
    s, events = on_process(s, testing, NOW + 6 * DAY, force=True)
    assert events[-1].resolution is None and s.phase == Phase("SPRING", 1903, "MOVEMENT")
    assert s.phase_mode is PhaseMode.PHASE


def test_the_mountain_pass_opens_from_spring_1903(testing):
    s = everyone_orders(started(testing), {"EASTLAND": ["A EHV - MTN"]})
    s, events = on_process(s, testing, NOW + 3 * DAY, force=True)
    first = events[-1].resolution.results[0]
    assert str(first.order) == "A EHV - MTN" and first.results  # SHUT in 1902: void
    assert "A EHV" in [str(u) for u in s.power("EASTLAND").units]
    for day in (4, 5, 6):
        s, _ = on_process(s, testing, NOW + day * DAY, force=True)
    assert s.phase == Phase("SPRING", 1903, "MOVEMENT")
    s = everyone_orders(s, {"EASTLAND": ["A EHV - MTN"]})
    s, events = on_process(s, testing, NOW + 7 * DAY, force=True)
    assert "A MTN" in [str(u) for u in s.power("EASTLAND").units]


@pytest.mark.parametrize("phase", ["SPRING 1902 MOVEMENT", "FALL 1902 MOVEMENT"])
def test_the_phase_map_decides_where_a_fleet_may_stand(testing, phase):
    from judge.maps import map_for_phase
    from judge.types import Unit, UnitType
    season, year, kind = phase.split()
    m = map_for_phase(testing, Phase(season, int(year), kind))
    assert m.can_stand(Unit(UnitType.FLEET, "ICE")) is (season == "SPRING")


def test_a_build_on_a_hidden_site_of_the_map_is_kept_as_dpjudge_keeps_it(standard):
    """A `~MAR` home of the map's (or HIDE_BUILDS): DPjudge keeps the build ordered there as
    `BUILD A MAR HIDDEN`, and a plain `BUILD A PAR` builds in the open."""
    from dataclasses import replace
    from judge.adjudicator.builds import hidden_build
    m = replace(standard, powers={**standard.powers,
                                  "FRANCE": replace(standard.powers["FRANCE"], hidden=("MAR",))})
    assert hidden_build(m, "FRANCE", "MAR", frozenset())
    assert not hidden_build(m, "FRANCE", "PAR", frozenset())
    assert hidden_build(standard, "FRANCE", "PAR", frozenset({"HIDE_BUILDS"}))
