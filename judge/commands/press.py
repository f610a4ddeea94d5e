"""PRESS and BROADCAST with TO, FAKE TO / FAKE BROADCAST, [FAKE] FROM, WHITE, GREY, QUIET; the
body up to ENDPRESS / ENDBROADCAST (either ends either) or the end of the mail; and OFFICIAL.

The press rules are the use case's (`judge.app.press`), checked before the body is read; a refused
message goes nowhere and comes back in the reply's unprocessed portion, and nobody else learns of
the attempt. A message that passes becomes a `Press` event with its readers, and what they are
told of it, decided (`judge.game.press_routing`).
"""
from __future__ import annotations

from judge.app.game_in_hand import phase_name, phase_of
from judge.commands.auth import JUDGEKEEPER, Level, role_name
from judge.app import press
from judge.app.press import PressRequest
from judge.notices import Press
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.status.model import GameStatus
from judge.types import MASTER

END_WORDS = ("ENDPRESS", "ENDBROADCAST")
OPTION_WORDS = {"TO", "FAKE", "FROM", "WHITE", "GREY", "GRAY", "QUIET", "BROADCAST"}
MAX_OFFICIAL = 60


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
        game = session.in_hand()
        press.check(game, sender, request, session.orders)
        body = read_body(cursor)
        routing = press.routed(game, sender, request, body)
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
