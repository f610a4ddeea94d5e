"""SET ADDRESS, SET PASSWORD, SET WAIT / NOWAIT, SET ABSENCE, SET ZONE / NOZONE, SET DEADLINE,
SET LISTED / UNLISTED, and VOTE: what a signed-on player (or the Master) changes about itself or
the game."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from judge.commands.auth import (
    JUDGEKEEPER,
    Level,
    valid_addresses,
    valid_password,
)
from judge.commands.dates import future_deadline, parse_absence
from judge.app import deadlines, votes
from judge.app.game_in_hand import (
    GameInHand,
    game_duties,
    past_deadline,
    phase_of,
    processing,
)
from judge.commands.notices import AbsenceSet, StateChanged, ZoneChanged
from judge.commands.registry import Command
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.commands.closed_games import unkept
from judge.game.positions import alive
from judge.rule_names import Rule
from judge.status import values
from judge.status.model import Dppd, PowerStatus
from judge.status.model import Vote as Ballot
from judge.timing import game_zone, parse_timing
from judge.game.schedule import add_absence, set_zone
from judge.timing.written import day_form, long_form
from judge.types import MASTER, MOVEMENT


def own_block(session: Session, command: str) -> PowerStatus:
    """The block of the player signed on (the Master has none)."""
    block = session.current().power(session.role or "")
    if block is None:
        raise Refusal(f"{command} is for a player; the Master has no such setting")
    return block


class SetAddress(Command):
    name = "SET ADDRESS"
    help = "SET ADDRESS [address[,address...]]: where your mail goes (none: the sender's)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        limit = session.settings.addresses_per_player
        try:
            found = valid_addresses(args, limit) if args else (session.sender,)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        status = session.current()
        if session.role in (MASTER, JUDGEKEEPER):
            if session.role == JUDGEKEEPER or len(found) != 1:
                raise Refusal("the Master's mail goes to one address: SET ADDRESS one@address")
            master = status.master or Dppd("NO-ID", found[0], "")
            address = found if status.address else ()  # a DPjudge game's ADDRESS line follows
            session.update(replace(status, master=replace(master, email=found[0]), address=address))
        else:
            block = own_block(session, self.name)
            session.update(status.with_power(replace(block, address=found)))
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
        status = session.current()
        if session.role == JUDGEKEEPER:
            raise Refusal("the judgekeeper's password is set in the judge's configuration")
        password = session.hashed(password)
        if session.role == MASTER:
            session.update(replace(status, password=password))
        else:
            block = own_block(session, self.name)
            if block.control:
                raise Refusal(f"{block.name} is controlled by {block.control[0]} and has no "
                              "password of its own")
            session.update(status.with_power(replace(block, password=password)))
        return said(f"The password of {session.role} has been changed.")


class SetWait(Command):
    name = "SET WAIT"
    help = "SET WAIT: do not process before the deadline, even when all orders are in"
    wait = True

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status, rules = session.current(), session.rules
        block = own_block(session, self.name)
        phase = phase_of(status)
        if not block.is_power or phase is None:
            raise Refusal("the wait flag is for powers in a running game")
        if self.wait and Rule.REAL_TIME in rules:
            raise Refusal("a REAL_TIME game never waits for the deadline")
        if processing(status):
            raise Refusal("the judge is processing this phase")
        if past_deadline(status, rules, session.now):
            raise Refusal("the deadline has passed: the wait flag can no longer be changed")
        if not alive(block) or block.name not in game_duties(session.in_hand()).due:
            raise Refusal(f"{block.name} has no orders to give in {phase}")
        if Rule.NO_MINOR_WAIT in rules and phase.type != MOVEMENT:
            raise Refusal("the wait flag is used only in movement phases (NO_MINOR_WAIT)")
        session.update(status.with_power(replace(block, wait=self.wait)))
        return said(f"{block.name} will {'wait for the deadline' if self.wait else 'not wait'}.")


class SetNoWait(SetWait):
    name = "SET NOWAIT"
    help = "SET NOWAIT: process as soon as all orders are in"
    wait = False


class SetMap(Command):
    name = "SET MAP"
    help = "SET MAP PNG|PDF|SVG|NONE: the board's picture your results mails carry (NONE: text only)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        block = own_block(session, self.name)
        try:
            kind = values.picture_format(args)
        except ValueError:
            raise Refusal(f"SET MAP takes one of {', '.join(values.PICTURE_FORMATS)}") from None
        session.update(session.current().with_power(replace(block, picture=kind)))
        if kind == "NONE":
            return said(f"{block.name}'s results mails will carry no picture of the board.")
        return said(f"{block.name}'s results mails will carry the board as {kind}.")


class SetAbsence(Command):
    name = "SET ABSENCE"
    help = "SET ABSENCE [date] [TO date]: days on which no deadline may fall (players: 14 days)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status, rules = session.current(), session.rules
        master = session.is_master
        if Rule.NO_ABSENCES in rules and not master:
            raise Refusal("only the Master sets absences in this game (NO_ABSENCES)")
        if status.completed:
            raise Refusal("the game is over")
        try:
            absence = parse_absence(args, session.now, status.zone)
            today = session.now.astimezone(game_zone(status.zone)).date()
            if not master and absence.days(today) > session.settings.max_absence_days:
                raise Refusal(f"only the Master may set an absence longer than "
                              f"{session.settings.max_absence_days} days")
            session.update(add_absence(status, *absence.stamps(), session.now))
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        who = session.role or MASTER
        session.emit(AbsenceSet(session.game or "", absence.first, absence.last, absence.timed,
                                None if Rule.HIDE_ABSENTEES in rules else who, who,
                                Rule.SILENT_ABSENCES in rules))
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
        status = session.current()
        zone = args[0] if len(args) == 1 and self.name == "SET ZONE" else None
        if self.name == "SET ZONE" and len(args) != 1:
            raise Refusal("SET ZONE takes one zone name, such as Europe/Paris")
        if not session.is_master:
            raise unkept("players' own time zones", f"keep one: times are given in the game's "
                         f"zone, {status.zone or 'GMT'}")
        try:
            status = set_zone(status, zone)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        session.update(status)
        session.emit(ZoneChanged(session.game or "", status.zone))
        return said(f"The game's time zone is now {status.zone or 'GMT'}.")


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
        if session.standing.listed == self.listed:
            return said(f"Game '{session.game}' is already {word}.")
        session.standing = replace(session.standing, listed=self.listed)
        session.emit(StateChanged(session.game or "", word))
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


def vote_meaning(words: list[str], rules: frozenset[str]) -> tuple[str, ...]:
    """What a LOSS vote agrees to, which depends on the game's draw rule."""
    if words != ["LOSS"] or Rule.PROPOSE_DIAS in rules:
        return ()
    if Rule.NO_DIAS in rules:
        return (("It agrees to any result without your power: a draw of the others, or a "
                 "concession to one of them (NO_DIAS)."),)
    return (("A draw here includes every surviving power (DIAS), yours too: this vote agrees to "
             "such a draw, or to a concession to a power voting SOLO."),)


def vote_forms(written: str, rules: frozenset[str]) -> tuple[str, str]:
    """The refusal of a vote the judge cannot read: the forms it reads, with examples."""
    forms = "VOTE 3WAY (a draw of at most three powers), VOTE SOLO, VOTE LOSS or VOTE NONE"
    if Rule.PROPOSE_DIAS in rules:
        forms += "; or VOTE PROPOSE DIAS, VOTE PROPOSE power, VOTE YES, VOTE NO"
    return f"{written} is not a vote this judge reads", f"Write {forms}."


COMMANDS: list[type[Command]] = [SetAddress, SetPassword, SetWait, SetNoWait, SetMap, SetAbsence, SetZone,
                                 SetNoZone, SetDeadline, SetListed, SetUnlisted, Vote]
