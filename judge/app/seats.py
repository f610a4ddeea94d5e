"""The use cases of the seats: JOIN, OBSERVE / MONITOR (a seat that watches the game), TAKEOVER and
RESIGN (a power, or leaving as an observer), the Master's RESIGN, DUMMY and REVIVE of a power, and
a new Master taking the game over.
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
from judge.game.exchange import seated
from judge.game.seats import GameError, make_dummy, refresh_need, resign, takeover
from judge.game.start import join
from judge.notices import MasterChanged
from judge.status.model import Dppd, GameStatus, PlayerHistory, PowerStatus, Vacancy
from judge.types import KEEPER_WORDS, MASTER_WORDS, MONITOR, OBSERVER

BUILT_IN_TYPES = (OBSERVER, MONITOR)
NO_PRIVACY_TYPES = (MONITOR,)  # the watchers a private game takes without its privacy password


@dataclass(frozen=True)
class Seated:
    """What a seat's change did: the status it leaves and its events; `left`, the kind of the
    observer-type seat that was left (None: a power's); `undummied`, a dummy the Master resigned
    is now vacant, for a TAKEOVER."""

    status: GameStatus
    events: tuple[Event | MasterChanged, ...] = ()
    left: str | None = None
    undummied: bool = False

    @property
    def joined(self) -> PlayerJoined:
        return next(e for e in self.events if isinstance(e, PlayerJoined))


def open_to(game: GameInHand, request: str) -> None:
    """Refusal when the game's state closes it to `request` (checked before any password)."""
    refused = closed_refusal(game.state, game.name, request)
    if refused is not None:
        raise refused


POWER_KIND = "POWER"  # the kind DPjudge gives a player's seat in a forming game


def join_game(game: GameInHand, player: Dppd, password_hash: str, addresses: tuple[str, ...],
              power: str | None) -> Seated:
    """`player` takes a seat of the forming game (`power`: the one chosen, POWER_CHOICE)."""
    open_to(game, "JOIN")
    seated = lived(lambda: join(game.status, game.map, game.now, player, password_hash, addresses,
                                power))
    return replace(seated, status=seats_in_order(seated.status)) if seated.status.forming else seated


def watcher_kind(status: GameStatus, word: str) -> str:
    """The kind of watching seat `word` names (at least its first three letters): OBSERVER,
    MONITOR or a kind the game ALLOWs."""
    word = word.upper()
    for kind in BUILT_IN_TYPES + tuple(sorted(status.allow)):
        if len(word) >= 3 and kind.startswith(word) or word == kind:
            return kind
    raise Refusal(f"{word} is not a kind of player in game '{status.name}' (OBSERVE, MONITOR"
                  + "".join(f", {k}" for k in sorted(status.allow)) + ")")


def watchable(status: GameStatus, game: str) -> None:
    """Refusal for a game over (checked before any password); `game`: its name as asked for."""
    if status.completed:
        raise Refusal(f"game '{game}' is over")


def seat_name_free(game: GameInHand, name: str) -> None:
    """Refusal unless `name` may name a new watching seat: not a power, its initials, the Master
    or the judgekeeper, and not taken (checked before the password is hashed)."""
    m, status = game.map, game.status
    initials = {info.abbrev for info in m.powers.values() if info.abbrev}
    if name in MASTER_WORDS or name in KEEPER_WORDS or name in m.powers or \
            name.startswith("POWER#") or all(c in initials | {"M"} for c in name) or \
            not name.replace("#", "").replace("_", "").isalnum():
        raise Refusal(f"'{name}' cannot be a player's name: choose another (not a power, its "
                      "initials, MASTER or JK)")
    if status.power(name) is not None:
        raise Refusal(f"'{name}' is already taken in game '{status.name}'")


def watch(game: GameInHand, name: str, kind: str, player: Dppd, password_hash: str,
          addresses: tuple[str, ...]) -> Seated:
    """`player` watches the game as `kind` `name` (OBSERVE, MONITOR or an ALLOWed kind)."""
    watchable(game.status, game.name)
    seat_name_free(game, name)
    block = PowerStatus(name=name, kind=kind, player=PlayerHistory(player), address=addresses,
                        password=password_hash)
    return Seated(seats_in_order(game.status.with_power(seated(game.status, block))))


def seats_in_order(status: GameStatus) -> GameStatus:
    """The seats as DPjudge sorts them when one is taken: by kind, then name. While the game forms
    a player's seat is of kind POWER (after the observers); once it has started, the powers' blocks
    come first, as they stand."""
    if status.forming:
        return replace(status, powers=tuple(sorted(status.powers, key=lambda b: (b.kind or POWER_KIND, b.name))))
    others = sorted((b for b in status.powers if b.kind is not None), key=lambda b: (b.kind or "", b.name))
    return replace(status, powers=tuple(b for b in status.powers if b.kind is None) + tuple(others))


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


def master_resigns(game: GameInHand, power: str) -> Seated:
    """The Master's RESIGN of `power`: its player resigned, or, a dummy once the game started,
    the power made vacant."""
    status = game.status
    block = status.power(power)
    assert block is not None
    if block.player is not None and block.player.dummy and not status.forming:
        vacant = replace(block, player=PlayerHistory(Vacancy.RESIGNED, block.player.handovers),
                         control=())
        return Seated(refresh_need(status.with_power(vacant), game.map), undummied=True)
    return lived(lambda: resign(status, game.map, power, by_master=True))


def dummy(game: GameInHand, power: str) -> Seated:
    """The Master's DUMMY: the judge plays `power` from now on (once the game has started)."""
    if game.status.forming:
        raise Refusal("powers are made dummies once the game has started")
    return lived(lambda: make_dummy(game.status, game.map, power))


def last_player(block: PowerStatus) -> Dppd | None:
    """The player who played `block` before its last handover."""
    if block.player is None or not block.player.handovers:
        return None
    previous = block.player.handovers[0].previous
    return previous if isinstance(previous, Dppd) else None


def revivable(game: GameInHand, power: str) -> Dppd:
    """The player whose resignation of `power` the Master's REVIVE undoes (checked before a new
    password is read)."""
    block = game.status.power(power)
    player = last_player(block) if block is not None else None
    if block is None or block.player is None or not block.player.resigned or player is None:
        raise Refusal(f"{power} has no resignation to undo")
    return player


def revive(game: GameInHand, power: str, password_hash: str) -> Seated:
    """The Master's REVIVE: `power` given back to the player who resigned it, as if the
    resignation had not been (its handover dropped)."""
    player = revivable(game, power)
    taken = lived(lambda: takeover(game.status, game.map, power, player, password_hash))
    revived = taken.status.power(power)
    assert revived is not None and revived.player is not None
    handovers = revived.player.handovers[1:] if revived.player.handovers else ()
    again = replace(revived, player=replace(revived.player, handovers=handovers))
    return Seated(taken.status.with_power(again), taken.events)


def new_master(game: GameInHand, address: str) -> Seated:
    """The game's Master is the one at `address` from now on (TAKEOVER master@game, with the
    Master's password); the old Master and the new are told."""
    status = game.status
    master = replace(status.master, email=address) if status.master is not None \
        else Dppd("NO-ID", address, "")
    old = tuple(mail.lower() for mail in status.master_mail)
    return Seated(replace(status, master=master), (MasterChanged(status.name or "", old, address),))


def lived(change: Callable[[], tuple[GameStatus, list[Event]]]) -> Seated:
    """The seat's change made; its GameError refused."""
    try:
        status, events = change()
    except GameError as error:
        raise Refusal(str(error)) from None
    return Seated(status, tuple(events))
