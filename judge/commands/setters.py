"""SET ADDRESS, SET PASSWORD, SET WAIT / NOWAIT, SET ABSENCE, SET ZONE / NOZONE, SET DEADLINE,
SET LISTED / UNLISTED, and VOTE: what a signed-on player (or the Master) changes about itself or
the game."""
from __future__ import annotations

from datetime import datetime

from judge.commands.auth import (
    Level,
    valid_addresses,
    valid_password,
)
from judge.commands.dates import future_deadline, parse_absence
from judge.app import deadlines, game_settings, seat_settings, votes
from judge.app.game_in_hand import GameInHand
from judge.commands.registry import Command
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.rule_names import Rule, Rules
from judge.status import values
from judge.status.model import Vote as Ballot
from judge.timing import game_zone, parse_timing
from judge.timing.written import day_form, long_form
from judge.types import MASTER


class SetAddress(Command):
    name = "SET ADDRESS"
    help = "SET ADDRESS [address[,address...]]: where your mail goes (none: the sender's)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        limit = session.settings.addresses_per_player
        try:
            found = valid_addresses(args, limit) if args else (session.sender,)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        outcome = seat_settings.set_address(session.in_hand(), session.role or "", found)
        session.keep(outcome.status, outcome.events)
        return said(f"Mail for {session.role} now goes to {', '.join(found)}.")


class SetPassword(Command):
    name = "SET PASSWORD"
    help = "SET PASSWORD new: change your password (players, observers and the Master)"
    arity, secrets = (1,), (2,)
    usage = "SET PASSWORD takes one word, the new password"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        try:
            password = valid_password(args[0])
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        role = session.role or ""
        seat_settings.password_settable(role)
        outcome = seat_settings.set_password(session.in_hand(), role, session.hashed(password))
        session.keep(outcome.status, outcome.events)
        return said(f"The password of {session.role} has been changed.")


class SetWait(Command):
    name = "SET WAIT"
    help = "SET WAIT: do not process before the deadline, even when all orders are in"
    wait = True

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        role = session.role or ""
        outcome = seat_settings.set_wait(session.in_hand(), role, self.wait)
        session.keep(outcome.status, outcome.events)
        return said(f"{role} will {'wait for the deadline' if self.wait else 'not wait'}.")


class SetNoWait(SetWait):
    name = "SET NOWAIT"
    help = "SET NOWAIT: process as soon as all orders are in"
    wait = False


class SetMap(Command):
    name = "SET MAP"
    help = "SET MAP PNG|PDF|SVG|NONE: the board's picture your results mails carry (NONE: text only)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        role = session.role or ""
        outcome = seat_settings.set_picture(session.in_hand(), role, args)
        session.keep(outcome.status, outcome.events)
        block = outcome.status.power(role)
        kind = block.picture if block is not None else None
        if kind == "NONE":
            return said(f"{role}'s results mails will carry no picture of the board.")
        return said(f"{role}'s results mails will carry the board as {kind}.")


class SetAbsence(Command):
    name = "SET ABSENCE"
    help = "SET ABSENCE [date] [TO date]: days on which no deadline may fall (players: 14 days)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        game, master = session.in_hand(), session.is_master
        game_settings.absence_settable(game, master)
        try:
            absence = parse_absence(args, session.now, game.status.zone)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        outcome = game_settings.set_absence(game, master, absence, session.settings.max_absence_days,
                                            session.role or MASTER)
        session.keep(outcome.status, outcome.events)
        span = f"{_day(absence.first)} to {_day(absence.last)}" if absence.first and \
            absence.first != absence.last else f"until {_day(absence.last)}" \
            if absence.first is None else _day(absence.last)
        return said(f"No deadline will be set {'on' if absence.first == absence.last else 'from'} "
                    f"{span}.")


def _day(moment: datetime | None) -> str:
    if moment is None:
        return "now"
    return long_form(moment) if moment.hour or moment.minute else day_form(moment)


class SetZone(Command):
    name = "SET ZONE"
    help = "SET ZONE Europe/Paris (the Master: the game's time zone)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        zone = args[0] if len(args) == 1 and self.name == "SET ZONE" else None
        if self.name == "SET ZONE" and len(args) != 1:
            raise Refusal("SET ZONE takes one zone name, such as Europe/Paris")
        outcome = game_settings.set_game_zone(session.in_hand(), session.is_master, zone)
        session.keep(outcome.status, outcome.events)
        return said(f"The game's time zone is now {outcome.status.zone or 'GMT'}.")


class SetNoZone(SetZone):
    name = "SET NOZONE"
    help = "SET NOZONE (the Master: the game runs on GMT)"


class SetDeadline(Command):
    name = "SET DEADLINE"
    help = "SET DEADLINE [weekday] [day [month [year]]] [hh:mm] (Master; PLAYER_DEADLINES: later)"
    level = Level.POWER

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        game, actor, master = session.in_hand(), session.role or "", session.is_master
        deadlines.settable(game, actor, master)
        status = game.status
        try:
            timing = parse_timing(status.timing or "")
            moment = future_deadline(args, session.now, status.zone,
                                     timing.at[0] if timing.at else None)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        outcome = deadlines.set_to(game, session.base_map, actor, master, moment)
        session.keep(outcome.status, outcome.events)
        shown = moment.astimezone(game_zone(status.zone))
        return said(f"The deadline is now {long_form(shown)}.")


class SetListed(Command):
    name = "SET LISTED"
    help = "SET LISTED / SET UNLISTED: whether the game shows in LIST (the Master)"
    level = Level.MASTER
    arity, usage = (0,), "SET LISTED and SET UNLISTED take nothing after them"
    listed = True

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        word = "listed" if self.listed else "unlisted"
        outcome = game_settings.listing(session.game or "", session.standing, self.listed)
        if outcome is None:
            return said(f"Game '{session.game}' is already {word}.")
        session.standing = outcome.standing
        session.emit(*outcome.events)
        return said(f"Game '{session.game}' is {word}: " + (
            "it shows in LIST." if self.listed else
            "LIST does not show it; players need its name to JOIN or ask for it."))


class SetUnlisted(SetListed):
    name = "SET UNLISTED"
    listed = False


class Vote(Command):
    name = "VOTE"
    help = "VOTE SOLO | LOSS | nWAY | NONE (PROPOSE_DIAS: YES | NO | PROPOSE DIAS | PROPOSE power)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        game, power = session.in_hand(), session.role or ""
        words = [a.upper() for a in args]
        if words[:1] == ["PROPOSE"] and len(words) == 2:
            outcome = votes.proposal(game, power, words[1])
        else:
            outcome = votes.vote(game, power, vote_choice(game, power, words))
        session.keep(outcome.status, outcome.events)
        if outcome.ended:
            return said("Your vote is recorded, and it ends the game.")
        return said(f"The vote of {power} is now {' '.join(words)}.",
                    *vote_meaning(words, game.rules))


def vote_choice(game: GameInHand, power: str, words: list[str]) -> Ballot | None:
    """The vote the words say (NONE, NO or VETO: none); a refusal with the forms read."""
    votes.voter(game, power)  # a seat that has no vote hears that first
    try:
        return None if words in (["NONE"], ["NO"], ["VETO"]) else values.vote(words)
    except ValueError:
        raise Refusal(*vote_forms(" ".join(["VOTE", *words]), game.rules)) from None


def vote_meaning(words: list[str], rules: Rules) -> tuple[str, ...]:
    """What a LOSS vote agrees to, which depends on the game's draw rule."""
    if words != ["LOSS"] or Rule.PROPOSE_DIAS in rules:
        return ()
    if Rule.NO_DIAS in rules:
        return (("It agrees to any result without your power: a draw of the others, or a "
                 "concession to one of them (NO_DIAS)."),)
    return (("A draw here includes every surviving power (DIAS), yours too: this vote agrees to "
             "such a draw, or to a concession to a power voting SOLO."),)


def vote_forms(written: str, rules: Rules) -> tuple[str, str]:
    """The refusal of a vote the judge cannot read: the forms it reads, with examples."""
    forms = "VOTE 3WAY (a draw of at most three powers), VOTE SOLO, VOTE LOSS or VOTE NONE"
    if Rule.PROPOSE_DIAS in rules:
        forms += "; or VOTE PROPOSE DIAS, VOTE PROPOSE power, VOTE YES, VOTE NO"
    return f"{written} is not a vote this judge reads", f"Write {forms}."


COMMANDS: list[type[Command]] = [SetAddress, SetPassword, SetWait, SetNoWait, SetMap, SetAbsence, SetZone,
                                 SetNoZone, SetDeadline, SetListed, SetUnlisted, Vote]
