"""What holds for every deadline the judge sets, over random TIMING lines, zones and times."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.timing import format_deadline, game_zone, next_deadline, parse_deadline, parse_timing

ZONES = ["GMT", "America/New_York", "Europe/London", "Europe/Berlin", "Australia/Sydney",
         "Asia/Kolkata"]
TIMINGS = st.tuples(
    st.sampled_from(["", "NEXT 1D", "NEXT 36H", "MOVE 2D RETREAT 12H", "NEXT 1W"]),
    st.sampled_from(["", "AT 12:00", "AT 02:30", "AT 08:00,20:00", "AT 01:10 FUDGE 3H"]),
    st.sampled_from(["", "DAYS SMTWTFS", "DAYS -MtWtF-", "DAYS S-----s"]),
    st.sampled_from(["", "START 8H", "START -2H"]),
    st.sampled_from(["", "NOT 20250601-20250615", "NOT 2025103012", "SKIP"]),
).map(" ".join)
NOW = st.datetimes(datetime(2025, 1, 1), datetime(2025, 12, 31)).map(
    lambda d: d.replace(tzinfo=timezone.utc)
)


@settings(max_examples=300, deadline=None)
@given(TIMINGS, st.sampled_from(ZONES), st.sampled_from(["MOVEMENT", "RETREATS"]), NOW,
       st.booleans())
def test_every_deadline(text: str, zone: str, phase: str, now: datetime, first: bool) -> None:
    timing = parse_timing(text)
    deadline = next_deadline(timing, phase, zone, now, frozenset(), first=first)
    assert deadline is not None and deadline > now
    wall = deadline.astimezone(game_zone(zone)).replace(tzinfo=None)
    assert wall.minute % 20 == 0 and wall.second == 0
    letter = timing.day_mask[((wall - timing.day_start).weekday() + 1) % 7]
    assert letter.isupper() if phase == "MOVEMENT" else letter.isalpha()
    for vacation in timing.vacations:
        begin, end = vacation.interval(timing.day_start, False)
        assert not ((begin is None or begin <= wall) and wall < end)
    assert parse_deadline(format_deadline(deadline, zone), zone) == deadline
    assert next_deadline(timing, phase, zone, now, frozenset(), deadline, first) == deadline
    later = deadline + timedelta(days=30)
    assert next_deadline(timing, phase, zone, now, frozenset(), later, first) == later
