"""next_deadline: the deadline the judge sets for a phase (see the package docstring)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from judge.rule_names import Rule, Rules
from judge.timing.durations import Duration
from judge.timing.offdays import OffTime
from judge.timing.spec import Timing
from judge.timing.zones import (
    UTC,
    ceil_minute,
    ceil_slot,
    floor_slot,
    game_zone,
    localize,
    require_aware,
    to_wall,
)

MOVEMENT_DEFAULT = Duration(3, "D")
OTHER_DEFAULT = Duration(1, "D")
_DAY = timedelta(days=1)
_SHORT = timedelta(minutes=20)
_MAX_MOVES = 400


def is_movement(phase_type: str) -> bool:
    """True for a phase whose last word starts with M (MOVEMENT)."""
    return _last_word(phase_type).startswith("M")


def phase_delay(timing: Timing, phase_type: str) -> Duration:
    """The delay for a phase: the longest phase-type key its last word starts with,
    else NEXT, else 3D for movement and 1D for other phases."""
    word = _last_word(phase_type)
    keys = [(len(key), delay) for key, delay in timing.phases if word.startswith(key)]
    if keys:
        return max(keys, key=lambda pair: pair[0])[1]
    if timing.next is not None:
        return timing.next
    return MOVEMENT_DEFAULT if is_movement(phase_type) else OTHER_DEFAULT


def _last_word(phase_type: str) -> str:
    words = phase_type.upper().split()
    return words[-1] if words else ""


@dataclass(frozen=True, slots=True)
class _Game:
    """What one computation needs to know, gathered once."""

    timing: Timing
    zone: ZoneInfo
    now: datetime
    delay: Duration
    realtime: bool
    jump: bool
    off: OffTime

    @property
    def at_minutes(self) -> tuple[int, ...]:
        """AT times as minutes after midnight, moved up to a slot unless real time."""
        minutes = (t.hour * 60 + t.minute for t in self.timing.at)
        if self.realtime:
            return tuple(sorted(set(minutes)))
        return tuple(sorted({-(-m // 20) * 20 for m in minutes}))


def next_deadline(
    timing: Timing,
    phase_type: str,
    zone: str | None,
    now: datetime,
    rules: Rules,
    current_deadline: datetime | None = None,
    first: bool = False,
) -> datetime | None:
    """The deadline to set at `now` for a phase of type `phase_type` (MOVEMENT, or the
    whole phase name), as an aware UTC datetime; None under NO_DEADLINE.

    `zone` is the game's ZONE (GMT when None); `first` doubles the delay (a game's
    initial deadline); the result is never earlier than `current_deadline`.
    """
    if Rule.NO_DEADLINE in rules:
        return None
    game = _game(timing, phase_type, zone, require_aware(now, "now"), rules)
    when = _after_delay(game, 2 if first else 1)
    at = _at_applies(game, when)
    when = _snap_to_at(game, when) if at else _round(game, when)
    deadline = _settle(game, localize(_land(game, when, at), game.zone)).astimezone(UTC)
    if current_deadline is not None and current_deadline > deadline:
        return current_deadline.astimezone(UTC)
    return deadline


def _game(timing: Timing, phase_type: str, zone: str | None, now: datetime,
          rules: Rules) -> _Game:
    delay = phase_delay(timing, phase_type)
    realtime = Rule.REAL_TIME in rules or delay.span < _SHORT
    jump = timing.skip or Rule.JUMP_OFF_DAYS in rules
    off = OffTime.of(timing, is_movement(phase_type), realtime)
    return _Game(timing, game_zone(zone), now, delay, realtime, jump, off)


def _after_delay(game: _Game, times: int) -> datetime:
    """The wall time `times` delays after now: whole days on the calendar, hours and
    minutes as elapsed time; under JUMP_OFF_DAYS only free time counts."""
    wall = to_wall(game.now, game.zone)
    if game.jump:
        return game.off.count_forward(wall, times * game.delay.span)
    if game.delay.whole_days:
        return wall + times * game.delay.days * _DAY
    return to_wall(game.now + times * game.delay.span, game.zone)


def _at_occurrences(minutes: tuple[int, ...], around: datetime) -> list[datetime]:
    midnight = datetime.combine(around.date(), time())
    return sorted(midnight + timedelta(days=d, minutes=m) for d in range(-2, 3) for m in minutes)


def _at_gap(game: _Game, when: datetime) -> tuple[datetime, datetime]:
    """The AT occurrences just at-or-before and just after `when`."""
    times = _at_occurrences(game.at_minutes, when)
    before = max(t for t in times if t <= when)
    return before, min(t for t in times if t > when)


def _at_applies(game: _Game, when: datetime) -> bool:
    """AT is ignored when the deadline is less than half the gap between the AT times
    around it away (12 hours with one AT time)."""
    if not game.timing.at:
        return False
    before, after = _at_gap(game, when)
    return localize(when, game.zone) - game.now >= (after - before) / 2


def _fudge(game: _Game, gap: timedelta) -> timedelta:
    """How far back an AT time still catches a deadline that overshoots it."""
    least = timedelta(minutes=1 if game.realtime else 20)
    if not game.delay.whole_days:
        return least
    wanted = game.timing.fudge.span if game.timing.fudge else gap / 3
    return max(least, min(wanted, gap / 2))


def _snap_to_at(game: _Game, when: datetime) -> datetime:
    before, after = _at_gap(game, when)
    fudged = when - before <= _fudge(game, after - before)
    if fudged and localize(before, game.zone) > game.now:
        return before
    return after


def _round(game: _Game, when: datetime) -> datetime:
    """Real time: up to the minute; otherwise down to the :00/:20/:40 slot."""
    return ceil_minute(when) if game.realtime else floor_slot(when)


def _land(game: _Game, when: datetime, at: bool) -> datetime:
    """Move a deadline off disallowed days and out of vacations until it stays put."""
    for _ in range(_MAX_MOVES):
        moved = _skip_vacation(game, _skip_days(game.off, when), at)
        if moved == when:
            return when
        when = moved
    raise ValueError("TIMING leaves no time at which a deadline may fall")


def _skip_days(off: OffTime, when: datetime) -> datetime:
    while not off.day_allowed(off.game_day(when)):
        when += _DAY
    return when


def _skip_vacation(game: _Game, when: datetime, at: bool) -> datetime:
    """A deadline inside a vacation goes to the first AT time after it ends (without
    AT: the same time of day; in real time: the end itself)."""
    end = game.off.vacation_end(when)
    if end is None:
        return when
    if at:
        return min(t for t in _at_occurrences(game.at_minutes, end) if t >= end)
    if game.realtime:
        return end
    same_time = datetime.combine(end.date(), when.time())
    return same_time if same_time >= end else same_time + _DAY


def _settle(game: _Game, deadline: datetime) -> datetime:
    """A wall time skipped by DST may resolve off the slot grid (Lord Howe's half-hour
    change); move it up to the next slot."""
    if game.realtime:
        return deadline
    wall = deadline.replace(tzinfo=None)
    return deadline if ceil_slot(wall) == wall else localize(ceil_slot(wall), game.zone)
