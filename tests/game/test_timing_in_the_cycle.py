"""The TIMING keys as the cycle lives them, one row per key alone or in combination, several zones,
both DST changes: a ready SPRING 1901 is processed at `start`; then, nobody ordering FALL 1901, the
cycle runs every twenty minutes (UTC :00/:20/:40) and the row gives when the deadline falls, when
reminders and late notices go out, and what the grace end does and when. (`next_deadline` alone has its
own table in tests/timing.)"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import pytest

from judge.events import (
    CivilDisorder,
    Dismissal,
    LateNotice,
    PhaseResults,
    Preview,
    Reminder,
)
from judge.game.deadlines import current_deadline
from judge.game.schedule import on_tick
from tests.support.games import everyone_orders, running

TICK = timedelta(minutes=20)
END_KINDS = {CivilDisorder: "civil disorder", Dismissal: "dismissal", Preview: "preview"}


@dataclass(frozen=True)
class Row:
    id: str
    timing: str
    start: str  # the cycle processing SPRING 1901 (ISO 8601 with the offset in force)
    deadline: str  # FALL 1901's deadline
    reminders: tuple[str, ...] = ()
    late: tuple[str, ...] = ()  # the late notices, up to the end (or to deadline + 8H40)
    end: tuple[str, str] | None = None  # (when, civil disorder | dismissal | preview)
    zone: str | None = None
    rules: str = ""


ROWS = [
    Row("defaults", "", "2025-01-06T12:00+00:00", "2025-01-09T12:00+00:00",
        reminders=("2025-01-09T08:00+00:00",), late=("2025-01-09T12:00+00:00", "2025-01-09T20:20+00:00")),
    Row("warn-several-grace-dismisses", "NEXT 1D WARN 1D,12H,6H GRACE 1D", "2025-01-06T12:00+00:00",
        "2025-01-07T12:00+00:00", reminders=("2025-01-07T00:00+00:00", "2025-01-07T06:00+00:00"),
        late=("2025-01-07T12:00+00:00", "2025-01-07T20:20+00:00", "2025-01-08T04:40+00:00"),
        end=("2025-01-08T12:00+00:00", "dismissal")),
    Row("warn-zero", "NEXT 16H WARN 0", "2025-01-06T12:00+00:00", "2025-01-07T04:00+00:00",
        late=("2025-01-07T04:00+00:00", "2025-01-07T12:20+00:00")),
    Row("civil-disorder-without-grace", "NEXT 16H", "2025-01-06T12:00+00:00", "2025-01-07T04:00+00:00",
        reminders=("2025-01-07T00:00+00:00",), end=("2025-01-07T04:00+00:00", "civil disorder"),
        rules="CIVIL_DISORDER"),
    Row("civil-disorder-with-grace", "NEXT 16H GRACE 2H", "2025-01-06T12:00+00:00", "2025-01-07T04:00+00:00",
        reminders=("2025-01-07T00:00+00:00",), late=("2025-01-07T04:00+00:00",),
        end=("2025-01-07T06:00+00:00", "civil disorder"), rules="CIVIL_DISORDER"),
    Row("grace-zero-dismisses-at-the-deadline", "NEXT 16H GRACE 0H", "2025-01-06T12:00+00:00",
        "2025-01-07T04:00+00:00", reminders=("2025-01-07T00:00+00:00",),
        end=("2025-01-07T04:00+00:00", "dismissal")),
    Row("civil-preview-after-the-delay", "NEXT 16H GRACE 1H WARN 0", "2025-01-06T12:00+00:00",
        "2025-01-07T04:00+00:00", late=("2025-01-07T04:00+00:00",),
        end=("2025-01-07T12:20+00:00", "preview"), rules="CIVIL_PREVIEW"),
    Row("at-with-default-fudge", "NEXT 1D AT 18:00 WARN 2H", "2025-01-06T12:00+00:00",
        "2025-01-07T18:00+00:00", reminders=("2025-01-07T16:00+00:00",),
        late=("2025-01-07T18:00+00:00", "2025-01-08T02:20+00:00")),
    Row("at-with-fudge-set", "NEXT 1D AT 12:00 FUDGE 2H WARN 3H", "2025-01-06T13:00+00:00",
        "2025-01-07T12:00+00:00", reminders=("2025-01-07T09:00+00:00",),
        late=("2025-01-07T12:00+00:00", "2025-01-07T20:20+00:00")),
    Row("start-8h-saturday-dawn-is-friday", "NEXT 1D START 8H", "2025-01-10T04:00+00:00",
        "2025-01-11T04:00+00:00", reminders=("2025-01-11T00:00+00:00",),
        late=("2025-01-11T04:00+00:00", "2025-01-11T12:20+00:00")),
    Row("vacation-over-a-weekend", "NEXT 1D NOT 20250116-20250120", "2025-01-15T12:00+00:00",
        "2025-01-21T12:00+00:00", reminders=("2025-01-21T08:00+00:00",),
        late=("2025-01-21T12:00+00:00", "2025-01-21T20:20+00:00")),
    Row("skip-counts-only-playing-days", "NEXT 2D SKIP GRACE 1H", "2025-01-10T12:00+00:00",
        "2025-01-14T12:00+00:00", reminders=("2025-01-14T08:00+00:00",), late=("2025-01-14T12:00+00:00",),
        end=("2025-01-14T13:00+00:00", "civil disorder"), rules="CIVIL_DISORDER"),
    Row("move-key-and-days-lower-case", "MOVE 2D NEXT 1D DAYS SMTWTFs", "2025-01-09T12:00+00:00",
        "2025-01-12T12:00+00:00", reminders=("2025-01-12T08:00+00:00",),
        late=("2025-01-12T12:00+00:00", "2025-01-12T20:20+00:00")),
    Row("new-york-spring-change-warn-is-elapsed", "NEXT 1D AT 06:00 DAYS SMTWTFS WARN 6H",
        "2025-03-08T10:00-05:00", "2025-03-09T06:00-04:00", reminders=("2025-03-08T23:00-05:00",),
        late=("2025-03-09T06:00-04:00", "2025-03-09T14:20-04:00"), zone="America/New_York"),
    Row("london-autumn-change-grace-is-elapsed", "NEXT 16H GRACE 12H DAYS SMTWTFS",
        "2025-10-25T19:00+01:00", "2025-10-26T10:00+00:00", reminders=("2025-10-26T06:00+00:00",),
        late=("2025-10-26T10:00+00:00", "2025-10-26T18:20+00:00"),
        end=("2025-10-26T22:00+00:00", "civil disorder"),
        zone="Europe/London", rules="CIVIL_DISORDER"),
    Row("sydney-two-at-times", "NEXT 1D AT 08:00,20:00 WARN 1H", "2025-06-02T12:00+10:00",
        "2025-06-03T08:00+10:00", reminders=("2025-06-03T07:00+10:00",),
        late=("2025-06-03T08:00+10:00", "2025-06-03T16:20+10:00"), zone="Australia/Sydney"),
    Row("berlin-autumn-vacation-and-weekend", "NEXT 1D AT 12:00 NOT 20251024-20251027 WARN 1D",
        "2025-10-23T14:00+02:00", "2025-10-28T12:00+01:00", reminders=("2025-10-27T12:00+01:00",),
        late=("2025-10-28T12:00+01:00", "2025-10-28T20:20+01:00"), zone="Europe/Berlin"),
    Row("kolkata-deadline-off-the-utc-grid", "NEXT 16H", "2025-01-06T12:10+05:30",
        "2025-01-07T04:00+05:30", reminders=("2025-01-06T18:20+00:00",),
        late=("2025-01-06T22:40+00:00", "2025-01-07T07:00+00:00"), zone="Asia/Kolkata"),
    Row("real-time", "NEXT 10M", "2025-01-06T12:00+00:00", "2025-01-06T12:10+00:00",
        late=("2025-01-06T12:20+00:00", "2025-01-06T20:40+00:00"), rules="REAL_TIME"),
]


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text)


def walk(standard, row: Row):
    lines = [f"RULE DEFAULT_UNORDERED {row.rules}".strip()] + ([f"TIMING {row.timing}"] if row.timing else [])
    lines += [f"ZONE {row.zone}"] if row.zone else []
    s = everyone_orders(replace(running(standard, *lines), deadline=None), {})
    start = instant(row.start)
    s, events = on_tick(s, standard, start)
    assert isinstance(events[0], PhaseResults) and s.phase.season == "FALL"
    deadline = current_deadline(s)
    reminders, late, end = [], [], None
    now = start + TICK
    stop = deadline + timedelta(hours=8, minutes=40)
    while end is None and now <= max(stop, instant(row.end[0]) if row.end else stop):
        s, events = on_tick(s, standard, now)
        for event in events:
            if isinstance(event, Reminder):
                reminders.append(now)
            elif isinstance(event, LateNotice):
                late.append(now)
            elif type(event) in END_KINDS:
                end = (now, END_KINDS[type(event)])
        now += TICK
    return deadline, reminders, late, end


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_timing_in_the_cycle(standard, row: Row):
    deadline, reminders, late, end = walk(standard, row)
    assert deadline == instant(row.deadline)
    assert reminders == [instant(t) for t in row.reminders]
    assert late == [instant(t) for t in row.late]
    assert end == ((instant(row.end[0]), row.end[1]) if row.end else None)


def test_every_timing_key_appears_alone_or_combined():
    keys = {"NEXT", "MOVE", "AT", "FUDGE", "DAYS", "START", "WARN", "GRACE", "NOT", "SKIP"}
    used = {word for row in ROWS for word in row.timing.split() if word.isalpha() and word.isupper()}
    assert keys <= used
    assert len({r.zone for r in ROWS}) >= 5 and len(ROWS) >= 15
