"""A game's state as DPjudge names it: preparation, forming, active, waiting, completed, terminated.

The status file holds the phase (FORMING, COMPLETED or a phase of play) and the NEED line, so
forming, active, waiting for replacements and completed are read from it. Preparation, a waiting
state the Master sets, terminated, and the LISTED / UNLISTED flag have no directive in the status
syntax yet: `set_state` refuses them with a clear reason until one exists.
"""
from __future__ import annotations

from enum import Enum

from judge.commands.session import Refusal
from judge.status.model import GameStatus


class GameState(str, Enum):
    PREPARATION = "preparation"
    FORMING = "forming"
    ACTIVE = "active"
    WAITING = "waiting"
    COMPLETED = "completed"
    TERMINATED = "terminated"


UNKEPT = "the status file has no directive to keep a game's {what} yet, so this judge cannot {act}"


def game_state(status: GameStatus) -> GameState:
    if status.forming:
        return GameState.FORMING
    if status.completed:
        return GameState.COMPLETED
    if status.need:
        return GameState.WAITING
    return GameState.ACTIVE


def listed(status: GameStatus) -> bool:
    """Whether the game shows in a LIST of all games (every game, until UNLISTED can be kept)."""
    return True


def unkept(what: str, act: str) -> Refusal:
    return Refusal(UNKEPT.format(what=what, act=act))
