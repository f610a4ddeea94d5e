"""A Payola power's offer sheet given for a movement phase: the mailed lines read as DPjudge reads
them (`judge.game.payola_orders`), every line it refuses told with its words, and the sheet kept
whole in the power's block; the orders use case (`judge.app.orders`) hands a Payola movement
phase's orders here."""
from __future__ import annotations

from dataclasses import replace

from judge.app.game_in_hand import GameInHand
from judge.app.refusal import Refusal
from judge.game.payola_orders import balance, read_sheet, sheet_in, unplayed
from judge.game.positions import position_of
from judge.status.model import GameStatus
from judge.types import Phase


def with_offers(game: GameInHand, power: str, phase: Phase, lines: list[str]) -> GameStatus:
    """The status with the power's sheet made of `lines` (none: cleared); Refusal naming every
    line DPjudge would refuse, and then the sheet on file stays as it was."""
    status, m = game.status, game.map
    block = status.power(power)
    assert block is not None  # a power owing a sheet
    kept, errors = read_sheet(m, position_of(status, m, phase), game.rules, power, lines, balance(block),
                              unplayed(status.powers))
    if errors:
        raise Refusal(f"{len(errors)} of the offers for {power} could not be accepted, so none "
                      f"were stored:", *(f"{line}: {reason}" for line, reason in errors))
    return status.with_power(replace(block, offers=kept))


def offers_bribe(game: GameInHand, power: str, phase: Phase, lines: list[str]) -> bool:
    """Whether `lines` would be taken as a sheet holding a bribe."""
    try:
        status = with_offers(game, power, phase, lines)
    except Refusal:
        return False
    block = status.power(power)
    return block is not None and sheet_in(block)
