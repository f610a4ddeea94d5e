"""The game's state as the commands see it (`Session.state`, from the status and the state file, see
`judge.game.standing`): who may still see a hidden game, and which commands a closed game refuses.
"""
from __future__ import annotations

from judge.app.game_in_hand import closed_refusal
from judge.commands.auth import master_addresses
from judge.commands.session import Session
from judge.status.model import GameStatus

def sees_hidden(session: Session, status: GameStatus) -> bool:
    """Whether the sender may see a game in preparation or unlisted: signed on to it, its Master
    (by address: LIST is sent without a SIGNON), or the judgekeeper."""
    if session.signed_on:
        return True
    sender = session.sender.lower()
    return sender in master_addresses(status) or sender == session.settings.keeper.lower()


def refuse_closed(session: Session, command: str) -> None:
    """JOIN, OBSERVE, TAKEOVER, orders: refused in a game in preparation or terminated."""
    refused = closed_refusal(session.state, session.game or "", command)
    if refused is not None:
        raise refused
