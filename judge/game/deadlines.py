"""The deadline of the phase a game is in, one module for all of it (`judge.timing` does the
arithmetic on TIMING, ZONE and the rules):

- `deadline_for`: the deadline the judge sets for the phase at `now`; `with_deadline` writes one
  on the game's wall clock, the one way a status gets its DEADLINE line;
- `current_deadline`: the DEADLINE line as written, read on the game's ZONE, whatever the rules;
- `deadline_in_force`: the deadline players are held to: the one on file, none outside a phase in
  play or under NO_DEADLINE. Whoever shows or compares a deadline reads it here;
- `in_force -> InForce` adds its grace end: GRACE after it; under CIVIL_DISORDER without GRACE,
  the deadline itself; otherwise none (nobody is ever resigned automatically).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from judge.game.rules import rules_in_force
from judge.maps.model import Map
from judge.rule_names import Rule, Rules
from judge.status.model import GameStatus
from judge.timing import format_deadline, grace_end, next_deadline, parse_deadline, parse_timing
from judge.types import Phase


@dataclass(frozen=True)
class Deadline:
    moment: datetime | None  # aware, UTC; None under NO_DEADLINE


@dataclass(frozen=True)
class InForce:
    deadline: datetime | None  # aware, UTC
    grace_end: datetime | None


def deadline_for(status: GameStatus, m: Map, now: datetime, first: bool = False,
                 keep_later: bool = False) -> Deadline:
    """The deadline the judge sets for the status's phase at `now`. `keep_later`: never earlier than
    the DEADLINE on file (as after processing); a rollback sets a fresh one."""
    phase = status.phase
    if not isinstance(phase, Phase):
        return Deadline(None)
    current = current_deadline(status) if keep_later else None
    return Deadline(next_deadline(parse_timing(status.timing or ""), phase.type, status.zone, now,
                                  rules_in_force(status, m), current, first))


def with_deadline(status: GameStatus, moment: datetime | None) -> GameStatus:
    """The status with `moment` as its DEADLINE line, on the game's wall clock (None: no line)."""
    return replace(status, deadline=None if moment is None else format_deadline(moment, status.zone))


def current_deadline(status: GameStatus) -> datetime | None:
    return parse_deadline(status.deadline, status.zone) if status.deadline else None


def deadline_in_force(status: GameStatus, rules: Rules) -> datetime | None:
    """See the module's doc. ValueError when the DEADLINE or ZONE line cannot be read."""
    if not isinstance(status.phase, Phase) or Rule.NO_DEADLINE in rules:
        return None
    return current_deadline(status)


def in_force(status: GameStatus, rules: Rules) -> InForce:
    """The deadline in force and its grace end. ValueError when the DEADLINE, ZONE or TIMING line
    cannot be read."""
    deadline = deadline_in_force(status, rules)
    if deadline is None:
        return InForce(None, None)
    return InForce(deadline, grace_end(deadline, parse_timing(status.timing or "").grace, rules))
