"""SIGNON in every form (`Fgame`, `france@game`, `Mgame`, `3game`, `JK@game`), SIGNOFF, UNLOCK."""
from __future__ import annotations

from judge.commands.auth import (
    JUDGEKEEPER,
    Level,
    parse_target,
    registered_addresses,
    role_name,
)
from judge.app.game_in_hand import phase_name
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.game.orders import is_investor
from judge.types import MASTER


def sign_on(session: Session, word: str, password: str, command: str) -> str:
    """Check `word` and `password` against the game and sign the mail on; the role signed on as.

    Nothing is changed when this refuses: a wrong password or a forged identity earns a reply."""
    try:
        target = parse_target(word)
    except ValueError as exc:
        raise Refusal(str(exc)) from None
    status = session.take_game(target.game)
    role = role_name(status, session.map, target.who or "")
    if role is None or (target.initial and role not in (MASTER, JUDGEKEEPER)
                        and not _is_map_power(session, role)):
        raise Refusal(f"game '{target.game}' has no power or player '{target.who}'"
                      + (": observers sign on as name@game" if target.initial else ""))
    level = session.password_level(status, role, password, command)
    if level == Level.NONE:
        raise Refusal(f"{command}: wrong password for {role} in game '{target.game}'")
    block = status.power(role)
    if block is not None and block.player is not None and block.player.resigned \
            and level < Level.MASTER and command == "SIGNON":
        raise Refusal(f"{role} has been resigned: use TAKEOVER to play it")
    session.role, session.level = role, level
    session.target = role if block is not None and _is_map_power(session, role) else None
    if is_investor(status, block):  # an investor mails offer sheets of his own
        session.target = role
    if block is not None and block.control and level < Level.MASTER:
        session.target = role
    return role


def _is_map_power(session: Session, role: str) -> bool:
    block = session.current().power(role)
    return role in session.map.powers or (block is not None and block.is_power)


def reply_copies(session: Session) -> tuple[str, ...]:
    """The registered addresses of the role signed on, when the mail came from elsewhere."""
    if session.status is None or session.role is None:
        return ()
    registered = registered_addresses(session.status, session.role,
                                      session.settings.addresses_per_player)
    return () if session.sender in registered else registered


class Signon(Command):
    name = "SIGNON"
    help = "SIGNON Fgame password (or france@game, Mgame, 3game, name@game, JK@game): sign on"
    stage = Stage.BEFORE
    arity, secrets = (2,), (2,)
    usage = "SIGNON takes two words: the power and game (Fgame or france@game), and the password"
    outcome = "signon"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        role = sign_on(session, args[0], args[1], self.name)
        status = session.current()
        how = {Level.JUDGEKEEPER: " with the judgekeeper's password" if role != JUDGEKEEPER else "",
               Level.MASTER: " with the Master's password" if role != MASTER else "",
               Level.OMNISCIENT: " read-only (an omniscient password)"}.get(session.level, "")
        return said(f"Signed on as {role} in game '{session.game}'{how}.",
                    f"The game is in phase {phase_name(status)}.")


class Signoff(Command):
    """The mail reader stops at SIGNOFF already; this is here for the command list and for lines
    the reader passed on (none, today)."""

    name = "SIGNOFF"
    help = "SIGNOFF: the rest of the mail (a signature, say) is not read"
    stage = Stage.ANY
    level = Level.NONE
    writes = False

    def run(self, session: Session, args: list[str], cursor: Cursor) -> None:
        cursor.index = len(cursor.lines)


class Unlock(Command):
    """The code a player is mailed when wrong passwords pause his power's checks
    (`judge.commands.throttle`): the password checks after it in the mail go through."""

    name = "UNLOCK"
    help = ("UNLOCK code: while wrong passwords (someone else's, maybe) pause your password "
            "checks, put the code the judge mailed you on a line before SIGNON")
    stage = Stage.ANY
    level = Level.NONE
    writes = False
    arity, secrets = (1,), (1,)
    usage = "UNLOCK takes one word: the code the judge mailed you (as K7QM-4XPD)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        if session.signed_on:
            return said("Already signed on: the code is read by a SIGNON after it.")
        session.unlock = args[0]
        return said("The password check after this line may use the code.")


COMMANDS: list[type[Command]] = [Signon, Signoff, Unlock]
