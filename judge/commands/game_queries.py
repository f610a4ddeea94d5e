"""What commands ask about the game in hand: where a player's mail goes, a vacant seat."""
from __future__ import annotations

from judge.commands.auth import JUDGEKEEPER, addresses_of, master_addresses
from judge.status.model import GameStatus, PowerStatus
from judge.types import MASTER


def addresses_for(status: GameStatus, name: str, limit: int) -> tuple[str, ...]:
    """Where mail for a power or player goes (at most `limit` addresses, see addresses_of); a
    power another controls: its controller's."""
    if name in (MASTER, JUDGEKEEPER):
        return master_addresses(status)
    block = status.power(name)
    if block is None:
        return ()
    own = addresses_of(block, limit)
    if own or not block.control:
        return own
    controller = status.power(block.control[0])
    return addresses_of(controller, limit) if controller is not None else ()


def vacant(block: PowerStatus) -> bool:
    return block.player is not None and (block.player.resigned or block.player.dummy)
