"""The deadline of the phase a game is in, from its TIMING, ZONE and rules (`judge.timing`)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from judge.game.rules import rules_in_force
from judge.maps.model import Map
from judge.status.model import GameStatus
from judge.timing import format_deadline, next_deadline, parse_deadline, parse_timing
from judge.types import Phase


@dataclass(frozen=True)
class Deadline:
    moment: datetime | None  # aware, UTC; None under NO_DEADLINE
    text: str | None  # the DEADLINE value, on the game's wall clock


def deadline_for(status: GameStatus, m: Map, now: datetime, first: bool = False,
                 keep_later: bool = False) -> Deadline:
    """The deadline the judge sets for the status's phase at `now`. `keep_later`: never earlier than
    the DEADLINE on file (as after processing); a rollback sets a fresh one."""
    phase = status.phase
    if not isinstance(phase, Phase):
        return Deadline(None, None)
    current = current_deadline(status) if keep_later else None
    moment = next_deadline(parse_timing(status.timing or ""), phase.type, status.zone, now,
                           rules_in_force(status, m), current, first)
    return Deadline(moment, None if moment is None else format_deadline(moment, status.zone))


def current_deadline(status: GameStatus) -> datetime | None:
    return parse_deadline(status.deadline, status.zone) if status.deadline else None
