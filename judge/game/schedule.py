"""The game's life as the mail layer and the scheduler see it: pure functions of the status.

The cycle (the scheduler, every twenty minutes, through `judge.runtime.cycle`):

- `on_tick(status, map, now, standing=FREE)`: what one deadline check does to a game, in DPjudge's order (check.py):
    0. a game not in play, being processed (AWAIT), waiting for replacements (a NEED line: DPjudge's
       "waiting" state) or held by its state file (`standing`: in preparation, held by the Master's
       WAIT, terminated; `judge.game.state`) is left alone, its deadline ignored; vacations that have
       ended are dropped from TIMING NOT;
    1. the grace period over (GRACE after the deadline; under CIVIL_DISORDER without GRACE, the
       deadline itself) with powers still late: CIVIL_DISORDER processes them in civil disorder (a
       DELAY on file does not hold it); CIVIL_PREVIEW counts its DELAY down, then sends the Master a
       preview (DELAY 72); otherwise the late players are dismissed (resigned: PLAYER RESIGNED, NEED
       line) and the game waits for replacements. Late powers without a player (DUMMY) cannot be
       dismissed: the late notices go on. Without GRACE (and without CIVIL_DISORDER) nobody is ever
       resigned automatically;
    2. a DELAY on file counts down by one and nothing else happens;
    3. the phase ready (`judge.game.process.readiness`: the deadline passed or everybody ordered and
       nobody waits, no late power, no vacancy, not AWAIT): processed, or under the PREVIEW rule
       previewed for the Master (DELAY 72);
    4. the deadline passed with orders missing: a late notice (the mail layer tells everyone in the
       deadline's own hour, later only the Master and the late), then DELAY 24 (eight hours);
    5. a WARN time (default 4H before the deadline; `0` none) in this cycle's twenty-minute slot: a
       reminder to the powers without orders.
  Under NO_DEADLINE steps 1, 4 and 5 never happen.

What the mail layer calls after it changed a game (so that mail and cycle share one logic):

- `after_mail(before, after, map, now, was_held=False, held=False)`: once per game at the end of a
  mail. A game held by its state file (`held`) is left alone. A game that waited for replacements and
  no longer does (its last vacancy taken over, or made DUMMY) gets a fresh deadline from now, since
  the old one and its grace are long gone; so does a game out of a hold (`was_held`: ACTIVATE after
  WAIT, preparation or TERMINATE) whose deadline passed while it was held; then `on_orders`.
- `on_orders(status, map, now)`: the orders on file make the phase ready: before the deadline DELAY 1
  (the last player has twenty to forty minutes to change them), after it no DELAY (processed at the
  next cycle, whatever DELAY 24 or 72 was on file); under REAL_TIME, or with no deadline, processed
  (PREVIEW rule: previewed) at once.
- `set_deadline(status, map, moment, by)`: SET DEADLINE (DEADLINE on the game's wall clock, DELAY
  cleared, a DeadlineSet event); `add_absence(status, start, end, now)`: SET ABSENCE (a TIMING NOT
  entry, ended vacations dropped); `set_zone(status, zone)`: SET ZONE / NOZONE (the deadline keeps its
  instant, its wall-clock text is rewritten). `judge.timing.next_deadline` reads all three, so the
  next deadline the judge sets respects them.
- `on_process(status, map, now, force=False)`: the Master's PROCESS (force: PROCESS!).

`map` is always the game's map with its MORPH lines (`judge.runtime.game_files.game_map`).
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from judge.events import DeadlineSet, Dismissal, Event, LateNotice, Reminder
from judge.game.deadlines import current_deadline, deadline_for
from judge.game.process import on_process, preview, readiness
from judge.game.rules import rules_in_force
from judge.game.seats import GameError, resign
from judge.game.state import FREE, Standing
from judge.maps.model import Map
from judge.status.model import Dppd, GameStatus, PhaseMode
from judge.timing import (
    Timing,
    Vacation,
    cycle_slot,
    format_deadline,
    game_zone,
    grace_end,
    parse_timing,
    prune_vacations,
    warn_times,
)
from judge.types import Phase

SLOT = timedelta(minutes=20)
PREVIEW_DELAY, LATE_DELAY, ORDERS_DELAY = 72, 24, 1
Outcome = tuple[GameStatus, list[Event]]


def on_tick(status: GameStatus, m: Map, now: datetime, standing: Standing = FREE) -> Outcome:
    """One deadline check of a game (see the module's doc). `judge.runtime.idle_index.quiet_until` says when this
    can next do anything to a game, step by step: a change here is a change there."""
    phase = status.phase
    if not isinstance(phase, Phase) or status.phase_mode is PhaseMode.AWAIT or status.need \
            or standing.held:
        return status, []
    status = without_past_vacations(status, now)
    rules = rules_in_force(status, m)
    state = readiness(status, m, now)
    late = state.duties.late
    deadline = None if "NO_DEADLINE" in rules else current_deadline(status)
    timing = parse_timing(status.timing or "")
    grace = grace_end(deadline, timing.grace, rules) if deadline is not None else None
    if grace is not None and now >= grace and late and _grace_acts(status, rules, late):
        return _grace_over(status, m, now, rules, late)
    if status.delay:
        return _count_down(status), []
    if state.ready:
        return _process(status, m, now, rules)
    if deadline is not None and now >= deadline and late:
        return replace(status, delay=LATE_DELAY), [LateNotice(status.name or "", phase, late, deadline)]
    if deadline is not None and late and _warn_now(deadline, timing, now):
        return status, [Reminder(status.name or "", phase, late, deadline)]
    return status, []


def _count_down(status: GameStatus) -> GameStatus:
    return replace(status, delay=(status.delay or 1) - 1 or None)


def _process(status: GameStatus, m: Map, now: datetime, rules: frozenset[str]) -> Outcome:
    """The phase is ready: processed, or under the PREVIEW rule shown to the Master (DELAY 72)."""
    if "PREVIEW" in rules:
        return replace(status, delay=PREVIEW_DELAY), [preview(status, m, now)]
    return on_process(status, m, now)


def _grace_acts(status: GameStatus, rules: frozenset[str], late: tuple[str, ...]) -> bool:
    """Whether the grace end does something: civil disorder or a preview always, a dismissal only
    when a late power has a player to dismiss (a late DUMMY just gets late notices)."""
    return "CIVIL_DISORDER" in rules or "CIVIL_PREVIEW" in rules or bool(_dismissable(status, late))


def _dismissable(status: GameStatus, late: tuple[str, ...]) -> tuple[str, ...]:
    found = []
    for power in late:
        block = status.power(power)
        if block is not None and block.player is not None and isinstance(block.player.current, Dppd):
            found.append(power)
    return tuple(found)


def _grace_over(status: GameStatus, m: Map, now: datetime, rules: frozenset[str],
                late: tuple[str, ...]) -> Outcome:
    if "CIVIL_DISORDER" in rules:
        return on_process(status, m, now, force=True)
    if "CIVIL_PREVIEW" in rules:
        if status.delay:
            return _count_down(status), []
        return replace(status, delay=PREVIEW_DELAY), [preview(status, m, now)]
    dismissed = _dismissable(status, late)
    events: list[Event] = []
    for power in dismissed:
        status, resigned = resign(status, m, power, by_master=True)
        events += resigned
    assert isinstance(status.phase, Phase)
    return replace(status, delay=None), [Dismissal(status.name or "", status.phase, dismissed), *events]


def _warn_now(deadline: datetime, timing: Timing, now: datetime) -> bool:
    """Whether a WARN time falls in the twenty-minute slot of `now` (one reminder however many)."""
    slot = cycle_slot(now)
    return any(slot <= t < slot + SLOT for t in warn_times(deadline, timing.warn))


def without_past_vacations(status: GameStatus, now: datetime) -> GameStatus:
    """The status without the TIMING NOT vacations that have ended by `now` (on the game's clock)."""
    if not status.timing:
        return status
    timing = parse_timing(status.timing)
    pruned = prune_vacations(timing, now, status.zone or "GMT")
    return status if pruned.vacations == timing.vacations else replace(status, timing=str(pruned))


# --- what the mail layer calls ------------------------------------------------------------------

def after_mail(before: GameStatus, after: GameStatus, m: Map, now: datetime, *,
               was_held: bool = False, held: bool = False) -> Outcome:
    """The judge's own moves once a mail has changed a game (see the module's doc)."""
    if held:
        return after, []
    events: list[Event] = []
    if isinstance(after.phase, Phase) and not after.completed and not after.need and \
            (before.need or (was_held and _deadline_gone(after, now))):
        after, events = resume(after, m, now)
    after, more = on_orders(after, m, now)
    return after, events + more


def _deadline_gone(status: GameStatus, now: datetime) -> bool:
    deadline = current_deadline(status)
    return deadline is None or deadline <= now


def resume(status: GameStatus, m: Map, now: datetime) -> Outcome:
    """A game back in play after waiting for replacements: a fresh deadline from `now` (never earlier
    than the one on file), DELAY cleared."""
    phase = status.phase
    if not isinstance(phase, Phase):
        return status, []
    fresh = deadline_for(status, m, now, keep_later=True)
    status = replace(status, deadline=fresh.text if fresh.moment else status.deadline, delay=None)
    return status, [DeadlineSet(status.name or "", phase, fresh.moment, "judge")]


def on_orders(status: GameStatus, m: Map, now: datetime) -> Outcome:
    """The orders on file (just changed) and the DELAY: see the module's doc."""
    if not isinstance(status.phase, Phase) or status.need:
        return status, []
    state = readiness(status, m, now)
    if not state.ready:
        return status, []
    rules = rules_in_force(status, m)
    deadline = None if "NO_DEADLINE" in rules else current_deadline(status)
    if deadline is None or "REAL_TIME" in rules:
        return _process(replace(status, delay=None), m, now, rules)
    return replace(status, delay=ORDERS_DELAY if deadline > now else None), []


def set_deadline(status: GameStatus, m: Map, moment: datetime | None, by: str = "MASTER") -> Outcome:
    """SET DEADLINE: `moment` (aware; None removes the deadline) on the game's wall clock, DELAY
    cleared. Who may move it where (PLAYER_DEADLINES: only later) is the command's business."""
    phase = status.phase
    if not isinstance(phase, Phase):
        raise GameError(f"game {status.name} is {phase.value.lower()}: it has no deadline")
    text = format_deadline(moment, status.zone) if moment is not None else None
    return replace(status, deadline=text, delay=None), [DeadlineSet(status.name or "", phase, moment, by)]


def add_absence(status: GameStatus, start: str | None, end: str, now: datetime) -> GameStatus:
    """SET ABSENCE: a TIMING NOT entry (`yyyymmdd[hhmm]` stamps on the game's clock; `start` None:
    from now), and the vacations already over dropped. The current deadline stays: absences shape the
    deadlines the judge sets from now on."""
    timing = parse_timing(status.timing or "")
    vacation = Vacation.parse(end if start == end else f"{start or ''}-{end}")
    timing = replace(timing, vacations=timing.vacations + (vacation,))
    return without_past_vacations(replace(status, timing=str(timing)), now)


def set_zone(status: GameStatus, zone: str | None) -> GameStatus:
    """SET ZONE (None: NOZONE, GMT): the zone checked (ValueError when unknown), the deadline kept as
    an instant and written on the new wall clock. NOT stamps are read on the new clock."""
    if zone is not None:
        zone = game_zone(zone).key
    moment = current_deadline(status)
    text = format_deadline(moment, zone) if moment is not None else status.deadline
    return replace(status, zone=zone, deadline=text)


__all__ = ["add_absence", "after_mail", "on_orders", "on_process", "on_tick", "resume", "set_deadline",
           "set_zone", "without_past_vacations"]
