"""The game's life as the mail layer and the scheduler see it: pure functions of the status.

- `on_process(status, map, now, force=False)`: the Master's PROCESS (force: PROCESS!).
- `on_tick(status, map, now)`: what the 20-minute cycle does to a running game (DPjudge's check):
    1. the grace period over (GRACE after the deadline; under CIVIL_DISORDER without GRACE, the
       deadline) with powers still late and no vacant power: CIVIL_DISORDER processes them in civil
       disorder; CIVIL_PREVIEW sends the Master a preview (DELAY 72); otherwise the late powers are
       dismissed (resigned) and the game waits for replacements;
    2. a DELAY on file counts down by one and nothing else happens;
    3. the phase ready (see `judge.game.process.readiness`): processed, or under the PREVIEW rule
       previewed for the Master (DELAY 72);
    4. the deadline passed with orders missing: a late notice (DELAY 24, so every 8 hours);
    5. a WARN time reached in this cycle's 20-minute slot: reminders to the powers without orders.
`map` is always the game's map with its MORPH lines (`judge.game.persist.game_map`).
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from judge.events import Dismissal, Event, LateNotice, Reminder
from judge.game.deadlines import current_deadline
from judge.game.process import on_process, preview, readiness
from judge.game.rules import rules_in_force
from judge.game.seats import resign
from judge.maps.model import Map
from judge.status.model import GameStatus
from judge.timing import cycle_slot, grace_end, parse_timing, warn_times
from judge.types import Phase

SLOT = timedelta(minutes=20)
PREVIEW_DELAY, LATE_DELAY = 72, 24


def on_tick(status: GameStatus, m: Map, now: datetime) -> tuple[GameStatus, list[Event]]:
    """One deadline check of a game (see the module's doc)."""
    if not isinstance(status.phase, Phase):
        return status, []
    rules = rules_in_force(status, m)
    state = readiness(status, m, now)
    deadline = current_deadline(status)
    timing = parse_timing(status.timing or "")
    grace = grace_end(deadline, timing.grace, rules) if deadline and "NO_DEADLINE" not in rules else None
    if grace is not None and now >= grace and state.duties.late and not status.need:
        return _grace_over(status, m, now, rules, state.duties.late)
    if status.delay:
        return replace(status, delay=status.delay - 1 or None), []
    if state.ready:
        if "PREVIEW" in rules:
            return replace(status, delay=PREVIEW_DELAY), [preview(status, m, now)]
        return on_process(status, m, now)
    if deadline is not None and now >= deadline and state.duties.late:
        return replace(status, delay=LATE_DELAY), [LateNotice(status.name or "", status.phase,
                                                              state.duties.late, deadline)]
    if deadline is not None and state.duties.late and _warn_now(deadline, timing, now):
        return status, [Reminder(status.name or "", status.phase, state.duties.late, deadline)]
    return status, []


def _grace_over(status: GameStatus, m: Map, now: datetime, rules: frozenset[str],
                late: tuple[str, ...]) -> tuple[GameStatus, list[Event]]:
    if "CIVIL_DISORDER" in rules:
        return on_process(status, m, now, force=True)
    if "CIVIL_PREVIEW" in rules:
        if status.delay:
            return replace(status, delay=status.delay - 1 or None), []
        return replace(status, delay=PREVIEW_DELAY), [preview(status, m, now)]
    events: list[Event] = []
    for power in late:
        block = status.power(power)
        if block is not None and block.player is not None and not block.player.dummy:
            status, resigned = resign(status, m, power, by_master=True)
            events += resigned
    assert isinstance(status.phase, Phase)
    return status, [Dismissal(status.name or "", status.phase, late), *events]


def _warn_now(deadline: datetime, timing, now: datetime) -> bool:
    slot = cycle_slot(now)
    return any(slot <= t < slot + SLOT for t in warn_times(deadline, timing.warn))


__all__ = ["on_process", "on_tick"]
