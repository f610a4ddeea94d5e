"""The loose dates of SET DEADLINE and SET ABSENCE: `[weekday] [day [month [year]]] [hh:mm]`.

Every part may be left out; what is missing is the first that fits after the message's time (the
spec: "the DPjudge assumes that you're trying to set a deadline in the future"). Dates are on the
game's wall clock (its ZONE).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from judge.timing.zones import game_zone, localize, to_wall

WEEKDAYS = ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")
MONTHS = ("JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER",
          "OCTOBER", "NOVEMBER", "DECEMBER")
CLOCK = re.compile(r"(\d{1,2})[:.h](\d{2})")
SEARCH_DAYS = 5 * 366


@dataclass(frozen=True)
class LooseDate:
    """What the words said; None: left out."""

    weekday: int | None = None  # 0 Monday
    day: int | None = None
    month: int | None = None
    year: int | None = None
    clock: time | None = None

    @property
    def empty(self) -> bool:
        return self == LooseDate()

    def fits(self, day: date) -> bool:
        return ((self.weekday is None or day.weekday() == self.weekday)
                and (self.day is None or day.day == self.day)
                and (self.month is None or day.month == self.month)
                and (self.year is None or day.year == self.year))


def _name(word: str, names: tuple[str, ...]) -> int | None:
    """Index of the name `word` is (at least three letters of), else None."""
    if len(word) < 3:
        return None
    for index, name in enumerate(names):
        if name.startswith(word):
            return index
    return None


def parse_loose(words: list[str]) -> LooseDate:
    """`FRI`, `24 DEC`, `8 AUG 2003`, `13:00`, `MON 6 JAN 14:20`; ValueError says why."""
    found: dict[str, object] = {}

    def put(key: str, value: object, word: str) -> None:
        if key in found:
            raise ValueError(f"{word!r}: the {key} is given twice")
        found[key] = value

    for word in (w.upper().rstrip(",") for w in words):
        clock = CLOCK.fullmatch(word)
        if clock:
            hour, minute = int(clock.group(1)), int(clock.group(2))
            if hour > 23 or minute > 59:
                raise ValueError(f"{word!r} is not a time of day")
            put("time", time(hour, minute), word)
        elif (weekday := _name(word, WEEKDAYS)) is not None:
            put("weekday", weekday, word)
        elif (month := _name(word, MONTHS)) is not None:
            put("month", month + 1, word)
        elif word.isdigit() and "day" not in found and len(word) <= 2:
            if not 1 <= int(word) <= 31:
                raise ValueError(f"{word!r} is not a day of the month")
            put("day", int(word), word)
        elif word.isdigit() and len(word) in (2, 4):
            put("year", int(word) + (2000 if len(word) == 2 else 0), word)
        else:
            raise ValueError(f"{word!r} is not a weekday, a day, a month, a year or a time (hh:mm)")
    if "year" in found and "month" not in found:
        raise ValueError("a year needs a month before it (8 AUG 2003)")
    if "month" in found and "day" not in found:
        raise ValueError("a month needs a day before it (24 DEC)")
    get = found.get
    return LooseDate(get("weekday"), get("day"), get("month"),  # type: ignore[arg-type]
                     get("year"), get("time"))  # type: ignore[arg-type]


def next_fit(loose: LooseDate, after: datetime, default_clock: time) -> datetime:
    """The first wall time strictly after `after` (naive, wall clock) that `loose` describes."""
    clock = loose.clock or default_clock
    day = after.date()
    for _ in range(SEARCH_DAYS):
        if loose.fits(day):
            moment = datetime.combine(day, clock)
            if moment > after:
                return moment
        day += timedelta(days=1)
    raise ValueError("no such date in the next five years")


def future_deadline(words: list[str], now: datetime, zone: str | None,
                    at: time | None) -> datetime:
    """SET DEADLINE's words -> an aware instant after `now`; no time given: TIMING AT, or 0:00."""
    loose = parse_loose(words)
    if loose.empty:
        raise ValueError("give a weekday, a day or a time (SET DEADLINE FRI 18:00)")
    tz = game_zone(zone)
    wall = next_fit(loose, to_wall(now, tz), at or time(0, 0))
    return localize(wall, tz)


@dataclass(frozen=True)
class Absence:
    """An absence on the game's wall clock: whole days (`timed` False) or from/to a time."""

    first: datetime | None  # None: from now
    last: datetime
    timed: bool

    def stamps(self) -> tuple[str | None, str]:
        """The TIMING NOT stamps: yyyymmdd for whole days, yyyymmddhhmm with a time."""
        form = "%Y%m%d%H%M" if self.timed else "%Y%m%d"
        return (self.first.strftime(form) if self.first else None), self.last.strftime(form)

    def days(self, today: date) -> int:
        start = self.first.date() if self.first else today
        return (self.last.date() - max(start, today)).days + 1


def parse_absence(words: list[str], now: datetime, zone: str | None) -> Absence:
    """`[date] [TO date]`: the first date from today on, the last date not before the first."""
    upper = [w.upper() for w in words]
    cut = upper.index("TO") if "TO" in upper else len(words)
    first_words, last_words = words[:cut], words[cut + 1:]
    if not first_words and not last_words:
        raise ValueError("give a date, a range (24 DEC TO 6 JAN) or TO and a date")
    if cut < len(words) and not last_words:
        raise ValueError("TO needs a date after it")
    wall_now = to_wall(now, game_zone(zone))
    first_loose = parse_loose(first_words) if first_words else None
    last_loose = parse_loose(last_words) if last_words else first_loose
    assert last_loose is not None
    first = _absence_day(first_loose, wall_now) if first_loose is not None else None
    if not last_words:
        last = first
    else:
        last = _absence_day(last_loose, first or wall_now)
    assert last is not None
    timed = any(x is not None and x.clock is not None for x in (first_loose, last_loose))
    return Absence(first, last, timed)


def _absence_day(loose: LooseDate, not_before: datetime) -> datetime:
    """With a time: the first such moment after `not_before`; else the first such day on or after
    `not_before`'s day."""
    if loose.clock is not None:
        return next_fit(loose, not_before, time(0, 0))
    return next_fit(loose, datetime.combine(not_before.date(), time(0, 0)) - timedelta(minutes=1),
                    time(0, 0))
