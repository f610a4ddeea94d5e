"""The game's life as the mail layer and the scheduler see it: pure functions of the status.

The cycle (the scheduler, every twenty minutes, through `judge.runtime.cycle`):

- `on_tick(status, map, now, standing=FREE)`: what one deadline check does to a game: the steps
  `judge.game.clock.agenda` says are due (that module states when each is: the deadline in force,
  GRACE, DELAY, readiness, late notices, WARN reminders, vacations over), carried out here:
  vacations over leave TIMING NOT; civil disorder processes the phase with the late powers'
  orders defaulted; a dismissal resigns the late players (PLAYER RESIGNED, a NEED line) and the
  game waits for replacements; a DELAY counts down by one; the phase is processed, or previewed
  for the Master (DELAY 72); a late notice (the mail layer tells everyone in the deadline's own
  hour, later only the Master and the late) sets DELAY 24 (eight hours); a reminder goes to the
  powers without orders.

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
from datetime import datetime

from judge.events import DeadlineSet, Dismissal, Event, LateNotice, Reminder
from judge.game.clock import Agenda, Step, agenda, processing_step, readiness
from judge.game.deadlines import current_deadline, deadline_for, deadline_in_force, with_deadline
from judge.game.process import on_process, preview
from judge.game.rules import rules_in_force
from judge.game.seats import GameError, resign
from judge.game.standing import FREE, Standing
from judge.maps.model import Map
from judge.rule_names import Rule
from judge.status.model import GameStatus
from judge.timing import Vacation, game_zone, parse_timing, prune_vacations
from judge.types import MASTER, Phase

PREVIEW_DELAY, LATE_DELAY, ORDERS_DELAY = 72, 24, 1
Outcome = tuple[GameStatus, list[Event]]


def on_tick(status: GameStatus, m: Map, now: datetime, standing: Standing = FREE) -> Outcome:
    """One deadline check of a game: what `agenda` says is due at `now`, carried out."""
    plan = agenda(status, m, now, standing)
    if Step.VACATIONS_OVER in plan.steps:
        status = without_past_vacations(status, now)
    step = next((s for s in plan.steps if s is not Step.VACATIONS_OVER), None)
    return (status, []) if step is None else _carry_out(step, status, m, now, plan)


def _carry_out(step: Step, status: GameStatus, m: Map, now: datetime, plan: Agenda) -> Outcome:
    phase = status.phase
    assert isinstance(phase, Phase)
    if step is Step.CIVIL_DISORDER:
        return on_process(status, m, now, force=True)
    if step is Step.DISMISS:
        return _dismiss(status, m, plan.dismissable, plan.deadline)
    if step is Step.COUNT_DOWN:
        return replace(status, delay=(status.delay or 1) - 1 or None), []
    if step in (Step.PREVIEW, Step.PROCESS):
        return _processed(step, status, m, now)
    if step is Step.LATE_NOTICE:
        return replace(status, delay=LATE_DELAY), [LateNotice(status.name or "", phase, plan.late,
                                                              plan.deadline)]
    return status, [Reminder(status.name or "", phase, plan.late, plan.deadline)]  # Step.REMIND


def _processed(step: Step, status: GameStatus, m: Map, now: datetime) -> Outcome:
    """A ready phase processed, or under the PREVIEW rule shown to the Master (DELAY 72)."""
    if step is Step.PREVIEW:
        return replace(status, delay=PREVIEW_DELAY), [preview(status, m, now)]
    return on_process(status, m, now)


def _dismiss(status: GameStatus, m: Map, dismissed: tuple[str, ...], deadline: datetime | None
             ) -> Outcome:
    """The late powers resigned, each as if by its player (DPjudge's notices say "has resigned")."""
    events: list[Event] = []
    for power in dismissed:
        status, resigned = resign(status, m, power)
        events += resigned
    assert isinstance(status.phase, Phase)
    return replace(status, delay=None), [Dismissal(status.name or "", status.phase, dismissed, deadline),
                                         *events]


def without_past_vacations(status: GameStatus, now: datetime) -> GameStatus:
    """The status without the TIMING NOT vacations that have ended by `now` (on the game's clock);
    a TIMING line left with nothing on it goes (the status syntax has no empty TIMING)."""
    if not status.timing:
        return status
    timing = parse_timing(status.timing)
    pruned = prune_vacations(timing, now, status.zone or "GMT")
    if pruned.vacations == timing.vacations:
        return status
    return replace(status, timing=str(pruned) or None)


# --- what the mail layer calls ------------------------------------------------------------------

def after_mail(before: GameStatus, after: GameStatus, m: Map, now: datetime, *,
               was_held: bool = False, held: bool = False) -> Outcome:
    """The judge's own moves once a mail has changed a game (see the module's doc)."""
    if held:
        return after, []
    events: list[Event] = []
    if isinstance(after.phase, Phase) and not after.completed and not after.need and \
            (before.need or (was_held and _deadline_gone(after, m, now))):
        after, events = resume(after, m, now)
    after, more = on_orders(after, m, now)
    return after, events + more


def _deadline_gone(status: GameStatus, m: Map, now: datetime) -> bool:
    deadline = deadline_in_force(status, rules_in_force(status, m))
    return deadline is None or deadline <= now


def resume(status: GameStatus, m: Map, now: datetime) -> Outcome:
    """A game back in play after waiting for replacements: a fresh deadline from `now` (never earlier
    than the one on file), DELAY cleared; everyone is told only when the deadline moved."""
    phase = status.phase
    if not isinstance(phase, Phase):
        return status, []
    fresh = deadline_for(status, m, now, keep_later=True)
    was = current_deadline(status)
    status = replace(with_deadline(status, fresh.moment) if fresh.moment else status, delay=None)
    if fresh.moment == was or (fresh.moment is None and status.deadline is not None):
        return status, []
    return status, [DeadlineSet(status.name or "", phase, fresh.moment, "judge")]


def on_orders(status: GameStatus, m: Map, now: datetime) -> Outcome:
    """The orders on file (just changed) and the DELAY: see the module's doc."""
    if not isinstance(status.phase, Phase) or status.need:
        return status, []
    state = readiness(status, m, now)
    if not state.ready:
        return status, []
    rules = rules_in_force(status, m)
    deadline = deadline_in_force(status, rules)
    if deadline is None or Rule.REAL_TIME in rules:
        return _processed(processing_step(rules), replace(status, delay=None), m, now)
    return replace(status, delay=ORDERS_DELAY if deadline > now else None), []


def set_deadline(status: GameStatus, m: Map, moment: datetime | None, by: str = MASTER) -> Outcome:
    """SET DEADLINE: `moment` (aware; None removes the deadline) on the game's wall clock, DELAY
    cleared. Who may move it where (PLAYER_DEADLINES: only later) is the command's business."""
    phase = status.phase
    if not isinstance(phase, Phase):
        raise GameError(f"game {status.name} is {phase.value.lower()}: it has no deadline")
    return replace(with_deadline(status, moment), delay=None), [DeadlineSet(status.name or "", phase, moment, by)]


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
    moved = replace(status, zone=zone)
    return with_deadline(moved, moment) if moment is not None else moved


__all__ = ["add_absence", "after_mail", "on_orders", "on_process", "on_tick", "resume", "set_deadline",
           "set_zone", "without_past_vacations"]
