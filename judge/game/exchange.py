"""The Exchange (DPjudge's `RULE EXCHANGE` in a Payola game): investors, players with a treasury and
no power of their own, who buy orders from the powers' units with bribes as the powers do.

A game that ALLOWs INVESTORs takes them by mail (`INVESTOR name@game password`): an investor's
purse opens at nothing (`FUNDS $0`), and earns no income at the year's end, so he bribes with the
money the judgekeeper or the Master put on his FUNDS line. In a movement phase an investor may
mail an offer sheet, though none is waited for; his bribes are settled with the powers' (ranking
after every power's when totals tie, as he has no letter in any acceptance list), and he is
mailed his account statement. This is what DPjudge plays of the Exchange: its dividends are paid
only in a DIVIDENDS phase, which no map has, its FUNDS lines keep a power's cash and drop the
shares beside it, and its stockholders' elections are read and written but never counted
(docs/dpjudge.md).
"""
from __future__ import annotations

from dataclasses import replace

from judge.game.payola_orders import CASH, VARIANT
from judge.game.positions import power_blocks
from judge.maps.model import Map
from judge.status.model import Fund, GameStatus, PowerStatus
from judge.types import MOVEMENT, Phase

INVESTOR = "INVESTOR"


def is_investor(status: GameStatus, block: PowerStatus | None) -> bool:
    """Whether the block is an investor of a Payola game."""
    return block is not None and block.kind == INVESTOR and status.variant == VARIANT


def investors(status: GameStatus) -> list[PowerStatus]:
    """The game's investors, in file order."""
    return [b for b in status.powers if is_investor(status, b)]


def bidders(status: GameStatus, m: Map) -> list[PowerStatus]:
    """Everyone whose offer sheet is settled: the map's powers, then the investors."""
    return power_blocks(status, m) + investors(status)


def bids_freely(status: GameStatus, power: str, phase: Phase) -> bool:
    """Whether `power` may send an offer sheet in `phase` though none is owed: an investor, in a
    movement phase."""
    return phase.type == MOVEMENT and is_investor(status, status.power(power))


def seated(status: GameStatus, block: PowerStatus) -> PowerStatus:
    """A player taking a seat of his own, as the game gives it him: an investor with an empty purse."""
    if not is_investor(status, block) or block.funds:
        return block
    return replace(block, funds=(Fund(0, CASH),))
