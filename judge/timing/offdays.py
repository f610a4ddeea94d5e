"""When no deadline may fall: the DAYS a phase may not use, and the NOT vacations.

Everything here is on the game's naive wall clock.  A "game day" begins at midnight
plus START, so `START 8H` makes Saturday run from Saturday 08:00 to Sunday 07:59.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from judge.timing.spec import Timing

_DAY = timedelta(days=1)
_WEEK = 7
Interval = tuple[datetime | None, datetime]


@dataclass(frozen=True, slots=True)
class OffTime:
    """The off days and vacations that apply to one phase type of one game."""

    days: str
    movement: bool
    day_start: timedelta
    vacations: tuple[Interval, ...]

    @classmethod
    def of(cls, timing: Timing, movement: bool, realtime: bool) -> OffTime:
        if not any(letter.isupper() for letter in timing.day_mask):
            raise ValueError(f"TIMING DAYS {timing.day_mask!r} allows no day for a deadline")
        start = timing.day_start
        spans = tuple(v.interval(start, realtime) for v in timing.vacations)
        return cls(timing.day_mask, movement, start, spans)

    def game_day(self, wall: datetime) -> date:
        return (wall - self.day_start).date()

    def day_allowed(self, day: date) -> bool:
        """Upper case: any phase; lower case: not movement; dash: never."""
        letter = self.days[(day.weekday() + 1) % 7]
        return letter.isupper() if self.movement else letter.isalpha()

    def day_begins(self, day: date) -> datetime:
        return datetime.combine(day, time()) + self.day_start

    def vacation_end(self, wall: datetime) -> datetime | None:
        """The end of a vacation holding `wall`, or None."""
        for begin, end in self.vacations:
            if (begin is None or begin <= wall) and wall < end:
                return end
        return None

    def next_free(self, wall: datetime) -> datetime:
        """`wall`, or the first instant after it outside every off day and vacation."""
        while True:
            end = self.vacation_end(wall)
            if end is not None:
                wall = end
                continue
            day = self.game_day(wall)
            if self.day_allowed(day):
                return wall
            wall = self.day_begins(day + _DAY)

    def next_block(self, wall: datetime) -> datetime | None:
        """The first instant after a free `wall` at which an off day or vacation begins."""
        starts = [begin for begin, _ in self.vacations if begin is not None and begin > wall]
        day = self.game_day(wall)
        for ahead in range(1, _WEEK + 1):
            if not self.day_allowed(day + ahead * _DAY):
                starts.append(self.day_begins(day + ahead * _DAY))
                break
        return min(starts, default=None)

    def count_forward(self, wall: datetime, span: timedelta) -> datetime:
        """JUMP_OFF_DAYS: `wall` plus `span` of free time, off days and vacations not
        counted."""
        wall = self.next_free(wall)
        while True:
            block = self.next_block(wall)
            if block is None or wall + span <= block:
                return wall + span
            span -= block - wall
            wall = self.next_free(block)
