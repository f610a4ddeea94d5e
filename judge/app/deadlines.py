"""The use case of SET DEADLINE: the Master sets the phase's deadline; under PLAYER_DEADLINES a
player (not a MONITOR) may put it later, never earlier. A game with no phase, or NO_DEADLINE,
has none to set."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from judge.app.game_in_hand import GameInHand, Kind, deadline, kind_of, phase_name, phase_of
from judge.app.refusal import Refusal
from judge.events import Event
from judge.game import GameError
from judge.game.schedule import set_deadline
from judge.maps.model import Map
from judge.rule_names import Rule
from judge.status.model import GameStatus
from judge.types import MASTER


@dataclass(frozen=True)
class DeadlineSet:
    """The status with its new deadline, and its events."""

    status: GameStatus
    events: tuple[Event, ...]
    moment: datetime


def settable(game: GameInHand, actor: str, master: bool) -> None:
    """Refusal unless `actor` (`master`: with the Master's password) may set this game's deadline
    (checked before the deadline asked for is read)."""
    status, rules = game.status, game.rules
    if not master and Rule.PLAYER_DEADLINES not in rules:
        raise Refusal("only the Master may set the deadline (no PLAYER_DEADLINES)")
    if not master and kind_of(status, actor) is Kind.MONITOR:
        raise Refusal("a MONITOR may not set the deadline")
    phase = phase_of(status)
    if phase is None:
        raise Refusal(f"game '{game.name}' is {phase_name(status)}: it has no deadline")
    if Rule.NO_DEADLINE in rules:
        raise Refusal("this game has no deadline to set")


def set_to(game: GameInHand, base_map: Map, actor: str, master: bool, moment: datetime
           ) -> DeadlineSet:
    """The deadline at `moment`, set by `actor`; a player only puts it later."""
    settable(game, actor, master)
    current = deadline(game.status, game.rules)
    if not master and current is not None and moment <= current:
        raise Refusal("only the Master may move a deadline earlier (PLAYER_DEADLINES lets "
                      "players lengthen it)")
    try:
        status, events = set_deadline(game.status, base_map, moment, MASTER if master else actor)
    except GameError as error:
        raise Refusal(str(error)) from None
    return DeadlineSet(status, tuple(events), moment)
