"""Taking and leaving a role: JOIN, OBSERVE / MONITOR / other ALLOWed types, TAKEOVER, RESIGN.

The seats are the use cases of `judge.app.seats`; these commands check who asks (the sender's
address is the identity), the passwords and the privacy word, and call them.
"""
from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from judge.commands.auth import (
    Level,
    block_of_sender,
    check_game_word,
    clean_password,
    own_check,
    parse_target,
    privacy_check,
    role_name,
    valid_password,
)
from judge.app import seats
from judge.app.game_in_hand import deadline, phase_name
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.commands.signon import sign_on
from judge.commands.closed_games import refuse_closed
from judge.status.model import Dppd, GameStatus
from judge.timing import game_zone
from judge.timing.written import long_form
from judge.types import MASTER


def player_of(session: Session) -> Dppd:
    """The sender as the status file records a player (no player database: NO-ID)."""
    return Dppd("NO-ID", session.sender, "")


def check_privacy(session: Session, status: GameStatus, given: str | None,
                  command: str) -> None:
    """A private game's privacy password, checked as passwords are (wrong ones are counted)."""
    if status.private is None:
        return
    if given is None:
        raise Refusal(f"game '{status.name}' is private: add the privacy password the Master "
                      f"gave you after your own ({command} ... password privacyPassword)")
    if not session.checked(status, privacy_check(status), given, command):
        raise Refusal(f"wrong privacy password for game '{status.name}' (ask its Master)")


def leave_observer_role(session: Session, status: GameStatus, password: str,
                        command: str) -> GameStatus:
    """A sender listed in the game: an observer-type player may change role with its password;
    a player of a power may not take another role."""
    sender = session.sender
    block = block_of_sender(status, sender)
    if block is None:
        return status
    if block.is_power:
        raise Refusal(f"{sender} already plays {block.name} in game '{status.name}': a map power "
                      "takes no other role (RESIGN first)")
    if not session.checked(status, own_check(block), password, command):
        raise Refusal(f"{sender} is {block.kind} {block.name} in game '{status.name}': to change "
                      "role, give that role's password")
    return seats.leave(replace(session.in_hand(), status=status), block.name, by_master=False).status


class Join(Command):
    name = "JOIN"
    help = "JOIN game password [privacyPassword], or JOIN power@game password (POWER_CHOICE)"
    stage = Stage.BEFORE
    arity, secrets = (2, 3), (2, 3)
    usage = ("JOIN takes the game (or power@game), your password and, for a private game, its "
             "privacy password")

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        power, _, game = args[0].rpartition("@")
        status = session.take_game(_game_word(game))
        refuse_closed(session, self.name)
        password = _password(args[1])
        check_privacy(session, status, args[2] if len(args) > 2 else None, self.name)
        status = leave_observer_role(session, status, password, self.name)
        session.update(status)
        outcome = seats.join_game(session.in_hand(), player_of(session), session.hashed(password),
                                  (session.sender,), power or None)
        session.keep(outcome.status, outcome.events)
        status, joined = outcome.status, outcome.joined
        lines = [f"You are now '{joined.seat}' in game '{game}'."]
        lines.append(f"{joined.remaining} position{'s' if joined.remaining != 1 else ''} left."
                     if joined.remaining else "The game is full.")
        if not status.forming:
            lines.append("The game has started: you will be told which power you play.")
        return said(*lines)


class EnterAs(Command):
    """OBSERVE name@game pw, MONITOR name@game pw, or another type the game ALLOWs (at least the
    first three letters of the type)."""

    name = "OBSERVE"
    words: ClassVar[tuple[str, ...]] = ("OBSERVE", "OBSERVER")
    help = "OBSERVE name@game password (or a type the game ALLOWs): join as a non-power"
    stage = Stage.BEFORE

    arity, secrets = (2, 3), (2, 3)
    usage = ("write the type, your name at the game and a password: OBSERVE loudMouth@coolgame "
             "myPassword")

    def __init__(self, word: str | None = None):
        self.word = word or self.name

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        if "@" not in args[0]:
            raise Refusal(self.usage)
        name, _, game = args[0].partition("@")
        status = session.take_game(_game_word(game))
        refuse_closed(session, self.word.upper())
        kind = seats.watcher_kind(status, self.word)
        password = _password(args[1])
        seats.watchable(status, game)
        if kind not in seats.NO_PRIVACY_TYPES:
            check_privacy(session, status, args[2] if len(args) > 2 else None, kind)
        session.update(leave_observer_role(session, status, password, kind))
        seats.seat_name_free(session.in_hand(), name.upper())
        outcome = seats.watch(session.in_hand(), name.upper(), kind, player_of(session),
                              session.hashed(password), (session.sender,))
        session.keep(outcome.status, outcome.events)
        return said(f"You are now {kind} '{name.upper()}' in game '{game}'.",
                    f"Sign on with SIGNON {name.lower()}@{game} and your password.")


class EnterAsMonitor(EnterAs):
    name = "MONITOR"
    words = ("MONITOR",)
    help = "MONITOR name@game password: receive the game's results (no privacy password needed)"


class Takeover(Command):
    name = "TAKEOVER"
    help = "TAKEOVER Fgame password [privacyPassword] (or france@game; master@game masterPassword)"
    stage = Stage.BEFORE
    arity, secrets = (2, 3), (2, 3)
    usage = ("TAKEOVER takes the power and game (Fgame or france@game), your password and, for a "
             "private game, its privacy password")

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        try:
            target = parse_target(args[0])
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        status = session.take_game(_game_word(target.game))
        role = role_name(status, session.map, target.who or "")
        if role == MASTER:
            return take_master(session, status, args[1])
        block = status.power(role) if role is not None else None
        if role is None or block is None or not block.is_power:
            raise Refusal(f"game '{target.game}' has no power '{target.who}' to take over")
        refuse_closed(session, self.name)
        password = _password(args[1])
        check_privacy(session, status, args[2] if len(args) > 2 else None, self.name)
        status = leave_observer_role(session, status, password, self.name)
        session.update(status)
        taken = seats.take_over(session.in_hand(), role, player_of(session),
                                session.hashed(password), (session.sender,))
        session.keep(taken.status, taken.events)
        session.role, session.level, session.target = role, Level.POWER, role
        return said(f"You have taken over {role} in game '{target.game}', and are signed on.",
                    *where_you_stand(session, role))


def where_you_stand(session: Session, power: str) -> list[str]:
    """What a new player of `power` needs first: the phase, the deadline (when one is still to
    come: a game back in play gets a fresh one, mailed to all), the power's units."""
    status = session.current()
    lines = [f"The game is in phase {phase_name(status)}."]
    moment = deadline(status, session.rules)
    if moment is not None and moment > session.now:
        lines.append(f"The deadline is {long_form(moment.astimezone(game_zone(status.zone)))}.")
    block = status.power(power)
    units = ", ".join(str(u) for u in block.units) if block is not None else ""
    lines.append(f"{power} has {units}." if units else f"{power} has no units.")
    return lines


def take_master(session: Session, status: GameStatus, given: str) -> Said:
    """TAKEOVER master@game with the current Master's password: the sender becomes the Master."""
    level = session.password_level(status, MASTER, given, "TAKEOVER")
    if level < Level.MASTER:
        raise Refusal(f"TAKEOVER: wrong password for MASTER in game '{status.name}' (the "
                      "current Master gives it to the successor)")
    outcome = seats.new_master(replace(session.in_hand(), status=status), session.sender)
    session.keep(outcome.status, outcome.events)
    session.role, session.level, session.target = MASTER, level, None
    return said(f"You are now the Master of game '{status.name}', and are signed on.",
                "Choose a password of your own with SET PASSWORD.")


class Resign(Command):
    name = "RESIGN"
    help = "RESIGN Fgame password (or france@game): leave the game, at the end of this mail"
    stage = Stage.BEFORE
    arity, secrets = (2,), (2,)
    usage = "RESIGN takes the power and game (Fgame or france@game) and the password"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        role = sign_on(session, args[0], args[1], self.name)
        if session.acting_as_master:
            raise Refusal("the Master may never RESIGN: find a replacement, give him the Master "
                          "password and let him TAKEOVER master@game")
        if session.level == Level.OMNISCIENT:
            raise Refusal("an omniscient password cannot RESIGN a power")
        session.finishers.append((f"the resignation of {role}", lambda s: finish_resign(s, role)))
        return said(f"Signed on as {role}: you will be resigned at the end of this mail, if "
                    "nothing in it goes wrong.")


def finish_resign(session: Session, role: str) -> Said:
    outcome = seats.leave(session.in_hand(), role, session.is_master)
    session.keep(outcome.status, outcome.events)
    if outcome.left is not None:
        return said(f"You have left game '{session.game}' ({outcome.left} {role}).")
    return said(f"You have resigned {role} from game '{session.game}'.")


def _game_word(name: str) -> str:
    try:
        return check_game_word(name.lower())
    except ValueError as exc:
        raise Refusal(str(exc)) from None


def _password(word: str) -> str:
    try:
        return valid_password(clean_password(word))
    except ValueError as exc:
        raise Refusal(str(exc)) from None


COMMANDS: list[type[Command]] = [Join, EnterAs, EnterAsMonitor, Takeover, Resign]
