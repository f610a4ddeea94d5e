"""The Exchange (DPjudge's `RULE EXCHANGE` in a Payola game): investors, players with a treasury and
no power of their own, who buy orders from the powers' units with bribes as the powers do.

A game that ALLOWs INVESTORs takes them by mail (`INVESTOR name@game password`): an investor's
purse opens at nothing (`FUNDS $0`), and earns no income at the year's end, so he bribes with the
money the judgekeeper or the Master put on his FUNDS line. In a movement phase an investor may
mail an offer sheet, though none is waited for; his bribes are settled with the powers' (ranking
after every power's when totals tie, as he has no letter in any acceptance list), and he is
mailed his account statement (who is an investor, and may send a sheet, is told by
`judge.game.orders`). This is what DPjudge plays of the Exchange: its dividends are paid only in a
DIVIDENDS phase, which no map has, it reads only the first fund of a FUNDS line (shares written
beside the cash are lost), and its stockholders' elections are read and written but never counted
(docs/dpjudge.md).
"""
from __future__ import annotations

from dataclasses import replace

from judge.game.orders import is_investor
from judge.game.payola_orders import CASH
from judge.game.positions import power_blocks
from judge.maps.model import Map
from judge.status.model import Fund, GameStatus, PowerStatus


def investors(status: GameStatus) -> list[PowerStatus]:
    """The game's investors, in file order."""
    return [b for b in status.powers if is_investor(status, b)]


def bidders(status: GameStatus, m: Map) -> list[PowerStatus]:
    """Everyone whose offer sheet is settled: the map's powers, then the investors."""
    return power_blocks(status, m) + investors(status)


def seated(status: GameStatus, block: PowerStatus) -> PowerStatus:
    """A player taking a seat of his own, as the game gives it him: an investor with an empty purse."""
    if not is_investor(status, block) or block.funds:
        return block
    return replace(block, funds=(Fund(0, CASH),))
