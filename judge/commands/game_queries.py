"""What commands ask about the game in hand: where a player's mail goes, who controls a power,
a vacant seat."""
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


def controls(status: GameStatus, controller: str, power: str) -> bool:
    """Whether `controller` may give `power`'s orders: it is first on the power's CONTROL line, or
    the power is a dummy of the controller's TEAM."""
    block = status.power(power)
    if block is None:
        return False
    if block.control and block.control[0] == controller:
        return True
    return any(team.main == controller and power in team.dummies for team in status.teams)


def vacant(block: PowerStatus) -> bool:
    return block.player is not None and (block.player.resigned or block.player.dummy)
