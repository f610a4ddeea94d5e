"""The TIMING line of a status file: text <-> Timing."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime, time, timedelta
from typing import Callable

from dateutil.relativedelta import relativedelta

from judge.timing.durations import Duration, parse_duration

DEFAULT_DAYS = "-MTWTF-"
_WEEK_LETTERS = "SMTWTFS"  # Sunday first, as DAYS writes them
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")
_STAMP_LENGTHS = {6: "%Y%m", 8: "%Y%m%d", 10: "%Y%m%d%H", 12: "%Y%m%d%H%M"}
_FLAGS = ("SKIP", "JUMP_OFF_DAYS")


@dataclass(frozen=True, slots=True)
class Vacation:
    """One NOT entry: a day, a range `first-last`, or an open range `-last` (from now).

    Stamps are `yyyymm[dd[hh[mm]]]` on the game's wall clock; both ends are inclusive
    (the whole of the last month, day, hour or minute slot named).
    """

    start: str | None
    end: str

    def __str__(self) -> str:
        if self.start is None:
            return f"-{self.end}"
        return self.end if self.start == self.end else f"{self.start}-{self.end}"

    @classmethod
    def parse(cls, text: str) -> Vacation:
        first, dash, last = text.partition("-")
        if not dash:
            first = last = text
        if not last:
            raise ValueError(f"TIMING NOT: {text!r} needs a last day after the dash")
        start = first or None
        begin, end_begin = stamp_begin(start or last), stamp_begin(last)
        if begin > end_begin:
            raise ValueError(f"TIMING NOT: {text!r} ends before it starts")
        return cls(start, last)

    def interval(self, day_start: timedelta, realtime: bool) -> tuple[datetime | None, datetime]:
        """[begin, end) on the wall clock; None for an open start.  Whole days and
        months move with START; a last minute covers its twenty-minute slot (one
        minute in REAL_TIME games)."""
        begin = None
        if self.start is not None:
            begin = stamp_begin(self.start) + _day_shift(self.start, day_start)
        end = stamp_begin(self.end) + _last_unit(self.end, realtime)
        return begin, end + _day_shift(self.end, day_start)


@lru_cache(maxsize=256)
def stamp_begin(text: str) -> datetime:
    """`yyyymm[dd[hh[mm]]]` -> the first minute it names (worked out once a text: a game's TIMING
    NOT windows are read at every step)."""
    if not text.isdigit() or len(text) not in _STAMP_LENGTHS:
        raise ValueError(f"TIMING NOT: expected yyyymmdd, yyyymmddhh or yyyymmddhhmm, got {text!r}")
    try:
        return datetime.strptime(text, _STAMP_LENGTHS[len(text)])
    except ValueError:
        raise ValueError(f"TIMING NOT: {text!r} is not a real date") from None


def _last_unit(text: str, realtime: bool) -> timedelta | relativedelta:
    if len(text) == 6:
        return relativedelta(months=1)
    if len(text) == 8:
        return timedelta(days=1)
    if len(text) == 10:
        return timedelta(hours=1)
    return timedelta(minutes=1 if realtime else 20)


def _day_shift(text: str, day_start: timedelta) -> timedelta:
    return day_start if len(text) <= 8 else timedelta(0)


@dataclass(frozen=True, slots=True)
class Timing:
    """Everything a TIMING line says; a field left empty takes the spec's default."""

    next: Duration | None = None
    phases: tuple[tuple[str, Duration], ...] = ()
    at: tuple[time, ...] = ()
    fudge: Duration | None = None
    days: str | None = None
    start: Duration | None = None
    warn: tuple[Duration, ...] | None = None
    grace: Duration | None = None
    vacations: tuple[Vacation, ...] = ()
    skip: bool = False

    @property
    def day_mask(self) -> str:
        return self.days or DEFAULT_DAYS

    @property
    def day_start(self) -> timedelta:
        return self.start.span if self.start else timedelta(0)

    def __str__(self) -> str:
        words = [f"NEXT {self.next}"] if self.next else []
        words += [f"{key} {delay}" for key, delay in self.phases]
        if self.at:
            words.append("AT " + ",".join(t.strftime("%H:%M") for t in self.at))
        words += [f"{key} {value}" for key, value in self._single_values() if value is not None]
        if self.warn is not None:
            words.append("WARN " + ",".join(map(str, self.warn)))
        if self.grace is not None:
            words.append(f"GRACE {self.grace}")
        if self.vacations:
            words.append("NOT " + ",".join(map(str, self.vacations)))
        return " ".join(words + ["SKIP"] * self.skip)

    def _single_values(self) -> list[tuple[str, object]]:
        return [("FUDGE", self.fudge), ("DAYS", self.days), ("START", self.start)]


def parse_timing(text: str) -> Timing:
    """The value of a TIMING line -> Timing; ValueError says which key is wrong."""
    values: dict[str, object] = {}
    phases: list[tuple[str, Duration]] = []
    tokens = text.split()
    index = 0
    while index < len(tokens):
        key = tokens[index].upper()
        index += 1
        if key in _FLAGS:
            _set_once(values, "skip", True, key)
            continue
        if key not in _KEYS and not key.isalpha():
            raise ValueError(f"TIMING: unknown key {tokens[index - 1]!r}")
        if index >= len(tokens):
            raise ValueError(f"TIMING: {key} needs a value")
        value, index = tokens[index], index + 1
        if key in _KEYS:
            name, parse = _KEYS[key]
            _set_once(values, name, parse(value), key)
        else:
            _add_phase(phases, key, value)
    return Timing(phases=tuple(phases), **values)  # type: ignore[arg-type]


def _set_once(values: dict[str, object], name: str, value: object, key: str) -> None:
    if name in values:
        raise ValueError(f"TIMING: {key} given twice")
    values[name] = value


def _add_phase(phases: list[tuple[str, Duration]], key: str, value: str) -> None:
    if any(existing == key for existing, _ in phases):
        raise ValueError(f"TIMING: {key} given twice")
    phases.append((key, parse_duration(value, label=f"TIMING {key}")))


def _parse_at(value: str) -> tuple[time, ...]:
    times = set()
    for item in value.split(","):
        match = _CLOCK.fullmatch(item)
        hour, minute = (int(match.group(1)), int(match.group(2))) if match else (99, 99)
        if hour > 23 or minute > 59:
            raise ValueError(f"TIMING AT: expected hh:mm[,hh:mm...] on a 24-hour clock, got {item!r}")
        times.add(time(hour, minute))
    return tuple(sorted(times))


def _parse_days(value: str) -> str:
    if len(value) != 7:
        raise ValueError(f"TIMING DAYS: expected seven letters or dashes from Sunday, got {value!r}")
    for letter, expected in zip(value, _WEEK_LETTERS):
        if letter != "-" and letter.upper() != expected:
            raise ValueError(f"TIMING DAYS: {value!r} has {letter!r} where {expected} or - belongs")
    if not any(letter.isupper() for letter in value):
        raise ValueError(f"TIMING DAYS: {value!r} needs at least one upper-case day")
    return value


def _parse_start(value: str) -> Duration:
    start = parse_duration(value, label="TIMING START", units="MH", zero=True, negative=True)
    if abs(start.span) >= timedelta(days=1):
        raise ValueError(f"TIMING START: {value!r} must be less than a day either way")
    return start


def _parse_warn(value: str) -> tuple[Duration, ...]:
    return tuple(parse_duration(item, label="TIMING WARN", zero=True) for item in value.split(","))


def _parse_vacations(value: str) -> tuple[Vacation, ...]:
    return tuple(Vacation.parse(item) for item in value.split(","))


_KEYS: dict[str, tuple[str, Callable[[str], object]]] = {
    "NEXT": ("next", lambda v: parse_duration(v, label="TIMING NEXT")),
    "AT": ("at", _parse_at),
    "FUDGE": ("fudge", lambda v: parse_duration(v, label="TIMING FUDGE", units="MH")),
    "DAYS": ("days", _parse_days),
    "START": ("start", _parse_start),
    "WARN": ("warn", _parse_warn),
    "GRACE": ("grace", lambda v: parse_duration(v, label="TIMING GRACE", zero=True)),
    "NOT": ("vacations", _parse_vacations),
}
