"""The use cases of a Payola power's money between phases (`judge.game.payola_funds`): TRANSFER
(give funds to another power) and ACCEPT (set the acceptance list). The door reads the words; here
the game decides. DPjudge offers both on its pages only while the judge is not processing."""
from __future__ import annotations

from dataclasses import replace

from judge.app.game_in_hand import GameInHand, closed_refusal, phase_name, phase_of, processing
from judge.app.refusal import Refusal
from judge.app.seat_settings import Changed, own_block
from judge.game.orders import plays_offers
from judge.game.payola_funds import acceptance_list, gone_before_adjustments, transfer_refusal, transferred
from judge.rule_names import Rule
from judge.status.model import PowerStatus


def transfer_funds(game: GameInHand, actor: str, receiver: str, amount: int) -> Changed:
    """`actor`'s power gives `amount` AgP to the power named `receiver`; both are told."""
    block = _purse(game, actor, "TRANSFER")
    other = game.status.power(receiver)
    reason = transfer_refusal(block, other, amount, game.rules,
                              Rule.NO_DONATIONS in game.rules and gone_before_adjustments(game.status, game.map, actor))
    if reason is not None or other is None:
        raise Refusal(f"no transfer made: {reason}")
    status, told = transferred(game.status, block, other, amount, game.rules)
    return Changed(status, (told,))


def set_acceptance(game: GameInHand, actor: str, written: str) -> Changed:
    """`actor`'s power's acceptance list is `written` from now on."""
    block = _purse(game, actor, "ACCEPT")
    try:
        listed = acceptance_list(game.map, game.status, written)
    except ValueError as exc:
        raise Refusal(f"acceptance list refused: {exc}") from None
    return Changed(game.status.with_power(replace(block, accept=listed)))


def _purse(game: GameInHand, actor: str, request: str) -> PowerStatus:
    """The power of `actor` in a running Payola game the judge is not processing."""
    status = game.status
    if not plays_offers(status):
        raise Refusal(f"{request} is for Payola games; game '{game.name}' is not one")
    block = own_block(game, actor, request)
    closed = closed_refusal(game.state, game.name, request)
    if closed is not None:
        raise closed
    if phase_of(status) is None:
        raise Refusal(f"game '{game.name}' is {phase_name(status)}: {request} waits for a running game")
    if processing(status):
        raise Refusal(f"the judge is processing this phase: send {request} again in a moment")
    if not block.is_power or block.funds is None:
        raise Refusal(f"{block.name} has no treasury in this game")
    return block
