"""One incoming mail -> the commands in it -> one reply and the events for everyone else.

`run_commands(session, lines)` is the core: it reads the lines in order and calls each command;
order lines are gathered until the next command (or the end of the mail) and stored then, so the
reply follows the mail's order. The first refusal (a refused order set too) stops the mail, keeping
the rest for the reply ("Unprocessed portion of message follows"). What was done before the error
stands (orders stored, press sent); a RESIGN, which waits for the end of the mail, is not done.
`run_mail` is the whole mail: the commands, what the judge does itself after them, the reply,
and the change to write, all from the games as read; it writes nothing and calls nothing back.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from difflib import get_close_matches

from judge.app.processing import guarded
from judge.commands import (
    admin,
    guide,
    info,
    master,
    morph,
    orders,
    payola,
    press,
    roles,
    setters,
    signon,
)
from judge.commands.auth import JUDGEKEEPER, overlong_addresses, parse_target, role_name
from judge.commands.change import Change, change_of
from judge.commands.registry import Command, Registry, check_use
from judge.commands.reply import Reply, Said
from judge.commands.session import Cursor, GameAccess, ReadAhead, Refusal, Session, Settings
from judge.events import PhaseResults
from judge.mailin.message import MAX_BODY_CHARS, Incoming
from judge.game.schedule import after_mail
from judge.status import write_status
from judge.types import MASTER

REGISTRY = Registry(signon.COMMANDS + roles.COMMANDS + admin.COMMANDS + info.COMMANDS
                    + press.COMMANDS + orders.COMMANDS + setters.COMMANDS + master.COMMANDS
                    + morph.COMMANDS + guide.COMMANDS + payola.COMMANDS)

EXPECTED = ("Expected SIGNON, JOIN, CREATE, PURGE, RENAME, RESIGN, TAKEOVER, SUMMARY, HISTORY or "
            "LIST, or a join command such as OBSERVE name@game password; HELP mails a guide")
# How like a command's name a line's first word must be to be read as that command misspelt.
NEAR_MISS = 0.8
HTML_NOTE = "Your mail had no plain-text part: the judge read its HTML part as text."
LONG_NOTE = f"Your mail was longer than {MAX_BODY_CHARS} characters: only its start was read."


def run_commands(session: Session, lines: tuple[str, ...], registry: Registry = REGISTRY) -> None:
    cursor = Cursor(lines)
    commands = 0
    while (line := cursor.next()) is not None:
        words = line.split()
        if not words:
            continue
        upper = [w.upper() for w in words]
        command = registry.find(upper, session.signed_on)
        echo = shown(line, session.signed_on, registry)
        commands += command is not None
        try:
            if commands > session.settings.commands_per_mail:
                raise Refusal(f"a mail may hold at most {session.settings.commands_per_mail} "
                              "commands; send the rest in another mail")
            if ends_orders(session, command, upper) and not orders.store_pending(session):
                stop(session, cursor, line)
                return
            if command is None:
                outcome = other_line(session, line.strip(), words, cursor)
            else:
                taken = next(len(k.split()) for k in command.call_words()
                             if upper[:len(k.split())] == k.split())
                check_use(command, session, words[taken:])
                outcome = command().run(session, words[taken:], cursor)
        except Refusal as refusal:
            session.results.fail(echo, refusal.reason, *refusal.details)
            stop(session, cursor)
            return
        if outcome is not None:
            session.results.add(echo, *outcome.lines, quoted=outcome.quoted,
                                document=outcome.document, picture=outcome.picture,
                                kind=command.outcome if command is not None else "")
    finish(session)


def ends_orders(session: Session, command: type[Command] | None, upper: list[str]) -> bool:
    """Whether a line ends the order lines before it (which are then stored): any command but
    CLEAR, and a line naming a power or a SET word no command knows."""
    if not session.signed_on or not session.orders:
        return False
    if command is not None:
        return command is not orders.Clear
    return upper[0] == "SET" or (len(upper) == 1 and named_power(session, upper[0]) is not None)


def named_power(session: Session, word: str) -> str | None:
    """The power a line of one word names (a switch of whose orders follow), if any."""
    named = role_name(session.current(), session.map, word) if len(word) > 1 else None
    if named in (None, MASTER, JUDGEKEEPER) or session.current().power(named or "") is None:
        return None
    return named


def other_line(session: Session, line: str, words: list[str], cursor: Cursor) -> Said | None:
    """A line no command claims: a join of another type, a power's name, or an order."""
    if not session.signed_on:
        if joins_as(words):
            entering = roles.EnterAs(words[0])
            check_use(roles.EnterAs, session, words[1:])
            return entering.run(session, words[1:], cursor)
        raise Refusal(EXPECTED)
    if words[0].upper() == "SET":
        known = sorted(k[4:] for c in REGISTRY.commands for k in c.call_words()
                       if k.startswith("SET "))
        raise Refusal(f"{' '.join(words[:2]).upper()} is not a SET command ({', '.join(known)})")
    if len(words) == 1 and (named := named_power(session, words[0])) is not None:
        return orders.switch_target(session, named)
    if (near := near_command(session, words[0])) is not None:
        raise Refusal(f"{words[0].upper()} is not a command (did you mean {near}?), nor the start "
                      "of an order")
    orders.order_line(session, line)
    return None


def near_command(session: Session, word: str) -> str | None:
    """The command a line's first word misspells (`PRES`: PRESS), when it is no word an order
    starts with (a place of the game's map)."""
    upper = word.upper()
    if upper in session.map.aliases or any(a.split()[0] == upper for a in session.map.aliases):
        return None
    names = sorted({c.name for c in REGISTRY.commands if " " not in c.name})
    found = get_close_matches(upper, names, n=1, cutoff=NEAR_MISS)
    return found[0] if found and found[0] != upper else None


def joins_as(words: list[str]) -> bool:
    """Whether a line before a SIGNON is a join of a type no command is named after
    (`OBSERVER name@game password`, an ALLOWed type)."""
    return len(words) >= 3 and "@" in words[1] and words[0].isalpha() and len(words[0]) >= 3


def shown(line: str, signed_on: bool, registry: Registry = REGISTRY) -> str:
    """`line` as the reply shows it: the password words of the command it calls masked."""
    words = line.split()
    command = registry.find([w.upper() for w in words], signed_on)
    if command is None and not signed_on and joins_as(words):
        command = roles.EnterAs
    return command.echo(line.strip()) if command is not None else line.strip()


def unprocessed(lines: list[str], registry: Registry = REGISTRY) -> list[str]:
    """The lines after a refusal as the reply shows them: nothing ran them, so whether they would
    have come before or after a SIGNON is unknown; a password word of either reading is masked."""
    return [shown(shown(line, False, registry), True, registry) for line in lines]


def finish(session: Session) -> None:
    """The end of the mail: the last orders, then what waited for the end (a RESIGN)."""
    if not orders.store_pending(session):
        dropped(session, [step for step, _ in session.finishers])
        return
    for number, (step, finisher) in enumerate(session.finishers):
        try:
            outcome = finisher(session)
        except Refusal as refusal:
            session.results.fail("", refusal.reason, *refusal.details)
            dropped(session, [step for step, _ in session.finishers[number + 1:]])
            return
        session.results.add("", *outcome.lines, quoted=outcome.quoted, document=outcome.document)


def stop(session: Session, cursor: Cursor, current: str | None = None) -> None:
    """The mail stops at a refusal: the lines not done (from `current`, the line whose orders
    before it were refused) are quoted back."""
    rest = ([current] if current is not None else []) + list(cursor.rest())
    while rest and not rest[-1].strip():
        rest.pop()
    session.results.unprocessed = unprocessed(rest)
    dropped(session, [step for step, _ in session.finishers])


def dropped(session: Session, steps: list[str]) -> None:
    """Say what waited for the end of the mail and was not done."""
    for power in session.orders:
        if power not in session.stored:
            session.results.note(f"The orders for {power} in this mail were not stored.")
    for step in steps:
        session.results.note(f"Not done, as this mail had an error: {step}.")


def judge_moves(session: Session) -> None:
    """What the judge does itself once a mail changed a game or its state (`schedule.after_mail`):
    a game back in play gets a fresh deadline, orders all in set DELAY 1 or, under REAL_TIME,
    process; a game held by its state (preparation, WAIT, TERMINATE) is left alone."""
    original = session.original
    if session.status is None or original is None or session.create or session.purge:
        return
    if session.status == original and session.standing == session.original_standing:
        return
    before = session.status  # written as the phase's snapshot only if the phase is processed
    was_held, held = session.original_standing.held, session.standing.held
    with guarded(session.game or ""):  # it may process the phase (REAL_TIME)
        events = session.live(lambda after: after_mail(original, after, session.base_map,
                                                       session.now, was_held=was_held, held=held))
    if any(isinstance(e, PhaseResults) for e in events):
        session.snapshot_text = write_status(before)


def make_reply(incoming: Incoming, session: Session) -> Reply:
    if incoming.html_only:
        session.results.notes.insert(0, HTML_NOTE)
    if incoming.truncated:
        session.results.notes.insert(0, LONG_NOTE)
    overlong = () if session.status is None else \
        overlong_addresses(session.status, session.settings.addresses_per_player)
    reply = session.results.reply((incoming.sender,), incoming.subject, session.game,
                                  signon.reply_copies(session), overlong,
                                  session.authenticated)
    return replace(reply, quoted_from=incoming.quoted_from)


def run_mail(incoming: Incoming, games: GameAccess, settings: Settings, now: datetime,
             ahead: ReadAhead | None = None) -> tuple[Reply | None, list[object], Change]:
    """Carry out one mail's commands against the games as `games` shows them (read only): the
    reply (None for mail never to be answered), the events for others, and what the mail does to
    the files, for the caller to write (`judge.runtime.inbox`). `ahead`: the game the mail takes
    and the judge-wide wrong passwords as its door read them (NotReadAhead: read more, run again)."""
    if not carried_out(incoming, settings):
        return None, [], Change()
    session = Session(incoming.sender, now, settings, games, ahead,
                      sender_authenticated=incoming.authenticated)
    run_commands(session, incoming.lines)
    judge_moves(session)
    return make_reply(incoming, session), session.events, change_of(session)


def carried_out(incoming: Incoming, settings: Settings) -> bool:
    """Whether the mail's commands are run: never for automatic mail, mail with no sender to
    answer, or the judge's own."""
    return not (incoming.automatic or not incoming.sender or incoming.sender == settings.address)


def game_signed_on(incoming: Incoming, settings: Settings, registry: Registry = REGISTRY) -> str | None:
    """The game the mail's first command takes when it is a SIGNON (`SIGNON Fgame password`), as
    SIGNON reads it: what its door reads ahead, so that the mail runs once. None when the mail
    is not run, or begins otherwise: the games it takes are asked for as it runs (NotReadAhead)."""
    if not carried_out(incoming, settings):
        return None
    words = next((line.split() for line in incoming.lines if line.split()), [])
    if registry.find([w.upper() for w in words], False) is not signon.Signon or len(words) < 2:
        return None
    try:
        return parse_target(words[1]).game
    except ValueError:
        return None
