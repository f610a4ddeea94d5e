"""PRESS and BROADCAST with TO, FAKE TO / FAKE BROADCAST, [FAKE] FROM, WHITE, GREY, QUIET; the
body up to ENDPRESS / ENDBROADCAST (either ends either) or the end of the mail; and OFFICIAL.

Every press rule is checked before anything is sent; a refused message goes nowhere and comes back
in the reply's unprocessed portion, and nobody else learns of the attempt. The Master is bound by
none of the rules. A message that passes becomes a `Press` event with its readers, and what they
are told of it, decided (`judge.game.press_routing`).
"""
from __future__ import annotations

from dataclasses import dataclass

from judge.app.game_in_hand import phase_name, phase_of
from judge.commands.auth import JUDGEKEEPER, Level, role_name
from judge.app.game_in_hand import Kind, kind_of
from judge.commands.game_queries import game_duties, in_movement, late_powers
from judge.commands.notices import Press
from judge.commands.orders import has_orders
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.game.neighbours import Seen, remote, touching
from judge.game.press_routing import route
from judge.game.visibility import seers_of, units_seen
from judge.rule_names import Rule
from judge.status.model import GameStatus
from judge.types import MASTER

END_WORDS = ("ENDPRESS", "ENDBROADCAST")
OPTION_WORDS = {"TO", "FAKE", "FROM", "WHITE", "GREY", "GRAY", "QUIET", "BROADCAST"}
MAX_OFFICIAL = 60


@dataclass(frozen=True)
class PressRequest:
    broadcast: bool
    to: tuple[str, ...] = ()
    fake_to: tuple[str, ...] | None = None
    fake_broadcast: bool = False
    claimed_from: str | None = None
    colour: str | None = None  # WHITE or GREY
    quiet: bool = False

    @property
    def faked(self) -> bool:
        return self.fake_to is not None or self.fake_broadcast or self.claimed_from is not None


# -- reading the command line ----------------------------------------------------------------------
def parse_request(words: list[str], broadcast: bool, session: Session) -> PressRequest:
    """The options after PRESS/BROADCAST (upper-case words); each option group at most once."""
    seen: set[str] = set()
    fields: dict = {}
    index = 0

    def once(group: str, word: str) -> None:
        if group in seen:
            raise Refusal(f"{word}: each press option may be given only once")
        seen.add(group)

    while index < len(words):
        word = words[index]
        if word == "TO" or word.startswith("+"):
            once("to", word)
            if broadcast:
                raise Refusal("BROADCAST goes to everyone: it takes no TO (use PRESS TO ...)")
            fields["to"], index = read_list(words, index, session)
        elif word == "FAKE":
            following = words[index + 1] if index + 1 < len(words) else ""
            if following == "FROM":
                once("from", "FAKE FROM")
                fields["claimed_from"], index = read_sender(words, index + 2, session)
                continue
            once("fake", "FAKE")
            if following == "BROADCAST":
                if broadcast:
                    raise Refusal("a BROADCAST already claims to go to everyone: FAKE BROADCAST "
                                  "is for PRESS")
                fields["fake_broadcast"], index = True, index + 2
            elif following == "TO" or following.startswith("+"):
                if not broadcast and "to" not in seen:
                    raise Refusal("FAKE TO must come after TO (PRESS TO A FAKE TO AT)")
                fields["fake_to"], index = read_list(words, index + 1, session)
            else:
                raise Refusal("FAKE is followed by TO, +, BROADCAST or FROM")
        elif word == "FROM":
            once("from", word)
            fields["claimed_from"], index = read_sender(words, index + 1, session)
        elif word in ("WHITE", "GREY", "GRAY"):
            once("from", word)
            fields["colour"], index = ("WHITE" if word == "WHITE" else "GREY"), index + 1
        elif word == "QUIET":
            once("quiet", word)
            fields["quiet"], index = True, index + 1
        else:
            raise Refusal(f"{word!r} is not a press option (TO, FAKE TO, FAKE BROADCAST, FROM, "
                          "WHITE, GREY, QUIET)")
    if not broadcast and "to" not in seen:
        raise Refusal("PRESS needs TO and the recipients (PRESS TO F); to write to everyone, "
                      "use BROADCAST")
    return PressRequest(broadcast=broadcast, **fields)


def read_list(words: list[str], index: int, session: Session) -> tuple[tuple[str, ...], int]:
    """A powerList after `TO`/`+` at `index`: `AF`, `france`, `France,Russia, austria`."""
    word = words[index]
    text = word[1:] if word.startswith("+") else ""
    index += 1
    while index < len(words) and (not text or text.endswith(",") or words[index].startswith(",")):
        if text and words[index] in OPTION_WORDS and not text.endswith(","):
            break
        text += words[index]
        index += 1
    if not text.strip(","):
        raise Refusal(f"{word} needs the recipients after it")
    return resolve_list(text, session), index


def read_sender(words: list[str], index: int, session: Session) -> tuple[str, int]:
    if index >= len(words):
        raise Refusal("FROM needs a power after it")
    names = resolve_list(words[index], session)
    if len(names) != 1:
        raise Refusal(f"FROM names one power, not {words[index]}")
    return names[0], index + 1


def resolve_list(text: str, session: Session) -> tuple[str, ...]:
    """Full names separated by commas, or one full name, or a run of initials (`FRA`, `124M`)."""
    status = session.current()
    items = [item for item in text.split(",") if item]
    if len(items) == 1 and resolve(items[0], status, session) is None and items[0].isalnum():
        initials = [resolve(letter, status, session) for letter in items[0]]
        if None in initials:
            raise Refusal(f"{items[0]!r} is not a power or player in game '{session.game}', nor "
                          "the initials of some")
        items = list(items[0])
    names: list[str] = []
    for item in items:
        name = resolve(item, status, session)
        if name is None:
            raise Refusal(f"{item!r} is not a power or player in game '{session.game}'")
        if name not in names:
            names.append(name)
    return tuple(names)


def resolve(word: str, status: GameStatus, session: Session) -> str | None:
    name = role_name(status, session.map, word)
    if name == JUDGEKEEPER:
        return None
    if name is not None and name != MASTER and status.power(name) is None:
        return None  # a map power nobody plays yet
    return name


# -- the rules ---------------------------------------------------------------------------------
def check_rules(session: Session, sender: str, request: PressRequest) -> None:
    """Refuse what the game's rules forbid; the Master may send anything."""
    status, rules = session.current(), session.rules
    kind = kind_of(status, sender)
    everyone = request.broadcast
    recipients = set(request.to)
    for name in recipients:
        if kind_of(status, name) is Kind.MONITOR:
            raise Refusal(f"{name} is a MONITOR, who receives no press")
    if request.fake_to is not None and not everyone and \
            (MASTER in recipients) != (MASTER in request.fake_to):
        raise Refusal("the Master must be among both the true and the FAKE recipients, or neither")
    if kind is Kind.MASTER:
        return
    if kind is Kind.MONITOR:
        raise Refusal("a MONITOR receives results only and may send no press")
    to_master = not everyone and recipients == {MASTER}
    if to_master:
        return
    private = not everyone
    if Rule.NO_PRESS in rules:
        raise Refusal("Private press allowed only to Master (NO_PRESS)" if private
                      else "No broadcasts in this game: press goes only to the Master (NO_PRESS)")
    # NO_PARTIAL is read as PUBLIC_PRESS with the game's rules, as DPjudge reads it, so it is never in force
    public_only = Rule.PUBLIC_PRESS in rules or status.forming or status.completed
    distance = phase_of(status) is not None and not status.completed and \
        bool({Rule.TOUCH_PRESS, Rule.REMOTE_PRESS} & rules)
    if distance:
        check_distance(session, sender, request, rules)
    elif private and public_only:
        raise Refusal("only BROADCAST and press to the Master are allowed in this game"
                      + ("" if Rule.PUBLIC_PRESS in rules else " while it is "
                         + ("forming" if status.forming else "completed")))
    if Rule.BACKSEAT_PRESS in rules:
        if kind is Kind.POWER:
            raise Refusal("map powers may send press only to the Master (BACKSEAT_PRESS)")
        if private:
            raise Refusal("only broadcasts and press to the Master (BACKSEAT_PRESS)")
    if Rule.MUTE_OBSERVERS in rules and kind is Kind.OBSERVER:
        raise Refusal("observers may send press only to the Master (MUTE_OBSERVERS)")
    late = late_powers(session)
    if Rule.FTF_PRESS in rules:
        if phase_of(status) is not None and not in_movement(status):
            raise Refusal("press only to the Master outside movement phases (FTF_PRESS)")
        if private and late:
            raise Refusal("no private press after the deadline (FTF_PRESS)")
    if kind is Kind.POWER:
        check_orders_rules(session, sender, rules, private, late)
    if private and Rule.HIDE_DUMMIES not in rules:
        for name in request.to:
            if unread_dummy(status, name, sender):
                raise Refusal(f"Press to {name} impossible (a dummy power nobody reads)")
    if private and Rule.NO_LATE_RECEIVE in rules:
        for name in request.to:
            if name in late:
                raise Refusal(f"Private press may not be sent to late power ({name})")
    check_colour(request, rules, status)


def unread_dummy(status: GameStatus, name: str, sender: str) -> bool:
    """A dummy no other power controls: DPjudge offers no press to it, unless HIDE_DUMMIES keeps
    secret which powers are dummies."""
    block = status.power(name)
    if block is None or block.player is None or not block.player.dummy:
        return False
    return not block.control or block.control[0] in (MASTER, sender)


def check_distance(session: Session, sender: str, request: PressRequest, rules: frozenset[str]
                   ) -> None:
    """TOUCH_PRESS and REMOTE_PRESS: private press only to the powers that touch the sender's (or
    that are remote from them), broadcasts only with PUBLIC_PRESS. In a BLIND game two powers
    touch only where each sees the other's unit, as DPjudge decides it."""
    rule = Rule.TOUCH_PRESS if Rule.TOUCH_PRESS in rules else Rule.REMOTE_PRESS
    if request.broadcast:
        if Rule.PUBLIC_PRESS not in rules:
            raise Refusal(f"Broadcast press not allowed ({rule})")
        return
    status = session.current()
    mine = status.power(sender)
    near = touching if rule == Rule.TOUCH_PRESS else remote
    seen = sight(session, (sender, *request.to))
    for name in request.to:
        other = status.power(name)
        if name == MASTER or name == sender:
            continue
        if mine is None or other is None or not other.is_power or \
                not near(session.map, mine, other, seen):
            raise Refusal(f"Press to {name} impossible ({rule}: "
                          + ("no unit of yours touches theirs" if rule == Rule.TOUCH_PRESS else
                             "your units or centres are too close to theirs") + ")")


def sight(session: Session, readers: tuple[str, ...]) -> Seen | None:
    """In a BLIND game, the units each reader sees now: touching powers must also see each
    other's units there."""
    if Rule.BLIND not in session.rules:
        return None
    status, m = session.current(), session.map
    seers = seers_of(status, m)
    return {name: units_seen(m, session.rules, seers, name)
            for name in readers if status.power(name) is not None}


def check_orders_rules(session: Session, sender: str, rules: frozenset[str], private: bool,
                       late: tuple[str, ...]) -> None:
    if Rule.MUST_ORDER in rules and phase_of(session.current()) is not None:
        duties = game_duties(session)
        if sender in duties.due and not has_orders(session, sender, duties):
            raise Refusal("Press disallowed before order submission (MUST_ORDER)")
    if private and sender in late and Rule.LATE_SEND not in rules:
        raise Refusal("Private press not allowed while late (your orders are overdue)")


def check_colour(request: PressRequest, rules: frozenset[str], status: GameStatus) -> None:
    fake = Rule.FAKE_PRESS in rules
    if (request.fake_to is not None or request.fake_broadcast or request.claimed_from) and not fake:
        raise Refusal("Fake press not allowed in this game")
    if request.claimed_from is not None:
        if request.claimed_from == MASTER:
            raise Refusal("press may not claim to come FROM the Master")
        if kind_of(status, request.claimed_from) is Kind.MONITOR:
            raise Refusal("press may not claim to come FROM a MONITOR")
    if request.colour == "GREY" and not ({Rule.WHITE_GREY, Rule.FAKE_PRESS, Rule.GREY_PRESS} & rules):
        raise Refusal("Grey press not allowed in this game")
    if request.colour == "WHITE" and Rule.GREY_PRESS in rules and \
            not ({Rule.WHITE_GREY, Rule.FAKE_PRESS} & rules):
        raise Refusal("White press not allowed: all press is grey in this game (GREY_PRESS)")


def read_body(cursor: Cursor) -> list[str]:
    body, _ = cursor.take_until(lambda words: bool(words) and words[0] in END_WORDS)
    while body and not body[0].strip():
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    return body


class PressCommand(Command):
    name = "PRESS"
    help = "PRESS TO powers [FAKE TO ...] [FROM p | WHITE | GREY] [QUIET], the message, ENDPRESS"
    stage = Stage.AFTER
    broadcast = False

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status = session.current()
        sender = MASTER if session.role in (MASTER, JUDGEKEEPER) else session.role
        assert sender is not None
        request = parse_request([a.upper() for a in args], self.broadcast, session)
        check_rules(session, sender, request)
        body = read_body(cursor)
        if not body:
            raise Refusal("the message is empty: nothing was sent")
        routing = route(status, session.rules, sender, None if request.broadcast else request.to,
                        fake_to=request.fake_to, fake_broadcast=request.fake_broadcast,
                        claimed_from=request.claimed_from, colour=request.colour)
        session.emit(Press(session.game or "", phase_of(status) or phase_name(status),
                           sender, routing, tuple(body), session.official))
        shown, shown_to = routing.shown_from, routing.shown_to
        where = "Broadcast sent" if request.broadcast else f"Press sent to {', '.join(request.to)}"
        how = "" if shown == sender else " anonymously" if shown is None else f" as from {shown}"
        lines = [f"{where}{how}."]
        if request.fake_to is not None or request.fake_broadcast:
            lines.append("Its readers are told it went to "
                         + ("everyone." if shown_to is None else ", ".join(shown_to) + "."))
        if request.quiet:
            return said(*lines, "(QUIET: no copy of the message in this reply.)")
        return said(*lines, quoted=body)


class BroadcastCommand(PressCommand):
    name = "BROADCAST"
    help = "BROADCAST [FAKE TO ...] [FROM p | WHITE | GREY] [QUIET], then the message, ENDBROADCAST"
    broadcast = True


class EndPress(Command):
    """ENDPRESS / ENDBROADCAST outside a message: nothing to end (DPjudge ignores them)."""

    name = "ENDPRESS"
    words = ("ENDPRESS", "ENDBROADCAST")
    help = "ENDPRESS or ENDBROADCAST: ends a press message (either ends either)"
    stage = Stage.AFTER
    level = Level.OMNISCIENT
    writes = False

    def run(self, session: Session, args: list[str], cursor: Cursor) -> None:
        return None


class Official(Command):
    name = "OFFICIAL"
    help = "OFFICIAL [subject]: later press in this mail goes with this subject and no press header"
    stage = Stage.AFTER
    level = Level.MASTER

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        subject = " ".join(args)
        if len(subject) > MAX_OFFICIAL:
            raise Refusal(f"the OFFICIAL subject is limited to {MAX_OFFICIAL} characters")
        session.official = subject or None
        if subject:
            return said(f"Press in the rest of this mail goes out as '{subject}'.")
        return said("Press in the rest of this mail goes out as usual.")


COMMANDS: list[type[Command]] = [PressCommand, BroadcastCommand, EndPress, Official]
