"""DEADLINE text across DST changes, and the helpers the cycle uses."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from judge.timing import (
    Timing,
    cycle_slot,
    format_deadline,
    game_zone,
    grace_end,
    next_deadline,
    parse_deadline,
    parse_timing,
    prune_vacations,
    vacations_over_at,
    wall_time_kind,
    warn_times,
)
from judge.timing.zones import wall_reached

UTC = timezone.utc

# (zone, wall text, kind, the instant chosen in UTC, the text written back for it):
# both changes in four zones.
DST_WALL_TIMES = [
    ("America/New_York", "202503090230", "nonexistent", "2025-03-09T07:30", "202503090330"),
    ("America/New_York", "202511020130", "ambiguous", "2025-11-02T06:30", "202511020130"),
    ("Europe/London", "202503300130", "nonexistent", "2025-03-30T01:30", "202503300230"),
    ("Europe/London", "202510260130", "ambiguous", "2025-10-26T01:30", "202510260130"),
    ("Europe/Berlin", "202503300230", "nonexistent", "2025-03-30T01:30", "202503300330"),
    ("Europe/Berlin", "202510260230", "ambiguous", "2025-10-26T01:30", "202510260230"),
    ("Australia/Sydney", "202510050230", "nonexistent", "2025-10-04T16:30", "202510050330"),
    ("Australia/Sydney", "202504060230", "ambiguous", "2025-04-05T16:30", "202504060230"),
    ("America/New_York", "202507011200", "normal", "2025-07-01T16:00", "202507011200"),
]
ROWS = "zone, text, kind, utc, written"


@pytest.mark.parametrize(ROWS, DST_WALL_TIMES)
def test_dst_wall_times_take_the_later_instant(
    zone: str, text: str, kind: str, utc: str, written: str
) -> None:
    instant = parse_deadline(text, zone)
    assert instant == datetime.fromisoformat(utc).replace(tzinfo=UTC)
    assert wall_time_kind(datetime.strptime(text, "%Y%m%d%H%M"), game_zone(zone)) == kind


@pytest.mark.parametrize(ROWS, DST_WALL_TIMES)
def test_deadline_text_round_trips(zone: str, text: str, kind: str, utc: str, written: str) -> None:
    instant = parse_deadline(text, zone)
    assert format_deadline(instant, zone) == written
    assert parse_deadline(written, zone) == instant


def test_deadline_without_zone_is_gmt() -> None:
    assert parse_deadline("202501011200") == datetime(2025, 1, 1, 12, tzinfo=UTC)
    assert parse_deadline("202507011200", "") == datetime(2025, 7, 1, 12, tzinfo=UTC)
    assert format_deadline(datetime(2025, 7, 1, 12, tzinfo=UTC)) == "202507011200"


@pytest.mark.parametrize(
    "text, words",
    [("2025010112", "12 digits"), ("20250101120a", "12 digits"), ("202502301200", "real date")],
)
def test_bad_deadline_text(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_deadline(text)


def test_unknown_zone() -> None:
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        game_zone("Mars/Olympus")


def test_timing_without_a_day_is_refused() -> None:
    timing = Timing(days="-mtwtf-")
    with pytest.raises(ValueError, match="allows no day"):
        next_deadline(timing, "RETREATS", None, datetime(2025, 1, 1, tzinfo=UTC), frozenset())


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        next_deadline(parse_timing(""), "MOVEMENT", None, datetime(2025, 1, 1), frozenset())


DEADLINE = datetime(2025, 6, 5, 12, 0, tzinfo=UTC)


def test_warn_default_is_four_hours_before() -> None:
    assert warn_times(DEADLINE) == [DEADLINE - timedelta(hours=4)]


def test_warn_several_values_earliest_first() -> None:
    got = warn_times(DEADLINE, "6H,1D,12H")
    assert got == [DEADLINE - timedelta(hours=h) for h in (24, 12, 6)]
    assert warn_times(DEADLINE, parse_timing("WARN 6H,1D,12H").warn) == got


def test_warn_zero_disables() -> None:
    assert warn_times(DEADLINE, "0") == []
    assert warn_times(DEADLINE, parse_timing("WARN 0H").warn) == []


def test_warn_longer_than_the_phase_disables_itself() -> None:
    set_at = DEADLINE - timedelta(days=1)
    assert warn_times(DEADLINE, "2D,4H", not_before=set_at) == [DEADLINE - timedelta(hours=4)]


def test_grace_end() -> None:
    assert grace_end(DEADLINE, "2D") == DEADLINE + timedelta(days=2)
    assert grace_end(DEADLINE, parse_timing("GRACE 0H").grace) == DEADLINE
    assert grace_end(DEADLINE, None) is None
    assert grace_end(DEADLINE, None, frozenset({"CIVIL_DISORDER"})) == DEADLINE


@pytest.mark.parametrize(
    "now, slot",
    [
        ("2025-06-02T12:20:00+00:00", "2025-06-02T12:20:00+00:00"),
        ("2025-06-02T12:39:59+00:00", "2025-06-02T12:20:00+00:00"),
        ("2025-06-02T12:40:03+00:00", "2025-06-02T12:40:00+00:00"),
        ("2025-06-02T08:10:00-04:00", "2025-06-02T08:00:00-04:00"),
        ("2025-06-02T17:35:00+05:30", "2025-06-02T17:30:00+05:30"),  # 12:00 UTC
    ],
)
def test_cycle_slot(now: str, slot: str) -> None:
    got = cycle_slot(datetime.fromisoformat(now))
    assert got == datetime.fromisoformat(slot)
    assert got.utcoffset() == datetime.fromisoformat(now).utcoffset()


def test_prune_vacations_drops_only_past_ones() -> None:
    timing = parse_timing("NEXT 1D NOT 20250601,-20250603,20250605-20250610,2025060212")
    now = datetime(2025, 6, 2, 12, 30, tzinfo=UTC)
    assert str(prune_vacations(timing, now, "GMT")) == (
        "NEXT 1D NOT -20250603,20250605-20250610,2025060212"
    )
    later = datetime(2025, 6, 2, 13, 0, tzinfo=UTC)
    assert str(prune_vacations(timing, later, "GMT")) == "NEXT 1D NOT -20250603,20250605-20250610"


def test_prune_vacations_on_the_game_clock_and_start() -> None:
    timing = parse_timing("START 8H NOT 20250601")
    # Sunday 1 June runs to Monday 08:00 with START 8H; 07:30 in New York is 11:30 UTC.
    assert prune_vacations(timing, datetime(2025, 6, 2, 11, 30, tzinfo=UTC), "America/New_York") == timing
    assert prune_vacations(timing, datetime(2025, 6, 2, 12, 0, tzinfo=UTC), "America/New_York").vacations == ()


# (zone, wall time, now in UTC, the first instant from now on reading that wall time or later)
WALLS_REACHED = [
    ("Europe/Paris", "2025-06-02T00:00", "2025-06-01T12:00", "2025-06-01T22:00"),
    # skipped by the spring change (02:00 EST -> 03:00 EDT): the change itself
    ("America/New_York", "2025-03-09T02:30", "2025-03-09T05:00", "2025-03-09T07:00"),
    # repeated by the autumn change: its first instant, or the second once the first has gone by
    ("America/New_York", "2025-11-02T01:30", "2025-11-02T05:00", "2025-11-02T05:30"),
    ("America/New_York", "2025-11-02T01:30", "2025-11-02T06:10", "2025-11-02T06:30"),
]


@pytest.mark.parametrize("zone, wall, now, reached", WALLS_REACHED)
def test_wall_reached(zone: str, wall: str, now: str, reached: str) -> None:
    clock = game_zone(zone)
    got = wall_reached(datetime.fromisoformat(wall), clock, datetime.fromisoformat(now).replace(tzinfo=UTC))
    assert got == datetime.fromisoformat(reached).replace(tzinfo=UTC)
    before = got - timedelta(microseconds=1)
    assert got.astimezone(clock).replace(tzinfo=None) >= datetime.fromisoformat(wall)
    assert before.astimezone(clock).replace(tzinfo=None) < datetime.fromisoformat(wall)


def test_vacations_over_at_is_when_prune_drops_one() -> None:
    timing = parse_timing("START 8H NOT 20250601,20250605-20250610")
    now = datetime(2025, 5, 30, 9, 0, tzinfo=UTC)
    over = vacations_over_at(timing, now, "America/New_York")
    assert over == datetime(2025, 6, 2, 12, 0, tzinfo=UTC)  # Monday 08:00 in New York
    assert prune_vacations(timing, over - timedelta(microseconds=1), "America/New_York") == timing
    assert str(prune_vacations(timing, over, "America/New_York")) == "START 8H NOT 20250605-20250610"
    assert vacations_over_at(timing, over, "America/New_York") == over  # due: now
    assert vacations_over_at(parse_timing("NEXT 1D"), now, "GMT") is None
