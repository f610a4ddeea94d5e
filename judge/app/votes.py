"""The use case of a power's vote: a result voted for (SOLO, LOSS, nWAY, none), or, under
PROPOSE_DIAS, a proposal made or answered. Only the powers vote; no draw where NO_DRAW holds. A
vote that completes the votes ends the game (`judge.game.victory`)."""
from __future__ import annotations

from dataclasses import dataclass

from judge.app.game_in_hand import GameInHand, Kind, kind_of
from judge.app.refusal import Refusal
from judge.events import Event
from judge.game import GameError, cast_vote, propose
from judge.rule_names import Rule
from judge.status.model import GameStatus, Vote, VoteKind


@dataclass(frozen=True)
class Voted:
    """What a vote did: the status with it, and its events (the vote, the game's end)."""

    status: GameStatus
    events: tuple[Event, ...]

    @property
    def ended(self) -> bool:
        return self.status.completed


def voter(game: GameInHand, actor: str) -> None:
    if kind_of(game.status, actor) is not Kind.POWER:
        raise Refusal("only the powers vote")


def vote(game: GameInHand, actor: str, choice: Vote | None) -> Voted:
    """`actor`'s vote is now `choice` (None: no vote, or a veto under PROPOSE_DIAS)."""
    voter(game, actor)
    if choice is not None and choice.kind is VoteKind.DRAW and Rule.NO_DRAW in game.rules:
        raise Refusal("no draws in this game (NO_DRAW)")
    try:
        status, events = cast_vote(game.status, game.map, actor, choice, game.now)
    except GameError as error:
        raise Refusal(str(error)) from None
    return Voted(status, tuple(events))


def proposal(game: GameInHand, actor: str, result: str) -> Voted:
    """PROPOSE_DIAS: `actor` proposes `result` (DIAS, or a concession to a power)."""
    voter(game, actor)
    try:
        status, events = propose(game.status, game.map, actor, result, game.now)
    except GameError as error:
        raise Refusal(str(error)) from None
    return Voted(status, tuple(events))
