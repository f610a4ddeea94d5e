"""next_deadline, one row per behaviour: TIMING, zone, phase, now -> deadline.

Times are ISO 8601 with the offset in force, so each row also states which side of a
DST change the deadline falls.  2025-06-02 is a Monday; all rows without a zone run
on GMT.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import pytest

from judge.timing import format_deadline, next_deadline, parse_timing

M, R, A = "MOVEMENT", "RETREATS", "ADJUSTMENTS"
NY, LONDON, BERLIN = "America/New_York", "Europe/London", "Europe/Berlin"
SYDNEY, KOLKATA, LORD_HOWE = "Australia/Sydney", "Asia/Kolkata", "Australia/Lord_Howe"
MON = "2025-06-02T12:20+00:00"


@dataclass(frozen=True)
class Case:
    id: str
    timing: str
    phase: str
    now: str
    expected: str | None
    zone: str | None = None
    rules: frozenset[str] = frozenset()
    first: bool = False
    current: str | None = None


CASES = [
    # --- the delay: defaults, NEXT, phase-type keys --------------------------------
    Case("default-movement-3D", "", M, MON, "2025-06-05T12:20+00:00"),
    Case("default-retreat-1D", "", R, MON, "2025-06-03T12:20+00:00"),
    Case("default-adjustment-1D", "", A, MON, "2025-06-03T12:20+00:00"),
    Case("next-applies-to-movement", "NEXT 2D", M, MON, "2025-06-04T12:20+00:00"),
    Case("move-key-beats-next", "NEXT 2D MOVE 4D", M, MON, "2025-06-06T12:20+00:00"),
    Case("next-for-other-phases", "NEXT 2D MOVE 4D", R, MON, "2025-06-04T12:20+00:00"),
    Case("retreat-key", "MOVE 36H RETREAT 12H ADJUST 1D", R, MON, "2025-06-03T00:20+00:00"),
    Case("adjust-key", "MOVE 36H RETREAT 12H ADJUST 1D", A, MON, "2025-06-03T12:20+00:00"),
    Case("hours-delay", "MOVE 36H", M, MON, "2025-06-04T00:20+00:00"),
    Case("longest-key-wins", "M 2D MOVE 1D", M, MON, "2025-06-03T12:20+00:00"),
    Case("week-delay", "NEXT 1W", R, MON, "2025-06-09T12:20+00:00"),
    Case("minutes-snap-down-to-slot", "NEXT 90M", R, MON, "2025-06-02T13:40+00:00"),
    Case("under-20M-is-real-time", "NEXT 10M", R, MON, "2025-06-02T12:30+00:00"),
    Case("real-time-rounds-up-minute", "NEXT 10M", R, "2025-06-02T12:23:30+00:00",
         "2025-06-02T12:34+00:00"),
    Case("real-time-rule-no-slot", "NEXT 1H", R, "2025-06-02T12:23+00:00",
         "2025-06-02T13:23+00:00", rules=frozenset({"REAL_TIME"})),
    Case("first-deadline-doubled", "", M, MON, "2025-06-09T12:20+00:00", first=True),
    Case("first-deadline-doubled-hours", "NEXT 8H", R, MON, "2025-06-03T04:20+00:00",
         first=True),
    # --- AT and FUDGE ----------------------------------------------------------------
    Case("at-fudges-back-20-minutes", "AT 12:00", M, MON, "2025-06-05T12:00+00:00"),
    Case("at-beyond-fudge-next-day", "AT 12:00", M, "2025-06-02T20:20+00:00",
         "2025-06-06T12:00+00:00"),
    Case("at-fudge-boundary-inclusive", "AT 12:00", M, "2025-06-02T20:00+00:00",
         "2025-06-05T12:00+00:00"),
    Case("at-hours-delay-minimum-fudge", "NEXT 24H AT 12:00", R, MON, "2025-06-03T12:00+00:00"),
    Case("at-hours-delay-no-big-fudge", "NEXT 24H AT 12:00", R, "2025-06-02T12:40+00:00",
         "2025-06-04T12:00+00:00"),
    Case("at-1D-acts-like-16H", "NEXT 1D AT 12:00", R, "2025-06-02T19:40+00:00",
         "2025-06-03T12:00+00:00"),
    Case("fudge-set-smaller", "NEXT 1D AT 12:00 FUDGE 2H", R, "2025-06-02T19:40+00:00",
         "2025-06-04T12:00+00:00"),
    Case("fudge-capped-at-half-gap", "NEXT 1D AT 12:00 FUDGE 20H", R, "2025-06-02T01:00+00:00",
         "2025-06-03T12:00+00:00"),
    Case("at-ignored-under-12H", "NEXT 8H AT 12:00", R, MON, "2025-06-02T20:20+00:00"),
    Case("at-applies-at-12H", "NEXT 12H AT 12:00", R, MON, "2025-06-03T12:00+00:00"),
    Case("two-at-times-late-half", "NEXT 1D AT 08:00,20:00", R, MON, "2025-06-03T20:00+00:00"),
    Case("two-at-times-fudge-third-of-gap", "NEXT 1D AT 08:00,20:00", R,
         "2025-06-02T11:40+00:00", "2025-06-03T08:00+00:00"),
    Case("three-at-times-half-gap-applies", "NEXT 5H AT 08:00,12:00,20:00", R,
         "2025-06-02T06:00+00:00", "2025-06-02T12:00+00:00"),
    Case("two-at-times-under-half-gap-ignored", "NEXT 3H AT 08:00,20:00", R,
         "2025-06-02T06:00+00:00", "2025-06-02T09:00+00:00"),
    Case("at-between-slots-moves-up", "NEXT 1D AT 11:41", R, MON, "2025-06-03T12:00+00:00"),
    Case("at-23-50-becomes-midnight", "NEXT 1D AT 23:50", R, MON, "2025-06-04T00:00+00:00"),
    Case("at-real-time-keeps-minute", "NEXT 1D AT 11:41", R, MON, "2025-06-03T11:41+00:00",
         rules=frozenset({"REAL_TIME"})),
    # --- DAYS and START -----------------------------------------------------------------
    Case("friday-movement-lands-monday", "", M, "2025-06-06T12:20+00:00",
         "2025-06-09T12:20+00:00"),
    Case("saturday-skipped-to-monday", "", M, "2025-06-04T12:20+00:00",
         "2025-06-09T12:20+00:00"),
    Case("days-every-day", "DAYS SMTWTFS", M, "2025-06-04T12:20+00:00",
         "2025-06-07T12:20+00:00"),
    Case("days-lower-case-allows-retreat", "DAYS -MTWTFs", R, "2025-06-06T12:20+00:00",
         "2025-06-07T12:20+00:00"),
    Case("days-lower-case-not-movement", "DAYS -MTWTFs", M, "2025-06-04T12:20+00:00",
         "2025-06-09T12:20+00:00"),
    Case("days-alternate", "DAYS -M-W-F-", R, MON, "2025-06-04T12:20+00:00"),
    Case("start-8H-saturday-morning-is-friday", "START 8H", M, "2025-06-04T06:00+00:00",
         "2025-06-07T06:00+00:00"),
    Case("start-minus-2H-sunday-night-is-monday", "START -2H", M, "2025-06-03T22:20+00:00",
         "2025-06-08T22:20+00:00"),
    # --- NOT vacations -----------------------------------------------------------------------
    Case("vacation-single-day", "NOT 20250604", R, "2025-06-03T12:20+00:00",
         "2025-06-05T12:20+00:00"),
    Case("vacation-range-over-weekend", "NOT 20250604-20250610", M, MON,
         "2025-06-11T12:20+00:00"),
    Case("vacation-open-range", "NOT -20250605", M, MON, "2025-06-06T12:20+00:00"),
    Case("vacation-then-weekend", "NOT 20250605-20250606", M, MON, "2025-06-09T12:20+00:00"),
    Case("vacation-with-at", "AT 18:00 NOT 20250605", M, MON, "2025-06-06T18:00+00:00"),
    Case("vacation-hour", "NOT 2025060512", R, "2025-06-04T12:20+00:00",
         "2025-06-06T12:20+00:00"),
    Case("vacation-moves-with-start", "START 8H NOT 20250605", R, "2025-06-04T06:00+00:00",
         "2025-06-05T06:00+00:00"),
    Case("vacation-past-ignored", "NOT 20250501", R, MON, "2025-06-03T12:20+00:00"),
    Case("vacation-month", "NOT 202506", M, MON, "2025-07-01T12:20+00:00"),
    Case("vacation-real-time-minute", "NEXT 10M NOT 202506021230", R, MON,
         "2025-06-02T12:31+00:00"),
    Case("several-vacations", "NOT 20250605-20250606,20250609-20250610", M, MON,
         "2025-06-11T12:20+00:00"),
    # --- JUMP_OFF_DAYS / SKIP ------------------------------------------------------------------
    Case("jump-off-days-rule", "", M, "2025-06-06T12:20+00:00", "2025-06-11T12:20+00:00",
         rules=frozenset({"JUMP_OFF_DAYS"})),
    Case("jump-off-days-timing-skip", "SKIP", M, "2025-06-06T12:20+00:00",
         "2025-06-11T12:20+00:00"),
    Case("jump-off-days-vacation", "NOT 20250609 SKIP", M, "2025-06-06T12:20+00:00",
         "2025-06-12T12:20+00:00"),
    Case("jump-off-days-hours", "MOVE 36H SKIP", M, "2025-06-06T12:20+00:00",
         "2025-06-10T00:20+00:00"),
    Case("jump-off-days-with-at", "AT 12:00 SKIP", M, "2025-06-06T12:20+00:00",
         "2025-06-11T12:00+00:00"),
    # --- NO_DEADLINE and the current deadline ---------------------------------------------------
    Case("no-deadline", "NEXT 1D", R, MON, None, rules=frozenset({"NO_DEADLINE"})),
    Case("never-before-current", "", R, MON, "2025-06-04T12:00+00:00",
         current="2025-06-04T12:00+00:00"),
    Case("earlier-current-ignored", "", R, MON, "2025-06-03T12:20+00:00",
         current="2025-06-02T12:00+00:00"),
    # --- zones and DST -----------------------------------------------------------------------
    Case("ny-3D-across-spring-keeps-wall-time", "", M, "2025-03-07T12:20-05:00",
         "2025-03-10T12:20-04:00", zone=NY),
    Case("ny-16H-across-spring-is-elapsed", "NEXT 16H DAYS SMTWTFS", R,
         "2025-03-08T20:00-05:00", "2025-03-09T13:00-04:00", zone=NY),
    Case("ny-spring-nonexistent-at", "NEXT 1D AT 02:20 DAYS SMTWTFS", R,
         "2025-03-08T02:40-05:00", "2025-03-09T03:20-04:00", zone=NY),
    Case("ny-fall-ambiguous-at-later", "NEXT 1D AT 01:20 DAYS SMTWTFS", R,
         "2025-11-01T01:40-04:00", "2025-11-02T01:20-05:00", zone=NY),
    Case("london-spring-nonexistent-at", "NEXT 1D AT 01:20 DAYS SMTWTFS", R,
         "2025-03-29T01:20+00:00", "2025-03-30T02:20+01:00", zone=LONDON),
    Case("london-fall-ambiguous-at-later", "NEXT 1D AT 01:20 DAYS SMTWTFS", R,
         "2025-10-25T01:20+01:00", "2025-10-26T01:20+00:00", zone=LONDON),
    Case("berlin-spring-nonexistent-at", "NEXT 1D AT 02:40 DAYS SMTWTFS", R,
         "2025-03-29T02:40+01:00", "2025-03-30T03:40+02:00", zone=BERLIN),
    Case("berlin-fall-ambiguous-at-later", "NEXT 1D AT 02:40 DAYS SMTWTFS", R,
         "2025-10-25T02:40+02:00", "2025-10-26T02:40+01:00", zone=BERLIN),
    Case("sydney-autumn-ambiguous-at-later", "NEXT 1D AT 02:20 DAYS SMTWTFS", R,
         "2025-04-05T02:20+11:00", "2025-04-06T02:20+10:00", zone=SYDNEY),
    Case("sydney-spring-nonexistent-at", "NEXT 1D AT 02:20 DAYS SMTWTFS", R,
         "2025-10-04T02:20+10:00", "2025-10-05T03:20+11:00", zone=SYDNEY),
    Case("sydney-3D-across-autumn-and-sunday", "", M, "2025-04-03T12:20+11:00",
         "2025-04-07T12:20+10:00", zone=SYDNEY),
    Case("berlin-vacation-over-weekend-and-dst", "NOT 20251024-20251027", M,
         "2025-10-22T12:20+02:00", "2025-10-28T12:20+01:00", zone=BERLIN),
    Case("kolkata-at-on-local-clock", "AT 12:00", M, "2025-06-02T12:20+05:30",
         "2025-06-05T12:00+05:30", zone=KOLKATA),
    Case("lord-howe-half-hour-gap-to-next-slot", "NEXT 1D AT 02:20 DAYS SMTWTFS", R,
         "2025-10-04T02:20+10:30", "2025-10-05T03:00+11:00", zone=LORD_HOWE),
    Case("zone-from-utc-now", "AT 18:00", M, "2025-06-02T16:20+00:00",
         "2025-06-05T18:00-04:00", zone=NY),
]


def _instant(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_next_deadline(case: Case) -> None:
    got = next_deadline(
        parse_timing(case.timing),
        case.phase,
        case.zone,
        _instant(case.now),
        case.rules,
        current_deadline=_instant(case.current),
        first=case.first,
    )
    expected = _instant(case.expected)
    assert got == expected
    if expected is not None:
        assert format_deadline(got, case.zone) == expected.strftime("%Y%m%d%H%M")


def test_table_is_big_enough() -> None:
    assert len(CASES) >= 40
    assert len({c.id for c in CASES}) == len(CASES)
