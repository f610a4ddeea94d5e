"""What happens next to a game and when: the one clock that the tick, the idle index, the outage
guard, the commands and the mails ask.

The deadline in force and its grace end are `judge.game.deadlines`' (`in_force`).

`agenda(status, map, now, standing=FREE) -> Agenda`: the steps a deadline check carries out at
`now` (`judge.game.schedule.on_tick` does them) and the first instant from `now` on at which one is
due, as long as the status and the state file stay as they are. The steps, in DPjudge's order
(check.py), the first that applies:

0. a game not in play, being processed (AWAIT), waiting for replacements (a NEED line) or held by
   its state file (`standing`: in preparation, held by the Master's WAIT, terminated) is left alone;
   otherwise, beside any step below, vacations that have ended leave TIMING NOT (VACATIONS_OVER);
1. the grace end passed with powers late: CIVIL_DISORDER processes them in civil disorder (a DELAY
   on file does not hold it); CIVIL_PREVIEW counts its DELAY down, then previews for the Master;
   otherwise the late players are dismissed (DISMISS). Late powers without a player (DUMMY) cannot
   be dismissed: then this step does not apply and the late notices go on;
2. a DELAY on file counts down by one (COUNT_DOWN);
3. the phase ready (`readiness`): PROCESS, or PREVIEW under the PREVIEW rule;
4. the deadline passed with orders missing: LATE_NOTICE;
5. a WARN time in this cycle's twenty-minute slot with orders missing: REMIND.

Without a deadline in force (none set, or NO_DEADLINE) steps 1, 4 and 5 never happen.

The next instant is exact: nothing is due before it, and at it something is (the idle index stores
it, so a game it leaves unread is one the tick would leave alone). `Agenda.missed(since, now)` is
the outage guard's view: whether the deadline or the grace end fell in a gap without cycles.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum

from judge.game.deadlines import InForce, deadline_in_force, in_force
from judge.game.orders import Duties, duties
from judge.game.rules import rules_in_force
from judge.game.standing import FREE, Standing
from judge.maps import map_for_phase
from judge.maps.model import Map
from judge.rule_names import Rule, Rules
from judge.status.model import Dppd, GameStatus, PhaseMode
from judge.timing import cycle_slot, parse_timing, vacations_over_at, warn_times
from judge.timing.spec import Timing
from judge.types import MOVEMENT, Phase


class Step(str, Enum):
    """What a deadline check does to a game."""

    VACATIONS_OVER = "vacations over"  # the ended TIMING NOT entries dropped
    CIVIL_DISORDER = "civil disorder"  # processed, the late powers' orders defaulted
    DISMISS = "dismiss"  # the late players resigned; the game waits for replacements
    COUNT_DOWN = "count down"  # DELAY one less
    PROCESS = "process"
    PREVIEW = "preview"  # the Master shown what processing would give, DELAY 72
    LATE_NOTICE = "late notice"  # the late powers and the Master told, DELAY 24
    REMIND = "remind"  # the powers without orders reminded of the deadline


@dataclass(frozen=True)
class Readiness:
    ready: bool
    reason: str
    duties: Duties


@dataclass(frozen=True)
class Agenda:
    steps: tuple[Step, ...]  # due at `now`, in the order the tick carries them out
    next: datetime | None  # when a step is next due: `now` when some are; None: never as things are
    times: InForce = InForce(None, None)
    late: tuple[str, ...] = ()  # the powers whose orders are missing
    dismissable: tuple[str, ...] = ()  # the late powers with a player to dismiss
    timed: bool = False  # players held to the deadline: in play, no NEED, not held (AWAIT may be)

    @property
    def deadline(self) -> datetime | None:
        return self.times.deadline

    def missed(self, since: datetime, now: datetime) -> bool:
        """Whether the deadline or the grace end fell in (since, now]: acting on it now would
        process (or dismiss, or put in civil disorder) players who could not reach the judge."""
        return self.timed and any(t is not None and since < t <= now
                                  for t in (self.times.deadline, self.times.grace_end))


def readiness(status: GameStatus, m: Map, now: datetime) -> Readiness:
    """Whether the phase may be processed now without force, and if not, why."""
    rules = rules_in_force(status, m)
    return _readiness(status, m, rules, deadline_in_force(status, rules), now)


def _readiness(status: GameStatus, m: Map, rules: Rules, deadline: datetime | None,
               now: datetime) -> Readiness:
    phase = status.phase
    if not isinstance(phase, Phase):
        return Readiness(False, f"the game is {phase.value.lower()}", Duties((), (), (), (), ()))
    duty = duties(status, map_for_phase(m, phase), rules)
    passed = deadline is not None and now >= deadline
    if status.phase_mode is PhaseMode.AWAIT:
        return Readiness(False, "the phase is being processed (AWAIT)", duty)
    if duty.late:
        return Readiness(False, f"orders are missing from {', '.join(duty.late)}", duty)
    if status.need:
        vacant = tuple(n.power for n in status.need)
        return Readiness(False, f"waiting for a player to take over {', '.join(vacant)}",
                         replace(duty, late=vacant))
    if status.phase_mode is PhaseMode.WAIT and not passed:
        return Readiness(False, "the Master processes this phase (WAIT)", duty)
    always = Rule.ALWAYS_WAIT in rules and (phase.type == MOVEMENT or Rule.NO_MINOR_WAIT not in rules)
    waiting = duty.waiting if phase.type == MOVEMENT or Rule.NO_MINOR_WAIT not in rules else ()
    if (always or waiting) and not passed:
        return Readiness(False, "waiting for the deadline" + (f" ({', '.join(waiting)} asked to wait)"
                                                             if waiting else ""), duty)
    return Readiness(True, "", duty)


def processing_step(rules: Rules) -> Step:
    """What a ready phase gets: processed, or under the PREVIEW rule shown to the Master."""
    return Step.PREVIEW if Rule.PREVIEW in rules else Step.PROCESS


def agenda(status: GameStatus, m: Map, now: datetime, standing: Standing = FREE) -> Agenda:
    """See the module's doc."""
    if not isinstance(status.phase, Phase):
        return Agenda((), None)
    rules = rules_in_force(status, m)
    times = in_force(status, rules)
    if status.need or standing.held:
        return Agenda((), None, times)
    if status.phase_mode is PhaseMode.AWAIT:
        return Agenda((), None, times, timed=True)
    timing = parse_timing(status.timing or "")
    state = _readiness(status, m, rules, times.deadline, now)
    late = state.duties.late
    dismissable = _dismissable(status, late)
    over = vacations_over_at(timing, now, status.zone)
    main = _main_step(status, rules, times, timing, state, dismissable, now)
    steps = ((Step.VACATIONS_OVER,) if over is not None and over <= now else ()) + \
        ((main,) if main is not None else ())
    upcoming = now if steps else _next_due(times, timing, late, over, now)
    return Agenda(steps, upcoming, times, late, dismissable, timed=True)


def _main_step(status: GameStatus, rules: Rules, times: InForce, timing: Timing,
               state: Readiness, dismissable: tuple[str, ...], now: datetime) -> Step | None:
    late, deadline, grace = state.duties.late, times.deadline, times.grace_end
    if grace is not None and now >= grace and late and _grace_acts(rules, dismissable):
        if Rule.CIVIL_DISORDER in rules:
            return Step.CIVIL_DISORDER
        if Rule.CIVIL_PREVIEW in rules:
            return Step.COUNT_DOWN if status.delay else Step.PREVIEW
        return Step.DISMISS
    if status.delay:
        return Step.COUNT_DOWN
    if state.ready:
        return processing_step(rules)
    if deadline is not None and now >= deadline and late:
        return Step.LATE_NOTICE
    if deadline is not None and late and any(cycle_slot(t) == cycle_slot(now)
                                             for t in warn_times(deadline, timing.warn)):
        return Step.REMIND  # one reminder however many WARN times fall in the slot
    return None


def _grace_acts(rules: Rules, dismissable: tuple[str, ...]) -> bool:
    """Whether the grace end does something: civil disorder or a preview always, a dismissal only
    when a late power has a player to dismiss."""
    return Rule.CIVIL_DISORDER in rules or Rule.CIVIL_PREVIEW in rules or bool(dismissable)


def _dismissable(status: GameStatus, late: tuple[str, ...]) -> tuple[str, ...]:
    found = []
    for power in late:
        block = status.power(power)
        if block is not None and block.player is not None and isinstance(block.player.current, Dppd):
            found.append(power)
    return tuple(found)


def _next_due(times: InForce, timing: Timing, late: tuple[str, ...], over: datetime | None,
              now: datetime) -> datetime | None:
    """The first instant after `now` at which a step falls due, nothing being due at `now`. A phase
    not ready and nobody late is ready at its deadline (the wait for it is over); with powers late,
    each WARN time's slot brings a reminder and the deadline a late notice. The grace end, never
    before the deadline, is no candidate: from the deadline on a late power always has something
    due (a late notice, then its DELAY counting down)."""
    coming = [over] if over is not None else []
    if times.deadline is not None:
        coming.append(times.deadline)
        if late:
            coming += [cycle_slot(t) for t in warn_times(times.deadline, timing.warn)]
    return min((t for t in coming if t > now), default=None)


__all__ = ["Agenda", "Readiness", "Step", "agenda", "processing_step", "readiness"]
