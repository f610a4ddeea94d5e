"""The use cases of the seats: JOIN, TAKEOVER and RESIGN (a power, or leaving as an observer).
The door checks the sender's passwords and hands over the player, the password's hash and the
addresses; here the game decides: it is open to the request, a seat is free, a power to take
over is vacant (`judge.game.seats`, `judge.game.start`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from judge.app.game_in_hand import GameInHand, closed_refusal
from judge.app.refusal import Refusal
from judge.events import Event, PlayerJoined
from judge.game.seats import GameError, resign, takeover
from judge.game.start import join
from judge.status.model import Dppd, GameStatus


@dataclass(frozen=True)
class Seated:
    """What a seat's change did: the status it leaves and its events; `left`, the kind of the
    observer-type seat that was left (None: a power's)."""

    status: GameStatus
    events: tuple[Event, ...] = ()
    left: str | None = None

    @property
    def joined(self) -> PlayerJoined:
        return next(e for e in self.events if isinstance(e, PlayerJoined))


def open_to(game: GameInHand, request: str) -> None:
    """Refusal when the game's state closes it to `request` (checked before any password)."""
    refused = closed_refusal(game.state, game.name, request)
    if refused is not None:
        raise refused


def join_game(game: GameInHand, player: Dppd, password_hash: str, addresses: tuple[str, ...],
              power: str | None) -> Seated:
    """`player` takes a seat of the forming game (`power`: the one chosen, POWER_CHOICE)."""
    open_to(game, "JOIN")
    return lived(lambda: join(game.status, game.map, game.now, player, password_hash, addresses,
                              power))


def take_over(game: GameInHand, power: str, player: Dppd, password_hash: str,
              addresses: tuple[str, ...]) -> Seated:
    """`player` takes over the vacant `power`."""
    open_to(game, "TAKEOVER")
    return lived(lambda: takeover(game.status, game.map, power, player, password_hash, addresses))


def leave(game: GameInHand, role: str, by_master: bool) -> Seated:
    """`role` leaves the game: an observer-type seat goes, a power is resigned."""
    block = game.status.power(role)
    if block is not None and not block.is_power:
        kept = tuple(p for p in game.status.powers if p.name != role)
        return Seated(replace(game.status, powers=kept), left=block.kind)
    return lived(lambda: resign(game.status, game.map, role, by_master=by_master))


def lived(change: Callable[[], tuple[GameStatus, list[Event]]]) -> Seated:
    """The seat's change made; its GameError refused."""
    try:
        status, events = change()
    except GameError as error:
        raise Refusal(str(error)) from None
    return Seated(status, tuple(events))
