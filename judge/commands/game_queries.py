"""What commands ask about the game in hand: who is what, who owes orders, who is late, the
deadline, and where a player's mail goes. Read-only helpers over `Session`."""
from __future__ import annotations

from judge.app.game_in_hand import past_deadline, phase_of
from judge.commands.auth import JUDGEKEEPER, addresses_of, master_addresses
from judge.commands.session import Session
from judge.game.orders import Duties, duties
from judge.status.model import GameStatus, PowerStatus
from judge.types import MASTER, MOVEMENT


def in_movement(status: GameStatus) -> bool:
    phase = phase_of(status)
    return phase is not None and phase.type == MOVEMENT


def game_duties(session: Session) -> Duties:
    return duties(session.current(), session.map, session.rules)


def late_powers(session: Session) -> tuple[str, ...]:
    """Powers that owe orders, have none on file, and whose deadline has passed."""
    status = session.current()
    if phase_of(status) is None or not past_deadline(status, session.rules, session.now):
        return ()
    return game_duties(session).late


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
