"""The Master's use cases that change the game's state (`judge.game.standing`): FORM, ACTIVATE,
WAIT and TERMINATE, and the start of a forming game they (and CREATE) may cause; and REVEAL, which
makes a NO_REVEAL game's players known once it is over; and whether PURGE may remove the game. Each decides
from the game as read and its state file's standing; the door says it in its own words.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from judge.app.game_in_hand import GameInHand
from judge.app.refusal import Refusal
from judge.events import Event
from judge.game import GameError, start_game
from judge.game.standing import GameState, Standing, activate, form, game_state, terminate, wait
from judge.game.start import starts_at_once
from judge.notices import StateChanged
from judge.rule_names import Rule
from judge.status.model import Dppd, GameStatus

T = TypeVar("T")


@dataclass(frozen=True)
class Restated:
    """What a state change did: the standing and status it leaves, the events of a start or the
    new state everyone in the game is told of (`changed`); `started`, the forming game started
    (its status before is the snapshot of FORMING)."""

    standing: Standing
    status: GameStatus
    events: tuple[Event | StateChanged, ...] = ()
    changed: bool = False
    started: bool = False

    @property
    def state(self) -> GameState:
        return game_state(self.status, self.standing)


def ruled(game: GameInHand, standing: Standing, change: Callable[[GameStatus, Standing], T]) -> T:
    """One of `judge.game.standing`'s changes of the game; its GameError refused."""
    try:
        return change(game.status, standing)
    except GameError as error:
        raise Refusal(str(error)) from None


def start(game: GameInHand, standing: Standing) -> Restated:
    """The forming game started now: its powers set up for the first phase."""
    try:
        status, events = start_game(game.status, game.map, game.now)
    except GameError as error:
        raise Refusal(str(error)) from None
    return Restated(replace(standing, state=None), status, tuple(events), started=True)


def restated(game: GameInHand, standing: Standing) -> Restated:
    told = StateChanged(game.name, game_state(game.status, standing).value)
    return Restated(standing, game.status, (told,), changed=True)


def form_game(game: GameInHand, standing: Standing) -> Restated:
    """FORM: the game takes JOIN; it starts at once when no seat is left to fill."""
    new = ruled(game, standing, form)
    if game.state is GameState.FORMING:
        return Restated(standing, game.status)
    if starts_at_once(game.status, game.map):
        return start(game, new)
    return restated(game, new)


def activate_game(game: GameInHand, standing: Standing) -> Restated:
    """ACTIVATE: a forming game (or one in preparation) starts now; a held one goes on."""
    new, starting = ruled(game, standing, activate)
    if game.state is GameState.ACTIVE:
        return Restated(standing, game.status)
    if starting:
        return start(game, new)
    return restated(game, new)


def wait_game(game: GameInHand, standing: Standing) -> Restated:
    """WAIT: the game in play is held, its deadline ignored, until ACTIVATE."""
    return kept_or_restated(game, standing, ruled(game, standing, wait))


def terminate_game(game: GameInHand, standing: Standing) -> Restated:
    """TERMINATE: the game ends without a result."""
    return kept_or_restated(game, standing, ruled(game, standing, terminate))


def kept_or_restated(game: GameInHand, standing: Standing, new: Standing) -> Restated:
    return Restated(standing, game.status) if new == standing else restated(game, new)


@dataclass(frozen=True)
class Revealed:
    """REVEAL's status, NO_REVEAL off, and its notice to everyone in the game."""

    status: GameStatus
    events: tuple[StateChanged, ...]


def reveal(game: GameInHand) -> Revealed:
    """REVEAL: a NO_REVEAL game over shows who played: the rule is turned off."""
    status = game.status
    if Rule.NO_REVEAL not in game.rules:
        raise Refusal("REVEAL is for NO_REVEAL games: the players are revealed at the end")
    if not status.completed:
        raise Refusal("REVEAL waits until the game is completed")
    return Revealed(replace(status, rules=status.rules - {Rule.NO_REVEAL},
                            rules_off=status.rules_off | {Rule.NO_REVEAL}),
                    (StateChanged(game.name, "revealed"),))


def purgeable(status: GameStatus, state: GameState, by_keeper: bool) -> None:
    """Refusal unless PURGE may remove the game: one that has not started and that nobody has
    joined (the judgekeeper purges any)."""
    if by_keeper:
        return
    if state not in (GameState.PREPARATION, GameState.FORMING):
        raise Refusal("only a game that has not started can be purged; the normal way to end a "
                      "game early is TERMINATE (or ask the judgekeeper)")
    joined = [b.name for b in status.powers
              if isinstance(b.player.current if b.player else None, Dppd)]
    if joined:
        raise Refusal(f"players have joined ({', '.join(joined)}): make them resign first")
