"""Times around a deadline that the cycle acts on: WARN reminders, GRACE, past vacations."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

from judge.rule_names import Rule, Rules
from judge.timing.durations import Duration, parse_duration
from judge.timing.spec import Timing
from judge.timing.zones import game_zone, require_aware, to_wall, wall_reached

DEFAULT_WARN = (Duration(4, "H"),)


def warn_times(
    deadline: datetime,
    warn_spec: str | Sequence[Duration] | None = None,
    not_before: datetime | None = None,
) -> list[datetime]:
    """The instants, earliest first, at which players without orders get a reminder.

    `warn_spec` is the WARN value (text like `1D,12H,6H`, or Timing.warn); None means
    the default 4H.  Zero entries are dropped, so `0` disables reminders.  Times
    before `not_before` (when the deadline was set) are dropped too, which is how a
    WARN longer than the phase's delay disables itself.
    """
    require_aware(deadline, "deadline")
    spans = {d.span for d in _warn_durations(warn_spec) if d.amount > 0}
    times = sorted(deadline - span for span in spans)
    if not_before is not None:
        times = [t for t in times if t >= not_before]
    return times


def _warn_durations(warn_spec: str | Sequence[Duration] | None) -> Sequence[Duration]:
    if warn_spec is None:
        return DEFAULT_WARN
    if isinstance(warn_spec, str):
        return [parse_duration(w, label="WARN", zero=True) for w in warn_spec.split(",")]
    return warn_spec


def grace_end(
    deadline: datetime,
    grace: str | Duration | None,
    rules: Rules = frozenset(),
) -> datetime | None:
    """When late powers are resigned or put in civil disorder: the deadline plus GRACE.

    Without GRACE: the deadline itself under CIVIL_DISORDER, otherwise None (nobody is
    ever resigned automatically).
    """
    require_aware(deadline, "deadline")
    if isinstance(grace, str):
        grace = parse_duration(grace, label="GRACE", zero=True)
    if grace is None:
        return deadline if Rule.CIVIL_DISORDER in rules else None
    return deadline + grace.span


def prune_vacations(timing: Timing, now: datetime, zone: str | None = None) -> Timing:
    """`timing` without the NOT vacations that have ended by `now`.

    Vacations are read on the wall clock of `zone` (the game's ZONE); when `zone` is
    None, on `now`'s own wall clock.
    """
    require_aware(now, "now")
    wall = to_wall(now, game_zone(zone)) if zone is not None else now.replace(tzinfo=None)
    start = timing.day_start
    kept = tuple(v for v in timing.vacations if v.interval(start, False)[1] > wall)
    return dataclasses.replace(timing, vacations=kept)


def vacations_over_at(timing: Timing, now: datetime, zone: str | None) -> datetime | None:
    """The first instant from `now` on at which `prune_vacations(timing, t, zone)` drops a vacation
    (`now` when it does already; None without vacations)."""
    require_aware(now, "now")
    clock = game_zone(zone)
    wall = to_wall(now, clock)
    ends = (v.interval(timing.day_start, False)[1] for v in timing.vacations)
    return min((now if end <= wall else wall_reached(end, clock, now) for end in ends), default=None)
