"""The game as a use case reads it, and what use cases ask of it: the phase, whether the judge
is processing it, whether its deadline has passed, whether its state closes it to a request."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from judge.app.refusal import Refusal
from judge.game.clock import deadline_in_force
from judge.game.orders import Duties, duties
from judge.game.standing import GameState
from judge.maps.model import Map
from judge.status.model import GameStatus, PhaseMode
from judge.types import JUDGEKEEPER, MASTER, MONITOR, MOVEMENT, Phase
from judge.rule_names import Rules


@dataclass(frozen=True)
class GameInHand:
    """One game as read for a use case: its name, status, the map of its phase, the rules in
    force, its state (`judge.game.standing`), and the time the request is made at."""

    name: str
    status: GameStatus
    map: Map
    rules: Rules
    state: GameState
    now: datetime


def phase_of(status: GameStatus) -> Phase | None:
    return status.phase if isinstance(status.phase, Phase) else None


def phase_name(status: GameStatus) -> str:
    """SPRING 1901 MOVEMENT, or forming / completed."""
    phase = status.phase
    return str(phase) if isinstance(phase, Phase) else phase.value.lower()


def deadline(status: GameStatus, rules: Rules) -> datetime | None:
    """The deadline in force (`judge.game.clock`); None when there is none or it cannot be read."""
    try:
        return deadline_in_force(status, rules)
    except ValueError:
        return None


def past_deadline(status: GameStatus, rules: Rules, now: datetime) -> bool:
    moment = deadline(status, rules)
    return moment is not None and now >= moment


def processing(status: GameStatus) -> bool:
    return status.phase_mode is PhaseMode.AWAIT


def closed_refusal(state: GameState, game: str, request: str) -> Refusal | None:
    """Why a game in preparation or terminated refuses JOIN, OBSERVE, TAKEOVER or orders."""
    if state is GameState.PREPARATION:
        return Refusal(f"game '{game}' is in preparation: {request} waits until its Master "
                       "lets it form (FORM) or starts it (ACTIVATE)")
    if state is GameState.TERMINATED:
        return Refusal(f"game '{game}' is terminated: {request} is refused")
    return None


class Kind(str, Enum):
    MASTER = "master"
    POWER = "power"  # a map power (POWER#n while forming)
    OBSERVER = "observer"  # an observer or another ALLOWed type that may send press
    MONITOR = "monitor"


def kind_of(status: GameStatus, name: str) -> Kind:
    """What the seat `name` is in the game: its Master, a power, an observer or a monitor."""
    if name in (MASTER, JUDGEKEEPER):
        return Kind.MASTER
    block = status.power(name)
    if block is None or block.is_power:
        return Kind.POWER
    return Kind.MONITOR if block.kind == MONITOR else Kind.OBSERVER


def in_movement(status: GameStatus) -> bool:
    phase = phase_of(status)
    return phase is not None and phase.type == MOVEMENT


def game_duties(game: GameInHand) -> Duties:
    """Who owes orders in the game's phase, who has given them, who is late."""
    return duties(game.status, game.map, game.rules)


def late_powers(game: GameInHand) -> tuple[str, ...]:
    """Powers that owe orders, have none on file, and whose deadline has passed."""
    if phase_of(game.status) is None or not past_deadline(game.status, game.rules, game.now):
        return ()
    return game_duties(game).late
