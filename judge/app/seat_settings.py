"""The use cases of what a seat sets about itself: SET ADDRESS (where its mail goes), SET PASSWORD,
SET WAIT / NOWAIT (a power's wait flag) and SET MAP (the picture its results carry).
The door reads the words (the addresses within the judge's limit, the password's form, the
picture's kind) and hashes the password; here the seat is found and the game decides.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from judge.app.game_in_hand import (
    GameInHand,
    game_duties,
    past_deadline,
    phase_of,
    processing,
)
from judge.app.refusal import Refusal
from judge.events import Event
from judge.game.positions import alive
from judge.rule_names import Rule
from judge.status import values
from judge.status.model import Dppd, GameStatus, PowerStatus
from judge.types import JUDGEKEEPER, MASTER, MOVEMENT


@dataclass(frozen=True)
class Changed:
    """The status a setting leaves, and its events (most settings have none)."""

    status: GameStatus
    events: tuple[Event, ...] = ()


def own_block(game: GameInHand, actor: str, request: str) -> PowerStatus:
    """The seat of `actor` (the Master has none)."""
    block = game.status.power(actor)
    if block is None:
        raise Refusal(f"{request} is for a player; the Master has no such setting")
    return block


def set_address(game: GameInHand, actor: str, addresses: tuple[str, ...]) -> Changed:
    """Mail for `actor` goes to `addresses` from now on; the Master's to one address."""
    status = game.status
    if actor in (MASTER, JUDGEKEEPER):
        if actor == JUDGEKEEPER or len(addresses) != 1:
            raise Refusal("the Master's mail goes to one address: SET ADDRESS one@address")
        master = status.master or Dppd("NO-ID", addresses[0], "")
        address = addresses if status.address else ()  # a DPjudge game's ADDRESS line follows
        return Changed(replace(status, master=replace(master, email=addresses[0]),
                               address=address))
    block = own_block(game, actor, "SET ADDRESS")
    return Changed(status.with_power(replace(block, address=addresses)))


def password_settable(actor: str) -> None:
    """Refusal for the judgekeeper (checked before the new password is hashed)."""
    if actor == JUDGEKEEPER:
        raise Refusal("the judgekeeper's password is set in the judge's configuration")


def set_password(game: GameInHand, actor: str, password_hash: str) -> Changed:
    """`actor`'s password is the one hashed from now on; a controlled power has none."""
    status = game.status
    password_settable(actor)
    if actor == MASTER:
        return Changed(replace(status, password=password_hash))
    block = own_block(game, actor, "SET PASSWORD")
    if block.control:
        raise Refusal(f"{block.name} is controlled by {block.control[0]} and has no password of "
                      "its own")
    return Changed(status.with_power(replace(block, password=password_hash)))


def set_wait(game: GameInHand, actor: str, wait: bool) -> Changed:
    """The wait flag of `actor`'s power: whether the phase waits for the deadline though every
    order is in. Only a power that owes orders, before the deadline, sets it."""
    status, rules = game.status, game.rules
    block = own_block(game, actor, "SET WAIT" if wait else "SET NOWAIT")
    phase = phase_of(status)
    if not block.is_power or phase is None:
        raise Refusal("the wait flag is for powers in a running game")
    if wait and Rule.REAL_TIME in rules:
        raise Refusal("a REAL_TIME game never waits for the deadline")
    if processing(status):
        raise Refusal("the judge is processing this phase")
    if past_deadline(status, rules, game.now):
        raise Refusal("the deadline has passed: the wait flag can no longer be changed")
    if not alive(block) or block.name not in game_duties(game).due:
        raise Refusal(f"{block.name} has no orders to give in {phase}")
    if Rule.NO_MINOR_WAIT in rules and phase.type != MOVEMENT:
        raise Refusal("the wait flag is used only in movement phases (NO_MINOR_WAIT)")
    return Changed(status.with_power(replace(block, wait=wait)))


def set_picture(game: GameInHand, actor: str, words: list[str]) -> Changed:
    """The board's picture `actor`'s results mails carry, as `words` name it (NONE: none)."""
    block = own_block(game, actor, "SET MAP")
    try:
        kind = values.picture_format(words)
    except ValueError:
        raise Refusal(f"SET MAP takes one of {', '.join(values.PICTURE_FORMATS)}") from None
    return Changed(game.status.with_power(replace(block, picture=kind)))
